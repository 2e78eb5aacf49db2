"""Parcels and people as records a person corrects: what an edit may change, the words of its
refusals, and what a merge moves. Pure: the services apply these under a lock.

- A parcel or person typed wrong is edited (each save carries the version the form showed and
  is audited field by field), retired when it should no longer be chosen (never deleted: a
  parcel with permits or cases stays readable), or merged into the record it duplicates.
- A merge moves everything that points at the duplicate (permits, cases, complaints,
  condemnations and licences of a parcel; roles on permits, bonds, certificates, licences,
  payments, deposits and notices of a person) to the record kept, in one transaction, and
  retires the duplicate pointing at it. What it moves is listed before it is confirmed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from desk.dates import short_date
from desk.errors import RuleViolation, ValidationError

MAX_REASON = 500
MAX_NOTES = 4000
_ZIP = re.compile(r"\d{5}(-\d{4})?")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class Reference:
    """A record that points at a parcel or person: 'Permit 2026-0012', 'Case CE-2026-0003'."""

    kind: str
    what: str


@dataclass(frozen=True)
class MergePreview:
    """What merging `duplicate` into `kept` would do, listed before it is confirmed."""

    kept: str  # 'PIN 047-9991-002, 6120 N Port Washington Rd'
    duplicate: str
    references: tuple[Reference, ...]
    notes: tuple[str, ...] = ()  # what else happens: notes joined, a credit balance moved

    @property
    def lines(self) -> list[str]:
        out = [f"{r.kind}: {r.what}" for r in self.references]
        return out + list(self.notes)


def clean(text: str | None) -> str:
    return " ".join((text or "").split())


def check_pin(pin: str) -> str:
    pin = pin.strip()
    if not pin:
        raise ValidationError("parcel number", "enter the parcel number (PIN)")
    if len(pin) > 40:
        raise ValidationError("parcel number", "at most 40 characters")
    if " " in pin and not any(ch.isdigit() for ch in pin):
        # 'N Santa Monica Blvd' in the PIN box: an address typed in the wrong field.
        raise ValidationError("parcel number", f"'{pin}' looks like an address, not a PIN")
    return pin


def check_zip(value: str, field: str = "ZIP") -> str:
    value = value.strip()
    if value and not _ZIP.fullmatch(value):
        raise ValidationError(field, f"'{value}' is not a ZIP code (5 digits, or ZIP+4)")
    return value


def check_email(value: str) -> str:
    value = value.strip()
    if value and not _EMAIL.fullmatch(value):
        raise ValidationError("email", f"'{value}' is not an e-mail address")
    return value


def check_state(value: str) -> str:
    value = value.strip().upper()
    if value and not re.fullmatch(r"[A-Z]{2}", value):
        raise ValidationError("state", f"'{value}' is not a two-letter state code")
    return value


def check_reason(reason: str, what: str) -> str:
    reason = clean(reason)
    if not reason:
        raise ValidationError("reason", f"say why the {what} is retired")
    if len(reason) > MAX_REASON:
        raise ValidationError("reason", f"at most {MAX_REASON} characters")
    return reason


def check_notes(notes: str) -> str:
    notes = notes.strip()
    if len(notes) > MAX_NOTES:
        raise ValidationError("notes", f"at most {MAX_NOTES} characters")
    return notes


def check_merge(kept_id: int, duplicate_id: int, what: str) -> None:
    if kept_id == duplicate_id:
        raise ValidationError(what, f"choose two different {what}s to merge")


def refuse_retired(retired_on: date | None, name: str, what: str) -> None:
    """A retired record is read, not chosen, changed or kept by a merge."""
    if retired_on is not None:
        raise RuleViolation(
            f"The {what} {name} was retired on {short_date(retired_on)}; restore it first."
        )


def check_length(field: str, value: str, limit: int) -> str:
    """`value` without surrounding spaces; refused past `limit` characters, naming the field."""
    value = value.strip()
    if len(value) > limit:
        raise ValidationError(field, f"at most {limit} characters ({len(value)} typed)")
    return value


_ORGANIZATION = re.compile(
    r"\b(LLC|L\.L\.C|INC|CORP|CORPORATION|CO|COMPANY|TRUST|TRUSTEES?|CITY|VILLAGE|TOWN|COUNTY|"
    r"STATE|SCHOOL|CHURCH|BANK|ASSOCIATION|ASSN|LLP|LTD|PARTNERSHIP|LP|ESTATE|FOUNDATION|"
    r"DISTRICT|DEPT|DEPARTMENT|UNIVERSITY|COOPERATIVE|COOP|CONDOMINIUM|HOMES|PROPERTIES|"
    r"INVESTMENTS?|HOLDINGS|REALTY|MANAGEMENT|SERVICES|RAILROAD|UTILITY|UTILITIES)\b",
    re.IGNORECASE,
)


def looks_like_organization(name: str) -> bool:
    """'BADGER BUILDERS LLC', 'CITY OF WESTBY', 'TRAASTAD SPECIAL TRUST': a company, a trust or
    a public body rather than a person (the county names owners in one line either way)."""
    return bool(_ORGANIZATION.search(name))


@dataclass(frozen=True)
class MailingAddress:
    line1: str
    line2: str
    city: str
    state: str
    zip: str


_STATE = re.compile(r"[A-Za-z]{2}")
_ZIPISH = re.compile(r"\d{5}(?:-?\d{4})?")
_STATE_ZIP = re.compile(r"(?P<state>[A-Za-z]{2})\s+(?P<zip>\d{5}(?:-?\d{4})?)")
_CITY_STATE_ZIP = re.compile(r"(?P<city>.+?)\s+(?P<state>[A-Za-z]{2})\s+(?P<zip>\d{5}(?:-?\d{4})?)")


def parse_mailing_address(text: str) -> MailingAddress:
    """The county's one-line mailing address in its parts: 'E7796 LINZI LN, WESTBY, WI, 54667'
    -> ('E7796 LINZI LN', '', 'WESTBY', 'WI', '54667'); '123 Main St, Apt 4, Madison, WI 53703'
    too. What cannot be split is kept whole on the first line, never lost."""
    text = " ".join(text.split())
    parts = [p.strip() for p in text.split(",") if p.strip()]

    def address(street: list[str], city: str, state: str, zip_: str) -> MailingAddress | None:
        if not street or not city:
            return None
        return MailingAddress(street[0], ", ".join(street[1:]), city, state.upper(), _zip(zip_))

    found: MailingAddress | None = None
    if len(parts) >= 4 and _STATE.fullmatch(parts[-2]) and _ZIPISH.fullmatch(parts[-1]):
        found = address(parts[:-3], parts[-3], parts[-2], parts[-1])
    elif len(parts) >= 3 and (m := _STATE_ZIP.fullmatch(parts[-1])):
        found = address(parts[:-2], parts[-2], m["state"], m["zip"])
    elif len(parts) >= 2 and (m := _CITY_STATE_ZIP.fullmatch(parts[-1])):
        found = address(parts[:-1], m["city"], m["state"], m["zip"])
    return found or MailingAddress(text, "", "", "", "")


def _zip(text: str) -> str:
    digits = text.replace("-", "")
    return digits if len(digits) == 5 else f"{digits[:5]}-{digits[5:]}"
