"""Administration → Municipality: what the documents print (name, letterhead, address, who signs,
logo and signature) and the municipality's settings, read and changed by an administrator.

The rules are in desk/domain/municipality.py; the cashiering settings are checked by
desk.services.cashiering (one place), the vacate period by desk.domain.licensing, the
rooming-house licence fee (Hudson 140-10A, set by the Council) by desk.enforcement.licences.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from desk.clock import Clock
from desk.domain import backups as backup_rules
from desk.domain import licensing as licensing_rules
from desk.domain import municipality as rules
from desk.domain import sureties as surety_rules
from desk.domain.cashiering import SETTING_KEYS as CASHIERING_KEYS
from desk.domain.cashiering import CashieringSettings, parse_settings, shipped_ledger
from desk.domain.model import Actor, Municipality
from desk.domain.municipality import ImageKind, LetterheadVersion, MunicipalityImage
from desk.domain.ordinances import housing_code_of
from desk.domain.permissions import Permission, require
from desk.domain.reports import HIGH_VALUE_SETTING, high_value_threshold
from desk.enforcement import licences as rooming
from desk.enforcement.computing_time import OPEN_SATURDAYS_SETTING, OfficeCalendar
from desk.enforcement.procedure import DAYS_SETTING as PROCEDURE_DAYS_SETTING
from desk.enforcement.procedure import ProcedureError, office_procedure
from desk.enforcement.rules import HOUSING_CODE_SETTING, NO_HOUSING_CODE, housing_code_key
from desk.errors import NotFound, ValidationError
from desk.housing.codes import housing_code_keys
from desk.pictures import picture_problem, read_picture
from desk.services import cashiering
from desk.services.fees import FEE_DATE_SETTING
from desk.services.setup import COUNTIES, KINDS
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version

REPORTS_KEY = "reports"  # settings["reports"]: read by db.report_queries.heading
# What the municipality is and what it enforces (set up by desk.services.setup): its kind and
# county, its PLACENAME in the county's parcel file, and the housing code ("none" for none).
PLACE_FIELDS = ("kind", "county", "placename", HOUSING_CODE_SETTING)
SETTING_FIELDS = (
    *CASHIERING_KEYS,
    "vacate_days",
    "fee_schedule_date",
    "c404_high_value",
    "rooming_licence_fee",
    OPEN_SATURDAYS_SETTING,
    *PLACE_FIELDS,
    PROCEDURE_DAYS_SETTING,
    rules.IDLE_LOCK_SETTING,
    *backup_rules.LABELS,  # settings["backups"]: desk/domain/backups.py
    surety_rules.REFUND_ORDER_SETTING,  # settings["deposits"]: 15.1.43
)
FIELDS = (
    *rules.PRINTED_TEXT_FIELDS,
    "logo",  # bytes of a new image, or None to print none
    "signature",
    *SETTING_FIELDS,
)


@dataclass(frozen=True)
class StoredImage:
    id: int
    kind: ImageKind
    media_type: str
    content: bytes
    added_at: datetime
    # Why the printouts cannot read it ("" when they can): stored before pictures were
    # decoded when chosen, or damaged since.
    problem: str = ""

    @property
    def size_text(self) -> str:
        return f"{len(self.content):,} bytes"


@dataclass(frozen=True)
class MunicipalitySettings:
    """Everything the Municipality screen shows. The cashiering values are the effective ones
    (the shipped file overlaid with the municipality's own), as text; the flag as a bool."""

    municipality_id: int
    key: str
    name: str
    letterhead: tuple[str, ...]
    address: str
    inspector_name: str
    inspector_title: str
    treasurer_name: str
    logo: StoredImage | None
    signature: StoredImage | None
    cashiering: tuple[tuple[str, str | bool], ...]
    vacate_days: int
    fee_schedule_date: str
    c404_high_value: Decimal
    versions: int  # letterhead versions so far
    version_from: datetime | None  # when the one in force began
    record_version: int = 0  # the municipality row's, which a save sends back (StaleEdit)
    rooming_licence_fee: Decimal | None = None  # None: the Council has not set it (none shipped)
    kind: str = ""  # city, village or town ("" when never set)
    county: str = ""
    placename: str = ""  # as the county's parcel file names it: CITY OF WESTBY
    housing_code: str = NO_HOUSING_CODE  # hudson-140, ch-512 or "none"
    ordinance: str = ""  # the shipped permit kinds and fee schedule it follows ("" none)
    # Wis. Stat. 990.001(4)(c): a last day on a Saturday moves to Monday unless the office
    # keeps Saturday hours.
    office_open_saturdays: bool = False
    # The office's own periods of its code's procedure (Wis. Stat. ch. 68 for Ch. 512), period
    # key -> days; a period not in it has the statute's days (desk/enforcement/procedure.py).
    procedure_days: Mapping[str, int] = field(default_factory=dict)
    # Minutes without input before a workstation locks behind the sign-in dialog (0: never).
    idle_lock_minutes: int = rules.IDLE_LOCK_MINUTES
    # Where backups go ("" the default folder), how many automatic ones stay, and after how
    # many days Needs attention says the last one is old (desk/domain/backups.py).
    backup_folder: str = ""
    backup_keep: int = backup_rules.DEFAULT_KEEP
    backup_overdue_days: int = backup_rules.DEFAULT_OVERDUE_DAYS
    # The role that orders a street deposit returned for the City Engineer (15.1.43).
    refund_order_role: str = surety_rules.DEFAULT_REFUND_ORDER_ROLE.value

    def value(self, field: str) -> Any:
        """A field's value as update_municipality takes it."""
        if field in CASHIERING_KEYS:
            return dict(self.cashiering)[field]
        if field == "letterhead":
            return list(self.letterhead)
        return getattr(self, field)


def _municipality(uow: UnitOfWork, municipality_id: int, *, lock: bool = False) -> Municipality:
    get = uow.municipalities.get_for_update if lock else uow.municipalities.get
    muni = get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return muni


def _image(uow: UnitOfWork, image_id: int | None) -> StoredImage | None:
    if image_id is None:
        return None
    row = uow.registers.get(MunicipalityImage, image_id)
    if row is None:
        return None
    assert row.id is not None
    kind, content = ImageKind(row.kind), bytes(row.content)
    return StoredImage(
        row.id, kind, row.media_type, content, row.added_at, picture_problem(content) or ""
    )


def _cashiering_raw(muni: Municipality) -> dict[str, object]:
    try:
        raw: dict[str, object] = dict(shipped_ledger(muni.ordinance).settings)
    except ValueError:
        raw = {}
    own = muni.settings.get("cashiering") if isinstance(muni.settings, dict) else None
    if isinstance(own, dict):
        raw.update(own)
    return raw


def _cashiering_text(key: str, raw: Mapping[str, object]) -> str | bool:
    """One cashiering setting of `raw` as the screen shows it (checked by parse_settings)."""
    value = _canonical(key, raw)
    if isinstance(value, bool):
        return value
    if key in ("withdrawn_refund", "denied_refund"):
        return str(value.text)
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    return "" if value is None else str(value)


def _canonical(key: str, raw: Mapping[str, object]) -> Any:
    """The meaning of one cashiering setting of `raw` (parse_settings' default when `raw` has
    none), for telling a real change from retyping."""
    try:
        parsed: CashieringSettings = parse_settings({key: raw[key]} if key in raw else {})
    except ValidationError as e:
        raise ValidationError(rules.LABELS.get(e.field, e.field), e.message) from None
    return {
        "fees_due_section": parsed.fees_due_section,
        "no_refund_once_issued": parsed.rules.no_refund_once_issued,
        "plumbing_clerical": parsed.rules.plumbing_clerical,
        "withdrawn_refund": parsed.rules.withdrawn,
        "denied_refund": parsed.rules.denied,
        "nsf_charge": parsed.nsf_charge,
        "admin_cost_account": parsed.admin_cost_account,
    }[key]


def _c404_threshold(muni: Municipality) -> Decimal:
    section = muni.settings.get(REPORTS_KEY) if isinstance(muni.settings, dict) else None
    return high_value_threshold(
        section.get(HIGH_VALUE_SETTING) if isinstance(section, dict) else None
    )


def _fee_date(muni: Municipality) -> str:
    return "issue" if muni.settings.get(FEE_DATE_SETTING) == "issue" else "application"


def _versions(uow: UnitOfWork, municipality_id: int) -> list[LetterheadVersion]:
    return uow.registers.find(LetterheadVersion, municipality_id=municipality_id)


def municipality_settings(uow: UnitOfWork, municipality_id: int) -> MunicipalitySettings:
    with uow:
        muni = _municipality(uow, municipality_id)
        assert muni.id is not None
        raw = _cashiering_raw(muni)
        versions = _versions(uow, municipality_id)
        return MunicipalitySettings(
            municipality_id=muni.id,
            key=muni.key,
            name=muni.name,
            letterhead=tuple(muni.letterhead or ()),
            address=muni.address or "",
            inspector_name=muni.inspector_name or "",
            inspector_title=muni.inspector_title or "",
            treasurer_name=muni.treasurer_name or "",
            logo=_image(uow, muni.logo_image_id),
            signature=_image(uow, muni.signature_image_id),
            cashiering=tuple((k, _cashiering_text(k, raw)) for k in CASHIERING_KEYS),
            vacate_days=licensing_rules.vacate_period(muni.settings),
            fee_schedule_date=_fee_date(muni),
            c404_high_value=_c404_threshold(muni),
            versions=len(versions),
            version_from=max((v.effective_at for v in versions), default=None),
            record_version=muni.version,
            rooming_licence_fee=rooming.licence_fee(muni.settings),
            kind=str(muni.settings.get("kind") or ""),
            county=str(muni.settings.get("county") or ""),
            placename=str(muni.settings.get("placename") or ""),
            # As desk.domain.ordinances reads it: Glendale's profile names none (not Hudson's).
            housing_code=housing_code_of(muni.ordinance, muni.settings) or NO_HOUSING_CODE,
            ordinance=muni.ordinance or "",
            office_open_saturdays=OfficeCalendar.of(muni.settings).open_saturdays,
            procedure_days=dict(muni.settings.get(PROCEDURE_DAYS_SETTING) or {}),
            idle_lock_minutes=rules.idle_lock_minutes(muni.settings),
            backup_folder=backup_rules.backup_settings(muni.settings).folder,
            backup_keep=backup_rules.backup_settings(muni.settings).keep,
            backup_overdue_days=backup_rules.backup_settings(muni.settings).overdue_days,
            refund_order_role=surety_rules.refund_order_role(muni.settings).value,
        )


def idle_lock_minutes(uow: UnitOfWork, municipality_id: int) -> int:
    """Minutes without keyboard or mouse before the window locks (0: never)."""
    with uow:
        return rules.idle_lock_minutes(_municipality(uow, municipality_id).settings)


def _new_version(uow: UnitOfWork, muni: Municipality, at: datetime) -> None:
    uow.registers.add(rules.version_of(muni, at))


def update_municipality(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    changes: dict[str, Any],
    version: int | None = None,
) -> tuple[str, ...]:
    """Change the fields given; only those whose value really changes are written (so the
    audit row shows exactly what changed). A change to a printed field starts a new letterhead
    version from now on. Returns the fields changed."""
    require(actor, Permission.MANAGE_MUNICIPALITY)
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise ValidationError(unknown[0], "is not a municipality setting")
    images = {k: changes[k] for k in ImageKind if k.value in changes}
    # Decoded whole, and refused before anything is written: a picture the printouts cannot
    # read would otherwise be left off every document without a word.
    pictures = {k: read_picture(k, c) for k, c in images.items() if c is not None}
    with uow:
        uow.act_as(actor, clock.now())
        # The rule is checked after the lock: a second administrator saving at the same time
        # waits and then compares against the first one's values.
        muni = _municipality(uow, municipality_id, lock=True)
        check_version(uow, muni, version, f"The municipality {muni.name}")
        changed: list[str] = []
        for key in rules.PRINTED_FIELDS:
            if key not in changes:
                continue
            value = rules.check_printed(key, changes[key])
            if value != getattr(muni, key):
                setattr(muni, key, value)
                changed.append(key)
        for kind, content in images.items():
            if content is not None:
                _add_image(uow, clock, actor, muni, kind, content, pictures[kind].media_type)
                changed.append(kind.column)
            elif getattr(muni, kind.column) is not None:
                setattr(muni, kind.column, None)
                changed.append(kind.column)
        cash = _cashiering_changes(muni, changes)
        if cash:
            try:
                cashiering.apply_cashiering_settings(uow, muni, cash)
            except ValidationError as e:
                raise ValidationError(rules.LABELS.get(e.field, e.field), e.message) from None
            changed.extend(cash)
        settings = dict(muni.settings)
        if "vacate_days" in changes:
            days = _vacate_days(changes["vacate_days"])
            if days != licensing_rules.vacate_period(settings):
                section = dict(settings.get(licensing_rules.SETTINGS_KEY) or {})
                section[licensing_rules.VACATE_SETTING] = days
                settings[licensing_rules.SETTINGS_KEY] = section
                changed.append("vacate_days")
        if "fee_schedule_date" in changes:
            when = rules.check_fee_schedule_date(changes["fee_schedule_date"])
            if when != _fee_date(muni):
                settings[FEE_DATE_SETTING] = when
                changed.append("fee_schedule_date")
        if "c404_high_value" in changes:
            threshold = rules.check_c404_threshold(changes["c404_high_value"])
            if threshold != _c404_threshold(muni):
                section = dict(settings.get(REPORTS_KEY) or {})
                section[HIGH_VALUE_SETTING] = str(threshold)  # Heading.settings are text
                settings[REPORTS_KEY] = section
                changed.append("c404_high_value")
        if "rooming_licence_fee" in changes:
            fee = rooming.check_fee(changes["rooming_licence_fee"])
            if fee != rooming.licence_fee(settings):
                if fee is None:
                    settings.pop(rooming.FEE_SETTING, None)
                else:
                    settings[rooming.FEE_SETTING] = str(fee)  # money as text in the JSON
                changed.append("rooming_licence_fee")
        if OPEN_SATURDAYS_SETTING in changes:
            value = bool(changes[OPEN_SATURDAYS_SETTING])
            if value != OfficeCalendar.of(settings).open_saturdays:
                settings[OPEN_SATURDAYS_SETTING] = value
                changed.append(OPEN_SATURDAYS_SETTING)
        for key in PLACE_FIELDS:
            if key in changes:
                value = _place_value(key, changes[key])
                now = housing_code_of(muni.ordinance, settings) or NO_HOUSING_CODE
                if value != (now if key == HOUSING_CODE_SETTING else settings.get(key, "")):
                    # A new housing code applies to cases opened from now on; a case keeps
                    # the code it was opened under.
                    settings[key] = value
                    changed.append(key)
        code_changed = HOUSING_CODE_SETTING in changed
        if code_changed and PROCEDURE_DAYS_SETTING in settings:
            # The periods were the old code's procedure's: the new one starts from its own.
            del settings[PROCEDURE_DAYS_SETTING]
            changed.append(PROCEDURE_DAYS_SETTING)
        if PROCEDURE_DAYS_SETTING in changes:
            periods = _procedure_days(settings, changes[PROCEDURE_DAYS_SETTING])
            if periods != (settings.get(PROCEDURE_DAYS_SETTING) or {}):
                if periods:
                    settings[PROCEDURE_DAYS_SETTING] = periods
                else:
                    settings.pop(PROCEDURE_DAYS_SETTING, None)
                if PROCEDURE_DAYS_SETTING not in changed:
                    changed.append(PROCEDURE_DAYS_SETTING)
        if rules.IDLE_LOCK_SETTING in changes:
            minutes = rules.check_idle_lock_minutes(changes[rules.IDLE_LOCK_SETTING])
            if minutes != rules.idle_lock_minutes(settings):
                section = dict(settings.get(rules.SECURITY_KEY) or {})
                section[rules.IDLE_LOCK_SETTING] = minutes
                settings[rules.SECURITY_KEY] = section
                changed.append(rules.IDLE_LOCK_SETTING)
        if surety_rules.REFUND_ORDER_SETTING in changes:
            try:
                role = surety_rules.check_refund_order_role(
                    changes[surety_rules.REFUND_ORDER_SETTING]
                )
            except ValidationError as e:
                raise ValidationError(rules.LABELS[e.field], e.message) from None
            if role is not surety_rules.refund_order_role(settings):
                # 15.1.43: who acts for the City Engineer on deposit refunds in this office.
                section = dict(settings.get(surety_rules.DEPOSITS_KEY) or {})
                section[surety_rules.REFUND_ORDER_SETTING] = role.value
                settings[surety_rules.DEPOSITS_KEY] = section
                changed.append(surety_rules.REFUND_ORDER_SETTING)
        changed.extend(_backup_changes(settings, changes))
        if settings != muni.settings:
            muni.settings = settings
        if any(k in rules.PRINTED_FIELDS for k in changed):
            _new_version(uow, muni, clock.now())
        if changed:
            uow.commit()
        return tuple(changed)


def _backup_changes(settings: dict[str, Any], changes: Mapping[str, Any]) -> list[str]:
    """Apply the backup fields of `changes` to `settings["backups"]` (its "last" record kept);
    the fields that really changed."""
    now = backup_rules.backup_settings(settings)
    checks = {
        "backup_folder": ("folder", backup_rules.check_folder, now.folder),
        "backup_keep": ("keep", backup_rules.check_keep, now.keep),
        "backup_overdue_days": ("overdue_days", backup_rules.check_overdue_days, now.overdue_days),
    }
    section = dict(settings.get(backup_rules.SETTINGS_KEY) or {})
    changed = []
    for key, (name, check, old) in checks.items():
        if key in changes:
            value = check(changes[key])
            if value != old:
                section[name] = value
                changed.append(key)
    if changed:
        settings[backup_rules.SETTINGS_KEY] = section
    return changed


# --- backups -------------------------------------------------------------------------------------


def backup_state(
    uow: UnitOfWork, municipality_id: int
) -> tuple[backup_rules.BackupSettings, backup_rules.LastBackup | None]:
    """The municipality's backup settings, and the register's last backup (the latest of any of
    its municipalities: a backup copies them all)."""
    with uow:
        own = backup_rules.backup_settings(_municipality(uow, municipality_id).settings)
        return own, _last_backup(uow)


def last_backup(uow: UnitOfWork) -> backup_rules.LastBackup | None:
    """The register's last backup (About Permit Desk)."""
    with uow:
        return _last_backup(uow)


def _last_backup(uow: UnitOfWork) -> backup_rules.LastBackup | None:
    made = uow.registers.latest(backup_rules.BackupMade, "at")
    # A register of an earlier version kept its last backup in the municipalities' settings.
    kept = [backup_rules.backup_settings(m.settings).last for m in uow.municipalities.all()]
    return backup_rules.latest([made.as_last() if made is not None else None, *kept])


def record_backup(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    record: backup_rules.LastBackup,
) -> None:
    """Record the backup just made (a row of backup_made, audited like any record), so every
    workstation knows the last one. Anyone signed in may back up (as `permitdesk db backup`), so
    no permission beyond that: only this one record is written, and no municipality changes
    (a Municipality screen open meanwhile still saves)."""
    with uow:
        uow.act_as(actor, clock.now())
        _municipality(uow, municipality_id)  # a backup is made from a municipality's session
        uow.registers.add(backup_rules.BackupMade.of(record))
        uow.commit()


def _procedure_days(settings: Mapping[str, Any], value: Any) -> dict[str, int]:
    """The office's own periods (period -> days; a blank or None period: the statute's), checked
    against the procedure of the code the municipality enforces (Wis. Stat. ch. 68: a person's
    time to file no shorter, the authority's time to act no longer, than the statute's)."""
    label = "periods of review and appeal"
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValidationError(label, "give the days of each period")
    days: dict[str, int] = {}
    for key, raw in value.items():
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        try:
            days[str(key)] = int(str(raw).strip())
        except ValueError:
            raise ValidationError(label, f"{key}: give a whole number of days") from None
    code = housing_code_key(settings)
    if days and not code:
        raise ValidationError(label, "the municipality enforces no housing code")
    try:
        proc = office_procedure(code, code, {PROCEDURE_DAYS_SETTING: days})
    except ProcedureError as e:
        raise ValidationError(label, str(e)) from None
    # Only the days that differ from the procedure's own are kept.
    shipped = office_procedure(code, None, None)
    return {k: n for k, n in days.items() if n != shipped.days(k) and proc.days(k) == n}


def _place_value(key: str, value: Any) -> str:
    """A PLACE_FIELDS value as stored, checked as the New municipality form checks it."""
    label = rules.LABELS[key]
    text = " ".join(str(value or "").split())
    if key == "kind":
        if text.lower() not in KINDS:
            raise ValidationError(label, "choose city, village or town")
        return text.lower()
    if key == "county":
        county = next((c for c in COUNTIES if c.lower() == text.lower()), "")
        if not county:
            raise ValidationError(label, f"'{text}' is not a Wisconsin county")
        return county
    if key == "placename":
        if len(text) > 150:
            raise ValidationError(label, "at most 150 characters")
        return text.upper()  # the county's file writes it in capitals
    if text != NO_HOUSING_CODE and text not in housing_code_keys():
        raise ValidationError(label, f"no housing code '{text}' is shipped")
    return text


def _vacate_days(value: Any) -> int:
    label = rules.LABELS["vacate_days"]
    try:
        days = int(str(value).strip())
    except ValueError:
        raise ValidationError(label, f"'{value}' is not a number of days") from None
    try:
        return licensing_rules.check_vacate_period(days)
    except ValidationError as e:
        raise ValidationError(label, e.message) from None


def _cashiering_changes(muni: Municipality, changes: dict[str, Any]) -> dict[str, object]:
    """The cashiering settings that really change, in the form the profile stores them."""
    raw = _cashiering_raw(muni)
    return {
        key: _cashiering_text(key, changes)
        for key in CASHIERING_KEYS
        if key in changes and _canonical(key, changes) != _canonical(key, raw)
    }


# --- the logo and the signature ------------------------------------------------------------------


def _add_image(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    muni: Municipality,
    kind: ImageKind,
    content: bytes,
    media_type: str,
) -> int:
    """A new image row (never an old one changed) that the municipality prints from now on;
    `content` was read whole by read_picture, which told `media_type`."""
    assert muni.id is not None
    image = MunicipalityImage(
        municipality_id=muni.id,
        kind=kind.value,
        media_type=media_type,
        content=bytes(content),
        added_at=clock.now(),
        added_by_id=actor.user_id,
    )
    uow.registers.add(image)
    uow.flush()
    assert image.id is not None
    setattr(muni, kind.column, image.id)
    return image.id
