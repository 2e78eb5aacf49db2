"""Reports: the one write they need — the date a new one- or two-family dwelling permit
was filed with the state (Wisconsin Act 211, s. 101.63(7m) Wis. Stats., SPS 320.09) — and the
link from a late filing to cashiering's refund (desk.services.cashiering.refund_quote / refund
with the Act 211 ground keep the state seal; nothing is reimplemented here).

The reports themselves are read-only: db/report_queries.py computes them for the screen, the CLI
and the renderers alike."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.domain.cashiering import RefundDecision, RefundGround
from desk.domain.model import Actor, Permit, StateFiling
from desk.domain.permissions import Permission, require
from desk.domain.reports import FilingState, check_filed_on, filing_state, is_new_one_two_family
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services import cashiering
from desk.services.uow import UnitOfWork

MAX_REFERENCE = 80


@dataclass(frozen=True)
class FilingResult:
    permit_id: int
    number: str
    filed_on: date
    state: FilingState  # filed in time, or late (then the fees go back except the seal)


def _permit(uow: UnitOfWork, permit_id: int) -> Permit:
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _check_dwelling(permit: Permit) -> None:
    if not is_new_one_two_family(
        permit.kind, permit.permit_class, permit.work_class, permit.dwelling_units
    ):
        raise RuleViolation(
            f"Permit {permit.number or f'#{permit.id}'} is not for a new one- or two-family "
            "dwelling; only those are filed with the state under Act 211 (SPS 320.09)."
        )


def filed_on(uow: UnitOfWork, permit_id: int) -> date | None:
    """The date the permit was filed with the state, or None."""
    with uow:
        found = uow.cash.find(StateFiling, permit_id=permit_id)
        return found[0].filed_on if found else None


def record_state_filing(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    filed: date,
    reference: str = "",
) -> FilingResult:
    """Record (or correct) the day the permit was filed with the state. The clerk or the
    inspector records it; the audit trail keeps the old date when it is corrected."""
    require(actor, Permission.EDIT_PERMIT)
    reference = reference.strip()
    if len(reference) > MAX_REFERENCE:
        raise ValidationError("reference", f"at most {MAX_REFERENCE} characters")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _permit(uow, permit_id)
        _check_dwelling(permit)
        check_filed_on(permit.issued_on, filed, clock.today())
        found = uow.cash.find(StateFiling, permit_id=permit_id)
        if found:
            row = found[0]
            row.filed_on = filed
            row.reference = reference
            row.by_user_id = actor.user_id
            row.at = clock.now()
        else:
            uow.cash.add(
                StateFiling(
                    permit_id=permit_id,
                    filed_on=filed,
                    reference=reference,
                    by_user_id=actor.user_id,
                    at=clock.now(),
                )
            )
        assert permit.issued_on is not None and permit.id is not None
        result = FilingResult(
            permit.id,
            permit.number or f"#{permit.id}",
            filed,
            filing_state(permit.issued_on, filed, clock.today()),
        )
        uow.commit()
        return result


def act211_refund_quote(uow: UnitOfWork, clock: Clock, permit_id: int) -> RefundDecision:
    """What cashiering would refund for a late (or missing) Act 211 filing, with the filing
    date on record: the fees except the state seal once the deadline has passed."""
    return cashiering.refund_quote(
        uow, clock, permit_id, RefundGround.ACT_211, filed_on=filed_on(uow, permit_id)
    )


def act211_refund_input(
    uow: UnitOfWork, permit_id: int, check_number: str, check_date: date
) -> cashiering.RefundInput:
    """The refund the treasurer writes for a late filing (pass it to cashiering.refund)."""
    return cashiering.RefundInput(
        permit_id=permit_id,
        ground=RefundGround.ACT_211,
        check_number=check_number,
        check_date=check_date,
        filed_on=filed_on(uow, permit_id),
    )
