"""The municipality as its documents print it, and the settings an administrator changes on the
Municipality screen (Administration → Municipality).

- Printed fields: the name, the letterhead lines (the first printed bold), the address, the
  building inspector's name and title, the treasurer's name, the logo and the signature. Every
  change to one of them adds a `LetterheadVersion` from that moment on; a document dated
  earlier reprints with the version then in force, so nothing already issued silently changes.
- Images (`MunicipalityImage`) are never changed or deleted: a new upload is a new row, and
  the versions that used the old one keep pointing at it. PNG or JPEG only, recognised by their
  first bytes (not the file name), at most 1 MB; desk.pictures then decodes it whole (at most
  25 megapixels) before it is stored.
- Settings kept in `Municipality.settings` (the profile JSON):
  - `settings["cashiering"][...]`: desk.domain.cashiering.SETTING_KEYS (refunds, NSF charge);
  - `settings["licensing"]["vacate_days"]`: Hudson ch. 140 C, 60 days when not set;
  - `settings["fee_schedule_date"]`: "application" (default) or "issue": which date picks the
    fee schedule version a permit is priced with (desk.services.fees.pricing_date);
  - `settings["reports"]["c404_high_value"]`: Census Form C-404 lists each permit at or above
    this valuation on its own (desk.domain.reports.DEFAULT_HIGH_VALUE when not set);
  - `settings["deposits"]["refund_order_role"]`: the role that orders a street deposit
    returned for the City Engineer (Glendale 15.1.43), "engineer" when not set
    (desk.domain.sureties.refund_order_role);
  - `settings["security"]["idle_lock_minutes"]`: minutes without keyboard or mouse before a
    workstation's window locks behind the sign-in dialog (IDLE_LOCK_MINUTES when not set; 0:
    never);
  - `settings["backups"]`: the backup folder, how many automatic backups are kept, when the
    last is overdue, and the last backup made (desk/domain/backups.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from desk.domain.model import Municipality
from desk.errors import ValidationError

# The first version of a municipality is in force from here on: documents dated before the app
# was installed (imported permits reprinted later) print with the municipality as first set up,
# exactly as the 0012 migration's backfill does.
FIRST_VERSION_FROM = datetime(1900, 1, 1, tzinfo=UTC)

MAX_IMAGE_BYTES = 1024 * 1024  # 1 MB: a letterhead logo or a scanned signature, not a photo
MAX_LETTERHEAD_LINES = 6
MAX_NAME = 200
MAX_ADDRESS = 500
PNG = "image/png"
JPEG = "image/jpeg"
_MAGIC = ((b"\x89PNG\r\n\x1a\n", PNG), (b"\xff\xd8\xff", JPEG))

FEE_DATE_CHOICES = ("application", "issue")
MAX_C404_THRESHOLD = Decimal(1_000_000_000)
SECURITY_KEY = "security"
IDLE_LOCK_SETTING = "idle_lock_minutes"
IDLE_LOCK_MINUTES = 15  # a counter PC left signed in locks after a quarter of an hour
MAX_IDLE_LOCK_MINUTES = 24 * 60


class ImageKind(StrEnum):
    LOGO = "logo"
    SIGNATURE = "signature"

    @property
    def label(self) -> str:
        return "Logo" if self is ImageKind.LOGO else "Signature"

    @property
    def column(self) -> str:
        """The Municipality (and LetterheadVersion) field that points at the image."""
        return f"{self.value}_image_id"


@dataclass(eq=False, kw_only=True)
class MunicipalityImage:
    """A logo or a signature as uploaded; never changed once stored."""

    municipality_id: int
    kind: str  # ImageKind value
    media_type: str
    content: bytes
    added_at: datetime
    added_by_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class LetterheadVersion:
    """The municipality as its documents print it from `effective_at` on."""

    municipality_id: int
    effective_at: datetime
    name: str
    letterhead: list[str] = field(default_factory=list)
    address: str = ""
    inspector_name: str = ""
    inspector_title: str = ""
    treasurer_name: str = ""
    logo_image_id: int | None = None
    signature_image_id: int | None = None
    id: int | None = None


# The words a document prints, as the Municipality screen edits them.
PRINTED_TEXT_FIELDS = (
    "name",
    "letterhead",
    "address",
    "inspector_name",
    "inspector_title",
    "treasurer_name",
)
# The Municipality fields a document prints; changing one starts a new letterhead version.
PRINTED_FIELDS = (
    *PRINTED_TEXT_FIELDS,
    "logo_image_id",
    "signature_image_id",
)

# Field → the label the screen shows; a ValidationError names the field by its label.
LABELS = {
    "name": "Name",
    "letterhead": "Letterhead",
    "address": "Address",
    "inspector_name": "Building inspector's name",
    "inspector_title": "Building inspector's title",
    "treasurer_name": "Treasurer's name",
    "fees_due_section": "Fees-due section",
    "no_refund_once_issued": "No refund once issued",
    "plumbing_clerical": "Plumbing clerical charge",
    "withdrawn_refund": "Refund when withdrawn",
    "denied_refund": "Refund when denied",
    "nsf_charge": "NSF charge",
    "admin_cost_account": "Administrative cost account",
    "vacate_days": "Vacate period",
    "fee_schedule_date": "Fee schedule date",
    "c404_high_value": "C-404 high-value threshold",
    "kind": "Kind",
    "county": "County",
    "placename": "PLACENAME",
    "housing_code": "Housing code",
    "office_open_saturdays": "Office open on Saturdays",
    IDLE_LOCK_SETTING: "Lock after idle",
    "refund_order_role": "Orders deposit refunds",
}


def version_of(muni: Municipality, effective_at: datetime) -> LetterheadVersion:
    """The municipality's printed fields as they are now, in force from `effective_at`."""
    assert muni.id is not None
    return LetterheadVersion(
        municipality_id=muni.id,
        effective_at=effective_at,
        name=muni.name,
        letterhead=list(muni.letterhead or []),
        address=muni.address or "",
        inspector_name=muni.inspector_name or "",
        inspector_title=muni.inspector_title or "",
        treasurer_name=muni.treasurer_name or "",
        logo_image_id=muni.logo_image_id,
        signature_image_id=muni.signature_image_id,
    )


# --- checking what an administrator typed ------------------------------------------------------


def _one_line(key: str, value: Any, *, required: bool = False, limit: int = MAX_NAME) -> str:
    text = " ".join(str(value or "").split())
    if required and not text:
        raise ValidationError(LABELS[key], "enter it; every document prints it")
    if len(text) > limit:
        raise ValidationError(LABELS[key], f"at most {limit} characters")
    return text


def check_printed(key: str, value: Any) -> Any:
    """The value to store for a printed text field, or a ValidationError naming it."""
    if key == "name":
        return _one_line(key, value, required=True)
    if key == "inspector_title":
        return _one_line(key, value, required=True)
    if key in ("inspector_name", "treasurer_name"):
        return _one_line(key, value)
    if key == "letterhead":
        raw = value.splitlines() if isinstance(value, str) else list(value or [])
        lines = [" ".join(str(x).split()) for x in raw]
        lines = [x for x in lines if x]
        if len(lines) > MAX_LETTERHEAD_LINES:
            raise ValidationError(
                LABELS[key], f"at most {MAX_LETTERHEAD_LINES} lines fit above a document"
            )
        for line in lines:
            if len(line) > MAX_NAME:
                raise ValidationError(LABELS[key], f"a line has more than {MAX_NAME} characters")
        return lines
    if key == "address":
        # Several lines (street, city and ZIP); blank lines dropped.
        lines = [" ".join(x.split()) for x in str(value or "").splitlines()]
        text = "\n".join(x for x in lines if x)
        if len(text) > MAX_ADDRESS:
            raise ValidationError(LABELS[key], f"at most {MAX_ADDRESS} characters")
        return text
    raise ValidationError(key, "is not a printed field")


def check_fee_schedule_date(value: Any) -> str:
    text = str(value or "").strip().lower()
    if text not in FEE_DATE_CHOICES:
        raise ValidationError(
            LABELS["fee_schedule_date"], f"'{value}' is not one of: {', '.join(FEE_DATE_CHOICES)}"
        )
    return text


def check_c404_threshold(value: Any) -> Decimal:
    """Whole dollars above zero (Form C-404 reports valuations in whole dollars)."""
    label = LABELS["c404_high_value"]
    text = str(value if value is not None else "").replace(",", "").replace("$", "").strip()
    if not text:
        raise ValidationError(label, "enter an amount in whole dollars")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ValidationError(label, f"'{value}' is not an amount of money") from None
    if not amount.is_finite() or amount <= 0:
        raise ValidationError(label, "must be more than $0")
    if amount != amount.to_integral_value():
        raise ValidationError(label, "whole dollars: Form C-404 reports no cents")
    if amount > MAX_C404_THRESHOLD:
        raise ValidationError(label, "is more than any permit's valuation")
    return amount.quantize(Decimal(1))


def idle_lock_minutes(settings: Mapping[str, Any] | None) -> int:
    """Minutes without input before the window locks (0: never); the default when unset."""
    section = (settings or {}).get(SECURITY_KEY)
    raw = section.get(IDLE_LOCK_SETTING) if isinstance(section, Mapping) else None
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MAX_IDLE_LOCK_MINUTES:
        return raw
    return IDLE_LOCK_MINUTES


def check_idle_lock_minutes(value: Any) -> int:
    """Whole minutes from 0 (never) to a day."""
    label = LABELS[IDLE_LOCK_SETTING]
    text = str(value if value is not None else "").strip()
    try:
        minutes = int(text)
    except ValueError:
        raise ValidationError(label, f"'{value}' is not a number of minutes") from None
    if not 0 <= minutes <= MAX_IDLE_LOCK_MINUTES:
        raise ValidationError(
            label, f"enter minutes from 1 to {MAX_IDLE_LOCK_MINUTES}, or 0 for never"
        )
    return minutes


def image_media_type(kind: ImageKind, content: bytes) -> str:
    """PNG or JPEG, told by the file's first bytes; a ValidationError names the image. Only
    what the file claims to be: desk.pictures.read_picture decodes it."""
    if not content:
        raise ValidationError(kind.label, "the file is empty")
    if len(content) > MAX_IMAGE_BYTES:
        raise ValidationError(
            kind.label,
            f"the file is {len(content):,} bytes; at most 1 MB ({MAX_IMAGE_BYTES:,} bytes)",
        )
    for magic, media_type in _MAGIC:
        if content.startswith(magic):
            return media_type
    raise ValidationError(kind.label, "the file is not a PNG or JPEG image")
