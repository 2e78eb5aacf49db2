"""Read-side queries of bonds, insurance certificates and street deposits: the
registers the Bonds & Insurance and Deposits screens list, the refund queue, and the deposits
report. They return frozen rows (desk/services/sureties.py holds the report data classes); the
rules that decide a status are the domain's (desk/domain/sureties.py)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlalchemy import Connection, func, select

from db import schema
from db.letterheads import letterhead_as_of
from desk.domain.cashiering import AccountPurpose
from desk.domain.enums import PartyRole, Role
from desk.domain.model import DepositState
from desk.domain.sureties import (
    ZERO,
    Bond,
    BondKind,
    BondPurpose,
    BondScope,
    BondStatus,
    Coverage,
    CoverageKind,
    Deposit,
    DepositStatus,
    InsuranceCertificate,
    Retention,
    bond_status_on,
    eligible_on,
    money_words,
)
from desk.domain.sureties import refund_order_role as order_role_of
from desk.services.sureties import (
    QUEUES,
    DepositLine,
    DepositsReport,
    Letterhead,
    fold,
    in_queue,
)

b_ = schema.bond
c_ = schema.insurance_certificate
d_ = schema.deposit
p_ = schema.permit
pc = schema.parcel


def letterhead(conn: Connection, municipality_id: int) -> Letterhead:
    """The letterhead in force now (the reports and letters are dated the day they print)."""
    head = letterhead_as_of(conn, municipality_id, None)
    return Letterhead(
        municipality=head.name,
        lines=head,
        inspector_name=head.inspector_name,
        inspector_title=head.inspector_title,
    )


def _address(house: str | None, street: str | None, unit: str | None) -> str:
    line = " ".join(x for x in (house, street) if x)
    return f"{line}, Unit {unit}" if unit else line


# --- bonds --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BondRow:
    id: int
    number: str
    purpose: BondPurpose
    kind: BondKind
    principal: str
    obligee: str
    amount: Decimal
    effective_on: date
    covered_until: date | None
    status: BondStatus  # as of the day asked (an expired bond in force shows as expired)
    covers: str  # "2026-0101, 2026-0140" or "All openings of 2026"
    surety: str  # the company, or the personal sureties' names
    released: str  # "2026-04-02 by Ivan Inspector"
    claim: str  # "$750 — barriers not erected"

    @property
    def title(self) -> str:
        return f"Bond {self.number}" if self.number else f"The bond of {self.principal}"


def bond_rows(
    conn: Connection,
    municipality_id: int,
    on: date,
    text: str = "",
    status: BondStatus | None = None,
    purpose: BondPurpose | None = None,
) -> list[BondRow]:
    """The bond register, newest first; `text` finds principal, number, surety or a permit."""
    stmt = select(b_).where(b_.c.municipality_id == municipality_id)
    if purpose is not None:
        stmt = stmt.where(b_.c.purpose == purpose.value)
    rows = conn.execute(stmt.order_by(b_.c.effective_on.desc(), b_.c.id.desc())).all()
    ids = [r.id for r in rows]
    sureties: dict[int, list[str]] = defaultdict(list)
    covers: dict[int, list[str]] = defaultdict(list)
    if ids:
        s = schema.bond_surety
        for bond_id, name in conn.execute(
            select(s.c.bond_id, s.c.name).where(s.c.bond_id.in_(ids)).order_by(s.c.id)
        ):
            sureties[bond_id].append(name)
        bp = schema.bond_permit
        for bond_id, number, pid in conn.execute(
            select(bp.c.bond_id, p_.c.number, p_.c.id)
            .join(p_, p_.c.id == bp.c.permit_id)
            .where(bp.c.bond_id.in_(ids))
            .order_by(bp.c.id)
        ):
            covers[bond_id].append(number or f"#{pid}")
    needle = fold(text)
    out = []
    for r in rows:
        bond = Bond(
            purpose=r.purpose,
            principal=r.principal,
            obligee=r.obligee,
            kind=r.kind,
            amount=r.amount,
            effective=r.effective_on,
            expiry=r.expires_on,
            number=r.number,
            scope=r.scope,
            year=r.year,
            status=r.status,
        )
        shown = bond_status_on(bond, on)
        if status is not None and shown is not status:
            continue
        if r.scope is BondScope.CONTRACTOR_YEAR:
            cover = f"All of {r.principal}'s openings of {r.year}"
        else:
            cover = ", ".join(covers[r.id])
        surety = r.surety_company or ", ".join(sureties[r.id])
        row = BondRow(
            id=r.id,
            number=r.number,
            purpose=r.purpose,
            kind=r.kind,
            principal=r.principal,
            obligee=r.obligee,
            amount=r.amount,
            effective_on=r.effective_on,
            covered_until=bond.covered_until(),
            status=shown,
            covers=cover,
            surety=surety,
            released=(
                f"{r.released_on.isoformat()} by {r.released_by}".strip() if r.released_on else ""
            ),
            claim=(
                f"{money_words(r.claim_amount)} — {r.claim_reason}"
                if r.claim_amount is not None
                else ""
            ),
        )
        if needle and not any(
            needle in fold(x) for x in (r.principal, r.number, surety, cover, r.obligee)
        ):
            continue
        out.append(row)
    return out


# --- insurance certificates ---------------------------------------------------------------------


@dataclass(frozen=True)
class CertificateRow:
    id: int
    policy: str
    insured: str
    insurer: str
    limits: str  # "$100,000 person, $200,000 accident, $50,000 property"
    effective_on: date
    covered_until: date  # an association's certificate: at most one year from filing
    association: bool
    members: tuple[str, ...]
    expired: bool
    status: str  # "In force", "Expires in 12 days", "Expired 2026-02-27"


_LIMIT_WORDS = {
    CoverageKind.PER_PERSON: "person",
    CoverageKind.PER_ACCIDENT: "accident",
    CoverageKind.PROPERTY_DAMAGE: "property",
}


def certificate_rows(
    conn: Connection,
    municipality_id: int,
    on: date,
    text: str = "",
    include_expired: bool = True,
    soon_days: int = 60,
) -> list[CertificateRow]:
    rows = conn.execute(
        select(c_)
        .where(c_.c.municipality_id == municipality_id)
        .order_by(c_.c.expires_on.desc(), c_.c.id.desc())
    ).all()
    ids = [r.id for r in rows]
    coverages: dict[int, list[Coverage]] = defaultdict(list)
    members: dict[int, list[str]] = defaultdict(list)
    if ids:
        cv = schema.insurance_coverage
        for cid, kind, limit in conn.execute(
            select(cv.c.certificate_id, cv.c.kind, cv.c.limit_amount)
            .where(cv.c.certificate_id.in_(ids))
            .order_by(cv.c.id)
        ):
            coverages[cid].append(Coverage(kind, limit))
        am = schema.association_member
        for cid, name in conn.execute(
            select(am.c.certificate_id, am.c.name)
            .where(am.c.certificate_id.in_(ids))
            .order_by(am.c.id)
        ):
            members[cid].append(name)
    needle = fold(text)
    out = []
    for r in rows:
        cert = InsuranceCertificate(
            insured=r.insured,
            insurer=r.insurer,
            policy=r.policy,
            coverages=tuple(coverages[r.id]),
            effective=r.effective_on,
            expiry=r.expires_on,
            association=r.association,
            filed_on=r.filed_on,
        )
        until = cert.covered_until()
        expired = until < on
        if expired and not include_expired:
            continue
        left = (until - on).days
        if expired:
            status = f"Expired {until.isoformat()}"
        elif left <= soon_days:
            status = "Expires today" if left == 0 else f"Expires in {left} day{'s' * (left != 1)}"
        else:
            status = "In force"
        if needle and not any(
            needle in fold(x) for x in (r.insured, r.insurer, r.policy, *members[r.id])
        ):
            continue
        out.append(
            CertificateRow(
                id=r.id,
                policy=r.policy,
                insured=r.insured,
                insurer=r.insurer,
                limits=", ".join(
                    f"{money_words(c.limit)} {_LIMIT_WORDS[c.kind]}" for c in cert.coverages
                ),
                effective_on=r.effective_on,
                covered_until=until,
                association=r.association,
                members=tuple(members[r.id]),
                expired=expired,
                status=status,
            )
        )
    return out


# --- street deposits ----------------------------------------------------------------------------


def deposit_lines(conn: Connection, municipality_id: int, on: date) -> list[DepositLine]:
    """Every street deposit as it stood on `on` (events dated later are left out: an order, a
    check or a resolution of a later day), newest first."""
    pay = schema.payment
    rows = conn.execute(
        select(
            d_,
            p_.c.number.label("permit_number"),
            p_.c.completed_on.label("permit_completed_on"),
            pc.c.house_number,
            pc.c.street,
            pc.c.unit,
            pay.c.receipt_number,
        )
        .select_from(
            d_.join(p_, p_.c.id == d_.c.permit_id)
            .outerjoin(pc, pc.c.id == p_.c.parcel_id)
            .outerjoin(pay, pay.c.id == d_.c.payment_id)
        )
        .where(d_.c.municipality_id == municipality_id)
        .order_by(d_.c.id.desc())
    ).all()
    out = []
    for r in rows:
        if r.at is not None and r.at.date() > on and (r.received_on is None or r.received_on > on):
            continue  # recorded after the day asked
        received = r.received_on if r.received_on is not None and r.received_on <= on else None
        completed = r.completed_on or r.permit_completed_on
        if completed is not None and completed > on:
            completed = None
        ordered_on = r.ordered_on if r.ordered_on is not None and r.ordered_on <= on else None
        check_date = r.check_date if r.check_date is not None and r.check_date <= on else None
        resolved = r.retention_resolved_on
        retention = None
        if resolved is not None and resolved <= on and r.retention_amount is not None:
            retention = Retention(
                resolution=r.retention_resolution,
                resolved_on=resolved,
                amount=r.retention_amount,
                reason=r.retention_reason,
            )
        amount = r.amount
        status: DepositStatus | None = None
        status_text = "Awaiting payment"
        refund_amount = amount - (retention.amount if retention else ZERO)
        if received is not None:
            view = Deposit(
                amount=amount,
                received_on=received,
                depositor=r.depositor,
                completed_on=completed,
                ordered_on=ordered_on,
                ordered_by=r.ordered_by,
                retention=retention,
                refunded_on=check_date if r.refund_id is not None else None,
                check_number=r.check_number,
            )
            status = view.status(on)
            status_text = status.label
            if status is DepositStatus.REFUNDED and view.retained > 0:
                status_text = f"Refunded, {money_words(view.retained)} retained"
            elif status is not DepositStatus.RETAINED and view.retained > 0:
                status_text += f" ({money_words(view.retained)} retained)"
            refund_amount = view.refund_amount
        elif r.status is not DepositState.AWAITING_PAYMENT:
            continue  # paid after the day asked: not yet on file then
        out.append(
            DepositLine(
                deposit_id=r.id,
                permit_id=r.permit_id,
                permit_number=r.permit_number or "",
                address=_address(r.house_number, r.street, r.unit),
                depositor=r.depositor,
                payee=r.refund_payee or r.depositor,
                payee_address=r.refund_address or r.depositor_address,
                amount=amount,
                received_on=received,
                receipt_number=r.receipt_number or "",
                completed_on=completed,
                eligible_from=eligible_on(completed) if completed else None,
                status=status,
                status_text=status_text,
                ordered_on=ordered_on,
                ordered_by=r.ordered_by if ordered_on else "",
                check_number=r.check_number if check_date else "",
                check_date=check_date,
                refund_amount=refund_amount,
                retained=retention.amount if retention else ZERO,
                resolution=retention.resolution if retention else "",
                resolved_on=retention.resolved_on if retention else None,
                retention_reason=retention.reason if retention else "",
            )
        )
    return out


def deposits_held(conn: Connection, municipality_id: int, on: date) -> Decimal:
    """What the liability account "Street deposits held" holds at the end of `on`."""
    g, a = schema.gl_entry, schema.gl_account
    total = conn.execute(
        select(func.sum(g.c.amount))
        .join(a, a.c.id == g.c.account_id)
        .where(
            (g.c.municipality_id == municipality_id)
            & (a.c.purpose == AccountPurpose.DEPOSITS_HELD.value)
            & (g.c.day <= on)
        )
    ).scalar()
    # SUM keeps the column's Cents type: the total comes back in dollars.
    return Decimal(total or 0).quantize(Decimal("0.01"))


def deposits_report(conn: Connection, municipality_id: int, as_of: date) -> DepositsReport:
    """The refund queue as of a day: eligible now, eligible in the next 30 days, ordered and
    awaiting the check, retained; then every deposit still held."""
    lines = deposit_lines(conn, municipality_id, as_of)
    sections = []
    for key in ("eligible", "soon", "ordered", "retained"):
        found = tuple(x for x in lines if in_queue(x, key, as_of))
        sections.append((QUEUES[key], found))
    still = tuple(
        x
        for x in lines
        if x.status is DepositStatus.HELD
        and not in_queue(x, "soon", as_of)
        and not in_queue(x, "retained", as_of)
    )
    sections.append(("Held, not yet eligible", still))
    return DepositsReport(
        letterhead=letterhead(conn, municipality_id),
        as_of=as_of,
        sections=tuple(sections),
        held=deposits_held(conn, municipality_id, as_of),
        count=len(lines),
    )


def queue_counts(conn: Connection, municipality_id: int, on: date) -> dict[str, int]:
    """How many deposits each queue holds on `on` (the Deposits screen's tabs)."""
    lines = deposit_lines(conn, municipality_id, on)
    return {key: sum(1 for x in lines if in_queue(x, key, on)) for key in QUEUES}


@dataclass(frozen=True)
class PermitParty:
    party_id: int
    name: str
    role: PartyRole
    address: str  # the mailing address, lines joined by newlines


def permit_parties(conn: Connection, permit_id: int) -> list[PermitParty]:
    """The permit's parties with their mailing addresses (who pays a deposit, who gets it back)."""
    pp, pa = schema.permit_party, schema.party
    rows = conn.execute(
        select(pa.c.id, pa.c.name, pp.c.role, pa.c.address_line1, pa.c.address_line2)
        .add_columns(pa.c.city, pa.c.state, pa.c.zip)
        .join(pa, pa.c.id == pp.c.party_id)
        .where(pp.c.permit_id == permit_id)
        .order_by(pp.c.id)
    ).all()
    out = []
    for r in rows:
        city = f"{r.city}, {r.state} {r.zip}".strip(" ,")
        address = "\n".join(x for x in (r.address_line1, r.address_line2, city) if x)
        out.append(PermitParty(r.id, r.name, r.role, address))
    return out


def permit_label(conn: Connection, permit_id: int) -> str:
    """'2026-0042 — 6120 N Port Washington Rd' (an application: '#12 — ...')."""
    row = conn.execute(
        select(p_.c.number, pc.c.house_number, pc.c.street, pc.c.unit)
        .select_from(p_.outerjoin(pc, pc.c.id == p_.c.parcel_id))
        .where(p_.c.id == permit_id)
    ).first()
    if row is None:
        return f"#{permit_id}"
    address = _address(row.house_number, row.street, row.unit)
    return " — ".join(x for x in (row.number or f"#{permit_id}", address) if x)


def refund_order_role(conn: Connection, municipality_id: int) -> Role:
    """Who acts for the City Engineer on deposit refunds here (15.1.43; the Municipality
    screen's setting, the engineer's role when not set)."""
    settings = conn.execute(
        select(schema.municipality.c.settings).where(schema.municipality.c.id == municipality_id)
    ).scalar()
    return order_role_of(settings)
