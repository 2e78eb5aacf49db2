"""Renewing a rooming house licence (Hudson 140-10A): the holder applies again within the
licence's last RENEWAL_DAYS days, naming the licence renewed; the Building Inspector inspects the
house as for a new application (open_licence_case, record_inspection) and the City Clerk issues
the renewal (issue_licence), which runs from the day after the old licence ends, so the operator
is never without the licence 140-10A requires. The rules are desk/enforcement/renewals.py's.

An application recorded with record_application for a dwelling whose licence is in its last
RENEWAL_DAYS days is that licence's renewal too; apply_for_renewal names the licence and, without
an application's details, renews it for the same rooms, persons and fixtures.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from desk.clock import Clock
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement.licences import LicenceRoom, RoomingLicence
from desk.services.enforcement import _common
from desk.services.enforcement.licences import (
    ApplicationInput,
    RoomInput,
    _checked,
    _record,
)
from desk.services.uow import UnitOfWork


def _as_licensed(uow: UnitOfWork, lic: RoomingLicence, applied_on: date | None) -> ApplicationInput:
    """The licence's own application again: its operator, dwelling, persons, fixtures, rooms."""
    assert lic.id is not None
    rooms = sorted(uow.enforcement.find(LicenceRoom, licence_id=lic.id), key=lambda r: r.id or 0)
    return ApplicationInput(
        municipality_id=lic.municipality_id,
        parcel_id=lic.parcel_id,
        operator_name=lic.operator_name,
        operator_address=lic.operator_address,
        persons=lic.persons,
        water_closets=lic.water_closets,
        lavatories=lic.lavatories,
        baths=lic.baths,
        rooms=[
            RoomInput(r.name, r.floor_area, r.sleeping, r.occupants_over_12, r.occupants_under_12)
            for r in rooms
        ],
        dwelling_unit=lic.dwelling_unit,
        operator_party_id=lic.operator_party_id,
        applied_on=applied_on,
    )


def apply_for_renewal(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    applied_on: date | None = None,
    application: ApplicationInput | None = None,
) -> int:
    """The holder's application to renew licence `licence_id` (140-10A), received on
    `applied_on` (today when not given): for the same rooms, persons and fixtures as the licence,
    or as `application` states them now (for the licence's own dwelling, in the holder's name).
    Refused outside the licence's last RENEWAL_DAYS days (saying from which day a renewal may be
    applied for), for a licence suspended, revoked, ended by a change of owner or expired, and
    while a renewal of it is pending or issued. Returns the renewal application's id."""
    require(actor, Permission.RECORD_ROOMING_APPLICATION)
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        old = _common.peek(uow, RoomingLicence, licence_id, "rooming house licence")
        a = (
            replace(application, applied_on=application.applied_on or applied_on)
            if application is not None
            else _as_licensed(uow, old, applied_on)
        )
        renewal_id = _record(uow, clock, actor, a, _checked(a, today), renewing=licence_id)
        uow.commit()
        return renewal_id
