"""Whether a permit may be issued on a day, and if not, every reason in plain words with its
section: the checklist, the credentials of the parties, and the holds of
the calendar and the street (frozen ground, five years after repaving §435-8.I), of the lot's
house number (New Lisbon §435-15.E, Glendale 15.1.7(b)(1)), of a delinquent sewer tax (15.1.36)
and of a building damaged 50% or more (15.1.9(b)).

issue_permit refuses while any is unmet, and while the fees assessed are not paid in full
(desk/services/cashiering.unpaid_shortfall), or while a bond, insurance certificate or street
deposit it needs is missing or short (desk/services/sureties.surety_shortfalls_for).
"""

from __future__ import annotations

from datetime import date

from desk.domain.credentials import HeldCredential, check_credentials
from desk.domain.issuance import (
    damage_holds,
    frozen_ground_holds,
    house_number_holds,
    sewer_tax_holds,
)
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import Rule, requested_period_holds
from desk.errors import NotFound
from desk.services.cashiering import unpaid_shortfall
from desk.services.checklists import shortfalls_in
from desk.services.intake import house_number_section, needs_house_number
from desk.services.street_register import moratorium_shortfalls
from desk.services.sureties import surety_shortfalls_for
from desk.services.uow import UnitOfWork


def shortfalls_within(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """Inside an open unit of work (issue_permit's transaction)."""
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    muni = uow.municipalities.get(permit.municipality_id)
    assert muni is not None
    kind = kind_by_code(muni.ordinance, permit.kind)
    out = list(shortfalls_in(uow, permit_id, on))
    for link in permit.parties:
        held = [
            HeldCredential(c.kind, c.number, c.expires_on)
            for c in link.party.credentials
            if c.superseded_by_id is None
        ]
        check = check_credentials(link.party.name, link.role, kind, held, on)
        if not check.ok:
            out.append(check.message)
    if kind.lifecycle is Rule.STREET_OPENING:
        # Frozen ground here; the five years after repaving (§435-8.I) from the street register.
        out.extend(frozen_ground_holds(on, permit.emergency))
        out.extend(moratorium_shortfalls(uow, permit, on))
    if permit.parcel is not None:
        # New Lisbon §435-15.E, Glendale 15.1.7(b)(1): the lot's official house number first.
        out.extend(
            house_number_holds(
                needs_house_number(muni.ordinance, permit.kind),
                permit.parcel.house_number,
                permit.parcel.pin,
                house_number_section(muni.ordinance),
            )
        )
    if permit.parcel is not None:
        out.extend(
            sewer_tax_holds(
                kind, permit.parcel.pin, permit.parcel.sewer_delinquent, permit.sewer_permission
            )
        )
    out.extend(damage_holds(kind, permit.damage_percent))
    # 15.1.76(a): temporary wiring states its period, at most 90 days from the issue date.
    out.extend(requested_period_holds(kind.lifecycle, permit.requested_until, on))
    out.extend(surety_shortfalls_for(uow, permit_id, on))
    unpaid = unpaid_shortfall(uow, permit_id)
    if unpaid is not None:
        out.append(unpaid)
    return out


def issuance_shortfalls(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """Every condition that stops the permit from being issued on `on`; empty when it may be."""
    with uow:
        return shortfalls_within(uow, permit_id, on)
