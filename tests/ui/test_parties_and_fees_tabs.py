"""The permit window's Parties and Fees tabs, on a register made through the services."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind
from desk.domain.model import Credential
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, permits
from tests.factories import Register, seed_register
from ui.app import application, make_session
from ui.permit.base import PermitContext
from ui.permit.fees import FeesTab
from ui.permit.parties import PartiesTab
from ui.permit.window import PermitWindow


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def open_window(qtbot: QtBot, database: Database, clock: FixedClock, reg: Register) -> PermitWindow:
    application()
    context = PermitContext(database, make_session(database, reg.clerk), reg.permit_id, clock)
    window = PermitWindow(context, remember_geometry=False)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    return window


def test_the_parties_tab_marks_the_builders_certification_good_through_its_expiry(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> None:
    permits.add_credential(
        database.uow(),
        clock,
        reg.clerk,
        reg.contractor_id,
        Credential(
            kind=CredentialKind.DWELLING_CONTRACTOR, number="DC-1100", expires_on=date(2026, 3, 2)
        ),
    )
    window = open_window(qtbot, database, clock, reg)
    window.select_tab("parties")
    tab = window.tab("parties")
    assert isinstance(tab, PartiesTab)
    texts = tab.texts()
    assert "Credentials checked on 03/02/2026: every party may take its role." in texts
    ok = texts.index("✓")
    assert texts[ok : ok + 5] == [
        "✓",
        "Dwelling contractor",
        "DC-1100",
        "expires 03/02/2026",
        "fits this role",
    ]
    assert "Needs a dwelling contractor certification (Wis. Stat. 101.654)." in texts

    clock.set(date(2026, 3, 3))  # the day after it expires
    window.reload()
    texts = tab.texts()
    assert "✓" not in texts
    assert "expired" in texts
    assert (
        "✗  Badger State Builders LLC: dwelling contractor certification DC-1100 expired "
        "03/02/2026 (Wis. Stat. 101.654)" in texts
    )


def test_the_fees_tab_lists_the_assessed_lines_and_their_total(
    qtbot: QtBot,
    qtmodeltester: ModelTester,
    database: Database,
    clock: FixedClock,
    reg: Register,
) -> None:
    window = open_window(qtbot, database, clock, reg)
    tab = window.tab("fees")
    assert isinstance(tab, FeesTab)
    assert tab.pages.currentWidget() is tab.empty_label
    assert tab.empty_label.text().startswith("No fees are assessed on this permit.")

    request = QuoteRequest(
        items=(
            QuoteItem("RES-NEW", quantity=Decimal("2400")),
            QuoteItem("RES-STATE-SEAL"),
            QuoteItem("PLUMBING", amount=Decimal("120.00")),
        )
    )
    fees.assess_fees(database.uow(), clock, reg.clerk, reg.permit_id, request)
    window.reload()
    window.select_tab("fees")
    assert tab.pages.currentWidget() is tab.table_page
    model = tab.model
    cells = [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]
    assert [(c[0], c[3], c[4]) for c in cells] == [
        ("RES-NEW", "2,400", "$404.00"),
        ("RES-STATE-SEAL", "—", "$35.00"),
        ("PLUMBING", "$120.00", "$168.00"),
    ]
    assert tab.total("Total fees") == "$607.00"
    assert "Glendale 15.1.21 (shipped)" in tab.source_label.text()
    assert "03/02/2026" in tab.source_label.text()
    qtmodeltester.check(model)
