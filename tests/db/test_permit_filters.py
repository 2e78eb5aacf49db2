"""The permits list's filters and saved searches, in SQL, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

import pytest

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PermitStatus
from desk.domain.permit_filter import (
    APPLICATION_STATUSES,
    BUILT_IN_SEARCHES,
    LAPSING,
    MY_OPEN_APPLICATIONS,
    PermitFilter,
    PermitWhere,
)
from desk.services import inspections, lifecycle, permits
from desk.services.inspections import RequestInput
from tests.factories import Register, application, make_issuable, seed_register
from ui.presenters.permit_list import PermitListPresenter, SqlPermitSource

S = PermitStatus


@dataclass
class Office:
    reg: Register
    p1: int  # RES-NEW-DWELLING, the clerk's, applied 03/02
    p2: int  # RES-OTHER, the administrator's, applied 03/05, issued 03/16 by the inspector
    p3: int  # RES-OTHER, the clerk's, applied 03/10, withdrawn
    p4: int  # RES-OTHER, the clerk's, applied and issued 03/16 by the administrator, with an
    # inspection assigned to the inspector


def _office(database: Database, clock: FixedClock) -> Office:
    reg = seed_register(database, clock)
    uow = database.uow()
    clock.set(date(2026, 3, 5))
    p2 = permits.take_application(
        uow, clock, reg.admin, replace(application(reg, "Reroof"), applied_on=date(2026, 3, 5))
    )
    clock.set(date(2026, 3, 10))
    p3 = permits.take_application(
        uow, clock, reg.clerk, replace(application(reg, "Deck"), applied_on=date(2026, 3, 10))
    )
    lifecycle.change_status(uow, clock, reg.admin, p3, S.WITHDRAWN)
    clock.set(date(2026, 3, 16))
    p4 = permits.take_application(uow, clock, reg.clerk, application(reg, "Garage"))
    make_issuable(database, clock, reg.admin, p2)
    permits.issue_permit(uow, clock, reg.inspector, p2)
    make_issuable(database, clock, reg.admin, p4)
    permits.issue_permit(uow, clock, reg.admin, p4)
    asked = inspections.request_inspection(
        uow, clock, reg.clerk, RequestInput(p4, "BLD-FINAL", "Mike Kowalczyk")
    )
    inspections.schedule_inspection(
        uow, clock, reg.admin, asked.inspection_id, reg.inspector.user_id, date(2026, 3, 18)
    )
    return Office(reg, reg.permit_id, p2, p3, p4)


def _found(database: Database, office: Office, f: PermitFilter, text: str = "") -> set[int]:
    """The permits the list shows for `f` as the clerk, checked against its COUNT."""
    where = PermitWhere(f, office.reg.clerk.user_id)
    mid = office.reg.municipality_id
    with database.read() as conn:
        rows = queries.search_permits(conn, mid, text, where=where)
        count = queries.count_permits(conn, mid, text, where=where)
    assert count == len(rows)
    return {r.id for r in rows}


@pytest.fixture
def office(database: Database, clock: FixedClock) -> Office:
    return _office(database, clock)


def test_each_status_filter_lists_only_permits_in_that_status(
    database: Database, office: Office
) -> None:
    o = office
    assert _found(database, o, PermitFilter(statuses=frozenset({S.APPLIED}))) == {o.p1}
    assert _found(database, o, PermitFilter(statuses=frozenset({S.ISSUED}))) == {o.p2, o.p4}
    assert _found(database, o, PermitFilter(statuses=frozenset({S.WITHDRAWN}))) == {o.p3}
    assert _found(database, o, PermitFilter(statuses=frozenset({S.VOID}))) == set()
    assert _found(database, o, PermitFilter(statuses=APPLICATION_STATUSES)) == {o.p1}
    assert _found(database, o, PermitFilter()) == {o.p1, o.p2, o.p3, o.p4}


def test_open_only_leaves_out_the_withdrawn_application(database: Database, office: Office) -> None:
    o = office
    assert _found(database, o, PermitFilter(open_only=True)) == {o.p1, o.p2, o.p4}


def test_date_ranges_include_both_ends(database: Database, office: Office) -> None:
    o = office
    d = date
    applied = PermitFilter(applied_from=d(2026, 3, 5), applied_to=d(2026, 3, 10))
    assert _found(database, o, applied) == {o.p2, o.p3}
    assert _found(database, o, PermitFilter(applied_from=d(2026, 3, 10))) == {o.p3, o.p4}
    assert _found(database, o, PermitFilter(applied_to=d(2026, 3, 4))) == {o.p1}
    same_day = PermitFilter(applied_from=d(2026, 3, 16), applied_to=d(2026, 3, 16))
    assert _found(database, o, same_day) == {o.p4}
    issued = PermitFilter(issued_from=d(2026, 3, 16), issued_to=d(2026, 3, 16))
    assert _found(database, o, issued) == {o.p2, o.p4}
    assert _found(database, o, PermitFilter(issued_to=d(2026, 3, 15))) == set()
    assert _found(database, o, PermitFilter(issued_from=d(2026, 3, 17))) == set()
    # Not issued: no issue date, so outside any issued range.
    assert _found(database, o, PermitFilter(issued_from=d(2000, 1, 1))) == {o.p2, o.p4}


def test_the_kind_filter(database: Database, office: Office) -> None:
    o = office
    assert _found(database, o, PermitFilter(kind="RES-NEW-DWELLING")) == {o.p1}
    assert _found(database, o, PermitFilter(kind="RES-OTHER")) == {o.p2, o.p3, o.p4}
    assert _found(database, o, PermitFilter(kind="COM-NEW")) == set()


def test_the_inspector_is_who_issued_or_has_an_inspection_assigned(
    database: Database, office: Office
) -> None:
    o = office
    ivan = o.reg.inspector.user_id
    assert _found(database, o, PermitFilter(inspector_id=ivan)) == {o.p2, o.p4}
    assert _found(database, o, PermitFilter(inspector_id=o.reg.clerk.user_id)) == set()


def test_my_open_applications_are_the_clerks_applications_not_issued(
    database: Database, office: Office
) -> None:
    o = office
    mine = next(s for s in BUILT_IN_SEARCHES if s.name == MY_OPEN_APPLICATIONS)
    assert _found(database, o, PermitFilter(entered_by_me=True)) == {o.p1, o.p3, o.p4}
    assert _found(database, o, mine.filter) == {o.p1}
    # The administrator entered only a permit since issued.
    where = PermitWhere(mine.filter, o.reg.admin.user_id)
    with database.read() as conn:
        assert queries.count_permits(conn, o.reg.municipality_id, where=where) == 0


def test_filters_combine_with_each_other_and_with_the_search_text(
    database: Database, office: Office
) -> None:
    o = office
    f = PermitFilter(kind="RES-OTHER", open_only=True)
    assert _found(database, o, f) == {o.p2, o.p4}
    assert _found(database, o, f, "6120 schmidt") == {o.p2, o.p4}
    assert _found(database, o, f, "2026-0001") == {o.p2}  # its number
    assert _found(database, o, f, "nosuchstreet") == set()


def test_pages_of_a_filtered_list_hold_each_permit_once_and_sort_in_sql(
    database: Database, office: Office
) -> None:
    o = office
    where = PermitWhere(PermitFilter(kind="RES-OTHER"), None)
    mid = o.reg.municipality_id
    with database.read() as conn:
        pages = [
            queries.search_permits(
                conn, mid, where=where, sort="applied", descending=False, offset=i, limit=1
            )
            for i in range(4)
        ]
    assert [[r.id for r in page] for page in pages] == [[o.p2], [o.p3], [o.p4], []]


def test_the_lapsing_saved_search_lists_exactly_the_homes_lapsing_permits(
    database: Database, office: Office, clock: FixedClock
) -> None:
    from ui.app import make_session
    from ui.presenters.home import HomePresenter

    o = office
    # The dwelling issued 03/16 too: two permits whose start deadline is 07/16 (15.1.8(b)).
    make_issuable(database, clock, o.reg.admin, o.p1)
    permits.issue_permit(database.uow(), clock, o.reg.inspector, o.p1)
    clock.set(date(2026, 6, 20))
    session = make_session(database, o.reg.admin)
    (group,) = [g for g in HomePresenter(database, session, clock).load() if g.key == "lapsing"]
    home = {item.permit_id for item in group.items}
    assert home  # the test means something only when the home lists some

    lapsing = next(s for s in BUILT_IN_SEARCHES if s.name == LAPSING)
    source = SqlPermitSource(
        database, o.reg.municipality_id, user_id=o.reg.admin.user_id, clock=clock
    )
    presenter = PermitListPresenter(source, "glendale")
    presenter.filters = lapsing.filter
    presenter.load()
    listed = {row.id for i in range(presenter.count) if (row := presenter.row(i)) is not None}
    assert listed == home
    assert presenter.count == len(home)
    assert presenter.count_text.endswith("— filtered")
    # And on a day nothing lapses within 30 days, neither lists anything.
    clock.set(date(2026, 3, 20))
    presenter.load()
    assert presenter.count == 0
    assert lifecycle.lapsing_within(database.uow(), clock, o.reg.municipality_id, 30) == []
