"""An order not complied with by its correction date: the inspector's escalation, recorded —
a re-inspection, a citation referred to the municipal court, condemnation (a link to the
condemnation register, Hudson 140 "Requirements to condemn"), or abatement by the city with
its cost, a special charge on the tax roll (Wis. s. 66.0627)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.licensing import Outcome
from desk.domain.model import Actor, Condemnation
from desk.domain.permissions import Permission, require
from desk.enforcement import deadlines, rules
from desk.enforcement.model import (
    EnforcementOrder,
    Escalation,
    EscalationKind,
    NoticeItem,
    Violation,
    ViolationState,
)
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class EscalationInput:
    order_id: int
    kind: EscalationKind
    decided_on: date
    notes: str = ""
    reinspect_on: date | None = None  # re-inspection
    court_reference: str = ""  # citation
    condemnation_id: int | None = None  # condemnation: the register's row
    cost: Decimal | None = None  # abatement
    tax_roll_year: int | None = None  # abatement; default: the year decided


def record_escalation(uow: UnitOfWork, clock: Clock, actor: Actor, e: EscalationInput) -> int:
    """Record what the inspector decided for an order in force that has a violation still open
    after its correction date. Returns the escalation's id."""
    require(actor, Permission.RECORD_ESCALATION)
    kind = EscalationKind(e.kind)
    rules.check_not_future("decided on", e.decided_on, clock.today())
    notes = rules.text("notes", e.notes, required=False)
    with uow:
        uow.act_as(actor, clock.now())
        o0 = _common.peek(uow, EnforcementOrder, e.order_id, "order")
        c = _common.open_case(uow, o0.case_id)
        order = _common.row(uow, EnforcementOrder, e.order_id, "order")
        if order.revoked_on is not None or order.superseded_on is not None:
            raise RuleViolation("That order is no longer in effect (140-3H)")
        _common.not_before("decided on", e.decided_on, order.effective_on, "the order")
        overdue = [
            v
            for item in uow.enforcement.find(NoticeItem, notice_id=order.notice_id)
            for v in [_common.row(uow, Violation, item.violation_id, "violation")]
            if v.state is ViolationState.OPEN and deadlines.past_due(v.correct_by, e.decided_on)
        ]
        if not overdue:
            raise RuleViolation(
                f"No violation of this order was past its correction date on "
                f"{short_date(e.decided_on)}: it has been complied with or is not yet due"
            )
        row = Escalation(
            case_id=order.case_id,
            order_id=e.order_id,
            kind=kind,
            decided_on=e.decided_on,
            notes=notes,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        if kind is EscalationKind.REINSPECTION:
            if e.reinspect_on is None:
                raise ValidationError("re-inspect on", "give the day of the re-inspection")
            _common.not_before("re-inspect on", e.reinspect_on, e.decided_on, "the decision")
            row.reinspect_on = e.reinspect_on
        elif kind is EscalationKind.CITATION:
            row.court_reference = rules.text("court reference", e.court_reference, required=False)
            if not (row.court_reference or notes):
                raise ValidationError("court reference", "give the citation's number or a note")
        elif kind is EscalationKind.CONDEMNATION:
            if e.condemnation_id is None:
                raise ValidationError(
                    "condemnation", "record the condemnation in its register, then choose it"
                )
            found = uow.enforcement.find(Condemnation, id=e.condemnation_id)
            cond = found[0] if found else None
            if cond is None or cond.municipality_id != c.municipality_id:
                raise ValidationError(
                    "condemnation", f"condemnation #{e.condemnation_id} does not exist"
                )
            if cond.parcel_id != c.parcel_id:
                raise ValidationError(
                    "condemnation", f"condemnation #{cond.id} is not of this case's property"
                )
            if cond.outcome is not Outcome.OPEN:
                raise RuleViolation(f"Condemnation #{cond.id} is closed already")
            row.condemnation_id = e.condemnation_id
        else:
            row.cost = rules.check_cost(e.cost)
            row.tax_roll_year = e.tax_roll_year or e.decided_on.year
            if row.tax_roll_year < e.decided_on.year:
                raise ValidationError("tax roll", "the charge goes on this year's roll or later")
        uow.enforcement.add(row)
        uow.flush()
        uow.commit()
        assert row.id is not None
        return row.id
