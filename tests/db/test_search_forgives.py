"""The permits search forgives: street words either way (USPS Pub. 28) and typos, on SQLite
and PostgreSQL, through the same queries and presenter the permits list uses."""

from __future__ import annotations

from dataclasses import replace

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.model import Parcel, Party
from desk.services import permits, setup
from tests.factories import Register, application, seed_register
from ui.presenters.permit_list import PermitListPresenter, SqlPermitSource


def _second_site(database: Database, clock: FixedClock, reg: Register) -> int:
    """A reroof at 7652 N Sidney Pl for Teutonia Avenue Lutheran Church."""
    uow = database.uow()
    parcel_id = permits.add_parcel(
        uow,
        clock,
        reg.clerk,
        Parcel(
            municipality_id=reg.municipality_id,
            pin="047-5550-011",
            house_number="7652",
            street="N Sidney Pl",
            city="Glendale",
            zip="53209",
        ),
    )
    church = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(kind=PartyKind.ORGANIZATION, name="Teutonia Avenue Lutheran Church"),
    )
    return permits.take_application(
        uow,
        clock,
        reg.clerk,
        replace(
            application(reg), parcel_id=parcel_id, parties=((PartyRole.BUILDING_OWNER, church),)
        ),
    )


def _found(database: Database, reg: Register, text: str) -> list[str]:
    """The addresses of the permits listed for `text`, in the list's order."""
    with database.read() as conn:
        rows = queries.search_permits(conn, reg.municipality_id, text)
        assert queries.count_permits(conn, reg.municipality_id, text) == len(rows)
    return [r.address for r in rows]


PORT = "6120 N Port Washington Rd"
SIDNEY = "7652 N Sidney Pl"


def test_street_words_are_found_spelled_out_or_abbreviated(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    _second_site(database, clock, reg)
    assert _found(database, reg, "6120 north port washington road") == [PORT]
    assert _found(database, reg, "north port washington road") == [PORT]
    assert _found(database, reg, "6120 n port washington rd") == [PORT]
    assert _found(database, reg, "port washington rd") == [PORT]
    assert _found(database, reg, "sidney place") == [SIDNEY]
    assert _found(database, reg, "7652 north sidney pl") == [SIDNEY]
    assert _found(database, reg, "sidney pla") == [SIDNEY]  # still typing 'place'
    assert _found(database, reg, "teutonia ave") == [SIDNEY]  # the owner's name, as before
    assert _found(database, reg, "teutonia avenue") == [SIDNEY]
    assert _found(database, reg, "south port washington road") == []
    assert _found(database, reg, "sidney road") == []
    assert _found(database, reg, "6120 sidney") == []  # every word must match, as before


def test_a_typo_finds_the_permit_and_the_list_says_it_shows_close_matches(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    _second_site(database, clock, reg)
    assert _found(database, reg, "teutonai") == [SIDNEY]
    assert _found(database, reg, "schmit") == [PORT]
    assert _found(database, reg, "sidny place") == [SIDNEY]
    assert _found(database, reg, "6120 washingtn") == [PORT]
    assert _found(database, reg, "badgr schmit") == [PORT]
    assert _found(database, reg, "6102 port washington") == []  # numbers must be right
    assert _found(database, reg, "nobody") == []

    presenter = PermitListPresenter(SqlPermitSource(database, reg.municipality_id), "glendale")
    presenter.load()
    presenter.set_search("teutonai")
    assert presenter.count == 1
    assert presenter.count_text == (
        "No exact match; showing close matches for \u201cteutonia\u201d: 1 permit"
    )
    first = presenter.row(0)
    assert first is not None and first.address == SIDNEY
    assert not presenter.no_match
    presenter.set_search("teutonia")
    assert presenter.count_text == "1 permit"
    presenter.set_search("zzzzzz")
    assert presenter.no_match
    assert presenter.count_text.startswith("No permits match 'zzzzzz'")


def test_close_matches_are_listed_closest_first(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    for name in ("Anna Schmitz", "Anna Schmid"):
        party = permits.add_party(uow, clock, reg.clerk, Party(kind=PartyKind.PERSON, name=name))
        permits.take_application(
            uow,
            clock,
            reg.clerk,
            replace(application(reg), parties=((PartyRole.BUILDING_OWNER, party),)),
        )
    with database.read() as conn:
        plan, found = queries.count_search(conn, reg.municipality_id, "schmitdt")
        rows = queries.search_permits(
            conn, reg.municipality_id, "schmitdt", sort="applied", descending=True, plan=plan
        )
    # 'schmidt' is one swap away; 'schmitz' and 'schmid' two edits each, so the list's own
    # sort orders them (newest first), though the closest came in first.
    assert plan.close_matches == ("schmidt",)
    assert found == 3
    assert [r.owner for r in rows] == ["Anna Schmidt", "Anna Schmid", "Anna Schmitz"]


def test_a_second_municipality_s_permits_are_never_counted_or_listed_with_the_first_s(
    database: Database, clock: FixedClock
) -> None:
    # One municipality: the count reads the term index alone; two: it must not.
    reg = seed_register(database, clock)
    _second_site(database, clock, reg)
    assert _found(database, reg, "port washington") == [PORT]
    assert _found(database, reg, "lutheran church") == [SIDNEY]
    uow = database.uow()
    other = setup.ensure_municipality(uow, clock, reg.admin, "new_lisbon")
    parcel_id = permits.add_parcel(
        uow,
        clock,
        reg.clerk,
        Parcel(
            municipality_id=other,
            pin="291-0001-001",
            house_number="14",
            street="N Port Washington Rd",
        ),
    )
    permits.take_application(
        uow,
        clock,
        reg.clerk,
        replace(application(reg), municipality_id=other, parcel_id=parcel_id, kind="SIDEWALK"),
    )
    assert _found(database, reg, "port washington") == [PORT]
    assert _found(database, reg, "washington teutonia") == []
    with database.read() as conn:
        assert queries.count_permits(conn, other, "port washington") == 1
        assert queries.count_permits(conn, other, "port wash 14") == 1
        assert queries.count_permits(conn, other, "sidney") == 0
