"""Read side of the People section and a person's window: the people and organizations of the
register, searched and filtered in SQL and read a page at a time; everything a person's record
holds (credentials with their renewals, roles on permits, bonds and certificates, licences,
payments, deposits, notices addressed); and the record's history from the audit trail. Frozen
rows, safe across threads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, func, literal, or_, select

from db import schema
from db.queries import audit_entry
from desk.domain.cashiering import PaymentMethod
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, PartyKind, PartyRole, PermitStatus
from desk.domain.model import AuditEntry, DepositState
from desk.domain.sureties import BondKind, BondPurpose, BondStatus
from desk.enforcement.licences import LicenceState
from desk.enforcement.model import AddresseeRole, NoticeKind

pa = schema.party
cr = schema.credential
pp = schema.permit_party

EXPIRING_DAYS = 60  # the list's "credential expiring" filter looks this far ahead
PHONE_DIGITS = 7  # a word of this many digits is also looked for in the phones' digits alone


class PartyFilter(StrEnum):
    ACTIVE = "active"
    CONTRACTORS = "contractors"  # holding a current state credential
    EXPIRING = "expiring"  # a current credential expiring within EXPIRING_DAYS
    RETIRED = "retired"  # retired or merged into another record
    ALL = "all"


def one_line_address(line1: str, line2: str, city: str, state: str, zip_code: str) -> str:
    """'6120 N Port Washington Rd, Glendale, WI 53217'; no bare state without city or ZIP."""
    city_line = f"{city}, {state} {zip_code}".strip(" ,") if (city or zip_code) else ""
    return ", ".join(x for x in (line1, line2, city_line) if x)


# --- the list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PartyRow:
    party_id: int
    name: str
    kind: PartyKind
    address: str  # on one line
    phone: str
    email: str
    credentials: tuple[HeldCredential, ...]  # the current ones (renewed ones left out)
    permits: int  # the permits it has a role on
    retired_on: date | None
    merged_into: str  # the name of the record it was merged into; "" when it was not


def _current() -> ColumnElement[bool]:
    return cr.c.superseded_by_id.is_(None)


def _filter(which: PartyFilter, today: date) -> ColumnElement[bool]:
    active = pa.c.retired_on.is_(None)
    if which is PartyFilter.ACTIVE:
        return active
    if which is PartyFilter.RETIRED:
        return pa.c.retired_on.is_not(None)
    if which is PartyFilter.CONTRACTORS:
        return active & pa.c.id.in_(select(cr.c.party_id).where(_current()))
    if which is PartyFilter.EXPIRING:
        soon = cr.c.expires_on.between(today, today + timedelta(days=EXPIRING_DAYS))
        return active & pa.c.id.in_(select(cr.c.party_id).where(_current() & soon))
    return literal(True)


def _digits(column: Any) -> Any:
    """The column with the punctuation of a phone number taken out: '(414) 555-0100' ->
    '4145550100', so '4145550100' or '555-0100' finds it."""
    for ch in ("-", " ", "(", ")", ".", "+", "/"):
        column = func.replace(column, ch, "")
    return column


def _escaped(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


_SEARCHED = (
    pa.c.name,
    pa.c.address_line1,
    pa.c.address_line2,
    pa.c.city,
    pa.c.zip,
    pa.c.phone,
    pa.c.email,
)


def _where(today: date, which: PartyFilter, text: str, sqlite: bool) -> ColumnElement[bool]:
    """The filter, and each word of `text` (any case) in the name, the address, the phone, the
    e-mail or the number of a credential the person holds or held. The credentials matching a
    word are found once (uncorrelated IN), not per person.

    At 50,000 records each word is a scan, so the cheapest test per row: SQLite's LIKE ignores
    the case of ASCII letters itself (lower() on each column tripled the time); PostgreSQL's
    ILIKE on seven columns took 150 ms, the name then the other six joined and lowered about
    a third of it. A word has no space, so it never matches across two columns joined by one."""
    where = _filter(which, today)
    joined = func.lower(func.concat_ws(" ", *_SEARCHED[1:]))
    for word in text.lower().split():
        like = f"%{_escaped(word)}%"
        numbers = select(cr.c.party_id).where(func.lower(cr.c.number).like(like, escape="\\"))
        if sqlite:
            matches = [column.like(like, escape="\\") for column in _SEARCHED]
        else:
            matches = [
                func.lower(pa.c.name).like(like, escape="\\"),
                joined.like(like, escape="\\"),
            ]
        matches.append(pa.c.id.in_(numbers))
        digits = re.sub(r"\D", "", word)
        if len(digits) >= PHONE_DIGITS:  # a phone number typed with other punctuation
            matches.append(_digits(pa.c.phone).like(f"%{digits}%"))
        where = where & or_(*matches)
    return where


@lru_cache(maxsize=128)
def _count_statement(today: date, which: PartyFilter, text: str, sqlite: bool) -> Select[Any]:
    return select(func.count()).select_from(pa).where(_where(today, which, text, sqlite))


@lru_cache(maxsize=128)
def _rows_statement(
    today: date, which: PartyFilter, text: str, limit: int | None, offset: int, sqlite: bool
) -> Select[Any]:
    return (
        select(
            pa.c.id,
            pa.c.name,
            pa.c.kind,
            pa.c.address_line1,
            pa.c.address_line2,
            pa.c.city,
            pa.c.state,
            pa.c.zip,
            pa.c.phone,
            pa.c.email,
            pa.c.retired_on,
            pa.c.merged_into_id,
        )
        .where(_where(today, which, text, sqlite))
        .order_by(pa.c.name, pa.c.id)
        .limit(limit)
        .offset(offset)
    )


def _sqlite(conn: Connection) -> bool:
    return conn.dialect.name == "sqlite"


def party_count(
    conn: Connection, today: date, which: PartyFilter = PartyFilter.ACTIVE, text: str = ""
) -> int:
    """How many people and organizations party_rows would list (the section's count)."""
    text = " ".join(text.split())
    return int(conn.execute(_count_statement(today, which, text, _sqlite(conn))).scalar_one())


def party_rows(
    conn: Connection,
    today: date,
    which: PartyFilter = PartyFilter.ACTIVE,
    text: str = "",
    limit: int | None = None,
    offset: int = 0,
) -> list[PartyRow]:
    """The people and organizations by name, filtered and searched in SQL, `limit` from
    `offset` (a page of the list); their current credentials and roles on permits read for the
    page's ids only."""
    text = " ".join(text.split())
    stmt = _rows_statement(today, which, text, limit, offset, _sqlite(conn))
    return _rows_of(conn, conn.execute(stmt))


def party_row(conn: Connection, party_id: int) -> PartyRow | None:
    """One record as the list shows it."""
    everyone = _rows_statement(date.min, PartyFilter.ALL, "", None, 0, _sqlite(conn))
    stmt = everyone.where(pa.c.id == party_id)
    found = _rows_of(conn, conn.execute(stmt))
    return found[0] if found else None


def _rows_of(conn: Connection, result: Any) -> list[PartyRow]:
    found = result.tuples().all()
    ids = [r[0] for r in found]
    held: dict[int, list[HeldCredential]] = {}
    roles: dict[int, int] = {}
    merged: dict[int, str] = {}
    if ids:
        for party_id, kind, number, expires_on in conn.execute(
            select(cr.c.party_id, cr.c.kind, cr.c.number, cr.c.expires_on)
            .where(cr.c.party_id.in_(ids) & _current())
            .order_by(cr.c.party_id, cr.c.id)
        ).tuples():
            held.setdefault(party_id, []).append(HeldCredential(kind, number, expires_on))
        # The permits each is named on (a plumber who also applied is on the permit once).
        roles = {
            int(party_id): int(n)
            for party_id, n in conn.execute(
                select(pp.c.party_id, func.count(pp.c.permit_id.distinct()))
                .where(pp.c.party_id.in_(ids))
                .group_by(pp.c.party_id)
            ).tuples()
        }
        into = {r[11] for r in found if r[11] is not None}
        if into:
            merged = {
                int(i): str(n)
                for i, n in conn.execute(select(pa.c.id, pa.c.name).where(pa.c.id.in_(into)))
            }
    return [
        PartyRow(
            party_id=pid,
            name=name,
            kind=kind,
            address=one_line_address(line1, line2, city, state, zip_code),
            phone=phone,
            email=email,
            credentials=tuple(held.get(pid, ())),
            permits=roles.get(pid, 0),
            retired_on=retired_on,
            merged_into=merged.get(merged_into_id, "") if merged_into_id is not None else "",
        )
        for (
            pid,
            name,
            kind,
            line1,
            line2,
            city,
            state,
            zip_code,
            phone,
            email,
            retired_on,
            merged_into_id,
        ) in found
    ]


def party_id_by_name(conn: Connection, text: str) -> int | None:
    """The record named exactly `text` (any case; a record still in use before a retired one),
    or the record whose id `text` is ('512' or '#512')."""
    wanted = " ".join(text.split())
    if wanted.lstrip("#").isdigit():
        found = conn.execute(
            select(pa.c.id).where(pa.c.id == int(wanted.lstrip("#")))
        ).scalar_one_or_none()
        if found is not None:
            return int(found)
    row = conn.execute(
        select(pa.c.id)
        .where(func.lower(pa.c.name) == wanted.lower())
        .order_by(pa.c.retired_on.is_not(None), pa.c.id)
        .limit(1)
    ).scalar_one_or_none()
    return None if row is None else int(row)


# --- a person's record ----------------------------------------------------------------------


@dataclass(frozen=True)
class CredentialFact:
    id: int
    kind: CredentialKind
    number: str
    issuing_state: str
    expires_on: date | None
    recorded_on: date | None
    superseded_by_id: int | None  # renewed (or corrected): the credential that replaced it

    @property
    def current(self) -> bool:
        return self.superseded_by_id is None


@dataclass(frozen=True)
class RoleFact:
    permit_id: int
    number: str | None  # None: an application not issued yet
    applied_on: date | None
    kind: str  # the permit kind's code
    role: PartyRole
    status: PermitStatus
    address: str


@dataclass(frozen=True)
class BondFact:
    id: int
    number: str
    kind: BondKind
    purpose: BondPurpose
    amount: Decimal
    effective_on: date
    expires_on: date | None
    status: BondStatus


@dataclass(frozen=True)
class CertificateFact:
    id: int
    insurer: str
    policy: str
    effective_on: date
    expires_on: date
    member: bool  # a member named on an association's certificate, not the insured


@dataclass(frozen=True)
class CityLicenceFact:
    id: int
    number: str
    trade: str
    granted_on: date
    expires_on: date
    revoked_on: date | None


@dataclass(frozen=True)
class RoomingFact:
    id: int
    number: str | None  # None: an application
    address: str
    state: LicenceState
    expires_on: date | None


@dataclass(frozen=True)
class PaymentFact:
    id: int
    receipt_number: str
    day: date
    amount: Decimal
    method: PaymentMethod
    reversed: str  # "" or the ReversalKind value ("void", "nsf")
    permits: tuple[str, ...]  # the permits (or applications) it paid


@dataclass(frozen=True)
class DepositFact:
    id: int
    permit: str
    amount: Decimal
    status: DepositState
    received_on: date | None


@dataclass(frozen=True)
class NoticeFact:
    case_id: int
    case_number: str
    issued_on: date
    kind: NoticeKind
    role: AddresseeRole


@dataclass(frozen=True)
class PartyFacts:
    id: int
    version: int
    kind: PartyKind
    name: str
    first_name: str
    last_name: str
    address_line1: str
    address_line2: str
    city: str
    state: str
    zip: str
    phone: str
    email: str
    notes: str
    retired_on: date | None
    retired_reason: str
    retired_by: str  # the user's full name
    merged_into_id: int | None
    merged_into: str
    merged_from: tuple[tuple[int, str], ...]  # (id, name) of the records merged into this one
    credentials: tuple[CredentialFact, ...]  # current and renewed, in the order recorded
    roles: tuple[RoleFact, ...]
    bonds: tuple[BondFact, ...]
    certificates: tuple[CertificateFact, ...]
    city_licences: tuple[CityLicenceFact, ...]
    rooming_licences: tuple[RoomingFact, ...]
    payments: tuple[PaymentFact, ...]
    deposits: tuple[DepositFact, ...]
    notices: tuple[NoticeFact, ...]
    credit: Decimal  # the payer's credit on account in the municipality

    @property
    def address(self) -> str:
        return one_line_address(
            self.address_line1, self.address_line2, self.city, self.state, self.zip
        )

    @property
    def current_credentials(self) -> tuple[CredentialFact, ...]:
        return tuple(c for c in self.credentials if c.current)


def _permit_words(number: str | None, applied_on: date | None, permit_id: int) -> str:
    from desk.dates import short_date

    if number:
        return number
    return f"application of {short_date(applied_on)}" if applied_on else f"application #{permit_id}"


def _parcel_address() -> Any:
    pc = schema.parcel
    return func.trim(pc.c.house_number + literal(" ") + pc.c.street), pc.c.unit


def _roles(conn: Connection, party_id: int) -> tuple[RoleFact, ...]:
    p, pc = schema.permit, schema.parcel
    street, unit = _parcel_address()
    rows = conn.execute(
        select(p.c.id, p.c.number, p.c.applied_on, p.c.kind, pp.c.role, p.c.status, street, unit)
        .select_from(pp.join(p, p.c.id == pp.c.permit_id).outerjoin(pc, pc.c.id == p.c.parcel_id))
        .where(pp.c.party_id == party_id)
        .order_by(p.c.applied_on.desc(), p.c.id.desc(), pp.c.id)
    ).tuples()
    return tuple(
        RoleFact(
            pid, number, applied_on, kind, role, status, (a or "") + (f", Unit {u}" if u else "")
        )
        for pid, number, applied_on, kind, role, status, a, u in rows
    )


def _bonds(conn: Connection, party_id: int) -> tuple[BondFact, ...]:
    b = schema.bond
    rows = conn.execute(
        select(
            b.c.id,
            b.c.number,
            b.c.kind,
            b.c.purpose,
            b.c.amount,
            b.c.effective_on,
            b.c.expires_on,
            b.c.status,
        )
        .where(b.c.principal_party_id == party_id)
        .order_by(b.c.effective_on.desc(), b.c.id.desc())
    ).tuples()
    return tuple(BondFact(*r) for r in rows)


def _certificates(conn: Connection, party_id: int) -> tuple[CertificateFact, ...]:
    ic, am = schema.insurance_certificate, schema.association_member
    cols = (ic.c.id, ic.c.insurer, ic.c.policy, ic.c.effective_on, ic.c.expires_on)
    insured = conn.execute(select(*cols).where(ic.c.insured_party_id == party_id)).tuples()
    member = conn.execute(
        select(*cols)
        .select_from(am.join(ic, ic.c.id == am.c.certificate_id))
        .where(am.c.party_id == party_id)
    ).tuples()
    out = [CertificateFact(i, a, b, e, x, member=False) for i, a, b, e, x in insured]
    seen = {c.id for c in out}
    out += [
        CertificateFact(i, a, b, e, x, member=True) for i, a, b, e, x in member if i not in seen
    ]
    return tuple(sorted(out, key=lambda c: (c.expires_on, c.id), reverse=True))


def _city_licences(conn: Connection, party_id: int) -> tuple[CityLicenceFact, ...]:
    cl = schema.city_licence
    rows = conn.execute(
        select(cl.c.id, cl.c.number, cl.c.trade, cl.c.granted_on, cl.c.expires_on, cl.c.revoked_on)
        .where(cl.c.party_id == party_id)
        .order_by(cl.c.granted_on.desc(), cl.c.id.desc())
    ).tuples()
    return tuple(CityLicenceFact(*r) for r in rows)


def _rooming(conn: Connection, party_id: int) -> tuple[RoomingFact, ...]:
    rl, pc = schema.rooming_licence, schema.parcel
    street, unit = _parcel_address()
    rows = conn.execute(
        select(rl.c.id, rl.c.number, street, unit, rl.c.dwelling_unit, rl.c.state, rl.c.expires_on)
        .select_from(rl.join(pc, pc.c.id == rl.c.parcel_id))
        .where(rl.c.operator_party_id == party_id)
        .order_by(rl.c.applied_on.desc(), rl.c.id.desc())
    ).tuples()
    return tuple(
        RoomingFact(
            lid,
            number,
            (a or "") + (f", Unit {dwelling or u}" if (dwelling or u) else ""),
            state,
            expires_on,
        )
        for lid, number, a, u, dwelling, state, expires_on in rows
    )


def _payments(conn: Connection, party_id: int) -> tuple[PaymentFact, ...]:
    pay, al, rev, p = (
        schema.payment,
        schema.payment_allocation,
        schema.payment_reversal,
        schema.permit,
    )
    rows = conn.execute(
        select(
            pay.c.id,
            pay.c.receipt_number,
            pay.c.day,
            pay.c.amount,
            pay.c.method,
            rev.c.kind,
        )
        .select_from(pay.outerjoin(rev, rev.c.payment_id == pay.c.id))
        .where(pay.c.payer_party_id == party_id)
        .order_by(pay.c.day.desc(), pay.c.id.desc())
    ).tuples()
    found = list(rows)
    paid: dict[int, list[str]] = {}
    if found:
        for payment_id, number, applied_on, pid in conn.execute(
            select(al.c.payment_id, p.c.number, p.c.applied_on, p.c.id)
            .select_from(al.join(p, p.c.id == al.c.permit_id))
            .where(al.c.payment_id.in_([r[0] for r in found]))
            .order_by(al.c.payment_id, al.c.id)
        ).tuples():
            paid.setdefault(payment_id, []).append(_permit_words(number, applied_on, pid))
    return tuple(
        PaymentFact(
            pid,
            receipt,
            day,
            amount,
            method,
            str(kind.value) if kind is not None else "",
            tuple(dict.fromkeys(paid.get(pid, ()))),
        )
        for pid, receipt, day, amount, method, kind in found
    )


def _deposits(conn: Connection, party_id: int) -> tuple[DepositFact, ...]:
    d, p = schema.deposit, schema.permit
    rows = conn.execute(
        select(d.c.id, p.c.number, p.c.applied_on, p.c.id, d.c.amount, d.c.status, d.c.received_on)
        .select_from(d.join(p, p.c.id == d.c.permit_id))
        .where(d.c.depositor_party_id == party_id)
        .order_by(d.c.id.desc())
    ).tuples()
    return tuple(
        DepositFact(did, _permit_words(number, applied_on, pid), amount, status, received_on)
        for did, number, applied_on, pid, amount, status, received_on in rows
    )


def _notices(conn: Connection, party_id: int) -> tuple[NoticeFact, ...]:
    ad, n, c = schema.enforcement_addressee, schema.enforcement_notice, schema.enforcement_case
    rows = conn.execute(
        select(c.c.id, c.c.number, n.c.issued_on, n.c.kind, ad.c.role)
        .select_from(ad.join(n, n.c.id == ad.c.notice_id).join(c, c.c.id == n.c.case_id))
        .where(ad.c.party_id == party_id)
        .order_by(n.c.issued_on.desc(), ad.c.id.desc())
    ).tuples()
    return tuple(NoticeFact(*r) for r in rows)


def _credit(conn: Connection, party_id: int, municipality_id: int) -> Decimal:
    c = schema.payer_credit
    total = conn.execute(
        select(func.sum(c.c.amount)).where(
            (c.c.municipality_id == municipality_id) & (c.c.payer_key == f"party:{party_id}")
        )
    ).scalar()
    return (total or Decimal(0)).quantize(Decimal("0.01"))


def party_facts(conn: Connection, party_id: int, municipality_id: int) -> PartyFacts | None:
    """Everything the person's record holds, for the person's window; None when there is no
    such record. The credit on account is the one held in `municipality_id`."""
    u = schema.app_user
    row = conn.execute(
        select(pa, u.c.full_name)
        .select_from(pa.outerjoin(u, u.c.id == pa.c.retired_by_id))
        .where(pa.c.id == party_id)
    ).first()
    if row is None:
        return None
    r = row._mapping
    into = ""
    if r["merged_into_id"] is not None:
        into = str(
            conn.execute(select(pa.c.name).where(pa.c.id == r["merged_into_id"])).scalar() or ""
        )
    merged_from = tuple(
        (int(i), str(n))
        for i, n in conn.execute(
            select(pa.c.id, pa.c.name).where(pa.c.merged_into_id == party_id).order_by(pa.c.id)
        ).tuples()
    )
    credentials = tuple(
        CredentialFact(*c)
        for c in conn.execute(
            select(
                cr.c.id,
                cr.c.kind,
                cr.c.number,
                cr.c.issuing_state,
                cr.c.expires_on,
                cr.c.recorded_on,
                cr.c.superseded_by_id,
            )
            .where(cr.c.party_id == party_id)
            .order_by(cr.c.id)
        ).tuples()
    )
    return PartyFacts(
        id=party_id,
        version=int(r["version"]),
        kind=r["kind"],
        name=r["name"],
        first_name=r["first_name"],
        last_name=r["last_name"],
        address_line1=r["address_line1"],
        address_line2=r["address_line2"],
        city=r["city"],
        state=r["state"],
        zip=r["zip"],
        phone=r["phone"],
        email=r["email"],
        notes=r["notes"] or "",
        retired_on=r["retired_on"],
        retired_reason=r["retired_reason"] or "",
        retired_by=str(r["full_name"] or ""),
        merged_into_id=r["merged_into_id"],
        merged_into=into,
        merged_from=merged_from,
        credentials=credentials,
        roles=_roles(conn, party_id),
        bonds=_bonds(conn, party_id),
        certificates=_certificates(conn, party_id),
        city_licences=_city_licences(conn, party_id),
        rooming_licences=_rooming(conn, party_id),
        payments=_payments(conn, party_id),
        deposits=_deposits(conn, party_id),
        notices=_notices(conn, party_id),
        credit=_credit(conn, party_id, municipality_id),
    )


def party_history(conn: Connection, party_ids: Sequence[int]) -> list[AuditEntry]:
    """The audit trail of the records `party_ids` (the person and those merged into them) and
    of every credential they hold or held, newest first."""
    a, u = schema.audit_event, schema.app_user
    ids = list(party_ids)
    credential_ids = list(conn.execute(select(cr.c.id).where(cr.c.party_id.in_(ids))).scalars())
    rows: list[Any] = []
    for entity, wanted in (("party", ids), ("credential", credential_ids)):
        if not wanted:
            continue
        rows += conn.execute(
            select(a, u.c.username)
            .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
            .where((a.c.entity == entity) & a.c.entity_id.in_(wanted))
        ).all()
    rows.sort(key=lambda r: r.id, reverse=True)
    return [audit_entry(r) for r in rows]
