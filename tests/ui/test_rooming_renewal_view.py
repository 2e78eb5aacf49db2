"""A rooming house licence renewed without a gap, as the clerk sees it (Hudson 140-10A): the
licence window's Renewal… step is open from 60 days before the licence ends, records the holder's
application, and the register then shows "renewal applied on …" in amber; once the City Clerk
issues the renewal, the register shows "renewal issued — RH-…, from …" and the windows say what
renews what."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from ui import dialogs
from ui.app import application, make_session
from ui.presenters.rooming import caution
from ui.views.rooming import RoomingView

ISSUED = date(2026, 3, 2)  # RH-2026-0001, valid through 03/02/2027


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(ISSUED)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []

    def ask(_parent: object, _title: str, text: str, **_k: object) -> bool:
        said.append(text)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    return said


def _inspected_and_issued(o: Office, licence_id: int) -> svc.LicenceIssued:
    case_id = svc.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    inspections.record_inspection(o.db.uow(), o.clock, o.inspector, case_id, o.clock.today())
    return svc.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt=RECEIPT)


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    o = office(empty_database, clock)
    set_licence_fee(o)
    licence_id = svc.record_application(
        o.db.uow(),
        clock,
        o.clerk,
        svc.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel_id,
            operator_name="Rita Roomer",
            operator_address="5 Oak St, Hudson WI 54016",
            persons=3,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=(svc.RoomInput("Room 1", Decimal(80), True, 1),),
        ),
    )
    _inspected_and_issued(o, licence_id)
    return o


def view_for(qtbot: QtBot, o: Office) -> RoomingView:
    application()
    view = RoomingView(o.db, make_session(o.db, o.clerk), o.clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    return view


def test_the_register_shows_renewal_applied_and_then_renewal_issued(
    qtbot: QtBot, o: Office, asked: list[str]
) -> None:
    o.clock.set(date(2026, 12, 31))  # 61 days before the last valid day
    view = view_for(qtbot, o)
    old = view.presenter.licence(0)
    assert old is not None
    window = view.open_licence(old.licence_id)
    qtbot.addWidget(window)
    renew = window.buttons["renew"]
    assert not renew.isEnabled()
    assert renew.toolTip() == (
        "A renewal may be applied for from 01/01/2027 (60 days before 03/02/2027, 140-10A)."
    )

    o.clock.set(date(2027, 1, 1))
    window.reload()
    assert renew.isEnabled()
    assert window.run_step("renew")
    assert asked[-1].startswith("Record Rita Roomer's application to renew licence RH-2026-0001")
    # the window's changed signal read the register again
    assert view.shown()[0][0] == "RH-2026-0001"
    status = view.shown()[0][-1]
    assert status == "in force — expires 03/02/2027; renewal applied on 01/01/2027"
    assert caution(status)  # amber: the renewal is not issued yet
    assert view.shown()[1][0] == "Application"
    assert "renewal applied on 01/01/2027" in window.status_label.text()
    assert not renew.isEnabled()
    assert renew.toolTip() == "A renewal was applied for on 01/01/2027 (pending)."

    pending = view.presenter.licence(1)
    assert pending is not None
    renewal_id = pending.licence_id
    o.clock.set(date(2027, 2, 1))
    issued = _inspected_and_issued(o, renewal_id)
    assert (issued.number, issued.valid_from) == ("RH-2027-0001", date(2027, 3, 3))
    view.load()
    assert [line[-1] for line in view.shown()] == [
        "in force — renewal issued — RH-2027-0001, from 03/03/2027",
        "renewal — in force from 03/03/2027",
    ]
    assert not caution(view.shown()[0][-1])
    assert "renewed by RH-2027-0001" in window.dwelling_label.text()
    renewal = view.open_licence(renewal_id)
    qtbot.addWidget(renewal)
    assert "renews RH-2026-0001" in renewal.dwelling_label.text()
    assert renewal.status_label.text() == (
        "issued 02/01/2027, in force from 03/03/2027 through 03/02/2028"
    )
    assert any(
        t.startswith("Application: Rita Roomer") and "to renew licence RH-2026-0001" in t
        for t in renewal.history_texts()
    )
    assert renewal.certificate_button.isEnabled()  # printed to go up on 03/03/2027
