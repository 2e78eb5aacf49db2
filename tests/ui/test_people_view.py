"""The People section and a person's window, driven from the keyboard: a Glendale clerk finds a
contractor typed twice, merges the two records (the duplicate's permit role and payment move to
the record kept, the duplicate is listed as merged), then renews the master plumber licence on
the kept record's Credentials tab: the old licence stays listed as history and the permit's
licence check uses the new one. Also: the dialogs open on their first field, an edit over a
newer version offers to reload, the buttons follow the roles, and the permit's Parties tab
edits a party and opens its credentials."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QLineEdit, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database
from db.party_queries import PartyFilter
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.services import issuance
from desk.services.people import edit
from tests.db.people_setup import Contractors, contractors
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.permit.parties import PartiesTab
from ui.person import dialogs as d
from ui.person.window import PersonWindow
from ui.presenters import people as p
from ui.views.intake_dialogs import NewPartyDialog
from ui.views.people import SECTION_TITLE as PEOPLE
from ui.views.people import PeopleView

TODAY = date(2026, 3, 2)
Alt = Qt.KeyboardModifier.AltModifier
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    return said


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every question asked, answered yes."""
    questions: list[str] = []

    def yes(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        questions.append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", yes)
    return questions


def main_for(qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor) -> MainWindow:
    application()
    window = MainWindow(
        database, make_session(database, actor), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.load()
    window.show_section(PEOPLE)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def by_keys(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], QWidget]
) -> list[QDialog]:
    """Each dialog shown, filled from the keyboard by `fill`, which returns the field where
    Enter is pressed (the dialog's default button: OK)."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        where = fill(dialog)
        where.setFocus()
        qtbot.keyClick(where, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def alt(qtbot: QtBot, widget: QWidget, key: Qt.Key, seen: list[QDialog] | None = None) -> None:
    """Alt+key: the button's mnemonic clicks it a moment later; with `seen`, wait for its
    dialog to have run."""
    top = widget.window()
    top.activateWindow()
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    before = len(seen) if seen is not None else 0
    qtbot.keyClick(widget, key, Alt)
    if seen is not None:
        qtbot.waitUntil(lambda: len(seen) > before and not seen[-1].isVisible(), timeout=3000)


def told(qtbot: QtBot, window: MainWindow, shown: Callable[[], bool]) -> None:
    """The change committed is told to the window (SQLite: at the next poll; PostgreSQL: when
    its NOTIFY arrives) and `shown` comes true."""

    def seen() -> bool:
        window.live.poll()
        return shown()

    qtbot.waitUntil(seen, timeout=5000)


def parties_texts(window: MainWindow, permit_id: int) -> list[str]:
    tab = window.permit_windows[permit_id].tab("parties")
    assert isinstance(tab, PartiesTab)
    return tab.texts()


def test_a_glendale_clerk_merges_two_people_and_records_a_renewed_credential(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    asked: list[str],
    qtmodeltester: ModelTester,
) -> None:
    c = contractors(database, clock)
    window = main_for(qtbot, database, clock, c.reg.clerk)
    view = window.people_view
    assert view.summary.text() == "4 people and organizations: active"

    # 1. Ctrl+F and "dahl": the contractor is on the register twice.
    qtbot.keyClick(view.table, Qt.Key.Key_F, Ctrl)
    assert view.search.hasFocus()
    qtbot.keyClicks(view.search, "dahl")
    assert view.names() == ["Dahl Plumbing LLC", "Dahl Plumbing LLC"]
    assert [line.cells[3:] for line in view.presenter.rows] == [
        ("(414) 894-5084", "Master plumber MP-1234 to 02/28/2026", "1", "Active"),
        ("—", "—", "1", "Active"),
    ]
    assert view.presenter.rows[0].warn  # the licence lapsed on 02/28/2026
    qtmodeltester.check(view.model)

    # 2. Alt+M with the record to keep selected: the duplicate is found by its name, and
    # what moves is listed; Enter merges, after a yes.
    def merge(dialog: QDialog) -> QWidget:
        assert isinstance(dialog, d.MergeDialog)
        assert dialog.focusWidget() is dialog.lookup
        assert dialog.kept.currentData() == c.kept
        assert dialog.duplicate.currentData() == c.duplicate
        assert dialog.duplicate.currentText().startswith(
            "Dahl Plumbing LLC — N89W14650 Pilgrim Road, Brookfield, WI 53045 · on 1 permit"
        )
        moves = dialog.moves.toPlainText().splitlines()
        assert moves[0] == "2 records: Role on a permit 1, Payment 1."
        assert "• Role on a permit: Master plumber on application of 03/02/2026 (PLUMBING)" in (
            moves
        )
        assert f"• Payment: receipt {c.receipt}, Dahl Plumbing LLC" in moves
        assert moves[-1] == "• Dahl Plumbing LLC is retired, merged into Dahl Plumbing LLC."
        return dialog.lookup

    seen = by_keys(qtbot, monkeypatch, merge)
    view.table.setFocus()
    alt(qtbot, view.table, Qt.Key.Key_M, seen)
    assert asked[-1].startswith(
        "Merge Dahl Plumbing LLC, N89W14650 Pilgrim Road into Dahl Plumbing LLC, N89 W14650 "
        "Pilgrim Rd?"
    )
    assert warnings == []
    assert view.search.text() == ""
    assert view.names().count("Dahl Plumbing LLC") == 1
    assert view.presenter.party(view.table.currentIndex().row()).party_id == c.kept  # type: ignore[union-attr]
    assert view.presenter.rows[view.presenter.row_of(c.kept)].cells[5] == "2"
    view.show_filter(PartyFilter.RETIRED)
    assert [line.cells[-1] for line in view.presenter.rows] == ["Merged into Dahl Plumbing LLC"]
    view.show_filter(PartyFilter.ACTIVE)
    view.select_party(c.kept)

    # 3. Enter opens the record kept: both permits' roles, the payment, the duplicate.
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    person = view.person_windows[c.kept]
    qtbot.waitExposed(person)
    assert sorted(line.item.permit_id for line in person.permits.rows) == sorted(  # type: ignore[attr-defined]
        [c.kept_permit, c.plumbing_permit]
    )
    assert {line.cells[3] for line in person.permits.rows} == {"Master plumber"}
    assert [line.cells[:3] for line in person.payments.rows] == [
        (c.receipt, "03/02/2026", "$63.00")
    ]
    summary = dict(person.summary_texts())
    assert summary["Merged into it"] == f"Dahl Plumbing LLC (#{c.duplicate})"
    assert summary["On permits"] == "2 roles on 2 permits"
    assert person.history is not None
    assert "Dahl Plumbing LLC merged into this record" in [r.what for r in person.history.rows]

    # The permit's licence check before the renewal: the plumber's licence has lapsed.
    person.select_tab("permits")
    row = next(
        n
        for n, line in enumerate(person.permits.rows)
        if line.item.permit_id == c.plumbing_permit  # type: ignore[attr-defined]
    )
    person.permit_table.setFocus()
    person.permit_table.selectRow(row)
    qtbot.keyClick(person.permit_table, Qt.Key.Key_Return)
    assert c.plumbing_permit in window.permit_windows
    lapsed = "Dahl Plumbing LLC: master plumber licence MP-1234 expired 02/28/2026 (15.1.41)"
    assert lapsed in issuance.issuance_shortfalls(database.uow(), c.plumbing_permit, TODAY)
    assert "expired" in parties_texts(window, c.plumbing_permit)

    # 4. Alt+C: the Credentials tab; Alt+N renews the licence selected, the expiry two years
    # on (02/28/2028) as the form offers it; Enter records it.
    def renew(dialog: QDialog) -> QWidget:
        assert isinstance(dialog, d.RenewDialog)
        assert dialog.focusWidget() is dialog.number
        assert dialog.number.text() == "MP-1234"
        assert dialog.expires.date().toString("MM/dd/yyyy") == "02/28/2028"
        return dialog.number

    seen = by_keys(qtbot, monkeypatch, renew)
    alt(qtbot, person.tabs, Qt.Key.Key_C)
    assert person.tabs.currentWidget() is person.pages["credentials"]
    assert person.selected_credential() is not None
    alt(qtbot, person.credential_table, Qt.Key.Key_N, seen)
    assert warnings == []
    assert [line.cells for line in person.credentials.rows] == [
        ("Master plumber", "MP-1234", "WI", "02/28/2028", "03/02/2026", "current"),
        (
            "Master plumber",
            "MP-1234",
            "WI",
            "02/28/2026",
            "03/02/2026",
            "renewed 03/02/2026 → MP-1234 to 02/28/2028",
        ),
    ]
    assert "Credential renewed: Master plumber MP-1234" in [r.what for r in person.history.rows]
    # The permit checks the renewed licence: its Parties tab (read again on the change) and
    # the issuing check.
    told(qtbot, window, lambda: "fits this role" in parties_texts(window, c.plumbing_permit))
    texts = parties_texts(window, c.plumbing_permit)
    at = texts.index("MP-1234")
    assert texts[at - 2 : at + 3] == [
        "✓",
        "Master plumber",
        "MP-1234",
        "expires 02/28/2028",
        "fits this role",
    ]
    assert lapsed not in issuance.issuance_shortfalls(database.uow(), c.plumbing_permit, TODAY)
    assert view.presenter.rows[view.presenter.row_of(c.kept)].cells[4] == (
        "Master plumber MP-1234 to 02/28/2028"
    )


@pytest.fixture
def c(empty_database: Database, clock: FixedClock) -> Contractors:
    return contractors(empty_database, clock)


def people_view(qtbot: QtBot, database: Database, actor: Actor) -> PeopleView:
    application()
    view = PeopleView(database, make_session(database, actor), FixedClock(TODAY))
    qtbot.addWidget(view)
    view.resize(1366, 700)
    view.show()
    qtbot.waitExposed(view)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=2000)
    view.load()
    return view


def test_every_dialog_opens_on_its_first_field_with_nothing_cut_off_at_1366_by_768(
    qtbot: QtBot, c: Contractors, empty_database: Database
) -> None:
    from tests.ui.test_clipping import SIZE, clipped_widgets

    view = people_view(qtbot, empty_database, c.reg.clerk)
    context = view._context()
    f = d.read_facts(context, c.kept)
    assert f is not None
    old = f.credentials[0]
    checks: list[tuple[QDialog, str]] = [
        (NewPartyDialog(empty_database, context.clock, c.reg.clerk, view), "newPartyName"),
        (d.PartyEditDialog(context, f, view), "party_kind"),
        (d.RetireDialog(context, f, view), "retireReason"),
        (d.MergeDialog(context, c.kept, f.name, view), "mergeFind"),
        (d.CredentialDialog(context, f, view), "credentialKind"),
        (d.RenewDialog(context, f, old, view), "renewNumber"),
    ]
    problems = []
    for dialog, first in checks:
        dialog.show()
        qtbot.waitExposed(dialog)
        focused = QDialog.focusWidget(dialog)
        assert focused is not None and focused.objectName() == first, dialog.windowTitle()
        problems += [f"{dialog.windowTitle()}: {x}" for x in clipped_widgets(dialog, SIZE)]
        dialog.close()
    assert not problems, "\n".join(problems)


def test_an_edit_saved_over_a_newer_version_offers_to_reload_it(
    qtbot: QtBot,
    c: Contractors,
    empty_database: Database,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    view = people_view(qtbot, empty_database, c.reg.clerk)
    view.search.setText("brookfield road")
    assert view.names() == ["Dahl Plumbing LLC"]
    offered: list[str] = []

    def reload(_parent: object, _title: str, text: str) -> bool:
        offered.append(text)
        return True

    monkeypatch.setattr(dialogs, "offer_reload", reload)

    def meanwhile(dialog: QDialog) -> QWidget:
        assert isinstance(dialog, d.PartyEditDialog)
        shown = d.read_facts(view._context(), c.duplicate)
        assert shown is not None
        form = edit.party_edit_of(shown)  # type: ignore[arg-type]
        # Another clerk corrects the street while this form is open.
        edit.update_party(
            empty_database.uow(),
            FixedClock(TODAY),
            c.reg.admin,
            c.duplicate,
            form.__class__(**{**form.__dict__, "address_line1": "N89 W14650 Pilgrim Rd"}),
            shown.version,
        )
        phone = dialog.inputs["phone"]
        assert isinstance(phone, QLineEdit)
        phone.setFocus()
        qtbot.keyClicks(phone, "262-555-0100")
        return phone

    seen = by_keys(qtbot, monkeypatch, meanwhile)
    qtbot.keyClick(view.table, Qt.Key.Key_E, Ctrl)
    assert seen and isinstance(seen[0], d.PartyEditDialog)
    assert offered and offered[0].startswith("Dahl Plumbing LLC was changed by Alex Administrator")
    dialog = seen[0]
    assert dialog.isVisible()  # kept open: the record as it is now, to edit again
    assert dialog.values()["address_line1"] == "N89 W14650 Pilgrim Rd"
    assert dialog.values()["phone"] == ""
    dialog.set_value("phone", "262-555-0100")
    assert dialog.submit()
    f = d.read_facts(view._context(), c.duplicate)
    assert f is not None and (f.address_line1, f.phone) == ("N89 W14650 Pilgrim Rd", "262-555-0100")
    dialog.close()


def test_retiring_asks_the_reason_and_restore_brings_the_record_back(
    qtbot: QtBot,
    c: Contractors,
    empty_database: Database,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    asked: list[str],
) -> None:
    view = people_view(qtbot, empty_database, c.reg.clerk)
    view.search.setText("badger")
    tries: list[bool] = []

    def retire(dialog: QDialog) -> bool:
        assert isinstance(dialog, d.RetireDialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.focusWidget() is dialog.reason
        tries.append(dialog.submit())  # OK with no reason: refused, naming the field
        qtbot.keyClicks(dialog.reason, "The company closed in 2025")
        tries.append(dialog.submit())
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", retire)
    alt(qtbot, view.table, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: len(tries) == 2, timeout=3000)
    assert tries == [False, True]
    assert warnings == []  # said once, in the form (not again in a box)
    assert view.names() == []  # gone from the active list
    view.show_filter(PartyFilter.RETIRED)
    assert view.presenter.rows[0].cells[-1] == "Retired 03/02/2026"
    assert view.restore_button.isEnabled() and not view.edit_button.isEnabled()
    assert (
        view.edit_button.toolTip()
        == "Badger State Builders LLC is retired: restore the record first."
    )
    assert view.restore_selected()
    assert asked[-1].startswith("Restore Badger State Builders LLC?")
    view.show_filter(PartyFilter.ACTIVE)
    assert view.names() == ["Badger State Builders LLC"]


def test_a_user_who_may_not_correct_records_reads_them_with_the_reasons_on_the_buttons(
    qtbot: QtBot, c: Contractors, empty_database: Database
) -> None:
    from desk.domain.enums import Role
    from desk.services import users

    users.create_user(
        empty_database.uow(),
        FixedClock(TODAY),
        c.reg.admin,
        username="tina",
        full_name="Tina Treasurer",
        password="correct-horse",
        roles={Role.TREASURER},
    )
    treasurer = users.authenticate(empty_database.uow(), "tina", "correct-horse")
    view = people_view(qtbot, empty_database, treasurer)
    assert view.open_button.isEnabled()
    for button in (view.new_button, view.edit_button, view.retire_button, view.merge_button):
        assert not button.isEnabled()
        assert button.toolTip() == p.MANAGE_WHY
    assert not view.import_button.isEnabled()
    assert view.import_button.toolTip() == p.IMPORT_WHY
    person = view.open_selected()
    assert isinstance(person, PersonWindow)
    assert not person.buttons["edit"].isEnabled()
    assert person.buttons["edit"].toolTip() == p.MANAGE_WHY


def test_new_person_adds_a_record_and_import_contractors_opens_the_import_window(
    qtbot: QtBot, c: Contractors, empty_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = people_view(qtbot, empty_database, c.reg.clerk)

    def fill(dialog: QDialog) -> QWidget:
        assert isinstance(dialog, NewPartyDialog)
        assert dialog.focusWidget() is dialog.name
        qtbot.keyClicks(dialog.name, "Kowalski Electric Inc")
        return dialog.name

    by_keys(qtbot, monkeypatch, fill)
    party_id = view.new_person()
    assert party_id is not None
    assert view.presenter.party(view.table.currentIndex().row()).name == "Kowalski Electric Inc"  # type: ignore[union-attr]

    import ui.views.contractor_import as screen

    class FakeImport(QDialog):
        imported = Signal(int)

    opened: list[FakeImport] = []

    def open_import(parent: QWidget, *_a: object) -> FakeImport:
        dialog = FakeImport(parent)
        dialog.show()
        opened.append(dialog)
        return dialog

    monkeypatch.setattr(screen, "open_contractor_import", open_import)
    view.search.setText("zeta")
    assert view.names() == []
    assert view.import_contractors() is opened[0]
    assert view.import_contractors() is opened[0]  # one window at a time
    from desk.domain.enums import PartyKind
    from desk.domain.model import Party
    from desk.services import permits

    permits.add_party(
        empty_database.uow(),
        FixedClock(TODAY),
        c.reg.clerk,
        Party(kind=PartyKind.ORGANIZATION, name="Zeta Heating LLC"),
    )
    opened[0].imported.emit(1)
    assert view.names() == ["Zeta Heating LLC"]
    opened[0].close()


def test_the_permits_parties_tab_edits_a_partys_phone_and_opens_its_credentials(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    c = contractors(database, clock)
    window = main_for(qtbot, database, clock, c.reg.clerk)
    permit = window.open_permit(c.kept_permit)
    permit.select_tab("parties")
    tab = permit.tab("parties")
    assert isinstance(tab, PartiesTab)
    bar = tab.person_bar
    assert [bar.choice.itemText(i) for i in range(bar.choice.count())] == [
        "Anna Schmidt (Owner of the building)",
        "Dahl Plumbing LLC (Master plumber)",
    ]
    bar.choice.setCurrentIndex(1)

    def phone(dialog: QDialog) -> QWidget:
        assert isinstance(dialog, d.PartyEditDialog)
        field = dialog.inputs["phone"]
        assert isinstance(field, QLineEdit)
        field.selectAll()
        qtbot.keyClicks(field, "414-555-0199")
        return field

    by_keys(qtbot, monkeypatch, phone)
    alt(qtbot, bar.edit_button, Qt.Key.Key_P)
    qtbot.waitUntil(lambda: "414-555-0199" in tab.texts(), timeout=3000)
    assert warnings == []
    assert bar.choice.currentData() == c.kept  # the choice kept after the permit read again

    alt(qtbot, bar.credentials_button, Qt.Key.Key_D)
    qtbot.waitUntil(lambda: c.kept in window.people_view.person_windows, timeout=3000)
    person = window.people_view.person_windows[c.kept]
    assert person.tabs.currentWidget() is person.pages["credentials"]
    assert person.contact_label.text().startswith("414-555-0199")

    # Another workstation corrects the e-mail: the list shown and the open window show it.
    shown = d.read_facts(person.context, c.kept)
    assert shown is not None
    form = edit.party_edit_of(shown)  # type: ignore[arg-type]
    edit.update_party(
        database.uow(),
        clock,
        c.reg.admin,
        c.kept,
        form.__class__(**{**form.__dict__, "email": "permits@dahl.example.com"}),
        shown.version,
    )
    told(qtbot, window, lambda: person.contact_label.text().endswith("permits@dahl.example.com"))
    assert person.contact_label.text() == "414-555-0199 · permits@dahl.example.com"
    view = window.people_view  # shown: read again, the phone typed on the permit's tab too
    assert view.presenter.rows[view.presenter.row_of(c.kept)].cells[3] == "414-555-0199"
