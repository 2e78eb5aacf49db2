"""A small, explicit register for the UI tests, made through the services with a fixed clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind, PartyKind, PartyRole, Role
from desk.domain.model import Actor, Credential, Parcel, Party
from desk.services import permits, setup, users
from tests.factories import make_issuable

PASSWORD = "correct-horse-7"
ISSUED_NUMBER = "2026-0001"
NOW = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)


@dataclass
class Sample:
    database: Database
    clock: FixedClock
    admin: Actor
    clerk: Actor
    municipality_id: int
    permit_ids: dict[str, int]  # by owner's last name (Nguyen has two: nguyen, nguyen-hvac)

    @property
    def issued_id(self) -> int:
        return self.permit_ids["schmidt"]


def build_sample(database: Database) -> Sample:
    clock = FixedClock(NOW)
    uow = database.uow()
    admin = users.create_first_administrator(uow, clock, "admin", "Alex Administrator", PASSWORD)
    mid = setup.ensure_municipality(uow, clock, admin, "glendale")
    users.create_user(
        uow,
        clock,
        admin,
        username="carol",
        full_name="Carol Clerk",
        password=PASSWORD,
        roles={Role.CLERK},
    )
    clerk = users.authenticate(uow, "carol", PASSWORD)

    def parcel(pin: str, house: str, street: str, unit: str = "") -> int:
        return permits.add_parcel(
            uow,
            clock,
            clerk,
            Parcel(
                municipality_id=mid,
                pin=pin,
                house_number=house,
                street=street,
                unit=unit,
                city="Glendale",
                zip="53217",
                zoning_district="RS-4",
                legal_description=f"Lot {house[-2:]}, Block 3, Glendale Heights Subdivision",
            ),
        )

    def person(first: str, last: str, street: str, phone: str) -> int:
        return permits.add_party(
            uow,
            clock,
            clerk,
            Party(
                kind=PartyKind.PERSON,
                name="",
                first_name=first,
                last_name=last,
                address_line1=street,
                city="Glendale",
                zip="53217",
                phone=phone,
            ),
        )

    def company(name: str, street: str, city: str, phone: str) -> int:
        return permits.add_party(
            uow,
            clock,
            clerk,
            Party(
                kind=PartyKind.ORGANIZATION,
                name=name,
                address_line1=street,
                city=city,
                zip="53202",
                phone=phone,
            ),
        )

    port = parcel("047-9991-002", "6120", "N Port Washington Rd")
    lake = parcel("047-1010-015", "5517", "N Lake Dr")
    silver = parcel("047-2203-008", "1840", "W Silver Spring Dr", unit="2")
    bay = parcel("047-3120-011", "7001", "N Green Bay Ave")
    schmidt = person("Anna", "Schmidt", "6120 N Port Washington Rd", "414-555-0142")
    kowalski = person("Tomasz", "Kowalski", "5517 N Lake Dr", "414-555-0177")
    nguyen = person("Linh", "Nguyen", "1840 W Silver Spring Dr", "414-555-0110")
    garcia = person("Maria", "Garcia", "7001 N Green Bay Ave", "414-555-0199")
    builders = company("Badger State Builders LLC", "200 E Wells St", "Milwaukee", "414-555-0300")
    electric = company("Lakeshore Electric Inc", "88 N Water St", "Milwaukee", "414-555-0400")

    def apply(
        kind: str,
        parcel_id: int,
        description: str,
        valuation: str,
        applied: date,
        parties: tuple[tuple[PartyRole, int], ...],
        **extra: int,
    ) -> int:
        return permits.take_application(
            uow,
            clock,
            clerk,
            permits.ApplicationInput(
                municipality_id=mid,
                kind=kind,
                parcel_id=parcel_id,
                description=description,
                valuation=Decimal(valuation),
                applied_on=applied,
                parties=parties,
                **extra,  # type: ignore[arg-type]
            ),
        )

    ids = {
        "schmidt": apply(
            "RES-NEW-DWELLING",
            port,
            "New 2-story single-family dwelling",
            "412500.00",
            date(2026, 2, 10),
            ((PartyRole.BUILDING_OWNER, schmidt), (PartyRole.CONTRACTOR, builders)),
            floor_area_sqft=2450,
            dwelling_units=1,
        ),
        "kowalski": apply(
            "RES-OTHER",
            lake,
            "Tear-off and reroof, 32 squares",
            "14800.00",
            date(2026, 2, 20),
            ((PartyRole.BUILDING_OWNER, kowalski), (PartyRole.CONTRACTOR, builders)),
        ),
        "nguyen": apply(
            "ELECTRICAL",
            silver,
            "Upgrade service to 200 A",
            "3250.00",
            date(2026, 2, 24),
            ((PartyRole.BUILDING_OWNER, nguyen), (PartyRole.ELECTRICIAN, electric)),
        ),
        "garcia": apply(
            "RES-ACCESSORY",
            bay,
            "Rear deck, 12 x 16 ft",
            "8900.00",
            date(2026, 2, 27),
            ((PartyRole.BUILDING_OWNER, garcia),),
        ),
        "nguyen-hvac": apply(
            "HVAC",
            silver,
            "Replace furnace and air conditioner",
            "6400.00",
            date(2026, 3, 1),
            ((PartyRole.BUILDING_OWNER, nguyen),),
        ),
    }
    inspector_day = date(2026, 3, 2)
    # The builder's certification is good through the issue day (the intake tests add more).
    permits.add_credential(
        uow,
        clock,
        admin,
        builders,
        Credential(
            kind=CredentialKind.DWELLING_CONTRACTOR, number="DC-1100", expires_on=inspector_day
        ),
    )
    make_issuable(database, clock, admin, ids["schmidt"])
    number = permits.issue_permit(uow, clock, admin, ids["schmidt"], issued_on=inspector_day)
    assert number == ISSUED_NUMBER
    return Sample(database, clock, admin, clerk, mid, ids)
