"""Small, explicit test data made through the services (so audit and search rows exist too)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import text

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole, Role
from desk.domain.model import Actor, Parcel, Party
from desk.services import permits, setup, users

PASSWORD = "correct-horse"


@dataclass
class Register:
    admin: Actor
    clerk: Actor
    inspector: Actor
    treasurer: Actor
    municipality_id: int
    parcel_id: int
    owner_id: int
    contractor_id: int
    permit_id: int


STAFF = {
    "carol": ("Carol Clerk", Role.CLERK),
    "ivan": ("Ivan Inspector", Role.INSPECTOR),
    "erin": ("Erin Engineer", Role.ENGINEER),
    "terry": ("Terry Treasurer", Role.TREASURER),
}


def open_office(
    db: Database, clock: FixedClock, municipality: str, people: tuple[str, ...]
) -> tuple[Actor, int, list[Actor]]:
    """(the first administrator, the municipality's id, the actors of `people`, keys of STAFF
    in that order): a new register with its staff."""
    uow = db.uow()
    admin = users.create_first_administrator(uow, clock, "admin", "Alex Administrator", PASSWORD)
    mid = setup.ensure_municipality(uow, clock, admin, municipality)
    for name in people:
        full, role = STAFF[name]
        users.create_user(
            uow, clock, admin, username=name, full_name=full, password=PASSWORD, roles={role}
        )
    return admin, mid, [users.authenticate(uow, name, PASSWORD) for name in people]


def seed_register(db: Database, clock: FixedClock) -> Register:
    uow = db.uow()
    admin, mid, (clerk, inspector, treasurer) = open_office(
        db, clock, "glendale", ("carol", "ivan", "terry")
    )
    parcel_id = permits.add_parcel(
        uow,
        clock,
        clerk,
        Parcel(
            municipality_id=mid,
            pin="047-9991-002",
            house_number="6120",
            street="N Port Washington Rd",
            city="Glendale",
            zip="53217",
        ),
    )
    owner_id = permits.add_party(
        uow,
        clock,
        clerk,
        Party(kind=PartyKind.PERSON, name="", first_name="Anna", last_name="Schmidt"),
    )
    contractor_id = permits.add_party(
        uow, clock, clerk, Party(kind=PartyKind.ORGANIZATION, name="Badger State Builders LLC")
    )
    permit_id = permits.take_application(
        uow,
        clock,
        clerk,
        permits.ApplicationInput(
            municipality_id=mid,
            kind="RES-NEW-DWELLING",
            parcel_id=parcel_id,
            description="New 2-story single-family dwelling",
            valuation=Decimal("412500.00"),
            floor_area_sqft=2450,
            dwelling_units=1,
            parties=(
                (PartyRole.BUILDING_OWNER, owner_id),
                (PartyRole.CONTRACTOR, contractor_id),
            ),
        ),
    )
    return Register(
        admin, clerk, inspector, treasurer, mid, parcel_id, owner_id, contractor_id, permit_id
    )


def application(
    reg: Register, description: str = "Tear-off and reroof"
) -> permits.ApplicationInput:
    return permits.ApplicationInput(
        municipality_id=reg.municipality_id,
        kind="RES-OTHER",
        parcel_id=reg.parcel_id,
        description=description,
        valuation=Decimal("14800.00"),
        parties=((PartyRole.BUILDING_OWNER, reg.owner_id),),
    )


def make_issuable(database: Database, clock: FixedClock, actor: Actor, permit_id: int) -> None:
    """Meet every issuance condition of a permit the way the office would: licences on record
    for its contractors, every checklist item received (the survey dated today), the fees paid.
    `actor` must be allowed to record credentials and checklist items (an inspector or
    administrator) and, when fees are due, to take payments (an administrator)."""
    from desk.domain.checklists import ItemKind, ItemState
    from desk.domain.credentials import requirement
    from desk.domain.kinds import kind_by_code
    from desk.domain.model import Credential
    from desk.services import checklists

    uow = database.uow()
    with uow:
        permit = uow.permits.get(permit_id)
        assert permit is not None
        muni = uow.municipalities.get(permit.municipality_id)
        assert muni is not None
        kind = kind_by_code(muni.key, permit.kind)
        needed = []
        for link in permit.parties:
            need = requirement(link.role, kind)
            held = {c.kind for c in link.party.credentials if c.valid_on(clock.today())}
            if need is not None and not held & set(need.kinds):
                needed.append((link.party.id, need.kinds[0]))
    for party_id, credential_kind in needed:
        assert party_id is not None
        permits.add_credential(
            uow, clock, actor, party_id, Credential(kind=credential_kind, number=f"T-{party_id}")
        )
    _, lines = checklists.checklist_lines(uow, permit_id)
    for line in lines:
        if line.state is not ItemState.OPEN:
            continue
        checklists.mark_item(
            uow,
            clock,
            actor,
            permit_id,
            line.code,
            ItemState.RECEIVED,
            # Dated items take today's date; noted items (a licence number, a vote) a note.
            value_date=clock.today() if line.kind is ItemKind.DATE else None,
            value_text="on file" if line.kind is ItemKind.TEXT else None,
        )
    pay_in_full(database, clock, actor, permit_id)


def pay_in_full(database: Database, clock: FixedClock, actor: Actor, permit_id: int) -> None:
    """Pay what the permit owes in cash at the counter (issuance needs its fees paid, 15.1.21).
    `actor` must be allowed to take payments (a clerk, treasurer or administrator)."""
    from desk.domain.cashiering import Allocation, PaymentMethod, Tender
    from desk.services import cashiering

    uow = database.uow()
    balance = cashiering.permit_balance(uow, clock, permit_id)
    if balance.due <= 0:
        return
    with database.read() as conn:
        municipality_id = conn.execute(
            text("SELECT municipality_id FROM permit WHERE id = :id"), {"id": permit_id}
        ).scalar_one()
    cashiering.take_payment(
        uow,
        clock,
        actor,
        cashiering.PaymentInput(
            municipality_id=municipality_id,
            tender=Tender(PaymentMethod.CASH, balance.due),
            allocations=(Allocation(permit_id, balance.due),),
            payer_name="Paid at the counter",
        ),
    )
