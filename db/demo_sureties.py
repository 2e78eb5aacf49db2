"""Bonds, insurance certificates and street deposits for a demo database.

`demo_sureties(database, today)` adds them to a demo register that `permitdesk demo` built,
through the services and as the office would have recorded them on their own days (a fixed
clock set to each day): some bonds and certificates in force, some expiring within the 60-day
watch or already expired under a live permit, some insufficient (a coverage below the
ordinance's limit, an association's certificate more than a year old), and street deposits in
every state of 15.1.43 (awaiting payment, held, eligible within 30 days, eligible, ordered,
refunded, retained in part and in whole). Deposits are paid through cashiering into the
liability account. It picks the demo's own permits; what the register lacks is left out and the
summary says what was added.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, and_, exists, select

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import PaymentMethod, Tender
from desk.domain.enums import PartyRole, PermitStatus
from desk.domain.model import Actor
from desk.domain.sureties import (
    BondKind,
    BondPurpose,
    BondScope,
    Coverage,
    CoverageKind,
    PermitFacts,
)
from desk.errors import DeskError
from desk.services import sureties as sure
from desk.services.users import actor_for_username

D = Decimal
p_ = schema.permit
pp = schema.permit_party
pa = schema.party
NUMBERED = (PermitStatus.ISSUED, PermitStatus.WORK_STARTED, PermitStatus.COMPLETED)
LIVE = (PermitStatus.ISSUED, PermitStatus.WORK_STARTED, PermitStatus.ON_HOLD)


@dataclass
class _Made:
    bonds: int = 0
    certificates: int = 0
    deposits: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def deposit(self, state: str) -> None:
        self.deposits[state] = self.deposits.get(state, 0) + 1


@dataclass
class _Staff:
    clerk: Actor
    inspector: Actor
    engineer: Actor


def _at(day: date) -> FixedClock:
    return FixedClock(day)


def _municipality(conn: Connection) -> tuple[int, str]:
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key).order_by(m.c.id)).first()
    if row is None:
        raise DeskError("the database has no municipality yet")
    return int(row.id), str(row.key)


def _permits(
    conn: Connection,
    municipality_id: int,
    kinds: tuple[str, ...],
    statuses: tuple[PermitStatus, ...],
) -> list[Any]:
    """Numbered permits of these kinds without a deposit, oldest issued first."""
    d = schema.deposit
    return list(
        conn.execute(
            select(p_.c.id, p_.c.number, p_.c.issued_on, p_.c.completed_on, p_.c.applied_on)
            .where(
                (p_.c.municipality_id == municipality_id)
                & p_.c.kind.in_(kinds)
                & p_.c.status.in_([s.value for s in statuses])
                & p_.c.issued_on.is_not(None)
                & ~exists().where(d.c.permit_id == p_.c.id)
            )
            .order_by(p_.c.issued_on, p_.c.id)
        )
    )


def _party_in(conn: Connection, permit_id: int, roles: tuple[PartyRole, ...]) -> int | None:
    for role in roles:
        found = conn.execute(
            select(pp.c.party_id).where(and_(pp.c.permit_id == permit_id, pp.c.role == role.value))
        ).first()
        if found is not None:
            return int(found.party_id)
    return None


def _party_name(conn: Connection, party_id: int) -> str:
    return str(conn.execute(select(pa.c.name).where(pa.c.id == party_id)).scalar_one())


def _name_and_address(conn: Connection, party_id: int | None) -> tuple[str, str]:
    if party_id is None:
        return "", ""
    r = conn.execute(
        select(pa.c.name, pa.c.address_line1, pa.c.city, pa.c.state, pa.c.zip).where(
            pa.c.id == party_id
        )
    ).one()
    city = f"{r.city}, {r.state} {r.zip}".strip(" ,")
    return r.name, "\n".join(x for x in (r.address_line1, city) if x)


DEPOSIT_DRAWER = "Deposits"


def demo_sureties(database: Database, today: date, drawer: str = DEPOSIT_DRAWER) -> str:
    """Add the demo's bonds, certificates and deposits; return a sentence saying what.

    The deposits are paid in their own cash drawer (`drawer`), closed at the end of each past
    day it took money, so that a demo whose counter drawer is already closed for those days
    (db/demo_cash.py) still balances."""
    with database.read() as conn:
        municipality_id, key = _municipality(conn)
    uow = database.uow()
    staff = _Staff(
        actor_for_username(uow, "clerk"),
        actor_for_username(uow, "inspector"),
        actor_for_username(uow, "engineer"),
    )
    made = _Made()
    if key == "glendale":
        _glendale_bonds(database, municipality_id, today, staff, made)
        _glendale_deposits(database, municipality_id, today, staff, made, drawer)
    elif key == "new_lisbon":
        _new_lisbon(database, municipality_id, today, staff, made)
    else:
        return "No bonds, certificates or deposits: this municipality requires none."
    states = ", ".join(f"{n} {state}" for state, n in made.deposits.items())
    text = f"{made.bonds} bonds and {made.certificates} insurance certificates"
    if made.deposits:
        text += f"; street deposits: {states}"
    if made.skipped:
        text += f" (none {'; none '.join(made.skipped)}: no permit fits)"
    return text + "."


# --- Glendale: moving, plumbing, erosion control; street deposits (15.1.43) ---------------------


def _glendale_bonds(
    database: Database, municipality_id: int, today: date, staff: _Staff, made: _Made
) -> None:
    uow = database.uow()
    clerk, inspector = staff.clerk, staff.inspector
    with database.read() as conn:
        moves = _permits(conn, municipality_id, ("MOVE",), NUMBERED)
        erosion = _permits(conn, municipality_id, ("EROSION",), NUMBERED)
        live_plumbing = _permits(conn, municipality_id, ("PLUMBING", "SEWER-WATER"), LIVE)
        done_plumbing = _permits(conn, municipality_id, ("PLUMBING",), (PermitStatus.COMPLETED,))[
            -6:
        ]
        plumbers: dict[int, str] = {}
        for p in [*live_plumbing, *done_plumbing]:
            pid = _party_in(conn, p.id, (PartyRole.PLUMBER,))
            if pid is not None:
                plumbers[pid] = _party_name(conn, pid)
        movers = [
            (p, _party_in(conn, p.id, (PartyRole.CONTRACTOR, PartyRole.APPLICANT))) for p in moves
        ]
    # Moving a building (15.1.9(f)(g)): the older moves' bonds released after their finals; the
    # latest one's bond still in force (expiring within the watch), and one mover's certificate
    # with property damage below the $50,000 required.
    for n, (p, mover) in enumerate(movers):
        if mover is None:
            continue
        last = n == len(movers) - 1
        on = p.issued_on - timedelta(days=3)
        clock = _at(on)
        sure.set_permit_facts(
            uow, clock, inspector, p.id, PermitFacts(bond_amount=D(1000 + 500 * (n % 3)))
        )
        bond_id = sure.record_bond(
            uow,
            clock,
            clerk,
            sure.BondInput(
                municipality_id=municipality_id,
                purpose=BondPurpose.MOVING,
                kind=BondKind.SURETY if n % 2 == 0 else BondKind.PERSONAL,
                principal="",
                principal_party_id=mover,
                obligee="City of Glendale",
                amount=D(1000 + 500 * (n % 3)),
                effective_on=on,
                expires_on=today + timedelta(days=40) if last else on + timedelta(days=365),
                number=f"MB-{p.issued_on.year}-{n + 1:02d}",
                surety_company="Western Surety Company" if n % 2 == 0 else "",
                personal_sureties=() if n % 2 == 0 else ("Robert Kaminski", "Helen Nowak"),
                sureties_approved="" if n % 2 == 0 else f"Common Council, {on.isoformat()}",
                conditions=("barriers_48h",),
                permit_ids=(p.id,),
            ),
        )
        made.bonds += 1
        sure.record_certificate(
            uow,
            clock,
            clerk,
            sure.CertificateInput(
                municipality_id=municipality_id,
                insured="",
                insured_party_id=mover,
                insurer="Badger Mutual Insurance Co",
                policy=f"GL-{4400 + n}",
                effective_on=on - timedelta(days=30),
                expires_on=on + timedelta(days=335),
                coverages=(
                    Coverage(CoverageKind.PER_PERSON, D("100000")),
                    Coverage(CoverageKind.PER_ACCIDENT, D("200000")),
                    Coverage(CoverageKind.PROPERTY_DAMAGE, D("25000" if n == 1 else "50000")),
                ),
                holder="City of Glendale",
                file_reference=f"INS-{on.year}-{n + 17:03d}",
            ),
        )
        made.certificates += 1
        if not last and p.completed_on is not None:
            sure.release(uow, _at(p.completed_on + timedelta(days=2)), inspector, bond_id)
    if not movers:
        made.skipped.append("for moving a building")

    # Plumbing in the street (15.1.38): the association's certificate for its members, filed
    # ten and a half months ago (so its year ends within the watch), and last year's, which no
    # longer covers anyone; one plumber's own certificate, expired under a live permit.
    # The first plumber is not a member: his own certificate has lapsed under a live permit.
    members = tuple((name, pid) for pid, name in list(plumbers.items())[1:])
    for p in live_plumbing:
        sure.set_permit_facts(
            uow,
            _at(p.issued_on),
            inspector,
            p.id,
            PermitFacts(excavates_public_street=True, street_paved=True),
        )
    if members:
        for filed, policy in ((today - timedelta(days=320), "MMPA-26"), (today - timedelta(
            days=420), "MMPA-25")):  # fmt: skip
            sure.record_certificate(
                uow,
                _at(filed),
                clerk,
                sure.CertificateInput(
                    municipality_id=municipality_id,
                    insured="Milwaukee Master Plumbers Association",
                    insurer="Employers Mutual Casualty Co",
                    policy=policy,
                    effective_on=filed,
                    expires_on=filed + timedelta(days=540),
                    coverages=(
                        Coverage(CoverageKind.PER_PERSON, D("50000")),
                        Coverage(CoverageKind.PER_ACCIDENT, D("100000")),
                    ),
                    holder="City of Glendale",
                    association=True,
                    filed_on=filed,
                    members=members,
                ),
            )
            made.certificates += 1
        own_pid, own_name = next(iter(plumbers.items()))
        sure.record_certificate(
            uow,
            _at(today - timedelta(days=380)),
            clerk,
            sure.CertificateInput(
                municipality_id=municipality_id,
                insured=own_name,
                insured_party_id=own_pid,
                insurer="West Bend Mutual",
                policy="WB-771204",
                effective_on=today - timedelta(days=380),
                expires_on=today - timedelta(days=12),
                coverages=(
                    Coverage(CoverageKind.PER_PERSON, D("50000")),
                    Coverage(CoverageKind.PER_ACCIDENT, D("100000")),
                ),
                holder="City of Glendale",
            ),
        )
        made.certificates += 1
    else:
        made.skipped.append("for plumbing")

    # Erosion control (15.2.8(e)(2)): a letter of credit the inspector required, expiring soon.
    if erosion:
        p = erosion[-1]
        with database.read() as conn:
            owner = _party_in(conn, p.id, (PartyRole.APPLICANT, PartyRole.BUILDING_OWNER))
        clock = _at(p.issued_on - timedelta(days=1))
        sure.set_permit_facts(
            uow,
            clock,
            inspector,
            p.id,
            PermitFacts(inspector_requires_surety=True, bond_amount=D("5000.00")),
        )
        sure.record_bond(
            uow,
            clock,
            clerk,
            sure.BondInput(
                municipality_id=municipality_id,
                purpose=BondPurpose.EROSION_CONTROL,
                kind=BondKind.LETTER_OF_CREDIT,
                principal="",
                principal_party_id=owner,
                obligee="City of Glendale",
                amount=D("5000.00"),
                effective_on=clock.today(),
                expires_on=today + timedelta(days=15),
                number="LC-88213",
                permit_ids=(p.id,),
                notes="Irrevocable letter of credit, Associated Bank",
            ),
        )
        made.bonds += 1


@dataclass(frozen=True)
class _Plan:
    state: str
    completed_days_ago: tuple[int, int] | None  # a window for the permit's completion
    amount: str = "500.00"


# Each deposit's story, by how long ago its work was completed (None: not completed yet).
_DEPOSITS = (
    _Plan("awaiting payment", None),
    _Plan("held", None, "1000.00"),  # the City Engineer increased it
    _Plan("eligible within 30 days", (150, 175)),
    _Plan("eligible", (185, 260)),
    _Plan("eligible", (185, 260)),
    _Plan("ordered", (190, 290)),
    _Plan("refunded", (300, 700)),
    _Plan("refunded", (300, 700)),
    _Plan("retained in part", (260, 700), "750.00"),
    _Plan("retained", (260, 700)),
)


def _glendale_deposits(
    database: Database,
    municipality_id: int,
    today: date,
    staff: _Staff,
    made: _Made,
    drawer: str,
) -> None:
    uow = database.uow()
    # The drawer is counted once at the end of each day it took money (two deposits may come
    # in on one day).
    to_close: set[date] = set()
    for plan in _DEPOSITS:
        with database.read() as conn:
            if plan.completed_days_ago is None:
                found = _permits(conn, municipality_id, ("SEWER-WATER", "PLUMBING"), LIVE)
            else:
                lo, hi = plan.completed_days_ago
                found = [
                    p
                    for p in _permits(
                        conn,
                        municipality_id,
                        ("SEWER-WATER", "PLUMBING"),
                        (PermitStatus.COMPLETED,),
                    )
                    if p.completed_on is not None
                    and today - timedelta(days=hi) <= p.completed_on <= today - timedelta(days=lo)
                ]
            if not found:
                if plan.state not in made.skipped:
                    made.skipped.append(plan.state)
                continue
            p = found[-1]
            plumber = _party_in(conn, p.id, (PartyRole.PLUMBER, PartyRole.APPLICANT))
            owner = _party_in(conn, p.id, (PartyRole.BUILDING_OWNER,))
            owner_name, owner_address = _name_and_address(conn, owner)
            plumber_name = _party_name(conn, plumber) if plumber is not None else ""
        if plumber is None:
            continue
        received = max(p.applied_on or p.issued_on, p.issued_on - timedelta(days=1))
        clock = _at(received)
        amount = D(plan.amount)
        sure.set_permit_facts(
            uow,
            clock,
            staff.inspector,
            p.id,
            PermitFacts(
                excavates_public_street=True,
                street_paved=True,
                deposit_amount=amount if amount > D("500.00") else None,
            ),
        )
        deposit = sure.DepositInput(
            permit_id=p.id,
            depositor="",
            depositor_party_id=plumber,
            amount=amount,
            # Half the time the owner paid the plumber back: the check goes to the owner.
            refund_payee=owner_name if p.id % 2 == 0 else "",
            refund_address=owner_address if p.id % 2 == 0 else "",
        )
        if plan.state == "awaiting payment":
            sure.record_deposit(uow, _at(today - timedelta(days=2)), staff.clerk, deposit)
            made.deposit(plan.state)
            continue
        tender = Tender(
            PaymentMethod.CHECK, amount, f"{1000 + p.id}", plumber_name, "Associated Bank"
        )
        deposit_id, _ = sure.take_deposit(uow, clock, staff.clerk, deposit, tender, drawer)
        if received < today:
            to_close.add(received)
        done = p.completed_on
        if done is None:
            made.deposit(plan.state)
            continue
        eligible = done + timedelta(days=180)
        if plan.state in ("retained in part", "retained"):
            kept = D("212.50") if plan.state == "retained in part" else amount
            resolved = done + timedelta(days=90)
            sure.retain_deposit(
                uow,
                _at(resolved + timedelta(days=1)),
                staff.clerk,
                deposit_id,
                f"R-{resolved.year}-{p.id % 97:02d}",
                resolved,
                kept,
                "Trench settled; the City re-paves the patch in the spring"
                if plan.state == "retained in part"
                else "The plumber left the street open; the City restored it",
            )
        if plan.state in ("ordered", "refunded", "retained in part"):
            sure.order_deposit_refund(uow, _at(eligible + timedelta(days=3)), staff.engineer,
                                      deposit_id)  # fmt: skip
        if plan.state in ("refunded", "retained in part"):
            check_day = eligible + timedelta(days=8)
            sure.refund_deposit(
                uow, _at(check_day), staff.clerk, deposit_id, f"{20400 + p.id}", check_day
            )
        made.deposit(plan.state)
    for day in sorted(to_close):
        _close(database, municipality_id, staff.clerk, drawer, day)


# --- New Lisbon: street openings and street privileges (§435-7, §435-10) -----------------------


def _new_lisbon(
    database: Database, municipality_id: int, today: date, staff: _Staff, made: _Made
) -> None:
    uow = database.uow()
    clerk = staff.clerk
    with database.read() as conn:
        openings = _permits(
            conn,
            municipality_id,
            ("STREET-OPENING",),
            (*NUMBERED, PermitStatus.ON_HOLD),
        )
        privileges = _permits(conn, municipality_id, ("STREET-PRIVILEGE",), NUMBERED)
        contractors: dict[int, str] = {}
        for p in openings:
            pid = _party_in(conn, p.id, (PartyRole.CONTRACTOR, PartyRole.APPLICANT))
            if pid is not None:
                contractors.setdefault(pid, _party_name(conn, pid))
    if not openings:
        made.skipped.append("for street openings")
    # §435-7.K: the contractors' annual bonds for this year (they end December 31), and §435-7.J
    # insurance of $500,000 each; one contractor's property damage below it.
    for n, (pid, _name) in enumerate(list(contractors.items())[:4]):
        jan1 = date(today.year, 1, 1)
        sure.record_bond(
            uow,
            _at(jan1 + timedelta(days=n)),
            clerk,
            sure.BondInput(
                municipality_id=municipality_id,
                purpose=BondPurpose.STREET_OPENING,
                kind=BondKind.SURETY,
                principal="",
                principal_party_id=pid,
                obligee="City of New Lisbon",
                amount=D("10000.00"),
                effective_on=jan1,
                expires_on=date(today.year, 12, 31),
                number=f"AB-{today.year}-{n + 1:02d}",
                surety_company="Merchants Bonding Company",
                scope=BondScope.CONTRACTOR_YEAR,
                year=today.year,
            ),
        )
        made.bonds += 1
        sure.record_certificate(
            uow,
            _at(jan1 + timedelta(days=n)),
            clerk,
            sure.CertificateInput(
                municipality_id=municipality_id,
                insured="",
                insured_party_id=pid,
                insurer="Secura Insurance",
                policy=f"CGL-{7700 + n}",
                effective_on=jan1 - timedelta(days=20),
                expires_on=today + timedelta(days=25 + 40 * n),
                coverages=(
                    Coverage(CoverageKind.PER_PERSON, D("500000")),
                    Coverage(CoverageKind.PER_ACCIDENT, D("500000")),
                    Coverage(CoverageKind.PROPERTY_DAMAGE, D("300000" if n == 1 else "500000")),
                ),
                holder="City of New Lisbon",
            ),
        )
        made.certificates += 1
    for n, p in enumerate(privileges[-2:]):
        with database.read() as conn:
            pid = _party_in(conn, p.id, (PartyRole.APPLICANT, PartyRole.CONTRACTOR))
        sure.record_bond(
            uow,
            _at(p.issued_on - timedelta(days=1)),
            clerk,
            sure.BondInput(
                municipality_id=municipality_id,
                purpose=BondPurpose.STREET_PRIVILEGE,
                kind=BondKind.CASH if n else BondKind.SURETY,
                principal="",
                principal_party_id=pid,
                obligee="City of New Lisbon",
                amount=D("2500.00"),
                effective_on=p.issued_on - timedelta(days=1),
                expires_on=today + timedelta(days=50) if n else None,
                number=f"SP-{p.issued_on.year}-{n + 1}",
                surety_company="" if n else "Merchants Bonding Company",
                permit_ids=(p.id,),
            ),
        )
        made.bonds += 1


def _close(database: Database, municipality_id: int, clerk: Actor, drawer: str, day: date) -> None:
    """Count the deposits drawer at the end of its day, as expected (no over or short)."""
    from desk.services import cashiering

    uow = database.uow()
    expected = cashiering.drawer_day(uow, municipality_id, drawer, day).expected
    cashiering.close_day(uow, _at(day), clerk, municipality_id, drawer, day, expected)
