"""Fee schedules in the database: imported on first use, new versions from a date, permits keep
the version that priced them, roles, failure-to-call occurrences per contractor."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyRole
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, permits
from tests.factories import PASSWORD, application, seed_register

D = Decimal
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
)


def test_the_shipped_schedule_is_imported_on_first_use_and_audited(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    schedule = fees.fee_schedule(database.uow(), clock, reg.municipality_id)
    (version,) = schedule.versions
    assert version.label == "Glendale 15.1.21 (shipped)" and version.id is not None
    assert not version.read_only
    again = fees.fee_schedule(database.uow(), clock, reg.municipality_id)
    assert [v.id for v in again.versions] == [version.id]
    q = fees.quote(database.uow(), clock, reg.municipality_id, NEW_HOUSE, clock.today())
    assert q.total == D("439.00")


def test_a_new_version_prices_later_permits_while_older_permits_keep_theirs(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    old = fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    assert old.total == D("439.00")
    shipped = fees.fee_schedule(uow, clock, reg.municipality_id).versions[0]
    assert shipped.read_only and "priced permits" in shipped.read_only_reason
    # The council raises new construction to $0.14 / sq ft from 2026-07-01.
    raised = fees.with_items(
        shipped,
        label="2026 fee ordinance",
        effective_from=date(2026, 7, 1),
        items=tuple(
            replace(i, rate=D("0.14")) if i.code == "RES-NEW" else i for i in shipped.items
        ),
    )
    fees.create_version(uow, clock, reg.admin, reg.municipality_id, raised)

    clock.set(date(2026, 7, 6))
    later = permits.take_application(uow, clock, reg.clerk, application(reg, "New house"))
    new = fees.assess_fees(uow, clock, reg.clerk, later, NEW_HOUSE)
    # 2,400 × 0.14 = 336.00; + 134.40 = 470.40 → 471; + 35 seal
    assert (new.schedule_version, new.total) == ("2026 fee ordinance", D("506.00"))
    with uow:
        kept = uow.fees.lines_for(reg.permit_id)
        assert [(line.code, line.amount) for line in kept] == [
            ("RES-NEW", D("404.00")),
            ("RES-STATE-SEAL", D("35.00")),
        ]
        assert {line.version_id for line in kept} == {shipped.id}
    # A quote for a date before the new version still uses the old one.
    q = fees.quote(uow, clock, reg.municipality_id, NEW_HOUSE, date(2026, 6, 30))
    assert q.total == D("439.00")


def test_a_new_version_must_start_after_the_current_one_and_only_an_administrator_makes_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    shipped = fees.fee_schedule(uow, clock, reg.municipality_id).versions[0]
    copy = fees.with_items(shipped, label="copy", effective_from=date(2026, 7, 1))
    with pytest.raises(PermissionDenied, match="administrator"):
        fees.create_version(uow, clock, reg.clerk, reg.municipality_id, copy)
    with pytest.raises(ValidationError, match="effective from: must be after 01/01/2000"):
        fees.create_version(
            uow,
            clock,
            reg.admin,
            reg.municipality_id,
            replace(copy, effective_from=date(2000, 1, 1)),
        )
    broken = replace(copy, items=(replace(copy.items[0], rate=None),))
    with pytest.raises(ValidationError, match="item RES-NEW: field 'rate' is missing"):
        fees.create_version(uow, clock, reg.admin, reg.municipality_id, broken)
    assert fees.create_version(uow, clock, reg.admin, reg.municipality_id, copy) > 0


def test_fees_are_assessed_once_and_a_later_change_is_not_an_edit(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    with pytest.raises(RuleViolation, match="adjusting line"):
        fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    with pytest.raises(PermissionDenied):
        fees.assess_fees(uow, clock, reg.treasurer, reg.permit_id, NEW_HOUSE)


def test_failure_to_call_is_counted_per_contractor_across_the_municipalitys_permits(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    assert fees.failure_to_call_occurrence(uow, reg.permit_id) == 1
    fees.assess_fees(
        uow,
        clock,
        reg.clerk,
        reg.permit_id,
        QuoteRequest(items=(QuoteItem("FAIL-TO-CALL", occurrence=1),)),
    )
    # Another permit of the same contractor: this is the contractor's second violation.
    other = permits.take_application(
        uow,
        clock,
        reg.clerk,
        replace(
            application(reg),
            parties=(
                (PartyRole.BUILDING_OWNER, reg.owner_id),
                (PartyRole.CONTRACTOR, reg.contractor_id),
            ),
        ),
    )
    assert fees.failure_to_call_occurrence(uow, other) == 2
    q = fees.assess_fees(
        uow, clock, reg.clerk, other, QuoteRequest(items=(QuoteItem("FAIL-TO-CALL", occurrence=2),))
    )
    assert q.total == D("140.00")
    # An owner-held permit (no contractor) counts the owner's own occurrences.
    owner_only = permits.take_application(uow, clock, reg.clerk, application(reg))
    assert fees.failure_to_call_occurrence(uow, owner_only) == 1


def test_the_municipality_may_price_with_the_issue_date_instead(
    database: Database, clock: FixedClock
) -> None:
    assert fees.pricing_date({}, date(2026, 3, 2), date(2026, 7, 2), date(2026, 8, 1)) == date(
        2026, 3, 2
    )
    settings = {fees.FEE_DATE_SETTING: "issue"}
    assert fees.pricing_date(
        settings, date(2026, 3, 2), date(2026, 7, 2), date(2026, 8, 1)
    ) == date(2026, 7, 2)
    assert fees.pricing_date(settings, date(2026, 3, 2), None, date(2026, 8, 1)) == date(2026, 8, 1)


REQUEST = {
    "work_began_before_permit": False,
    "emergency": False,
    "items": [{"code": "RES-NEW", "quantity": 2400}, {"code": "RES-STATE-SEAL"}],
}


def _quote_cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "permitdesk", "fees", "quote", *args],
        input=stdin,
        capture_output=True,
        text=True,
    )


def test_the_quote_cli_answers_the_documented_request() -> None:
    result = _quote_cli(["--municipality", "glendale", "--on", "2026-11-29"], json.dumps(REQUEST))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["municipality"] == "glendale"
    assert answer["effective_from"] == "2000-01-01"
    assert answer["lines"][0] == {
        "code": "RES-NEW",
        "description": "Residential new construction, all floor area",
        "section": "15.1.21(a)(1)",
        "base": "288.00",
        "admin": "115.20",
        "amount": "404.00",
    }
    assert answer["lines"][1]["amount"] == "35.00"
    assert answer["total"] == "439.00"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"items": [{"code": "NOPE"}]}', "NOPE.code: 'NOPE' is not an item"),
        ('{"items": [{"code": "RES-NEW"}]}', "RES-NEW.quantity: enter the quantity"),
        (
            '{"items": [{"code": "RES-NEW", "quantity": -1}]}',
            "(RES-NEW).quantity: must not be negative",
        ),
        (
            '{"items": [{"code": "RES-NEW", "quantity": "lots"}]}',
            "(RES-NEW).quantity: 'lots' is not a number",
        ),
        (
            '{"items": [{"code": "RES-POOL", "quantity": 2}]}',
            "RES-POOL.quantity: a flat item takes no quantity",
        ),
        ('{"items": [', "request: malformed JSON"),
        ('{"items": []}', "items: must be a non-empty list"),
    ],
)
def test_the_quote_cli_refuses_bad_requests_with_exit_2_and_one_line(
    stdin: str, message: str
) -> None:
    result = _quote_cli(["--municipality", "glendale"], stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_the_quote_cli_uses_the_databases_schedule_with_db(
    tmp_path: Path, clock: FixedClock
) -> None:
    from db.database import open_database
    from db.engine import sqlite_url

    path = tmp_path / "q.db"
    database = open_database(sqlite_url(path))
    reg = seed_register(database, clock)
    shipped = fees.fee_schedule(database.uow(), clock, reg.municipality_id).versions[0]
    fees.create_version(
        database.uow(),
        clock,
        reg.admin,
        reg.municipality_id,
        fees.with_items(
            shipped,
            label="2026",
            effective_from=date(2026, 7, 1),
            items=tuple(
                replace(i, rate=D("40.00")) if i.code == "RES-STATE-SEAL" else i
                for i in shipped.items
            ),
        ),
    )
    database.close()
    # An administrator signs in: the password is the first line, the request the rest.
    result = _quote_cli(
        ["--municipality", "glendale", "--db", str(path), "--on", "2026-07-01", "--user", "admin"],
        f"{PASSWORD}\n{json.dumps(REQUEST)}",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == "444.00"
    assert json.loads(result.stdout)["schedule_version"] == "2026"


def test_an_owner_holding_permits_without_a_contractor_has_occurrences_of_their_own(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    first = permits.take_application(uow, clock, reg.clerk, application(reg))
    fees.assess_fees(
        uow, clock, reg.clerk, first, QuoteRequest(items=(QuoteItem("FAIL-TO-CALL", occurrence=1),))
    )
    second = permits.take_application(uow, clock, reg.clerk, application(reg, "Fence"))
    assert fees.failure_to_call_occurrence(uow, second) == 2
