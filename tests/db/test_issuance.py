"""What stands between an application and its permit, listed in words with sections."""

from __future__ import annotations

from datetime import date

from db.database import Database
from desk.clock import FixedClock
from desk.domain.checklists import ItemState
from desk.domain.enums import CredentialKind
from desk.domain.model import Credential
from desk.services import checklists, permits
from desk.services.issuance import issuance_shortfalls
from tests.factories import seed_register


def test_issuance_lists_the_checklist_and_the_contractors_missing_certification(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    short = issuance_shortfalls(uow, reg.permit_id, clock.today())
    assert (
        "Badger State Builders LLC: no dwelling contractor certification on record "
        "(Wis. Stat. 101.654)" in short
    )
    assert any("(15.1.7(b)(1))" in s for s in short)

    permits.add_credential(
        uow,
        clock,
        reg.clerk,
        reg.contractor_id,
        Credential(
            kind=CredentialKind.DWELLING_CONTRACTOR, number="DC-1102345",
            expires_on=date(2026, 3, 1),
        ),
    )  # fmt: skip
    short = issuance_shortfalls(uow, reg.permit_id, clock.today())
    assert (
        "Badger State Builders LLC: dwelling contractor certification DC-1102345 expired "
        "03/01/2026 (Wis. Stat. 101.654)" in short
    )
    permits.add_credential(
        uow, clock, reg.clerk, reg.contractor_id,
        Credential(kind=CredentialKind.DWELLING_CONTRACTOR, number="DC-1199999"),
    )  # fmt: skip
    _, lines = checklists.checklist_lines(uow, reg.permit_id)
    for line in lines:
        if line.code == "survey.date":
            checklists.mark_item(
                uow, clock, reg.clerk, reg.permit_id, line.code, ItemState.RECEIVED,
                value_date=date(2026, 2, 20),
            )  # fmt: skip
        elif line.code == "plans_residential.fireplace":
            checklists.mark_item(
                uow, clock, reg.inspector, reg.permit_id, line.code, ItemState.WAIVED,
                reason="No fireplace",
            )  # fmt: skip
        else:
            checklists.mark_item(
                uow, clock, reg.clerk, reg.permit_id, line.code, ItemState.RECEIVED
            )
    assert issuance_shortfalls(uow, reg.permit_id, clock.today()) == []


def test_issue_permit_refuses_listing_every_unmet_condition_then_issues_when_they_hold(
    database: Database, clock: FixedClock
) -> None:
    import pytest

    from db import queries
    from desk.errors import IssuanceRefused
    from tests.factories import make_issuable

    reg = seed_register(database, clock)
    with pytest.raises(IssuanceRefused) as refused:
        permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    assert "Badger State Builders LLC: no dwelling contractor certification on record" in str(
        refused.value
    )
    assert len(refused.value.shortfalls) > 5
    with database.read() as conn:
        detail = queries.permit_detail(conn, reg.permit_id)
    assert detail is not None and detail.number is None  # nothing issued, no number burnt
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    assert permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id) == "2026-0001"
