"""Administration → Municipality, without Qt: the form's values as typed, what changed since the
last load (the dirty flag), the error to show and the field it names. The service checks again
and is the gate; the form only turns text into the values it takes (money to Decimal)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from desk.clock import Clock
from desk.domain.backups import LABELS as BACKUP_LABELS
from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.domain.municipality import LABELS, PRINTED_TEXT_FIELDS, ImageKind
from desk.enforcement.procedure import DAYS_SETTING, Period, procedure_of_code
from desk.errors import DeskError, StaleEdit, ValidationError
from desk.money import parse_money
from desk.pictures import read_picture
from desk.services import municipality as svc
from desk.services.setup import PERMIT_ORDINANCES
from desk.services.uow import UnitOfWork
from ui.presenters.formatting import format_date
from ui.presenters.new_municipality import housing_code_choices

# The text fields of the form, in the order of the screen (tab order follows it).
TEXT_FIELDS = (
    *PRINTED_TEXT_FIELDS,
    "fees_due_section",
    "plumbing_clerical",
    "withdrawn_refund",
    "denied_refund",
    "nsf_charge",
    "admin_cost_account",
    "vacate_days",
    "c404_high_value",
    "placename",
    "idle_lock_minutes",
    *BACKUP_LABELS,
)
FLAG_FIELDS = ("no_refund_once_issued", "office_open_saturdays")
CHOICE_FIELDS = ("fee_schedule_date", "kind", "county", "housing_code", "refund_order_role")
IMAGE_FIELDS = ("logo", "signature")
FIELD_ORDER = (
    "name",
    "letterhead",
    "address",
    "inspector_name",
    "inspector_title",
    "signature",
    "treasurer_name",
    "logo",
    "fees_due_section",
    "no_refund_once_issued",
    "plumbing_clerical",
    "withdrawn_refund",
    "denied_refund",
    "nsf_charge",
    "admin_cost_account",
    "refund_order_role",
    "vacate_days",
    "fee_schedule_date",
    "c404_high_value",
    "kind",
    "county",
    "placename",
    "housing_code",
    "office_open_saturdays",
    "idle_lock_minutes",
    *BACKUP_LABELS,
)
MONEY_FIELDS = ("plumbing_clerical", "nsf_charge")
FEE_DATES = (("application", "The application date"), ("issue", "The issue date"))
# Who may act for the City Engineer on street deposit refunds (15.1.43): any role.
REFUND_ORDER_ROLES = tuple(
    (r.value, "The engineer (City Engineer)" if r is Role.ENGINEER else f"The {r.value}")
    for r in Role
)

# What each setting does, and where the rule comes from (shown under the field).
HELP = {
    # Written for any permit ordinance: each municipality's screen cites only its own.
    "fees_due_section": "Cited when a permit cannot be issued before its fees are paid: the "
    "section of the ordinance that says fees are paid at issuance.",
    "no_refund_once_issued": "No fees are refunded once the permit is issued, where the "
    "ordinance says so.",
    "plumbing_clerical": "Kept for clerical expense when a plumbing permit is voided at the "
    "plumber's request before any inspection, where the ordinance keeps such a fee. Empty: no "
    "such rule.",
    "withdrawn_refund": "An application withdrawn before issuance: full, none, or less N "
    "(N dollars kept). The ordinances say nothing; full unless the Council decides.",
    "denied_refund": "An application denied before issuance: full, none, or less N.",
    "nsf_charge": "Added to the permit when a check comes back unpaid; 0.00 for none. Neither "
    "ordinance sets one; the Council may.",
    "admin_cost_account": "A GL account number books each fee's administrative cost (the "
    "percentage the fee schedule adds) apart; empty books it with its fee.",
    "vacate_days": "Days a condemned dwelling has to be vacated (Hudson ch. 140 C: 60).",
    "fee_schedule_date": "The date that picks the fee schedule version a permit is priced with.",
    "refund_order_role": "A street deposit is returned on the City Engineer's order by the City "
    "Clerk. An office with no engineer user names the role that orders it for him; the "
    "engineer's role always may.",
    "c404_high_value": "Census Form C-404 lists each new-housing permit valued at or above "
    "this on its own line (whole dollars).",
    "placename": "As the county's parcel file names it (its PLACENAME column): an import keeps "
    "this municipality's parcels only.",
    "housing_code": "The code cases are opened under: their notices, timelines and reports cite "
    "it; a case keeps the code it was opened under. None: no case can be opened.",
    "office_open_saturdays": "Unchecked: a petition or other filing whose last day is a "
    "Saturday may be filed the next Monday (Wis. Stat. 990.001(4)(c)); Sundays and legal "
    "holidays move every last day (990.001(4)(b)).",
    "idle_lock_minutes": "Minutes without keyboard or mouse before a workstation hides its "
    "work behind the sign-in dialog (its user's password resumes it); 0: never.",
    "backup_folder": "Where File → Back up now… and the automatic backup (on the first start "
    "of each day) write the register: a second disk or a share. Empty: a Backups folder beside "
    "the register (PostgreSQL: in the document folder).",
    "backup_keep": "Older automatic backups in the folder are deleted; nothing else is.",
    "backup_overdue_days": "Days: Needs attention names the last backup once it is older.",
}
# The housing codes as the Housing code list names them (ui.presenters.new_municipality).
HOUSING_CODES = housing_code_choices()
REPRINT_NOTE = (
    "Documents print the name, letterhead, address, people, logo and signature in force on "
    "their date: a change here applies from now on, and documents printed earlier reprint as "
    "they were issued."
)
IMAGE_NOTE = "PNG or JPEG, at most 1 MB."

_BY_LABEL = {label: key for key, label in (LABELS | BACKUP_LABELS).items()} | {
    ImageKind.LOGO.label: "logo",
    ImageKind.SIGNATURE.label: "signature",
}


# The office's own periods of its code's procedure (Wis. Stat. ch. 68 for Ch. 512): one field
# per period the procedure file lets the office change, keyed "procedure_days.<period>".
PERIOD_PREFIX = f"{DAYS_SETTING}."
PERIODS_LABEL = "periods of review and appeal"  # the service's field name in its refusals
PERIODS_HELP = (
    "Days; empty: the statute's. A person's time to file may be longer, never shorter; the "
    "authority's time to act shorter, never longer."
)


def changeable_periods(housing_code: str) -> list[Period]:
    """The periods of the code's procedure the office may set (none for Hudson 140-3)."""
    proc = procedure_of_code(housing_code)
    return [x for x in proc.periods.values() if x.office_may_change]


def period_label(period: Period) -> str:
    """'Request for review (Wis. Stat. 68.08)', as the procedure file words it."""
    return f"{period.what[:1].upper()}{period.what[1:]} ({period.section})"


@dataclass(frozen=True)
class PendingImage:
    """An image chosen but not saved yet (None content: the image is to be removed)."""

    content: bytes | None
    file_name: str = ""


def _form_of(s: svc.MunicipalitySettings) -> dict[str, Any]:
    form: dict[str, Any] = {
        "name": s.name,
        "letterhead": "\n".join(s.letterhead),
        "address": s.address,
        "inspector_name": s.inspector_name,
        "inspector_title": s.inspector_title,
        "treasurer_name": s.treasurer_name,
        "vacate_days": str(s.vacate_days),
        "fee_schedule_date": s.fee_schedule_date,
        "refund_order_role": s.refund_order_role,
        "c404_high_value": f"{s.c404_high_value:,.0f}",
        "kind": s.kind,
        "county": s.county,
        "placename": s.placename,
        "housing_code": s.housing_code,
        "office_open_saturdays": s.office_open_saturdays,
        "idle_lock_minutes": str(s.idle_lock_minutes),
        "backup_folder": s.backup_folder,
        "backup_keep": str(s.backup_keep),
        "backup_overdue_days": str(s.backup_overdue_days),
    }
    for key, value in s.cashiering:
        form[key] = value if isinstance(value, bool) else str(value)
    for period in changeable_periods(s.housing_code):
        own = s.procedure_days.get(period.key)
        form[PERIOD_PREFIX + period.key] = "" if own is None else str(own)
    return form


class MunicipalityPresenter:
    def __init__(
        self,
        uow: Callable[[], UnitOfWork],
        clock: Clock,
        actor: Actor,
        municipality_id: int,
    ) -> None:
        self.uow, self.clock, self.actor = uow, clock, actor
        self.municipality_id = municipality_id
        self.settings: svc.MunicipalitySettings | None = None
        self.stale = False  # the last save was refused: changed meanwhile on another workstation
        self.saved_form: dict[str, Any] = {}
        self.form: dict[str, Any] = {}
        self.images: dict[str, PendingImage] = {}
        self.error = ""
        self.error_field = ""  # a key of FIELD_ORDER
        self.message = ""

    # --- state -----------------------------------------------------------------------------

    def load(self) -> None:
        self.settings = svc.municipality_settings(self.uow(), self.municipality_id)
        self.saved_form = _form_of(self.settings)
        self.form = dict(self.saved_form)
        self.images = {}
        self.error = self.error_field = ""

    @property
    def dirty(self) -> bool:
        return bool(self.images) or self.form != self.saved_form

    def set(self, key: str, value: Any) -> None:
        self.form[key] = value

    def revert(self) -> None:
        self.form = dict(self.saved_form)
        self.images = {}
        self.error = self.error_field = self.message = ""

    def choose_image(self, kind: str, content: bytes, file_name: str = "") -> bool:
        """Take a chosen file for the logo or signature (saved with the form); False with the
        error set when it is not an image the documents can print."""
        which = ImageKind(kind)
        try:
            read_picture(which, content)  # decoded whole, as the printouts will
        except ValidationError as e:
            self._fail(e)
            return False
        self.images[which.value] = PendingImage(content, file_name)
        self.error = self.error_field = ""
        return True

    def remove_image(self, kind: str) -> None:
        which = ImageKind(kind)
        if self.stored_image(which.value) is None:
            self.images.pop(which.value, None)
        else:
            self.images[which.value] = PendingImage(None)

    def stored_image(self, kind: str) -> svc.StoredImage | None:
        if self.settings is None:
            return None
        return self.settings.logo if kind == "logo" else self.settings.signature

    def shown_image(self, kind: str) -> bytes | None:
        """The image the preview shows: the one chosen, else the one stored."""
        if kind in self.images:
            return self.images[kind].content
        stored = self.stored_image(kind)
        return stored.content if stored is not None else None

    def image_text(self, kind: str) -> str:
        if kind in self.images:
            pending = self.images[kind]
            if pending.content is None:
                return "Removed when you save: documents from then on print none."
            name = f"{pending.file_name}, " if pending.file_name else ""
            return f"{name}{len(pending.content):,} bytes: printed from when you save."
        stored = self.stored_image(kind)
        if stored is None:
            return "None: documents print without it."
        if stored.problem:
            # Stored before pictures were decoded when chosen: documents print without it.
            what = ImageKind(kind).label.lower()
            return (
                f"The stored {what} cannot be read ({stored.problem}); documents print without "
                "it: choose it again."
            )
        return f"{stored.media_type.split('/')[-1].upper()} image, {stored.size_text}."

    @property
    def permits_text(self) -> str:
        """Which permit kinds and fee schedule the municipality follows (set when it was set
        up; not changed here)."""
        s = self.settings
        if s is None:
            return ""
        if not s.ordinance:
            return "None: code enforcement only (no permit kinds, forms or fee schedule)."
        words = PERMIT_ORDINANCES.get(s.ordinance, s.ordinance)
        return (
            f"{words}. Its fee schedule started from that ordinance's and is edited in "
            "Administration → Fee schedules."
        )

    @property
    def version_text(self) -> str:
        s = self.settings
        if s is None or s.version_from is None:
            return ""
        if s.versions <= 1:
            return "Documents print with the municipality as first set up."
        return (
            f"{s.versions} letterhead versions; the one in force began "
            f"{format_date(s.version_from)}."
        )

    # --- saving ----------------------------------------------------------------------------

    def changes(self) -> dict[str, Any]:
        """The fields that differ from what was loaded, as the service takes them; money is
        parsed here (a ValidationError names the field)."""
        out: dict[str, Any] = {}
        periods = {k: v for k, v in self.form.items() if k.startswith(PERIOD_PREFIX)}
        if any(v != self.saved_form.get(k) for k, v in periods.items()):
            # The service takes every period at once (empty: the statute's).
            out[DAYS_SETTING] = {
                k.removeprefix(PERIOD_PREFIX): str(v).strip() or None for k, v in periods.items()
            }
        for key, value in self.form.items():
            if value == self.saved_form.get(key) or key.startswith(PERIOD_PREFIX):
                continue
            if key == "letterhead":
                out[key] = str(value).splitlines()
            elif key in MONEY_FIELDS:
                text = str(value).strip()
                if key == "plumbing_clerical" and not text:
                    out[key] = ""  # no such rule
                else:
                    out[key] = str(parse_money(text, LABELS[key]))
            elif key == "c404_high_value":
                out[key] = str(parse_money(str(value), LABELS[key]))
            else:
                out[key] = value
        for kind, pending in self.images.items():
            out[kind] = pending.content
        return out

    def save(self) -> bool:
        """Save the changes; False with `error` and `error_field` set when refused."""
        self.message = ""
        self.stale = False
        shown = self.settings.record_version if self.settings is not None else None
        try:
            changed = svc.update_municipality(
                self.uow(), self.clock, self.actor, self.municipality_id, self.changes(), shown
            )
        except ValidationError as e:
            self._fail(e)
            return False
        except StaleEdit as e:  # the view offers to reload
            self.error, self.error_field, self.stale = str(e), "", True
            return False
        except DeskError as e:
            self.error, self.error_field = str(e), ""
            return False
        self.load()
        self.message = "Saved." if changed else "Nothing had changed."
        return True

    @property
    def periods(self) -> list[Period]:
        """The periods shown (those of the saved housing code's procedure the office may set)."""
        return changeable_periods(self.settings.housing_code) if self.settings else []

    @property
    def periods_title(self) -> str:
        """'Review and appeal (Wis. Stat. ch. 68)'."""
        if self.settings is None:
            return ""
        return f"Review and appeal ({procedure_of_code(self.settings.housing_code).name})"

    def _fail(self, e: ValidationError) -> None:
        self.error = str(e)
        self.error_field = _BY_LABEL.get(e.field, e.field if e.field in FIELD_ORDER else "")
        if e.field == PERIODS_LABEL:
            # The refusal names the period: say it as the field is labelled, and mark it.
            found = re.search(r"period '(\w+)': (.*)", e.message) or re.match(
                r"(\w+): (.*)", e.message
            )
            period = next((x for x in self.periods if found and x.key == found[1]), None)
            if found and period is not None:
                self.error = f"{period_label(period)}: {found[2]}"
                self.error_field = PERIOD_PREFIX + period.key
