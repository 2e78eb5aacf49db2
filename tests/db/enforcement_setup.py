"""A register with a clerk, an inspector and a parcel, for the code enforcement tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor, Parcel
from desk.enforcement.model import AddresseeRole, Channel
from desk.services import permits
from desk.services.enforcement import complaints, inspections, notices
from tests.factories import open_office


@dataclass
class Office:
    db: Database
    clock: FixedClock
    admin: Actor
    clerk: Actor
    inspector: Actor
    mid: int
    parcel_id: int

    def parcel(self, pin: str, number: str, street: str = "Vine St") -> int:
        return permits.add_parcel(
            self.db.uow(),
            self.clock,
            self.clerk,
            Parcel(municipality_id=self.mid, pin=pin, house_number=number, street=street),
        )


def office(db: Database, clock: FixedClock) -> Office:
    admin, mid, (clerk, inspector) = open_office(db, clock, "glendale", ("carol", "ivan"))
    o = Office(db, clock, admin, clerk, inspector, mid, 0)
    o.parcel_id = o.parcel("047-0001-001", "412")
    return o


OWNER = notices.Addressee(AddresseeRole.OWNER, "Otto Owner", "9 Elm St, Hudson WI 54016")
OCCUPANT = notices.Addressee(AddresseeRole.OCCUPANT, "Olga Occupant", "412 Vine St, Hudson WI")
AGENT = notices.Addressee(AddresseeRole.AGENT, "Acme Property Mgmt", "1 Main St, Hudson WI")


def case_with_notice(
    o: Office,
    addressees: tuple[notices.Addressee, ...] = (OWNER,),
    *,
    emergency: bool = False,
    section: str = "140-6C",
) -> tuple[int, int, notices.NoticeIssued]:
    """(case id, violation id, the notice) : a phoned complaint, an inspection on the clock's
    day finding one violation, and a notice of it issued that day."""
    taken = complaints.take_complaint(
        o.db.uow(),
        o.clock,
        o.clerk,
        o.mid,
        o.parcel_id,
        Channel.PHONE,
        "Rear porch stairs broken",
        complainant_name="Nellie Neighbour",
        complainant_contact="(715) 555-0199",
    )
    case_id = taken.case.case_id
    today = o.clock.today()
    found = inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        today,
        found=[inspections.FoundViolation(section, unit="1", room="rear porch")],
    )
    issued = notices.issue_notice(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        addressees,
        [notices.NoticeLine(found.violation_ids[0], "Repair the stair treads and handrail")],
        "The rear porch stairs are unsafe to use.",
        emergency=emergency,
    )
    return case_id, found.violation_ids[0], issued


def day(y: int, m: int, d: int) -> date:
    return date(y, m, d)
