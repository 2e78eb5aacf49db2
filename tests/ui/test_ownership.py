"""Publicly owned housing at the counter: the intake form asks, for a new building that may hold
dwellings, whether a government body or public housing authority owns it (Census Form C-404
counts new privately owned housing only); the permit window's Work tab shows the answer and
lets the office correct it."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from db import queries
from db import report_queries as q
from desk.domain import reports as r
from desk.domain.enums import CredentialKind, PartyKind, PartyRole
from desk.domain.model import Party
from desk.services import fees, permits
from tests.ui.sample import Sample
from tests.ui.test_intake import licence, party_id, sample_parcel
from tests.ui.test_work_tab import open_tab, take
from ui import app, dialogs
from ui.permit import work as work_module
from ui.presenters.intake import (
    C404_COUNTED,
    C404_LEFT_OFF,
    NOT_RECORDED_WORDS,
    OWNER_LOOKS_PUBLIC_NOTE,
    PRIVATE_WORDS,
    PUBLIC_WORDS,
)
from ui.presenters.session import Session
from ui.views.intake import IntakeWindow

AUTHORITY = "Housing Authority of the City of Glendale"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: shown.append(text))
    return shown


def open_form(qtbot: QtBot, sample: Sample, session: Session) -> IntakeWindow:
    app.application()
    schedule = fees.fee_schedule(sample.database.uow(), sample.clock, session.municipality_id)
    form = IntakeWindow(sample.database, session, sample.clock, schedule)
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    return form


def test_the_box_ticked_at_intake_is_stored_with_the_permit_and_keeps_it_off_form_c404(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    licence(sample, "Badger", CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2027, 6, 30))
    authority = permits.add_party(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        Party(kind=PartyKind.ORGANIZATION, name=AUTHORITY),
    )
    form = open_form(qtbot, sample, session)
    box = form.ownership_box
    form.select_kind("RES-REMODEL")
    assert not box.isVisible()  # a remodel adds no housing
    form.select_kind("RES-NEW-DWELLING")
    assert box.isVisible() and not box.isChecked()
    assert box.text() == "Owner is a &government body or public housing authority"
    assert box.accessibleDescription() == (
        "Publicly owned: left off Census Form C-404, which counts new privately owned housing only."
    )
    assert form._body.minimumSizeHint().width() < 600  # the form stays as narrow as before
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.BUILDING_OWNER, authority)
    form.set_party_id(PartyRole.CONTRACTOR, party_id(sample, "Badger"))
    # The owner's name reads as public and the box is not ticked: the form says so.
    assert form.ownership_note.isVisible()
    assert form.ownership_note.text() == OWNER_LOOKS_PUBLIC_NOTE
    typed = {
        "description": "New two-story dwelling, scattered-site public housing",
        "valuation": "286,000",
        "area_first": "1200",
        "area_second": "900",
        "dwelling_units": "1",
    }
    for key, text in typed.items():
        form.edits[key].setText(text)
        form._typed(key, text)

    qtbot.wait(20)  # the box shown for this kind is laid out
    form.form_scroll.ensureWidgetVisible(box)  # the window fits the screen: scroll to it
    # On its square: a click on the blank right of a check box's text does not tick it.
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert box.isChecked()
    assert not form.ownership_note.isVisible()
    permit_id = form.save()
    assert permit_id is not None, (form.general_error.text(), form.presenter.fee_error)

    with sample.database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None
    assert dict(detail.work_details)["ownership"] == "public"

    # Issued in March, it is new housing the Census leaves off: no line counts it.
    uow = sample.database.uow()
    with uow:
        permit = uow.permits.get(permit_id)
        assert permit is not None
        permit.issued_on = date(2026, 3, 3)  # as issue_permit would, without its conditions
        permit.number = "2026-0999"
        uow.act_as(sample.admin, sample.clock.now())
        uow.commit()
    with sample.database.read() as conn:
        rep = q.c404_report(conn, sample.municipality_id, r.month_period(2026, 3))
    assert permit_id not in {p.permit_id for p in rep.permits}


def test_left_unticked_a_new_house_is_recorded_as_privately_owned(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    licence(sample, "Badger", CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2027, 6, 30))
    form = open_form(qtbot, sample, session)
    form.select_kind("RES-NEW-DWELLING")
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.BUILDING_OWNER, party_id(sample, "Schmidt"))
    form.set_party_id(PartyRole.CONTRACTOR, party_id(sample, "Badger"))
    assert not form.ownership_note.isVisible()  # Anna Schmidt: nothing to point out
    for key, text in (("description", "New ranch dwelling"), ("area_first", "1600")):
        form.edits[key].setText(text)
        form._typed(key, text)
    permit_id = form.save()
    assert permit_id is not None, form.general_error.text()
    with sample.database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None and dict(detail.work_details) == {"ownership": "private"}


def test_the_work_tab_shows_who_owns_the_building_and_the_office_may_correct_it(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    permit_id = take(
        sample,
        "RES-NEW-DWELLING",
        "New dwelling for the housing authority",
        dwelling_units=1,
        work_details={"ownership": "public", "sbd_project": "New"},
    )
    tab = open_tab(qtbot, sample, permit_id)
    assert "Ownership" in tab.section_titles
    assert tab.value("Owner") == PUBLIC_WORDS
    assert tab.note("Owner") == C404_LEFT_OFF
    # The answer is not one of the SBD-5823's.
    assert tab.value("Project") == "New" and "ownership" not in tab.values
    assert tab.ownership_button.isVisibleTo(tab)

    asked: list[str] = []

    def choose(_parent: object, current: str) -> str:
        asked.append(current)
        return "private"

    monkeypatch.setattr(work_module, "ask_ownership", choose)
    tab.ownership_button.click()
    assert asked == ["public"]
    assert tab.value("Owner") == PRIVATE_WORDS
    assert tab.note("Owner") == C404_COUNTED
    with sample.database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None and dict(detail.work_details)["ownership"] == "private"


def test_a_remodel_has_no_ownership_line_nor_button(qtbot: QtBot, sample: Sample) -> None:
    permit_id = take(sample, "RES-REMODEL", "Kitchen remodel")
    tab = open_tab(qtbot, sample, permit_id)
    assert "Ownership" not in tab.section_titles
    assert not tab.ownership_button.isVisibleTo(tab)


def test_a_house_with_no_answer_shows_what_the_census_takes_from_the_owners_name(
    qtbot: QtBot, sample: Sample
) -> None:
    uow = sample.database.uow()
    city = permits.add_party(
        uow, sample.clock, sample.clerk, Party(kind=PartyKind.ORGANIZATION, name="City of Glendale")
    )
    permit_id = permits.take_application(
        uow,
        sample.clock,
        sample.admin,
        permits.ApplicationInput(
            municipality_id=sample.municipality_id,
            kind="RES-NEW-DWELLING",
            parcel_id=sample_parcel(sample, "6120"),
            description="Older record: a house built by the City",
            dwelling_units=1,
            parties=((PartyRole.BUILDING_OWNER, city),),
        ),
    )
    tab = open_tab(qtbot, sample, permit_id)
    assert tab.value("Owner") == NOT_RECORDED_WORDS
    assert tab.note("Owner") == "Taken as publicly owned, so left off Census Form C-404"
    assert tab.ownership_button.isVisibleTo(tab)


def test_an_apartment_building_taken_at_the_counter_reaches_form_c404_with_its_units(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    form = open_form(qtbot, sample, session)
    form.select_kind("COM-NEW")
    assert form.edits["dwelling_units"].isVisible()  # apartments have units (C-404 row 105)
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.BUILDING_OWNER, party_id(sample, "Schmidt"))
    form.occupancy_combo.setCurrentIndex(form.occupancy_combo.findData("multifamily"))
    typed = {
        "description": "New 3-story apartment building, 24 units",
        "valuation": "4,200,000",
        "area_first": "9000",
        "area_second": "9000",
        "area_third": "9000",
        "dwelling_units": "24",
    }
    for key, text in typed.items():
        form.edits[key].setText(text)
        form._typed(key, text)
    permit_id = form.save()
    assert permit_id is not None, (form.general_error.text(), form.presenter.fee_error)
    uow = sample.database.uow()
    with uow:
        permit = uow.permits.get(permit_id)
        assert permit is not None and permit.dwelling_units == 24
        permit.issued_on = date(2026, 3, 3)  # as issue_permit would, without its conditions
        permit.number = "2026-0998"
        uow.act_as(sample.admin, sample.clock.now())
        uow.commit()
    with sample.database.read() as conn:
        rep = q.c404_report(conn, sample.municipality_id, r.month_period(2026, 3))
    five_plus = next(line for line in rep.lines if line.row is r.C404Row.FIVE_PLUS)
    assert (five_plus.buildings, five_plus.units, five_plus.valuation) == (1, 24, 4_200_000)
