"""The municipality's logo and the inspector's signature are decoded when chosen: a
decompression bomb, a PNG header over garbage or a web page behind a JPEG header is refused in
words naming the picture, and one stored before that check is named on the Municipality screen
and in the log instead of silently missing from every printout."""

from __future__ import annotations

import logging
import struct
import zlib
from datetime import UTC, date, datetime
from io import BytesIO

import pytest
from PIL import Image
from sqlalchemy import insert, select, update

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.errors import ValidationError
from desk.services import municipality as svc
from reports.common import image_flowable
from tests.factories import Register, seed_register
from ui.presenters.municipality import MunicipalityPresenter

UNREADABLE = "the file is not a PNG or JPEG picture that can be read"


def picture(kind: str, size: tuple[int, int] = (120, 60)) -> bytes:
    """A real picture, as a scanner or a drawing program writes it."""
    out = BytesIO()
    Image.new("RGB", size, (30, 80, 160)).save(out, kind)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header promises width × height 1-bit pixels over a few bytes of data: what a
    decompression bomb looks like before it is decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


PNG_OVER_GARBAGE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
HTML_AS_JPEG = b"\xff\xd8\xff" + b"<html><body><script>alert(1)</script></body></html>"
CUT_SHORT = picture("JPEG", (400, 300))[:700]


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(date(2026, 3, 2))


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def _choose(database: Database, clock: FixedClock, reg: Register, kind: str, data: bytes) -> None:
    svc.update_municipality(database.uow(), clock, reg.admin, reg.municipality_id, {kind: data})


def _image_rows(database: Database) -> int:
    with database.read() as conn:
        return len(conn.execute(select(schema.municipality_image.c.id)).all())


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        (
            "logo",
            PNG_OVER_GARBAGE,
            f"Logo: {UNREADABLE} (what follows its first bytes is not a picture)",
        ),
        (
            "signature",
            HTML_AS_JPEG,
            f"Signature: {UNREADABLE} (what follows its first bytes is not a picture)",
        ),
        ("logo", CUT_SHORT, f"Logo: {UNREADABLE} (it is damaged or cut short)"),
        (
            "signature",
            png_claiming(20_000, 20_000),
            "Signature: the picture is 20,000 × 20,000 pixels; use one of at most 25 megapixels "
            "(25,000,000 pixels)",
        ),
    ],
    ids=["png-header-over-garbage", "html-behind-jpeg-header", "cut-short", "20000x20000"],
)
def test_a_file_that_is_no_printable_picture_is_refused_naming_it(
    database: Database, clock: FixedClock, reg: Register, kind: str, data: bytes, message: str
) -> None:
    with pytest.raises(ValidationError) as e:
        _choose(database, clock, reg, kind, data)
    assert str(e.value) == message
    assert _image_rows(database) == 0
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert (shown.logo, shown.signature) == (None, None)
    # The screen refuses it when chosen, in the same words, before Save.
    p = MunicipalityPresenter(database.uow, clock, reg.admin, reg.municipality_id)
    p.load()
    assert p.choose_image(kind, data, "scan.png") is False
    assert p.error == message
    assert p.images == {}


def test_a_picture_just_under_the_limit_is_not_refused_for_its_size(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    # 5,000 × 5,000 = 25,000,000 pixels: at the limit, so it is decoded (and its few bytes of
    # data are found to be short of what the header promises).
    with pytest.raises(ValidationError) as e:
        _choose(database, clock, reg, "logo", png_claiming(5_000, 5_000))
    assert str(e.value) == f"Logo: {UNREADABLE} (it is damaged or cut short)"


def test_a_real_png_and_a_real_jpeg_are_stored_and_shown(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    logo, signature = picture("PNG"), picture("JPEG", (300, 80))
    _choose(database, clock, reg, "logo", logo)
    _choose(database, clock, reg, "signature", signature)
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert shown.logo is not None and shown.signature is not None
    assert (shown.logo.media_type, shown.logo.content, shown.logo.problem) == (
        "image/png",
        logo,
        "",
    )
    assert (shown.signature.media_type, shown.signature.problem) == ("image/jpeg", "")
    p = MunicipalityPresenter(database.uow, clock, reg.admin, reg.municipality_id)
    p.load()
    assert p.image_text("logo") == f"PNG image, {len(logo):,} bytes."
    assert p.image_text("signature") == f"JPEG image, {len(signature):,} bytes."
    assert image_flowable(logo, 50, 200) is not None


def test_a_stored_logo_that_cannot_be_read_is_named_on_the_screen_and_in_the_log(
    database: Database, clock: FixedClock, reg: Register, caplog: pytest.LogCaptureFixture
) -> None:
    # Stored before pictures were decoded when chosen: first bytes of a PNG, nothing after.
    with database.engine.begin() as conn:
        image_id = conn.execute(
            insert(schema.municipality_image)
            .values(
                municipality_id=reg.municipality_id,
                kind="logo",
                media_type="image/png",
                content=PNG_OVER_GARBAGE,
                added_at=datetime(2026, 3, 1, tzinfo=UTC),
            )
            .returning(schema.municipality_image.c.id)
        ).scalar_one()
        m = schema.municipality
        conn.execute(update(m).where(m.c.id == reg.municipality_id).values(logo_image_id=image_id))
    p = MunicipalityPresenter(database.uow, clock, reg.admin, reg.municipality_id)
    p.load()
    assert p.image_text("logo") == (
        "The stored logo cannot be read (what follows its first bytes is not a picture); "
        "documents print without it: choose it again."
    )
    with caplog.at_level(logging.WARNING, logger="reports.common"):
        assert image_flowable(PNG_OVER_GARBAGE, 50, 200) is None
        assert image_flowable(png_claiming(20_000, 20_000), 50, 200) is None
    assert [r.getMessage() for r in caplog.records] == [
        "a logo or signature cannot be read (what follows its first bytes is not a picture); "
        "printing without it",
        "a logo or signature cannot be read (it is 20,000 × 20,000 pixels, more than "
        "25 megapixels); printing without it",
    ]
    # Choosing a good one again puts it right.
    _choose(database, clock, reg, "logo", picture("PNG"))
    p.load()
    assert p.image_text("logo").startswith("PNG image, ")
