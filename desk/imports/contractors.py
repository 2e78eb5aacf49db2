"""A contractors' spreadsheet (the office's own list, or the template Permit Desk writes) as
people and their state credentials, and the dry run of importing it.

The columns, matched by heading with case and spaces aside (COLUMNS, in the template's order):
Name, Kind, Address, Address line 2, City, State, ZIP, Phone, Email, Credential, Credential
number, Expires. Only Name is required; other columns are left alone.

The rules:
- A person on the register is found first by a current credential of the same kind and number,
  else by the same name with the same ZIP (or a ZIP blank on either side). A retired person is
  never matched: such a row is rejected, naming them.
- A blank cell never erases what the register holds; a filled one that differs is a change,
  listed old -> new. The name a person is registered under is kept (corrected in People).
- A credential the person does not hold is added; one of a kind they hold with another number
  or expiry is renewed: the new one supersedes the old, which stays as history.
- The same credential (kind and number) twice in the file rejects every row that has it; which
  is right is for the office to say. A person on several rows (one per credential) is one
  person; a second row that says otherwise about their phone or address is rejected.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Protocol

from desk.dates import short_date
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.records import (
    check_email,
    check_length,
    check_state,
    check_zip,
    looks_like_organization,
)
from desk.errors import ValidationError
from desk.imports.files import Row
from desk.imports.parcels import FieldChange

# The template's columns, in its order: (heading, key).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Name", "name"),
    ("Kind", "kind"),
    ("Address", "address_line1"),
    ("Address line 2", "address_line2"),
    ("City", "city"),
    ("State", "state"),
    ("ZIP", "zip"),
    ("Phone", "phone"),
    ("Email", "email"),
    ("Credential", "credential"),
    ("Credential number", "credential_number"),
    ("Expires", "expires_on"),
)
HEADINGS = tuple(heading for heading, _ in COLUMNS)
LABELS = {key: heading for heading, key in COLUMNS}
# Other headings offices write for the same columns.
ALIASES = {
    "address line 1": "address_line1",
    "address 1": "address_line1",
    "street": "address_line1",
    "address 2": "address_line2",
    "zip code": "zip",
    "e-mail": "email",
    "type": "kind",
    "licence": "credential",
    "license": "credential",
    "licence number": "credential_number",
    "license number": "credential_number",
    "number": "credential_number",
    "expires on": "expires_on",
    "expiry": "expires_on",
    "expiration": "expires_on",
    "expiration date": "expires_on",
}
DEFAULT_STATE = "WI"  # a new person's address with the State column blank
# The person's fields an import fills or changes, in the order they are listed.
PERSON_FIELDS = ("address_line1", "address_line2", "city", "state", "zip", "phone", "email")
_LIMITS = {
    "name": 200,
    "address_line1": 200,
    "address_line2": 200,
    "city": 80,
    "phone": 40,
    "email": 200,
    "credential_number": 40,
}
_KINDS = {
    "person": PartyKind.PERSON,
    "individual": PartyKind.PERSON,
    "organization": PartyKind.ORGANIZATION,
    "organisation": PartyKind.ORGANIZATION,
    "company": PartyKind.ORGANIZATION,
    "business": PartyKind.ORGANIZATION,
}


def _key(text: str) -> str:
    """A heading or a word compared with case, spaces, '_' and '-' aside."""
    return "".join(text.replace("_", " ").split()).casefold()


_HEADING_KEYS = {_key(h): k for h, k in COLUMNS} | {_key(a): k for a, k in ALIASES.items()}


def credential_kind(text: str) -> CredentialKind | None:
    """'Master plumber', 'master_plumber', 'MASTER PLUMBER' -> MASTER_PLUMBER; None if none."""
    wanted = _key(text)
    for kind in CredentialKind:
        if wanted in (_key(kind.label), _key(kind.value)):
            return kind
    return None


def has_name_column(columns: Sequence[str]) -> bool:
    return any(_HEADING_KEYS.get(_key(c)) == "name" for c in columns)


def match_headings(columns: Sequence[str], where: str) -> dict[str, str]:
    """Each field's column of the file {key: the file's heading}; ValidationError naming the
    file (`where`) when there is no Name column. A column named twice counts once: the first."""
    found: dict[str, str] = {}
    for column in columns:
        key = _HEADING_KEYS.get(_key(column))
        if key is not None and key not in found:
            found[key] = column
    if "name" not in found:
        shown = ", ".join(columns[:12]) + (", …" if len(columns) > 12 else "")
        raise ValidationError(
            where,
            f"there is no Name column (its headings are: {shown}); the first row must hold "
            f"the headings {', '.join(HEADINGS)}",
        )
    return found


# --- a row ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContractorRow:
    """One row of the file, read: a person or organization and the credential it names."""

    line: int
    name: str
    kind: PartyKind
    kind_guessed: bool = False  # the Kind cell was blank: guessed from the name
    address_line1: str = ""
    address_line2: str = ""
    city: str = ""
    state: str = ""
    zip: str = ""
    phone: str = ""
    email: str = ""
    credential: CredentialKind | None = None
    credential_number: str = ""
    expires_on: date | None = None


@dataclass(frozen=True)
class Rejected:
    line: int
    name: str
    reason: str


@dataclass(frozen=True)
class Note:
    """Imported, but worth a look (the register names the holder of a credential otherwise)."""

    line: int
    text: str


@dataclass
class ParsedContractors:
    """The file's rows as contractors: those read and those rejected with why."""

    file_name: str
    sheet: str = ""
    rows: list[ContractorRow] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    rows_read: int = 0
    columns_left_out: tuple[str, ...] = ()  # the file's columns no field reads


class _Bad(Exception):
    """A value of the row cannot be read: the row is rejected with this reason."""


_US_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]00:00(?::00)?)?")


def parse_date(text: str) -> date | None:
    """'12/31/2027', '12/31/27', '2027-12-31' (an Excel date cell reads as that); None when
    blank; _Bad when it is not a date."""
    text = text.strip()
    if not text:
        return None
    try:
        if m := _ISO_DATE.fullmatch(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _US_DATE.fullmatch(text):
            year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
            return date(year, int(m[1]), int(m[2]))
    except ValueError:
        pass
    raise _Bad(f"{LABELS['expires_on']}: '{text}' is not a date (write it as 12/31/2027)")


def _checked(key: str, value: str) -> str:
    label = LABELS[key]
    try:
        if key == "zip":
            if re.fullmatch(r"\d{4}", value):  # Excel drops the leading zero of 02134
                value = f"0{value}"
            return check_zip(value)
        if key == "state":
            return check_state(value)
        if key == "email":
            value = check_email(value)
        return check_length(label, value, _LIMITS[key]) if key in _LIMITS else value
    except ValidationError as e:
        raise _Bad(f"{label}: {e.message}") from None


def read_row(values: dict[str, str], columns: dict[str, str], line: int) -> ContractorRow:
    """The contractor of one row (`columns`: match_headings), or _Bad naming the field."""

    def get(key: str) -> str:
        column = columns.get(key)
        return " ".join(values.get(column, "").split()) if column else ""

    name = get("name")
    if not name:
        raise _Bad(f"{LABELS['name']}: the name is blank")
    name = _checked("name", name)
    kind_text = get("kind")
    if kind_text:
        kind = _KINDS.get(kind_text.casefold())
        if kind is None:
            raise _Bad(f"{LABELS['kind']}: '{kind_text}' is neither person nor organization")
    else:
        kind = PartyKind.ORGANIZATION if looks_like_organization(name) else PartyKind.PERSON
    person = {key: _checked(key, get(key)) for key in PERSON_FIELDS}
    credential_text = get("credential")
    number = _checked("credential_number", get("credential_number"))
    credential: CredentialKind | None = None
    if credential_text:
        credential = credential_kind(credential_text)
        if credential is None:
            known = ", ".join(k.label for k in CredentialKind)
            raise _Bad(
                f"{LABELS['credential']}: '{credential_text}' is not a credential kind "
                f"(one of: {known})"
            )
        if not number:
            raise _Bad(
                f"{LABELS['credential_number']}: the {credential.label.lower()} has no number"
            )
    elif number:
        raise _Bad(f"{LABELS['credential']}: the number {number} has no credential kind")
    expires_on = parse_date(get("expires_on"))
    if expires_on is not None:
        if credential is None:
            raise _Bad(f"{LABELS['expires_on']}: a date with no credential")
        if expires_on.year < 1950:
            raise _Bad(f"{LABELS['expires_on']}: {short_date(expires_on)} is not an expiry date")
    row = ContractorRow(
        line=line,
        name=name,
        kind=kind,
        kind_guessed=not kind_text,
        credential=credential,
        credential_number=number,
        expires_on=expires_on,
    )
    return _with_person(row, person)


def _with_person(row: ContractorRow, v: dict[str, str]) -> ContractorRow:
    return replace(
        row,
        address_line1=v["address_line1"],
        address_line2=v["address_line2"],
        city=v["city"],
        state=v["state"],
        zip=v["zip"],
        phone=v["phone"],
        email=v["email"],
    )


def parse_contractor_rows(
    rows: Iterable[Row], columns: Sequence[str], where: str, sheet: str = ""
) -> ParsedContractors:
    """The rows as contractors; `columns` the file's headings, `where` the file's name (and
    sheet) for the error when there is no Name column."""
    matched = match_headings(columns, where)
    used = set(matched.values())
    out = ParsedContractors(
        file_name=where,
        sheet=sheet,
        columns_left_out=tuple(c for c in columns if c not in used),
    )
    kept: list[ContractorRow] = []
    for row in rows:
        out.rows_read += 1
        try:
            kept.append(read_row(row.values, matched, row.line))
        except _Bad as e:
            name = " ".join(row.values.get(matched["name"], "").split())
            out.rejected.append(Rejected(row.line, name, str(e)))

    # The same credential twice: every row that has it is rejected, naming the other rows.
    def credential_key(r: ContractorRow) -> tuple[str, str] | None:
        return (r.credential.value, r.credential_number.casefold()) if r.credential else None

    seen = Counter(k for r in kept if (k := credential_key(r)) is not None)
    twice = {k for k, n in seen.items() if n > 1}
    if twice:
        lines: dict[tuple[str, str], list[int]] = {}
        for r in kept:
            if (k := credential_key(r)) in twice:
                assert k is not None
                lines.setdefault(k, []).append(r.line)
        for r in kept:
            k = credential_key(r)
            if k in twice:
                assert k is not None and r.credential is not None
                others = [n for n in lines[k] if n != r.line]
                rows_text = ", ".join(str(n) for n in others[:5]) + (
                    ", …" if len(others) > 5 else ""
                )
                out.rejected.append(
                    Rejected(
                        r.line,
                        r.name,
                        f"{LABELS['credential_number']}: {r.credential.label.lower()} "
                        f"{r.credential_number} is also on row {rows_text}",
                    )
                )
        kept = [r for r in kept if credential_key(r) not in twice]
    out.rejected.sort(key=lambda r: r.line)
    out.rows = kept
    return out


# --- the register, as the dry run compares it ----------------------------------------------


@dataclass(frozen=True)
class RegisterCredential:
    id: int
    kind: CredentialKind
    number: str
    expires_on: date | None
    current: bool  # False: renewed (superseded), kept as history


@dataclass(frozen=True)
class RegisterPerson:
    """A person or organization of the register as the import compares it."""

    id: int
    name: str
    kind: PartyKind
    address_line1: str = ""
    address_line2: str = ""
    city: str = ""
    state: str = ""
    zip: str = ""
    phone: str = ""
    email: str = ""
    retired_on: date | None = None
    credentials: tuple[RegisterCredential, ...] = ()


class Lookups(Protocol):
    """How the dry run finds people on the register (desk.services.uow.PartyRepository)."""

    def by_credential(self, kind: CredentialKind, number: str) -> Sequence[RegisterPerson]:
        """Those holding a current credential of this kind and number (case aside)."""
        ...

    def by_name(self, name: str) -> Sequence[RegisterPerson]:
        """Those with this name (case and spacing aside), oldest first."""
        ...


# --- the dry run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NewPerson:
    lines: tuple[int, ...]
    person: ContractorRow  # the fields of all its rows (the first row's name and kind)


@dataclass(frozen=True)
class ChangedPerson:
    lines: tuple[int, ...]
    party_id: int
    name: str
    changes: tuple[FieldChange, ...]  # `new` is the value written (never blank)


@dataclass(frozen=True)
class AddedCredential:
    line: int
    name: str  # the person's, as the register has it (or the file, for a new person)
    party_id: int | None  # None: a person the import adds
    new_person: int | None  # that person's index in ContractorPlan.new
    kind: CredentialKind
    number: str
    expires_on: date | None


@dataclass(frozen=True)
class RenewedCredential:
    """A current credential superseded by a new one (another number, or another expiry)."""

    line: int
    name: str
    party_id: int
    credential_id: int  # the one superseded
    kind: CredentialKind
    old_number: str
    old_expires_on: date | None
    number: str
    expires_on: date | None


def expiry_text(expires_on: date | None) -> str:
    return f"expires {short_date(expires_on)}" if expires_on else "no expiry"


@dataclass
class ContractorPlan:
    """The dry run: what importing the file does if applied now."""

    new: list[NewPerson] = field(default_factory=list)
    changed: list[ChangedPerson] = field(default_factory=list)
    added: list[AddedCredential] = field(default_factory=list)
    renewed: list[RenewedCredential] = field(default_factory=list)
    unchanged: int = 0  # people on the register the file says nothing new about
    rejected: list[Rejected] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    rows_read: int = 0
    columns_left_out: tuple[str, ...] = ()

    @property
    def counts(self) -> dict[str, int]:
        return {
            "rows read": self.rows_read,
            "new": len(self.new),
            "changed": len(self.changed),
            "unchanged": self.unchanged,
            "credentials added": len(self.added),
            "credentials renewed": len(self.renewed),
            "rejected": len(self.rejected),
        }

    @property
    def writes(self) -> int:
        """The records the import would add or change."""
        return len(self.new) + len(self.changed) + len(self.added) + len(self.renewed)

    def summary(self) -> str:
        """'2 new, 1 changed, 5 unchanged; 3 credentials added, 1 renewed; 2 rejected'."""
        people = (
            f"{len(self.new):,} new, {len(self.changed):,} changed, {self.unchanged:,} unchanged"
        )
        added = len(self.added)
        credentials = (
            f"{added:,} credential{'' if added == 1 else 's'} added, {len(self.renewed):,} renewed"
        )
        text = f"{people}; {credentials}"
        if self.rejected:
            text += f"; {len(self.rejected):,} rejected"
        return text


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _zip5(text: str) -> str:
    return text.strip()[:5]


def _zips_agree(a: str, b: str) -> bool:
    return not a or not b or _zip5(a) == _zip5(b)


def _shown(value: str) -> str:
    return value or "(blank)"


def _names(people: Sequence[RegisterPerson]) -> str:
    return ", ".join(p.name + (f" ({p.zip})" if p.zip else "") for p in people)


class _Group:
    """The rows of one person: on the register (`person`), or new to it."""

    def __init__(self, first: ContractorRow, person: RegisterPerson | None) -> None:
        self.person = person
        self.first = first
        self.lines: list[int] = []
        self.values: dict[str, str] = {}
        self.value_lines: dict[str, int] = {}
        self.credential_lines: dict[CredentialKind, int] = {}
        self.credentials: list[AddedCredential | RenewedCredential] = []

    @property
    def zip(self) -> str:
        return self.values.get("zip", "") or (self.person.zip if self.person else "")

    def conflict(self, row: ContractorRow) -> str | None:
        for key in PERSON_FIELDS:
            mine, theirs = getattr(row, key), self.values.get(key, "")
            if mine and theirs and not _same(mine, theirs):
                return (
                    f"{LABELS[key]}: {mine} here, {theirs} on row {self.value_lines[key]} for "
                    "the same person"
                )
        return None

    def take(self, row: ContractorRow) -> None:
        self.lines.append(row.line)
        for key in PERSON_FIELDS:
            value = getattr(row, key)
            if value and key not in self.values:
                self.values[key] = value
                self.value_lines[key] = row.line


def plan_contractors(parsed: ParsedContractors, lookups: Lookups) -> ContractorPlan:
    """The dry run of `parsed` against the register, as `lookups` finds its people."""
    plan = ContractorPlan(
        rejected=list(parsed.rejected),
        rows_read=parsed.rows_read,
        columns_left_out=parsed.columns_left_out,
    )
    on_register: dict[int, _Group] = {}
    new: list[_Group] = []
    for row in parsed.rows:
        person, reason, note = _match(row, lookups)
        if reason is not None:
            plan.rejected.append(Rejected(row.line, row.name, reason))
            continue
        if person is not None:
            group = on_register.get(person.id) or _Group(row, person)
        else:
            found = (
                g for g in new if _same(g.first.name, row.name) and _zips_agree(g.zip, row.zip)
            )
            group = next(found, None) or _Group(row, None)
        reason = group.conflict(row)
        credential: AddedCredential | RenewedCredential | None = None
        if reason is None:
            credential, reason, history = _credential(row, group)
            if history is not None:
                plan.notes.append(history)
        if reason is not None:
            plan.rejected.append(Rejected(row.line, row.name, reason))
            continue
        if note is not None:
            plan.notes.append(note)
        if credential is not None:
            group.credentials.append(credential)
        group.take(row)
        if person is not None:
            on_register[person.id] = group
        elif group not in new:
            new.append(group)
    for index, group in enumerate(new):
        values = {key: group.values.get(key, "") for key in PERSON_FIELDS}
        if not values["state"] and any(values[k] for k in ("address_line1", "city", "zip")):
            values["state"] = DEFAULT_STATE
        first = group.first
        merged = _with_person(
            replace(first, credential=None, credential_number="", expires_on=None), values
        )
        plan.new.append(NewPerson(tuple(group.lines), merged))
        for c in group.credentials:
            assert isinstance(c, AddedCredential)
            plan.added.append(
                AddedCredential(c.line, first.name, None, index, c.kind, c.number, c.expires_on)
            )
    for group in on_register.values():
        person = group.person
        assert person is not None
        changes = tuple(
            FieldChange(key, LABELS[key], _shown(old), new_value)
            for key in PERSON_FIELDS
            if (new_value := group.values.get(key, ""))
            and not _same(old := getattr(person, key), new_value)
        )
        if changes:
            plan.changed.append(ChangedPerson(tuple(group.lines), person.id, person.name, changes))
        for c in group.credentials:
            if isinstance(c, AddedCredential):
                plan.added.append(c)
            else:
                plan.renewed.append(c)
        if not changes and not group.credentials:
            plan.unchanged += 1
    plan.changed.sort(key=lambda c: c.lines[0])
    plan.added.sort(key=lambda c: c.line)
    plan.renewed.sort(key=lambda c: c.line)
    plan.rejected.sort(key=lambda r: r.line)
    plan.notes.sort(key=lambda n: n.line)
    return plan


def _retired(person: RegisterPerson) -> str:
    assert person.retired_on is not None
    return f"matches {person.name}, retired on {short_date(person.retired_on)}"


def _match(
    row: ContractorRow, lookups: Lookups
) -> tuple[RegisterPerson | None, str | None, Note | None]:
    """(the person on the register, or None for a new one; the reason the row is rejected;
    a note)."""
    if row.credential is not None:
        holders = list(lookups.by_credential(row.credential, row.credential_number))
        active = [p for p in holders if p.retired_on is None]
        if len(active) > 1:
            return (
                None,
                f"{row.credential.label} {row.credential_number} is held by several on the "
                f"register ({_names(active)}); merge them in People first",
                None,
            )
        if active:
            person = active[0]
            note = None
            if not _same(person.name, row.name):
                note = Note(
                    row.line,
                    f"{row.credential.label} {row.credential_number} is held by "
                    f"{person.name} on the register; the file's name {row.name} is not applied",
                )
            return person, None, note
        if holders:
            return None, _retired(holders[0]), None
    same_name = [p for p in lookups.by_name(row.name) if _zips_agree(p.zip, row.zip)]
    active = [p for p in same_name if p.retired_on is None]
    if len(active) > 1:
        return (
            None,
            f"matches {len(active)} on the register ({_names(active)}); merge them in People "
            "first, or give the ZIP",
            None,
        )
    if active:
        return active[0], None, None
    if same_name:
        return None, _retired(same_name[0]), None
    return None, None, None


def _credential(
    row: ContractorRow, group: _Group
) -> tuple[AddedCredential | RenewedCredential | None, str | None, Note | None]:
    """What the row's credential does for its person: (added or renewed, or None when the
    register holds it already; the reason the row is rejected; a note)."""
    kind, number, expires_on = row.credential, row.credential_number, row.expires_on
    if kind is None:
        return None, None, None
    if kind in group.credential_lines:
        return (
            None,
            f"{LABELS['credential']}: a second {kind.label.lower()} for the same person "
            f"(row {group.credential_lines[kind]})",
            None,
        )
    person = group.person
    name = person.name if person is not None else row.name
    if person is None:
        group.credential_lines[kind] = row.line
        return AddedCredential(row.line, name, None, None, kind, number, expires_on), None, None
    held = [c for c in person.credentials if c.kind is kind]
    current = [c for c in held if c.current]
    same = [c for c in current if _same(c.number, number)]
    group.credential_lines[kind] = row.line
    if same:
        c = same[0]
        if expires_on is None or expires_on == c.expires_on:
            return None, None, None
        renewal = RenewedCredential(
            row.line, name, person.id, c.id, kind, c.number, c.expires_on, c.number, expires_on
        )
        return renewal, None, None
    if any(_same(c.number, number) for c in held) and current:
        newer = ", ".join(c.number for c in current)
        note = Note(
            row.line,
            f"{name}: the file has the earlier {kind.label.lower()} {number}; the register's "
            f"{newer} replaced it and is kept",
        )
        return None, None, note
    if len(current) == 1:
        c = current[0]
        renewal = RenewedCredential(
            row.line, name, person.id, c.id, kind, c.number, c.expires_on, number, expires_on
        )
        return renewal, None, None
    return AddedCredential(row.line, name, person.id, None, kind, number, expires_on), None, None
