"""File → New application (Ctrl+N): the form from the keyboard, the live fee, saving, checks.

The acceptance test of issue 4 starts here: `take_new_dwelling_application` leaves the saved
application's id for the checklist and issuance steps to continue from.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from db import queries
from desk.domain.enums import CredentialKind, PartyKind, PartyRole
from desk.domain.model import Credential, Parcel, Party
from desk.services import permits
from tests.ui.sample import Sample
from ui import app, dialogs
from ui.main_window import MainWindow
from ui.presenters.session import Session
from ui.views.intake import IntakeWindow

BUILDERS = "Badger State Builders LLC"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A failing test closes its windows without a question box blocking the run."""
    shown: list[str] = []
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: no_modal.append(text))
    return shown


@pytest.fixture
def window(qtbot: QtBot, sample: Sample, session: Session) -> MainWindow:
    app.application()
    main = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    main.load()
    return main


def party_id(sample: Sample, name: str) -> int:
    with sample.database.read() as conn:
        found = queries.party_matches(conn, name)
    assert len(found) == 1, found
    return found[0].id


def licence(sample: Sample, name: str, kind: CredentialKind, number: str, expires: date) -> None:
    permits.add_credential(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        party_id(sample, name),
        Credential(kind=kind, number=number, expires_on=expires),
    )


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def tab_to(qtbot: QtBot, target: QWidget, limit: int = 60) -> int:
    """Press Tab until `target` has the focus; how many presses it took."""
    for presses in range(limit):
        if focused() is target:
            return presses
        widget = focused()
        assert widget is not None
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {target.objectName()}; stuck at {focused()}")


def type_into(qtbot: QtBot, target: QWidget, text: str) -> None:
    tab_to(qtbot, target)
    qtbot.keyClicks(target, text)


def breakdown(form: IntakeWindow) -> dict[str, str]:
    model = form.breakdown_model
    rows = {}
    for r in range(model.rowCount()):
        code, description = model.data(model.index(r, 0)), model.data(model.index(r, 1))
        rows[code or description] = model.data(model.index(r, 5))
    return rows


def open_form(qtbot: QtBot, window: MainWindow) -> IntakeWindow:
    window.activateWindow()
    window.permits_view.focus_search()
    qtbot.keyClick(
        window.permits_view.search_box, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier
    )
    form = window.intake_window
    assert form is not None
    qtbot.waitExposed(form)
    form.activateWindow()
    qtbot.waitUntil(lambda: focused() is form.kind_combo, timeout=2000)
    return form


no_modal: list[str] = []


def take_new_dwelling_application(qtbot: QtBot, window: MainWindow, sample: Sample) -> int:
    """A new house at 6120 N Port Washington Rd, typed at the counter; the saved permit's id."""
    licence(sample, BUILDERS, CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2027, 6, 30))
    form = open_form(qtbot, window)
    qtbot.keyClicks(form.kind_combo, "New")  # the combo's type-ahead; a space would open it
    assert form.kind_combo.currentData() == "RES-NEW-DWELLING"

    # Tab follows the paper form: kind, date, parcel.
    qtbot.keyClick(form.kind_combo, Qt.Key.Key_Tab)
    assert focused() is form.applied_edit
    type_into(qtbot, form.parcel_edit, "6120 N Port")
    qtbot.keyClick(form.parcel_edit, Qt.Key.Key_Tab)
    assert form.presenter.parcel is not None
    assert form.parcel_edit.text() == "6120 N Port Washington Rd — 047-9991-002"
    assert not form.house_button.isVisible()  # it has its house number

    owner = form.party_rows[PartyRole.BUILDING_OWNER].edit
    type_into(qtbot, owner, "Schmidt")
    contractor = form.party_rows[PartyRole.CONTRACTOR]
    type_into(qtbot, contractor.edit, "Badger")
    qtbot.keyClick(contractor.edit, Qt.Key.Key_Tab)
    assert form.presenter.parties[PartyRole.BUILDING_OWNER].name == "Anna Schmidt"
    assert form.presenter.parties[PartyRole.CONTRACTOR].name == BUILDERS
    assert (
        contractor.note.text()
        == "Dwelling contractor certification DC-1187, valid until 06/30/2027"
    )

    type_into(qtbot, form.edits["description"], "New 2-story single-family dwelling")
    type_into(qtbot, form.edits["valuation"], "412,500")
    type_into(qtbot, form.edits["area_basement_unfinished"], "1400")
    type_into(qtbot, form.edits["area_first"], "1400")
    type_into(qtbot, form.edits["area_second"], "1000")
    type_into(qtbot, form.edits["dwelling_units"], "1")

    # The fee follows as the clerk types (150 ms after the last key).
    qtbot.waitUntil(lambda: not form.update_pending, timeout=2000)
    assert form.floor_area_label.text().startswith("Floor area counted: 2,400 sq ft")
    assert breakdown(form) == {
        "RES-NEW": "$404.00",
        "RES-STATE-SEAL": "$35.00",
        "RES-EROSION-NEW": "$140.00",
        "Total": "$579.00",
    }
    assert form.total_label.text() == "Total $579.00"

    assert QApplication.activePopupWidget() is None
    qtbot.keyClick(focused(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    errors = {k: v.text() for k, v in form.errors.items() if v.text()}
    assert form.saved_permit_id is not None, (errors, form.general_error.text())
    return form.saved_permit_id


def test_a_new_dwelling_application_is_taken_from_the_keyboard_and_its_fees_assessed(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    permit_id = take_new_dwelling_application(qtbot, window, sample)

    assert window.intake_window is None  # the form closed
    assert permit_id in window.permit_windows  # and the permit opened
    with sample.database.read() as conn:
        summary = queries.application_summary_data(conn, permit_id)
    assert summary is not None
    assert summary.kind_code == "RES-NEW-DWELLING"
    assert summary.address == "6120 N Port Washington Rd"
    assert summary.floor_area_sqft == 2400
    assert dict(summary.areas) == {"basement_unfinished": 1400, "first": 1400, "second": 1000}
    assert summary.valuation == Decimal("412500.00")
    assert summary.dwelling_units == 1
    assert {(p.role, p.name) for p in summary.parties} == {
        ("Owner of the building", "Anna Schmidt"),
        ("Contractor", BUILDERS),
    }
    assert [(f.code, f.amount) for f in summary.fee_lines] == [
        ("RES-NEW", Decimal("404.00")),
        ("RES-STATE-SEAL", Decimal("35.00")),
        ("RES-EROSION-NEW", Decimal("140.00")),
    ]
    assert summary.fees_total == Decimal("579.00")
    assert summary.schedule_version == "Glendale 15.1.21 (shipped)"


def test_an_expired_licence_is_named_next_to_the_party_and_stops_the_save(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    # The sample's DC-1100 is good through 03/02; an application of 03/03 finds every
    # certification expired and names the latest.
    licence(sample, BUILDERS, CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2026, 3, 1))
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")
    form.presenter.set_applied_on(date(2026, 3, 3))
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.CONTRACTOR, party_id(sample, "Badger"))
    note = form.party_rows[PartyRole.CONTRACTOR].note.text()
    assert note == (
        f"{BUILDERS}: dwelling contractor certification DC-1100 expired 03/02/2026 "
        "(Wis. Stat. 101.654)"
    )
    form.edits["description"].setText("New house")
    form._typed("description", "New house")
    assert form.save() is None
    error = form.errors[PartyRole.CONTRACTOR.value]
    assert error.isVisible() and "expired 03/02/2026" in error.text()
    form.presenter.dirty = False


def sample_parcel(sample: Sample, house: str) -> int:
    with sample.database.read() as conn:
        return queries.parcel_matches(conn, sample.municipality_id, house)[0].id


def test_a_parcel_without_a_house_number_must_get_one_before_a_new_house(
    qtbot: QtBot, window: MainWindow, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = permits.add_parcel(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        Parcel(municipality_id=sample.municipality_id, pin="047-5000-001", street="W Bender Rd"),
    )
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")
    form.set_parcel_id(bare)
    assert "No house number on record" in form.parcel_note.text()
    # Glendale's own section, not New Lisbon's §435-15.E; the service holds the permit too.
    assert "(15.1.7(b)(1))" in form.parcel_note.text()
    assert "435-15" not in form.parcel_note.text()
    assert form.house_button.isVisible()
    form.edits["description"].setText("New house")
    form._typed("description", "New house")
    assert form.save() is None
    assert "house number" in form.errors["parcel"].text()

    from desk.services import intake

    intake.record_house_number(sample.database.uow(), sample.clock, sample.clerk, bare, "1500")
    form.set_parcel_id(bare)
    assert not form.house_button.isVisible()
    assert form.parcel_note.text() == "PIN 047-5000-001"
    form.presenter.dirty = False


def test_closing_with_unsaved_changes_asks_and_keeps_the_form_when_told_no(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    form = open_form(qtbot, window)
    qtbot.keyClicks(form.kind_combo, "Plumbing")
    questions: list[str] = []
    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, q, **_k: questions.append(q) or False)
    form.close()
    assert questions and "not been saved" in questions[0]
    assert window.intake_window is form and form.isVisible()
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    form.close()
    assert window.intake_window is None


def test_the_form_shows_the_fields_of_the_kind_and_the_roles_of_its_trade(
    qtbot: QtBot, window: MainWindow
) -> None:
    form = open_form(qtbot, window)
    form.select_kind("PLUMBING")
    assert form.edits["fee_amount"].isVisible()
    assert form.fee_amount_label_widget.text() == (
        "Fee from the Uniform Plumbing Permit Application"
    )
    assert not form.edits["area_first"].isVisible()
    assert form.party_rows[PartyRole.PLUMBER].edit.isVisible()
    assert not form.party_rows[PartyRole.CONTRACTOR].edit.isVisible()
    # 15.1.21 NOTE leaves the trades out of a building's cost, not out of a plumbing permit's.
    assert form.valuation_note is not None
    assert form.valuation_note.text() == "the cost of the plumbing work alone"
    form.select_kind("RES-NEW-DWELLING")
    assert form.valuation_note.text() == (
        "excluding HVAC, plumbing and electrical work (15.1.21 NOTE)"
    )
    assert form.edits["area_first"].isVisible()
    assert form.sbd_toggle.isVisible()
    assert not form.party_rows[PartyRole.PLUMBER].edit.isVisible()
    form.presenter.dirty = False


def test_a_party_added_on_the_spot_can_be_picked_by_name(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    new_id = permits.add_party(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        Party(kind=PartyKind.ORGANIZATION, name="Kowalski Plumbing Inc"),
    )
    form = open_form(qtbot, window)
    form.select_kind("PLUMBING")
    form.set_party_id(PartyRole.PLUMBER, new_id)
    assert form.party_rows[PartyRole.PLUMBER].note.text() == (
        "Kowalski Plumbing Inc: no master plumber licence on record (15.1.41)"
    )
    form.presenter.dirty = False


def test_the_permit_window_prints_the_card_once_the_permit_has_a_number(
    qtbot: QtBot,
    window: MainWindow,
    sample: Sample,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import pypdf

    from ui.permit.documents import print_permit_card

    unissued = window.open_permit(sample.permit_ids["garcia"])
    assert not unissued.print_card_button.isEnabled()
    assert unissued.print_application_button.isEnabled()
    issued = window.open_permit(sample.issued_id)
    assert issued.print_card_button.isEnabled()
    monkeypatch.setattr(dialogs, "show_file", lambda *_a: None)
    out = print_permit_card(issued, issued.context)  # filed: no Save-as dialog
    assert out is not None and out.parent.name == "Permit cards"
    text = pypdf.PdfReader(out).pages[0].extract_text()
    assert "2026-0001" in text and "6120 N Port Washington Rd" in text


def test_the_work_facts_and_the_flags_of_the_form_are_stored_with_the_application(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    licence(sample, BUILDERS, CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2027, 6, 30))
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.CONTRACTOR, party_id(sample, "Badger"))
    typed = {
        "description": "New 2-story single-family dwelling",
        "valuation": "412,500",
        "area_first": "1400",
        "area_second": "1000",
        "dwelling_units": "1",
        "stories": "2",
        "volume": "31,000",
        "sbd_electric": "200",
        "sbd_heat_loss": "48,200",
    }
    for key, text in typed.items():
        form.edits[key].setText(text)
        form._typed(key, text)
    form.construction_combo.setCurrentText("V-B")
    form.sbd_toggle.setChecked(True)
    form.findChild(QWidget, "field_sbd_project").setCurrentText("New")  # type: ignore[union-attr]
    form.work_began_box.setChecked(True)
    permit_id = form.save()
    assert permit_id is not None, form.general_error.text()
    with sample.database.read() as conn:
        d = queries.permit_detail(conn, permit_id)
    assert d is not None
    assert (d.stories, d.volume_cuft, d.construction_type) == (2, 31000, "V-B")
    assert dict(d.work_details) == {
        "sbd_project": "New",
        "sbd_electric": "200",
        "sbd_heat_loss": "48,200",
        "ownership": "private",  # the ownership box left unticked (Census Form C-404)
    }
    assert d.work_began_before_permit and not d.emergency
    assert d.disturbed_acres is None  # a house's form does not ask it


def test_erosion_control_asks_the_disturbed_acreage_and_names_it_when_it_is_wrong(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    form = open_form(qtbot, window)
    form.select_kind("PLUMBING")
    assert not form.edits["disturbed_acres"].isVisible()
    form.select_kind("EROSION")
    acres = form.edits["disturbed_acres"]
    assert acres.isVisible()  # the checklist decides by it (15.2.8)
    form.set_parcel_id(sample_parcel(sample, "6120"))
    for key, text in (
        ("description", "Grading for a new parking lot"),
        ("disturbed_acres", "1.2.5"),
    ):
        form.edits[key].setText(text)
        form._typed(key, text)
    assert form.save() is None
    assert form.errors["disturbed_acres"].text() == "'1.2.5' is not a number of acres"
    assert focused() is acres
    acres.setText("1.25")
    form._typed("disturbed_acres", "1.25")
    form.emergency_box.setChecked(True)
    permit_id = form.save()
    assert permit_id is not None, form.general_error.text()
    with sample.database.read() as conn:
        d = queries.permit_detail(conn, permit_id)
    assert d is not None
    assert d.disturbed_acres == Decimal("1.25") and d.emergency


def test_a_new_parcel_whose_number_is_on_file_offers_that_parcel_and_picks_it(
    qtbot: QtBot, window: MainWindow, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from ui.views.intake_dialogs import NewParcelDialog

    shown: list[NewParcelDialog] = []

    def type_the_pin_on_file(dialog: NewParcelDialog) -> int:
        shown.append(dialog)
        dialog.pin.setText("047-9991-002")
        dialog.street.setText("N Port Washington Rd")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        return dialog.result()

    monkeypatch.setattr(NewParcelDialog, "exec", type_the_pin_on_file)
    asked: list[str] = []
    answer = False
    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, q, **_k: asked.append(q) or answer)
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")

    # No: the dialog stays open with the refusal under the form; nothing is picked.
    form.new_parcel()
    assert asked == ["Parcel 047-9991-002 already exists (6120 N Port Washington Rd) — use it?"]
    assert shown[0].error_label.text() == (
        "Parcel number (PIN): Parcel 047-9991-002 already exists (6120 N Port Washington Rd)."
    )
    assert form.presenter.parcel is None

    # Yes: the parcel on file is chosen, as if picked from the list.
    answer = True
    form.new_parcel()
    assert form.presenter.parcel is not None
    assert form.presenter.parcel.id == sample_parcel(sample, "6120")
    assert form.parcel_edit.text() == "6120 N Port Washington Rd — 047-9991-002"
    with sample.database.read() as conn:
        assert len(queries.parcel_matches(conn, sample.municipality_id, "047-9991-002")) == 1
    form.presenter.dirty = False


def test_the_parcels_owner_of_record_is_offered_for_the_owner_roles_and_taken_with_alt_n(
    qtbot: QtBot, window: MainWindow, sample: Sample
) -> None:
    from dataclasses import replace

    from desk.services.parcels import edit

    parcel_id = permits.add_parcel(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        Parcel(
            municipality_id=sample.municipality_id,
            pin="048-0550-012",
            house_number="5550",
            street="N Lake Dr",
        ),
    )
    with sample.database.uow() as uow:
        parcel = uow.parcels.get(parcel_id)
        assert parcel is not None
        form_values = edit.parcel_edit_of(parcel)
    edit.update_parcel(
        sample.database.uow(),
        sample.clock,
        sample.clerk,
        parcel_id,
        replace(
            form_values,
            owner_name="JOSEPH C RATH",
            owner_name_2="ROBBIN M DUUCK",
            owner_address="5550 N LAKE DR, GLENDALE, WI, 53217",
        ),
    )
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")
    form.set_parcel_id(parcel_id)
    assert form.owner_note.text() == "Owner of record: JOSEPH C RATH & ROBBIN M DUUCK"
    assert form.owner_button.isVisibleTo(form)
    qtbot.keyClick(form.parcel_edit, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    # A button's mnemonic clicks it after its pressed look (animateClick).
    qtbot.waitUntil(lambda: PartyRole.BUILDING_OWNER in form.presenter.parties, timeout=2000)
    owner = form.presenter.parties.get(PartyRole.BUILDING_OWNER)
    assert owner is not None and owner.name == "JOSEPH C RATH & ROBBIN M DUUCK"
    assert owner.address.startswith("5550 N LAKE DR")
    assert not form.owner_button.isVisibleTo(form)  # the role is taken: nothing more to offer
