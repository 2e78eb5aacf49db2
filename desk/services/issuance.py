"""Whether a permit may be issued on a day, and if not, every reason in plain words with its
section (issue 4, "Issuance"): the checklist, the credentials of the parties, and the holds of
the calendar and the street, of a delinquent sewer tax (15.1.36) and of a building damaged 50%
or more (15.1.9(b)).

issue_permit refuses while any is unmet, and while the fees assessed are not paid in full
(desk/services/cashiering.unpaid_shortfall), or while a bond, insurance certificate or street
deposit it needs is missing or short (desk/services/sureties.surety_shortfalls_for).
"""

from __future__ import annotations

from datetime import date

from desk.domain.credentials import HeldCredential, check_credentials
from desk.domain.issuance import damage_holds, sewer_tax_holds, street_opening_holds
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import Rule
from desk.errors import NotFound
from desk.services.cashiering import unpaid_shortfall
from desk.services.checklists import shortfalls_in
from desk.services.sureties import surety_shortfalls_for
from desk.services.uow import UnitOfWork


def shortfalls_within(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """Inside an open unit of work (issue_permit's transaction)."""
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    muni = uow.municipalities.get(permit.municipality_id)
    assert muni is not None
    kind = kind_by_code(muni.key, permit.kind)
    out = list(shortfalls_in(uow, permit_id, on))
    for link in permit.parties:
        held = [HeldCredential(c.kind, c.number, c.expires_on) for c in link.party.credentials]
        check = check_credentials(link.party.name, link.role, kind, held, on)
        if not check.ok:
            out.append(check.message)
    if kind.lifecycle is Rule.STREET_OPENING:
        out.extend(
            street_opening_holds(
                on, permit.emergency, permit.street_paved_on, permit.council_approval
            )
        )
    if permit.parcel is not None:
        out.extend(
            sewer_tax_holds(
                kind, permit.parcel.pin, permit.parcel.sewer_delinquent, permit.sewer_permission
            )
        )
    out.extend(damage_holds(kind, permit.damage_percent))
    out.extend(surety_shortfalls_for(uow, permit_id, on))
    unpaid = unpaid_shortfall(uow, permit_id)
    if unpaid is not None:
        out.append(unpaid)
    return out


def issuance_shortfalls(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """Every condition that stops the permit from being issued on `on`; empty when it may be."""
    with uow:
        return shortfalls_within(uow, permit_id, on)
