"""The People section and a person's window without Qt: the list's filters, columns and counts,
a record's status in words, the form of the edit dialog, the words before a merge and a
renewal, the person window's header and tables (credentials with their renewals as history,
roles on permits, bonds and certificates, payments), and its History read from the audit trail
as on a permit's History tab. The rows come from db/party_queries.py; the writes are
desk/services/people/'s."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, tzinfo
from typing import Protocol

from db.audit_queries import HistoryLookup
from db.party_queries import (
    EXPIRING_DAYS,
    CredentialFact,
    PartyFacts,
    PartyFilter,
    PartyRow,
)
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.kinds import kind_label
from desk.domain.model import Actor, AuditEntry
from desk.domain.permissions import Permission, allowed
from desk.domain.records import MergePreview
from desk.errors import ValidationError
from desk.money import format_money
from desk.services.people.edit import PartyEdit, checked
from ui.presenters.formatting import EMPTY, count_of, format_date
from ui.presenters.history import HistoryPresenter, HistoryRow
from ui.presenters.paging import PAGE_SIZE, PagedList, WholeList
from ui.presenters.record_window import Step
from ui.presenters.registers import Line, item_at, row_of

SECTION_TITLE = "People"
COLUMNS = ("Name", "Kind", "Address", "Phone", "Credentials", "Permits", "Status")
FILTERS: tuple[tuple[str, PartyFilter], ...] = (
    ("Active", PartyFilter.ACTIVE),
    ("Retired", PartyFilter.RETIRED),
    ("All", PartyFilter.ALL),
    ("Contractors (holding a credential)", PartyFilter.CONTRACTORS),
    (f"Credential expiring in {EXPIRING_DAYS} days", PartyFilter.EXPIRING),
)
ACTIVE = "Active"
KIND_WORDS = {PartyKind.PERSON: "Person", PartyKind.ORGANIZATION: "Organization"}
MANAGE_WHY = (
    "The clerk, the inspector, the engineer or the administrator adds and corrects people's "
    "records."
)
IMPORT_WHY = "The clerk or the administrator imports contractors."


# --- words ----------------------------------------------------------------------------------


def credential_words(c: HeldCredential | CredentialFact) -> str:
    """'Master plumber MP-1234 to 12/31/2027' (no date when it has no expiry)."""
    until = f" to {format_date(c.expires_on)}" if c.expires_on else ""
    return f"{c.kind.label} {c.number}{until}"


def status_words(retired_on: date | None, merged_into: str) -> str:
    """'Active', 'Retired 03/02/2026', 'Merged into Badger State Builders LLC'."""
    if merged_into:
        return f"Merged into {merged_into}"
    if retired_on is not None:
        return f"Retired {format_date(retired_on)}"
    return ACTIVE


def manage_allowed(actor: Actor) -> tuple[bool, str]:
    return (True, "") if allowed(actor, Permission.MANAGE_PARTIES) else (False, MANAGE_WHY)


def import_allowed(actor: Actor) -> tuple[bool, str]:
    return (True, "") if allowed(actor, Permission.IMPORT_DATA) else (False, IMPORT_WHY)


def _expired(c: HeldCredential | CredentialFact, today: date) -> bool:
    return c.expires_on is not None and c.expires_on < today


# --- the list -------------------------------------------------------------------------------


class PeopleSource(Protocol):
    """The list's records: how many the filter and the search find, and a page of them."""

    def count(self, which: PartyFilter, text: str) -> int: ...

    def page(self, which: PartyFilter, text: str, offset: int, limit: int) -> list[PartyRow]: ...


def party_line(r: PartyRow, today: date) -> Line:
    """A row of the list; a current credential past its expiry shows in the warning colour."""
    return Line(
        r,
        (
            r.name,
            KIND_WORDS.get(r.kind, str(r.kind)),
            r.address or EMPTY,
            r.phone or EMPTY,
            "; ".join(credential_words(c) for c in r.credentials) or EMPTY,
            f"{r.permits:,}" if r.permits else EMPTY,
            status_words(r.retired_on, r.merged_into),
        ),
        warn=any(_expired(c, today) for c in r.credentials) and r.retired_on is None,
    )


class PeopleListPresenter(PagedList[PartyRow]):
    """The records the filter and the search find: their number (one COUNT) and the rows read
    so far, a page of `page_size` at a time as the list is scrolled (ui/views/paged.py)."""

    columns = COLUMNS

    def __init__(
        self,
        source: PeopleSource | Callable[[PartyFilter, str], list[PartyRow]],
        today: Callable[[], date],
        actor: Actor,
        page_size: int = PAGE_SIZE,
    ) -> None:
        super().__init__(page_size)
        self.source: PeopleSource = WholeList(source) if callable(source) else source
        self.today = today
        self.actor = actor
        self.which = PartyFilter.ACTIVE

    def _count(self) -> int:
        return self.source.count(self.which, self.text)

    def _page(self, offset: int, limit: int) -> list[PartyRow]:
        return self.source.page(self.which, self.text, offset, limit)

    def _lines(self, found: list[PartyRow]) -> list[Line]:
        today = self.today()
        return [party_line(r, today) for r in found]

    def party(self, row: int) -> PartyRow | None:
        return item_at(self.rows, row, PartyRow)

    def row_of(self, party_id: int) -> int:
        """The row of the record among those read (-1: not read, or not found)."""
        return row_of(self.rows, party_id, "party_id")

    @property
    def filter_label(self) -> str:
        return next(label for label, f in FILTERS if f is self.which)

    @property
    def summary(self) -> str:
        found = count_of(self.count, "person or organization", "people and organizations")
        return f"{found}: {self.filter_label[:1].lower()}{self.filter_label[1:]}"

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No one matches “{self.text.strip()}”."
        if self.which in (PartyFilter.ACTIVE, PartyFilter.ALL):
            return "No people or organizations yet. New person… adds one."
        return f"No one: {self.filter_label[:1].lower()}{self.filter_label[1:]}."

    def detail(self, row: int) -> str:
        r = self.party(row)
        if r is None:
            return ""
        parts = [r.name]
        if r.email:
            parts.append(r.email)
        parts.append("on " + count_of(r.permits, "permit"))
        expired = [c for c in r.credentials if _expired(c, self.today())]
        if expired:
            parts.append(
                "expired: " + ", ".join(f"{c.kind.label.lower()} {c.number}" for c in expired)
            )
        return " · ".join(parts) + ". Enter opens the record."

    # --- which buttons work -----------------------------------------------------------------

    def can_manage(self) -> tuple[bool, str]:
        return manage_allowed(self.actor)

    def can_import(self) -> tuple[bool, str]:
        return import_allowed(self.actor)

    def can_open(self, row: int) -> tuple[bool, str]:
        return (True, "") if self.party(row) else (False, "Select a person or organization.")

    def _chosen(self, row: int) -> tuple[PartyRow | None, tuple[bool, str]]:
        ok = self.can_manage()
        r = self.party(row)
        if not ok[0]:
            return r, ok
        if r is None:
            return None, (False, "Select a person or organization.")
        return r, (True, "")

    def can_edit(self, row: int) -> tuple[bool, str]:
        r, ok = self._chosen(row)
        if r is not None and ok[0] and r.retired_on is not None:
            return False, f"{r.name} is retired: restore the record first."
        return ok

    def can_retire(self, row: int) -> tuple[bool, str]:
        r, ok = self._chosen(row)
        if r is not None and ok[0] and r.retired_on is not None:
            return False, f"{r.name} was retired on {format_date(r.retired_on)}."
        return ok

    def can_restore(self, row: int) -> tuple[bool, str]:
        r, ok = self._chosen(row)
        if r is None or not ok[0]:
            return ok
        if r.merged_into:
            return False, f"{r.name} was merged into {r.merged_into}; it stays retired."
        if r.retired_on is None:
            return False, f"{r.name} is not retired."
        return ok

    def can_merge(self, row: int) -> tuple[bool, str]:
        r, ok = self._chosen(row)
        if r is not None and ok[0] and r.merged_into:
            return False, f"{r.name} was merged into {r.merged_into} already."
        return ok


# --- the edit form --------------------------------------------------------------------------

# (field of PartyEdit, label with its mnemonic), in the order of the form: the paper's order.
FORM_FIELDS: tuple[tuple[str, str], ...] = (
    ("kind", "&Kind:"),
    ("name", "&Name:"),
    ("first_name", "&First name:"),
    ("last_name", "&Last name:"),
    ("address_line1", "&Address:"),
    ("address_line2", "Address line &2:"),
    ("city", "&City:"),
    ("state", "S&tate:"),
    ("zip", "&ZIP:"),
    ("phone", "&Phone:"),
    ("email", "&Email:"),
    ("notes", "N&otes:"),
)
# The words a service's ValidationError names a field by, to the form's field.
ERROR_FIELDS = {
    "name": "name",
    "first name": "first_name",
    "last name": "last_name",
    "address": "address_line1",
    "address line 2": "address_line2",
    "city": "city",
    "state": "state",
    "ZIP": "zip",
    "phone": "phone",
    "email": "email",
    "e-mail": "email",
    "notes": "notes",
}


def form_values(f: PartyFacts) -> dict[str, str]:
    """The edit form's fields as the record holds them."""
    return {
        "kind": f.kind.value,
        "name": f.name,
        "first_name": f.first_name,
        "last_name": f.last_name,
        "address_line1": f.address_line1,
        "address_line2": f.address_line2,
        "city": f.city,
        "state": f.state,
        "zip": f.zip,
        "phone": f.phone,
        "email": f.email,
        "notes": f.notes,
    }


def edit_from(values: Mapping[str, str]) -> PartyEdit:
    """The form's values as a checked PartyEdit (ValidationError names the field in words). A
    person's first and last names are kept only for a person."""
    kind = PartyKind(values.get("kind", PartyKind.PERSON.value))
    person = kind is PartyKind.PERSON
    return checked(
        PartyEdit(
            kind=kind,
            name=values.get("name", ""),
            first_name=values.get("first_name", "") if person else "",
            last_name=values.get("last_name", "") if person else "",
            address_line1=values.get("address_line1", "").strip(),
            address_line2=values.get("address_line2", "").strip(),
            city=values.get("city", "").strip(),
            state=values.get("state", "").strip().upper(),
            zip=values.get("zip", "").strip(),
            phone=values.get("phone", "").strip(),
            email=values.get("email", "").strip(),
            notes=values.get("notes", ""),
        )
    )


def changed_fields(f: PartyFacts, edit: PartyEdit) -> list[str]:
    """The fields the edit changes, in words ('phone', 'address'): nothing saved when none."""
    before = form_values(f)
    words = {name: label.replace("&", "").rstrip(":").lower() for name, label in FORM_FIELDS}
    return [
        words[name]
        for name, _label in FORM_FIELDS
        if str(getattr(edit, name).value if name == "kind" else getattr(edit, name)) != before[name]
    ]


# --- retiring and merging -------------------------------------------------------------------


def retire_note(f: PartyFacts) -> str:
    roles = count_of(len(f.roles), "role") + " on permits"
    return (
        f"{f.name} is no longer offered when a permit, a payment or a notice names someone. "
        f"Nothing is deleted: the {roles}, the payments and the notices that name this record "
        "keep it. Say why it is retired; the reason is kept in its history."
    )


def choice_words(r: PartyRow) -> str:
    """A record in the merge dialog's lists, told apart from a namesake: 'Dahl Plumbing LLC —
    N89 W14650 Pilgrim Rd, Brookfield · 168 permits · #296'."""
    parts = [r.address or "no address", "on " + count_of(r.permits, "permit")]
    if r.phone:
        parts.insert(1, r.phone)
    return f"{r.name} — {' · '.join(parts)} · #{r.party_id}"


def merge_lines(preview: MergePreview) -> list[str]:
    """What merging moves, one line each (the references, then what else happens)."""
    lines = preview.lines
    if not preview.references:
        lines = ["Nothing on the register names the duplicate.", *lines]
    return lines


def merge_counts(preview: MergePreview) -> str:
    """'3 records: Role on a permit 2, Payment 1.' over the list of them."""
    kinds: dict[str, int] = {}
    for r in preview.references:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    if not kinds:
        return "No record names the duplicate."
    each = ", ".join(f"{kind} {n}" for kind, n in kinds.items())
    return f"{count_of(len(preview.references), 'record')}: {each}."


def merge_question(preview: MergePreview) -> str:
    moved = count_of(len(preview.references), "record")
    return (
        f"Merge {preview.duplicate} into {preview.kept}?\n\n"
        f"{moved} move to the record kept and the duplicate is retired. A merge is not "
        "undone."
    )


# --- credentials ----------------------------------------------------------------------------

CREDENTIAL_KINDS: tuple[tuple[str, CredentialKind], ...] = tuple(
    (k.label, k) for k in CredentialKind
)
RENEWAL_YEARS = 2  # the state's trade credentials mostly run two years: a default to edit


def renewal_expiry(old: CredentialFact, today: date) -> date:
    """The expiry the renewal form starts with: two years after the old one (or today)."""
    base = old.expires_on or today
    try:
        return base.replace(year=base.year + RENEWAL_YEARS)
    except ValueError:  # 29 February
        return base.replace(year=base.year + RENEWAL_YEARS, day=28)


def check_renewal(old: CredentialFact, number: str, expires_on: date | None) -> None:
    """A renewal that changes nothing is refused before the service records a copy."""
    if " ".join(number.split()) == old.number and expires_on == old.expires_on:
        raise ValidationError(
            "licence number", "enter the new number or the new expiry date: nothing changed"
        )


# --- the person window ----------------------------------------------------------------------

CREDENTIAL_COLUMNS = ("Credential", "Number", "State", "Expires", "Recorded", "Status")
PERMIT_COLUMNS = ("Permit", "Applied", "Kind", "Role", "Address", "Status")
BOND_COLUMNS = ("Record", "Number", "Amount", "Effective", "Expires", "Status")
PAYMENT_COLUMNS = ("Receipt", "Date", "Amount", "Method", "For", "Note")
OTHER_COLUMNS = ("Record", "Number", "Date", "Status")
STEP_LABELS = (
    ("edit", "&Edit…"),
    ("retire", "&Retire…"),
    ("restore", "Re&store"),
    ("merge", "&Merge…"),
)
CREDENTIAL_STEPS = (("add_credential", "&Add credential…"), ("renew", "Re&new…"))
EDIT_KEY = "Ctrl+E"


def credential_status(c: CredentialFact, by_id: Mapping[int, CredentialFact], today: date) -> str:
    """'current', 'expired', or 'renewed 03/02/2026 → MP-5678' (a credential kept as history,
    with what replaced it and when that was recorded)."""
    if c.superseded_by_id is None:
        return "expired" if _expired(c, today) else "current"
    new = by_id.get(c.superseded_by_id)
    if new is None:
        return "renewed"
    when = f" {format_date(new.recorded_on)}" if new.recorded_on else ""
    until = (
        f" to {format_date(new.expires_on)}" if new.number == c.number and new.expires_on else ""
    )
    return f"renewed{when} → {new.number}{until}"


def credential_rows(f: PartyFacts, today: date) -> list[Line]:
    """The current credentials first, then those renewed, newest first."""
    by_id = {c.id: c for c in f.credentials}
    current = [c for c in f.credentials if c.current]
    history = sorted((c for c in f.credentials if not c.current), key=lambda c: -c.id)
    return [
        Line(
            c,
            (
                c.kind.label,
                c.number,
                c.issuing_state,
                format_date(c.expires_on) or "no expiry",
                format_date(c.recorded_on) or EMPTY,
                credential_status(c, by_id, today),
            ),
            warn=c.current and _expired(c, today),
        )
        for c in current + history
    ]


def permit_rows(f: PartyFacts, municipality_key: str) -> list[Line]:
    return [
        Line(
            r,
            (
                r.number or "Application",
                format_date(r.applied_on) or EMPTY,
                kind_label(municipality_key, r.kind),
                r.role.label,
                r.address or EMPTY,
                r.status.label,
            ),
        )
        for r in f.roles
    ]


def bond_rows(f: PartyFacts, today: date) -> list[Line]:
    out = []
    for b in f.bonds:
        lapsed = b.expires_on is not None and b.expires_on < today and b.status.value == "in_force"
        out.append(
            Line(
                b,
                (
                    f"Bond: {b.purpose.label}",
                    b.number or EMPTY,
                    format_money(b.amount),
                    format_date(b.effective_on),
                    format_date(b.expires_on) or EMPTY,
                    "expired" if lapsed else b.status.label.lower(),
                ),
                warn=lapsed,
            )
        )
    for c in f.certificates:
        lapsed = c.expires_on < today
        what = f"Insurance: {c.insurer}" + (" (association member)" if c.member else "")
        out.append(
            Line(
                c,
                (
                    what,
                    c.policy or EMPTY,
                    EMPTY,
                    format_date(c.effective_on),
                    format_date(c.expires_on),
                    "expired" if lapsed else "in force",
                ),
                warn=lapsed,
            )
        )
    return out


_REVERSED = {"void": "voided", "nsf": "check returned unpaid"}


def payment_rows(f: PartyFacts) -> list[Line]:
    out = [
        Line(
            p,
            (
                p.receipt_number,
                format_date(p.day),
                format_money(p.amount),
                p.method.label,
                ", ".join(p.permits) or EMPTY,
                _REVERSED.get(p.reversed, ""),
            ),
            warn=bool(p.reversed),
        )
        for p in f.payments
    ]
    out += [
        Line(
            d,
            (
                "Street deposit",
                format_date(d.received_on) or EMPTY,
                format_money(d.amount),
                EMPTY,
                d.permit,
                d.status.value.replace("_", " "),
            ),
        )
        for d in f.deposits
    ]
    return out


def other_rows(f: PartyFacts, today: date) -> list[Line]:
    """City licences, rooming-house licences operated and notices of violation addressed."""
    out = []
    for c in f.city_licences:
        if c.revoked_on is not None:
            state = f"revoked {format_date(c.revoked_on)}"
        else:
            state = "expired" if c.expires_on < today else "in force"
        out.append(
            Line(
                c,
                (
                    f"City {c.trade} licence",
                    c.number,
                    f"{format_date(c.granted_on)} to {format_date(c.expires_on)}",
                    state,
                ),
                warn=c.revoked_on is not None,
            )
        )
    for r in f.rooming_licences:
        out.append(
            Line(
                r,
                (
                    f"Rooming house operated: {r.address}",
                    r.number or "Application",
                    f"to {format_date(r.expires_on)}" if r.expires_on else EMPTY,
                    r.state.value,
                ),
            )
        )
    for n in f.notices:
        kind = "Emergency order" if n.kind.value == "emergency" else "Notice of violation"
        out.append(
            Line(n, (f"{kind} ({n.role.value})", n.case_number, format_date(n.issued_on), ""))
        )
    return out


@dataclass(frozen=True)
class Header:
    title: str
    chip: str
    tone: str  # the style sheet's status name for the chip's colour
    address: str
    contact: str


def header(f: PartyFacts) -> Header:
    if f.merged_into_id is not None:
        chip, tone = f"Merged into {f.merged_into}", ""
    elif f.retired_on is not None:
        chip, tone = f"Retired {format_date(f.retired_on)}", "expired"
    else:
        chip, tone = "Active", "issued"
    kind = KIND_WORDS.get(f.kind, str(f.kind))
    contact = " · ".join(x for x in (f.phone, f.email) if x) or "No phone or e-mail on record"
    return Header(f.name, chip, tone, f"{kind} · {f.address or 'no address on record'}", contact)


def summary_fields(f: PartyFacts) -> list[tuple[str, str]]:
    """(label, value) of the Summary tab: the record as the edit form holds it, then its
    status and what it is named on."""
    kind = KIND_WORDS.get(f.kind, str(f.kind))
    out = [("Kind", kind), ("Name", f.name)]
    if f.kind is PartyKind.PERSON:
        out += [("First name", f.first_name or EMPTY), ("Last name", f.last_name or EMPTY)]
    city = f"{f.city}, {f.state} {f.zip}".strip(" ,") if (f.city or f.zip) else ""
    mailing = "\n".join(x for x in (f.address_line1, f.address_line2, city) if x)
    out += [
        ("Mailing address", mailing or EMPTY),
        ("Phone", f.phone or EMPTY),
        ("E-mail", f.email or EMPTY),
        ("Notes", f.notes.strip() or EMPTY),
    ]
    if f.merged_into_id is not None:
        status = f"Merged into {f.merged_into} on {format_date(f.retired_on)}"
    elif f.retired_on is not None:
        by = f" by {f.retired_by}" if f.retired_by else ""
        status = f"Retired {format_date(f.retired_on)}{by}: {f.retired_reason}"
    else:
        status = "Active"
    out.append(("Status", status))
    if f.merged_from:
        out.append(("Merged into it", ", ".join(f"{n} (#{i})" for i, n in f.merged_from)))
    permits = len({r.permit_id for r in f.roles})
    out.append(
        (
            "On permits",
            f"{count_of(len(f.roles), 'role')} on {count_of(permits, 'permit')}"
            if f.roles
            else "none",
        )
    )
    current = f.current_credentials
    out.append(("Credentials", "; ".join(credential_words(c) for c in current) or "none"))
    if f.credit:
        out.append(("Credit on account", format_money(f.credit)))
    return out


def steps(f: PartyFacts, actor: Actor) -> list[Step]:
    """The window's steps with whether this user may take them now, and why not."""
    ok = manage_allowed(actor)
    retired = f.retired_on is not None

    def may(why_not: str | None) -> tuple[bool, str]:
        if not ok[0]:
            return ok
        return (False, why_not) if why_not else (True, "")

    when = f"{f.name} is retired: restore the record first." if retired else None
    restore = None
    if f.merged_into_id is not None:
        restore = f"{f.name} was merged into {f.merged_into}; it stays retired."
    elif not retired:
        restore = f"{f.name} is not retired."
    labels = dict(STEP_LABELS + CREDENTIAL_STEPS)
    current = f.current_credentials
    return [
        Step("edit", labels["edit"], may(when)),
        Step(
            "retire",
            labels["retire"],
            may(f"{f.name} was retired on {format_date(f.retired_on)}." if retired else None),
        ),
        Step("restore", labels["restore"], may(restore)),
        Step(
            "merge",
            labels["merge"],
            may(
                f"{f.name} was merged into {f.merged_into}."
                if f.merged_into_id is not None
                else when
            ),
        ),
        Step("add_credential", labels["add_credential"], may(when)),
        Step(
            "renew",
            labels["renew"],
            may(when or (None if current else "No current credential to renew.")),
        ),
    ]


def renew_allowed(
    c: CredentialFact | None, may: tuple[bool, str], any_current: bool = True
) -> tuple[bool, str]:
    """Renew… for the credential selected: a current one (one renewed already is history)."""
    if not may[0]:
        return may
    if not any_current:
        return False, "No current credential to renew: Add credential… records one."
    if c is None:
        return False, "Select the credential to renew."
    if not c.current:
        return False, f"{c.kind.label} {c.number} was renewed already: select the current one."
    return True, ""


# --- History --------------------------------------------------------------------------------


class PartyHistoryPresenter(HistoryPresenter):
    """The record's audit rows (its own, those of records merged into it, its credentials')
    read as on a permit's History tab, each event named in the register's words."""

    def __init__(
        self,
        entries: Sequence[AuditEntry],
        party_id: int,
        credentials: Mapping[int, CredentialFact],
        names: Mapping[int, str],
        *,
        lookup: HistoryLookup | None = None,
        tz: tzinfo | None = None,
        municipality_key: str = "",
    ) -> None:
        self.party_id = party_id
        self.credentials = dict(credentials)
        self.names = dict(names)  # party id -> name: merged records and the one merged into
        super().__init__(entries, municipality_key, lookup=lookup, tz=tz)

    def value_text(self, field_name: str, value: str | None, entity: str = "") -> str:
        if value and value.isdigit():
            if field_name == "superseded_by_id":
                c = self.credentials.get(int(value))
                return f"{c.kind.label} {c.number}" if c else "a newer credential"
            if field_name == "merged_into_id":
                return self.names.get(int(value), "another record")
        if entity == "credential" and field_name == "kind" and value:
            try:
                return CredentialKind(value).label
            except ValueError:
                pass
        return super().value_text(field_name, value, entity)

    def describe(self, entry: AuditEntry) -> str:
        changed = {c.field: c for c in entry.changes}
        if entry.entity == "credential":
            c = self.credentials.get(entry.entity_id)
            what = f"{c.kind.label} {c.number}" if c else "Credential"
            if entry.action == "create":
                return f"Credential recorded: {what}"
            if "superseded_by_id" in changed:
                return f"Credential renewed: {what}"
            if "party_id" in changed:
                return f"Credential moved here by a merge: {what}"
            return f"Credential changed: {what}"
        own = entry.entity_id == self.party_id
        name = "Record" if own else self.names.get(entry.entity_id, "A duplicate record")
        if entry.action == "create":
            return f"{name} created" if own else f"{name} (merged into this one) created"
        if "merged_into_id" in changed and changed["merged_into_id"].new:
            if own:
                into = self.value_text("merged_into_id", changed["merged_into_id"].new)
                return f"Merged into {into}"
            return f"{name} merged into this record"
        if "retired_on" in changed:
            return "Retired" if changed["retired_on"].new else "Restored"
        return "Record changed" if own else f"{name} changed"

    def _rows(self) -> list[HistoryRow]:
        rows = super()._rows()
        # One event per audit row here (no money moves, no checklist): row.event is the
        # entry's place in the newest-first order the base presenter reads them in.
        ordered = sorted(self.entries, key=lambda e: e.at, reverse=True)
        return [
            replace(r, what=self.describe(ordered[r.event]))
            if not r.accounting and r.event < len(ordered)
            else r
            for r in rows
        ]

    @property
    def empty_text(self) -> str:
        return "No changes recorded for this record."
