"""The Reports section of the City of Hudson (no permit kinds: its housing code only): the
monthly and annual reports are offered and make the code-enforcement report; the reports made
of permits are listed greyed, not chosen, with the reason in their tooltip."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from tests.db.enforcement_setup import Office, case_with_notice
from tests.db.test_hudson_reports import hudson_office
from ui.app import application, make_session
from ui.views.reports import KEY_ROLE, ReportsView

TODAY = date(2026, 5, 4)


@pytest.fixture(scope="module")
def hudson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    db = open_database(sqlite_url(tmp_path_factory.mktemp("hudson") / "hudson.db"))
    try:
        o = hudson_office(db, FixedClock(date(2026, 4, 2)))
        case_with_notice(o)  # an April case: a complaint, an inspection, a notice
        yield o
    finally:
        db.close()


@pytest.fixture
def view(qtbot: QtBot, hudson: Office) -> ReportsView:
    application()
    session = make_session(hudson.db, hudson.inspector)
    widget = ReportsView(hudson.db, session, FixedClock(TODAY))
    qtbot.addWidget(widget)
    widget.resize(1100, 760)
    widget.show()
    return widget


def test_only_the_monthly_and_annual_reports_are_offered(view: ReportsView) -> None:
    items = [view.list.item(n) for n in range(view.list.count())]
    enabled = {
        str(i.data(KEY_ROLE)): bool(i.flags() & Qt.ItemFlag.ItemIsEnabled) for i in items if i
    }
    assert [k for k, on in enabled.items() if on] == ["monthly", "annual"]
    c404 = next(i for i in items if i is not None and i.data(KEY_ROLE) == "c404")
    assert c404.toolTip().startswith("The Census Form C-404 lists permits, and City of Hudson")
    assert "Not offered" in c404.text()
    assert view.title.text() == "Monthly code-enforcement report"
    assert "15.1" not in view.due.text()
    view.select("act211")  # e.g. a screenshot's reports:act211
    assert view.presenter.key == "monthly"
    assert view.error.text().startswith("The Act 211 filings with the state lists permits")


def test_the_monthly_report_made_is_the_code_enforcement_report(view: ReportsView) -> None:
    view.month.setCurrentIndex(3)  # April
    out = view.make_now()
    assert out is not None and out.pdf is not None
    assert out.title == (
        "Monthly report on code enforcement in the City of Hudson (Hudson ch. 140) — April 2026"
    )
    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(out.pdf)).pages)
    assert "Code enforcement (Hudson 140-3)" in text and "15.1." not in text
    assert "Permits granted" not in text


def test_the_annual_report_offers_no_register_of_permits(view: ReportsView) -> None:
    view.select("annual")
    assert not view.register.isVisible() and view.year.isVisible()
    view.year.setValue(2026)
    out = view.make_now()
    assert out is not None and out.pdf is not None
    text = "\n".join(p.extract_text() or "" for p in PdfReader(str(out.pdf)).pages)
    assert "Code enforcement report — 2026" in text and "15.1." not in text
    assert "register of permits" not in text
