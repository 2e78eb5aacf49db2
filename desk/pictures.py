"""The logo and the signature a municipality prints, decoded when they are chosen.

The first bytes only say what a file claims to be: a PNG header over garbage, or a web page
behind a JPEG header, would be stored and then silently left off every printout. So the
picture is decoded whole, as the printouts decode it, after its size in pixels (read from the
header, before anything is decoded) is checked against MAX_PIXELS: a small file can promise a
picture that takes gigabytes to decode (a "decompression bomb").
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from PIL import ImageFile, JpegImagePlugin, PngImagePlugin

from desk.domain.municipality import JPEG, ImageKind, image_media_type
from desk.errors import ValidationError

# A letterhead logo or a signature scan needs far less (a 600 dpi scan of a whole 3 × 5 inch
# card is 5.4 megapixels); 25 megapixels decode to about 100 MB.
MAX_PIXELS = 25_000_000
UNREADABLE = "the file is not a PNG or JPEG picture that can be read"


@dataclass(frozen=True)
class Picture:
    media_type: str
    width: int
    height: int


class _Unreadable(Exception):
    """`message` for the one choosing the picture; `reason`, shorter, for a stored one."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.message, self.reason = message, reason


def _decode(media_type: str, content: bytes) -> tuple[int, int]:
    """Decode `content` whole; its (width, height), or _Unreadable."""
    # The plugin's own class reads the header without Pillow's global decompression-bomb
    # check, so the limit (and its message) are ours, checked before decoding.
    opener = JpegImagePlugin.JpegImageFile if media_type == JPEG else PngImagePlugin.PngImageFile
    try:
        image: ImageFile.ImageFile = opener(BytesIO(content))
    except Exception:  # SyntaxError, OSError, struct.error...: whatever the header is, not this
        reason = "what follows its first bytes is not a picture"
        raise _Unreadable(f"{UNREADABLE} ({reason})", reason) from None
    with image:
        width, height = image.size
        if width <= 0 or height <= 0:
            raise _Unreadable(f"{UNREADABLE} (it has no pixels)", "it has no pixels")
        if width * height > MAX_PIXELS:
            size, mega = f"{width:,} × {height:,} pixels", MAX_PIXELS // 1_000_000
            raise _Unreadable(
                f"the picture is {size}; use one of at most {mega} megapixels "
                f"({MAX_PIXELS:,} pixels)",
                f"it is {size}, more than {mega} megapixels",
            )
        try:
            image.load()
        except Exception:  # a truncated or damaged picture fails here, as it would printing
            reason = "it is damaged or cut short"
            raise _Unreadable(f"{UNREADABLE} ({reason})", reason) from None
    return width, height


def read_picture(kind: ImageKind, content: bytes) -> Picture:
    """The picture `content` holds, decoded; a ValidationError naming the logo or the signature
    when it is not one the documents can print (too big, not a picture, damaged)."""
    media_type = image_media_type(kind, content)  # the 1 MB limit and the first bytes
    try:
        width, height = _decode(media_type, content)
    except _Unreadable as e:
        raise ValidationError(kind.label, e.message) from None
    return Picture(media_type, width, height)


def picture_problem(content: bytes) -> str | None:
    """Why a stored logo or signature cannot be printed, in a few words ("it is damaged or cut
    short"), or None when it can."""
    try:
        media_type = image_media_type(ImageKind.LOGO, content)  # the words name no field
    except ValidationError as e:
        return e.message
    try:
        _decode(media_type, content)
    except _Unreadable as e:
        return e.reason
    return None
