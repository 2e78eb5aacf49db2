"""The "Parcels" section and a parcel's window, driven from the keyboard: a Glendale clerk finds
the parcel typed with its address in the PIN box, corrects it, and sees the correction in the
list, in the window's header and on its History tab (old → new); a parcel entered twice is
merged from the section, its permit moving to the parcel kept; a retired parcel is restored;
a save over a change made meanwhile offers to read the parcel again. Hudson, with no permit
kinds, has the section too, and a new parcel's dialog opens on its PIN."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLineEdit, QPlainTextEdit, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db import parcel_queries as q
from db.database import Database, open_database
from desk.clock import FixedClock
from desk.domain.model import Actor, Parcel
from desk.enforcement.model import Channel
from desk.imports.files import SourceFile
from desk.imports.mapping import suggest
from desk.services import permits
from desk.services.enforcement import complaints
from desk.services.parcels import edit, imports
from tests.factories import Register, application, open_office, seed_register
from tests.parcel_files import v10_row, write_csv
from tests.ui.test_clipping import clipped_widgets
from ui import dialogs
from ui.app import application as qt_application
from ui.app import make_session
from ui.main_window import PERMITS, MainWindow
from ui.parcel.dialogs import MergeDialog, ParcelEditDialog, RetireDialog
from ui.parcel.window import ParcelWindow
from ui.permit import actions
from ui.views.intake_dialogs import NewParcelDialog
from ui.views.parcels import SECTION_TITLE, ParcelsView

TODAY = date(2026, 3, 2)
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def reg(empty_database: Database, clock: FixedClock) -> Register:
    return seed_register(empty_database, clock)


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app would have shown in a message box; every question answered yes."""
    words: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: words.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: words.append(text))
    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, text, **_k: words.append(text) or True)
    return words


def main_window(qtbot: QtBot, database: Database, actor: Actor, clock: FixedClock) -> MainWindow:
    qt_application()  # the stylesheet, as in the app
    window = MainWindow(
        database, make_session(database, actor), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    window.load()
    return window


def in_dialogs(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    fill: Callable[[QDialog], None],
    after: Callable[[QDialog], None] | None = None,
) -> list[QDialog]:
    """Each dialog a step opens: shown, filled from the keyboard by `fill`, then Enter pressed
    in the field that has the cursor (OK is the dialog's default button); `after` looks at the
    dialog before the step lets it go."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        fill(dialog)
        focused = dialog.focusWidget()
        assert isinstance(focused, QLineEdit), f"Enter would not save from {focused!r}"
        qtbot.keyClick(focused, Qt.Key.Key_Return)
        if after is not None:
            after(dialog)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def retype(qtbot: QtBot, field: QWidget, text: str) -> None:
    """Tab's way into a field: its text selected, typed over."""
    field.setFocus()
    if isinstance(field, QLineEdit):
        field.selectAll()
        qtbot.keyClick(field, Qt.Key.Key_Backspace)
    qtbot.keyClicks(field, text)


def press(qtbot: QtBot, widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier) -> None:
    top = widget.window()
    top.activateWindow()  # offscreen, a closed dialog leaves no window active
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    qtbot.keyClick(widget, key, modifier)


def test_a_glendale_clerk_corrects_a_mistyped_parcel_and_sees_it_in_the_list_header_and_history(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    said: list[str],
) -> None:
    # The New parcel dialog of old opened on OK: Enter saved the address in the PIN box.
    wrong = permits.add_parcel(
        empty_database.uow(),
        clock,
        reg.clerk,
        Parcel(
            municipality_id=reg.municipality_id,
            pin="N Santa Monica Blvd",
            street="Glendale",
            unit="53217",
        ),
    )
    window = main_window(qtbot, empty_database, reg.clerk, clock)
    titles = window.section_titles()
    assert titles[titles.index(PERMITS) + 1] == SECTION_TITLE
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    assert view.pins() == ["N Santa Monica Blvd", "047-9991-002"]  # by street: "Glendale" first

    press(qtbot, view.table, Qt.Key.Key_F, Ctrl)  # Ctrl+F: the section's own search
    assert view.search.hasFocus()
    qtbot.keyClicks(view.search, "santa monica")
    assert view.pins() == ["N Santa Monica Blvd"]
    assert view.note.text().startswith("PIN N Santa Monica Blvd · Glendale, Unit 53217")

    def correct(dialog: QDialog) -> None:
        assert isinstance(dialog, ParcelEditDialog)
        assert dialog.focusWidget() is dialog.field("pin")  # the first field, never OK
        retype(qtbot, dialog.field("pin"), "048-1007-017")
        retype(qtbot, dialog.field("house_number"), "5800")
        retype(qtbot, dialog.field("street"), "N Santa Monica Blvd")
        retype(qtbot, dialog.field("unit"), "")
        retype(qtbot, dialog.field("city"), "Glendale")
        retype(qtbot, dialog.field("zip"), "53217")

    seen = in_dialogs(qtbot, monkeypatch, correct)
    press(qtbot, view.table, Qt.Key.Key_E, Ctrl)  # Ctrl+E: Edit…
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert seen[-1].result() == QDialog.DialogCode.Accepted
    assert said == []

    assert view.pins() == ["048-1007-017"]  # still found by "santa monica": the new street
    cells = view.presenter.rows[0].cells
    assert cells[:2] == ("048-1007-017", "5800 N Santa Monica Blvd")

    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Return)  # Enter opens the parcel's window
    parcel = view.parcel_windows[wrong]
    assert isinstance(parcel, ParcelWindow)
    assert parcel.title_label.text() == "Parcel 048-1007-017"
    assert parcel.status_label.text() == "Active"
    assert parcel.address_label.text() == "5800 N Santa Monica Blvd, Glendale 53217"
    assert parcel.value("The office's record: Unit") == "—"
    parcel.select_tab("history")
    rows = parcel.history_rows()
    assert rows[0][1:] == (
        "Carol Clerk",
        "Parcel corrected",
        "PIN",
        "N Santa Monica Blvd",
        "048-1007-017",
    )
    assert parcel.history is not None
    changed = {r.field: (r.old, r.new) for r in parcel.history.rows if r.event == 0}
    assert changed["Street"] == ("Glendale", "N Santa Monica Blvd")
    assert changed["Unit"] == ("53217", "")
    assert changed["House number"] == ("", "5800")
    assert [r[2] for r in rows if r[2]] == ["Parcel corrected", "Parcel added"]
    press(qtbot, parcel, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    qtbot.waitUntil(lambda: wrong not in view.parcel_windows, timeout=2000)


def test_a_parcel_entered_twice_is_merged_from_the_section_and_its_permit_moves(
    qtbot: QtBot,
    qtmodeltester: ModelTester,
    monkeypatch: pytest.MonkeyPatch,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    said: list[str],
) -> None:
    db = empty_database
    twice = permits.add_parcel(
        db.uow(),
        clock,
        reg.clerk,
        Parcel(
            municipality_id=reg.municipality_id,
            pin="0479991002",
            house_number="6120",
            street="N Port Washington Road",
        ),
    )
    moved = permits.take_application(
        db.uow(), clock, reg.clerk, replace(application(reg), parcel_id=twice)
    )
    window = main_window(qtbot, db, reg.clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    qtmodeltester.check(view.model)  # the model keeps Qt's rules
    assert view.select_parcel(twice)

    def choose_kept(dialog: QDialog) -> None:
        assert isinstance(dialog, MergeDialog)
        assert dialog.duplicate.currentData() == twice  # the parcel the clerk was on
        assert dialog.focusWidget() is dialog.kept_search
        qtbot.keyClicks(dialog.kept_search, "047-9991")
        assert dialog.kept.currentData() == reg.parcel_id
        assert "• Permit: application of 03/02/2026" in dialog.preview_label.text()

    seen = in_dialogs(qtbot, monkeypatch, choose_kept)
    assert view.merge_selected()
    assert seen and seen[-1].result() == QDialog.DialogCode.Accepted
    assert "cannot be undone" in said[-1]  # asked before it was done

    assert view.pins() == ["047-9991-002"]
    with db.read() as conn:
        kept = q.parcel_facts(conn, reg.parcel_id)
    assert kept is not None
    assert sorted(x.id for x in kept.permits) == sorted([reg.permit_id, moved])
    assert view.presenter.rows[0].cells[6] == "2"  # two permits on the parcel kept
    view.show_filter(q.ParcelFilter.RETIRED)
    assert view.presenter.rows[0].cells[-1] == "Merged into PIN 047-9991-002"
    assert not view.restore_button.isEnabled()
    assert "stays retired" in view.restore_button.toolTip()


def test_a_retired_parcel_says_why_and_is_restored(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    said: list[str],
) -> None:
    window = main_window(qtbot, empty_database, reg.clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    reasons = iter(["", "Combined with 047-9991-003"])

    def give_reason(dialog: QDialog) -> None:
        assert isinstance(dialog, RetireDialog)
        box = dialog.reason
        assert isinstance(box, QPlainTextEdit) and dialog.focusWidget() is box
        qtbot.keyClicks(box, next(reasons))
        dialog.ok_button.setFocus()
        dialog.ok_button.click()
        if dialog.isVisible():  # refused: the words under the form, the dialog still open
            assert dialog.error_label.text() == "Reason: say why the parcel is retired"
            box.setFocus()
            qtbot.keyClicks(box, next(reasons))
            dialog.ok_button.click()

    def run(dialog: QDialog) -> bool:
        dialog.show()
        give_reason(dialog)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    assert view.retire_selected()
    assert view.pins() == []
    assert view.note.text().startswith("No parcels yet")
    view.show_filter(q.ParcelFilter.RETIRED)
    assert view.presenter.rows[0].cells[-1] == "Retired 03/02/2026"
    assert not view.edit_button.isEnabled()
    assert view.edit_button.toolTip() == "Parcel 047-9991-002 is retired: restore it first."
    assert view.restore_selected()
    assert view.pins() == []  # the retired list is empty again
    view.show_filter(q.ParcelFilter.ACTIVE)
    assert view.pins() == ["047-9991-002"]


def test_a_save_over_a_change_made_meanwhile_offers_to_read_the_parcel_again(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    said: list[str],
) -> None:
    db = empty_database
    window = main_window(qtbot, db, reg.clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    offered: list[str] = []
    monkeypatch.setattr(dialogs, "offer_reload", lambda _p, _t, text: offered.append(text) or True)

    def meanwhile(dialog: QDialog) -> None:
        assert isinstance(dialog, ParcelEditDialog)
        with db.read() as conn:
            shown = q.parcel_facts(conn, reg.parcel_id)
        assert shown is not None
        form = edit.ParcelEdit(**{k: getattr(shown, k) for k in edit.EDITED})
        edit.update_parcel(
            db.uow(), clock, reg.admin, reg.parcel_id, replace(form, zoning_district="R-4")
        )
        retype(qtbot, dialog.field("notes"), "Side door faces the alley.")
        dialog.field("pin").setFocus()

    shown_after: dict[str, str] = {}

    def still_open(dialog: QDialog) -> None:
        assert isinstance(dialog, ParcelEditDialog) and dialog.isVisible()
        shown_after.update(dialog.values())

    in_dialogs(qtbot, monkeypatch, meanwhile, still_open)
    assert not view.edit_selected()
    assert offered and "Alex Administrator" in offered[0]
    assert shown_after["zoning_district"] == "R-4"  # read again: the change shows
    assert shown_after["notes"] == ""  # and the unsaved words are dropped, as offered


def test_hudson_has_the_section_and_a_new_parcel_opens_on_its_pin(
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    empty_database: Database,
    clock: FixedClock,
    said: list[str],
) -> None:
    _admin, _mid, (clerk,) = open_office(empty_database, clock, "hudson", ("carol",))
    window = main_window(qtbot, empty_database, clerk, clock)
    assert SECTION_TITLE in window.section_titles()
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    assert view.note.text().startswith("No parcels yet. Import parcels…")
    assert view.import_button.isEnabled() and view.new_button.isEnabled()

    def new_parcel(dialog: QDialog) -> None:
        assert isinstance(dialog, NewParcelDialog)
        assert dialog.focusWidget() is dialog.pin
        qtbot.keyClick(dialog.pin, Qt.Key.Key_Return)  # nothing typed: refused, not saved
        assert dialog.isVisible()
        assert "parcel number" in dialog.error_label.text()
        qtbot.keyClicks(dialog.pin, "291006450003")
        for field, text in ((dialog.house, "101"), (dialog.street, "Bergum St")):
            field.setFocus()
            qtbot.keyClicks(field, text)
        dialog.pin.setFocus()

    in_dialogs(qtbot, monkeypatch, new_parcel)
    assert view.new_parcel() is not None
    assert view.pins() == ["291006450003"]
    assert view.presenter.rows[0].cells[1] == "101 Bergum St"


def test_the_window_opens_the_parcel_s_permit_and_case_in_their_own_windows(
    qtbot: QtBot, empty_database: Database, clock: FixedClock, reg: Register, said: list[str]
) -> None:
    complaints.take_complaint(
        empty_database.uow(),
        clock,
        reg.clerk,
        reg.municipality_id,
        reg.parcel_id,
        Channel.PHONE,
        "Porch railing missing",
    )
    window = main_window(qtbot, empty_database, reg.clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    assert view.presenter.rows[0].cells[6:8] == ("1", "1")  # a permit, an open case
    parcel = view.open_parcel(reg.parcel_id)
    assert parcel.tabs.tabText(1) == "&Permits (1)"
    assert parcel.value("On the register") == "1 permit · 1 case (1 open) · 1 complaint"
    parcel.select_tab("permits")
    assert parcel.permits.rows[0].cells[:3] == (
        "Application",
        "New one- or two-family dwelling",
        "Applied",
    )
    parcel.permit_table.setFocus()
    parcel.permit_table.selectRow(0)
    qtbot.keyClick(parcel.permit_table, Qt.Key.Key_Return)
    assert reg.permit_id in window.permit_windows
    parcel.select_tab("cases")
    assert parcel.cases.rows[0].cells[:3] == ("CE-2026-0001", "03/02/2026", "1")
    parcel.case_table.setFocus()
    parcel.case_table.selectRow(0)
    qtbot.keyClick(parcel.case_table, Qt.Key.Key_Return)
    assert len(window.enforcement_view.case_windows) == 1


def test_an_imported_hudson_parcel_shows_the_county_s_figures_and_its_dialogs_fit_the_screen(
    qtbot: QtBot, tmp_path: Path, empty_database: Database, clock: FixedClock, said: list[str]
) -> None:
    _admin, mid, (clerk,) = open_office(empty_database, clock, "hudson", ("carol",))
    rows = [v10_row(1, owner="MARY B HOLTE", PROPCLASS="4,5M", OWNERNME2="JEFFREY K TAINTER")]
    source = SourceFile(write_csv(tmp_path / "vernon_parcels.csv", [*rows, v10_row(2)]))
    layer = source.layer(None)
    choice = imports.ImportChoice(layer.name, suggest(layer.columns), "CITY OF WESTBY")
    imports.import_parcels(
        empty_database.uow(),
        clock,
        clerk,
        mid,
        imports.read_parcel_file(source, choice),
        file_name=source.name,
        file_sha256=source.sha256(),
        choice=choice,
    )
    window = main_window(qtbot, empty_database, clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    assert view.presenter.rows[0].cells[:6] == (
        "291000000001",
        "102 Ulland Ave",
        "MARY B HOLTE & JEFFREY K TAINTER",
        "4, 5M",
        "0.25",
        "$100,100.00",
    )
    parcel = view.open_parcel(view.presenter.rows[0].item.id)  # type: ignore[attr-defined]
    parcel.resize(1366, 768)
    assert parcel.value("From the county's parcel file: Imported from") == (
        "vernon_parcels.csv, imported 03/02/2026 by Carol Clerk"
    )
    assert parcel.history_rows()[0][2] == "Parcel imported"
    assert clipped_widgets(parcel, (1366, 768)) == []
    assert parcel.facts is not None
    for dialog in (
        ParcelEditDialog(parcel.context, parcel.facts, parcel),
        RetireDialog(parcel.context, parcel.facts, parcel),
        MergeDialog(parcel.context, parcel.facts.pin, parcel),
    ):
        dialog.show()
        qtbot.waitExposed(dialog)
        assert clipped_widgets(dialog, (1366, 768)) == [], type(dialog).__name__
        dialog.reject()
    edit_note = ParcelEditDialog(parcel.context, parcel.facts, parcel).county_note.text()
    assert "from its file of 03/02/2026 (vernon_parcels.csv)" in edit_note


def test_a_correction_on_another_workstation_shows_in_the_list_and_the_open_window(
    qtbot: QtBot, empty_database: Database, clock: FixedClock, reg: Register, said: list[str]
) -> None:
    window = main_window(qtbot, empty_database, reg.clerk, clock)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, ParcelsView)
    parcel = view.open_parcel(reg.parcel_id)
    elsewhere = open_database(empty_database.engine.url.render_as_string(hide_password=False))
    try:
        with elsewhere.read() as conn:
            shown = q.parcel_facts(conn, reg.parcel_id)
        assert shown is not None
        form = edit.ParcelEdit(**{k: getattr(shown, k) for k in edit.EDITED})
        edit.update_parcel(
            elsewhere.uow(), clock, reg.admin, reg.parcel_id, replace(form, house_number="6122")
        )
    finally:
        elsewhere.close()
    assert view.presenter.rows[0].cells[1] == "6120 N Port Washington Rd"  # not yet polled
    window.live.poll()
    assert view.presenter.rows[0].cells[1] == "6122 N Port Washington Rd"
    assert parcel.address_label.text() == "6122 N Port Washington Rd, Glendale 53217"
    assert parcel.history_rows()[0][1:3] == ("Alex Administrator", "Parcel corrected")
