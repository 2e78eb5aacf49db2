"""Complaints taken at the counter or by phone, e-mail, letter or referral; each opens a case on
the parcel or joins its open case. Who complained is kept confidential."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import rules
from desk.enforcement.model import Channel, Complaint, Origin
from desk.enforcement.readmodels import Complainant
from desk.services.enforcement import _common
from desk.services.enforcement.cases import CaseOpened, start_case
from desk.services.uow import UnitOfWork
from desk.services.users import current_actor


@dataclass(frozen=True)
class ComplaintTaken:
    complaint_id: int
    case: CaseOpened


def take_complaint(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    parcel_id: int,
    channel: Channel,
    description: str,
    *,
    complainant_name: str = "",
    complainant_contact: str = "",
    received_on: date | None = None,
) -> ComplaintTaken:
    """Record a complaint about a property. It joins the parcel's open case, or opens a new
    one (numbered CE-YYYY-NNNN). The parcel's row is locked first, so two complaints about
    one property taken at once make one case."""
    require(actor, Permission.TAKE_COMPLAINT)
    today = clock.today()
    received_on = received_on or today
    rules.check_not_future("received on", received_on, today)
    description = rules.text("what is wrong", description)
    channel = Channel(channel)
    with uow:
        uow.act_as(actor, clock.now())
        _common.parcel(uow, municipality_id, parcel_id)
        c = uow.enforcement.open_case_on(municipality_id, parcel_id)
        opened = c is None
        if c is None:
            c = start_case(
                uow,
                clock,
                actor,
                municipality_id,
                parcel_id,
                received_on,
                Origin.COMPLAINT,
                description,
            )
        assert c.id is not None
        complaint = Complaint(
            municipality_id=municipality_id,
            case_id=c.id,
            parcel_id=parcel_id,
            received_on=received_on,
            channel=channel,
            description=description,
            complainant_name=rules.text("complainant", complainant_name, required=False),
            complainant_contact=rules.text("contact", complainant_contact, required=False),
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.enforcement.add(complaint)
        uow.flush()
        uow.commit()
        assert complaint.id is not None
        return ComplaintTaken(complaint.id, CaseOpened(c.id, c.number, opened))


def complainant(uow: UnitOfWork, actor: Actor, complaint_id: int) -> Complainant:
    """Who complained: for the inspector and the administrator only, as the register has
    their account now (one disabled, locked or demoted since signing in sees nothing)."""
    require(actor, Permission.VIEW_COMPLAINANT)
    with uow:
        current_actor(uow, actor, Permission.VIEW_COMPLAINANT)
        complaint = _common.peek(uow, Complaint, complaint_id, "complaint")
        assert complaint.id is not None
        return Complainant(complaint.id, complaint.complainant_name, complaint.complainant_contact)
