"""The "Licences & condemnations" section: the inspector records a condemnation through its
dialog and sees it in the register with its vacate date (Hudson 140 B, C); a mistake keeps the
dialog open and names the field; the clerk schedules a hearing and the inspector revokes upon
the Council's finding (15.1.78); the placard and the licence print; the buttons follow roles."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QDialog, QLabel
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.licensing import Ground
from desk.domain.model import Actor, Credential, Party
from desk.services import licensing as svc
from desk.services import permits
from tests.factories import Register, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.views.common import to_qdate
from ui.views.licensing import (
    SECTION_TITLE,
    CondemnationDialog,
    FindingDialog,
    HearingDialog,
    LicensingView,
)

TODAY = date(2026, 3, 2)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def reg(empty_database: Database, clock: FixedClock) -> Register:
    return seed_register(empty_database, clock)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, list[object]]:
    s: dict[str, list[object]] = {"warnings": [], "asked": [], "opened": []}
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: s["warnings"].append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)

    def ask(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        s["asked"].append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    monkeypatch.setattr(
        dialogs,
        "choose_file",
        lambda _p, _c, _f="", **kw: str(tmp_path / Path(kw["directory"]).name),
    )
    monkeypatch.setattr(
        dialogs, "show_file", lambda _w, path, _t: s["opened"].append(Path(str(path)))
    )
    return s


def fill_with(monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]) -> list[bool]:
    results: list[bool] = []

    def run(dialog: QDialog) -> bool:
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        results.append(dialog.submit())
        return results[-1]

    monkeypatch.setattr(actions, "exec_dialog", run)
    return results


def view_for(qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor) -> LicensingView:
    application()
    view = LicensingView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    return view


def view_with_a_condemnation(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> LicensingView:
    """The inspector's view of a register with one condemnation (5820 N Lake Dr, no heat)."""
    svc.record_condemnation(
        database.uow(),
        clock,
        reg.inspector,
        svc.CondemnationInput(reg.municipality_id, "5820 N Lake Dr", ("B2",), "No heat", TODAY),
    )
    return view_for(qtbot, database, clock, reg.inspector)


def test_the_inspector_records_a_condemnation_and_sees_it_in_the_register(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    monkeypatch: pytest.MonkeyPatch,
    seen: dict[str, list[object]],
) -> None:
    view = view_for(qtbot, empty_database, clock, reg.inspector)
    view.show_page("condemnations")
    assert view.condemnations.rows == []
    assert view.condemnation_note.text() == "No condemnations: open."

    def forget_the_grounds(d: QDialog) -> None:
        assert isinstance(d, CondemnationDialog)
        d.address.setText("5820 N Lake Dr")
        d.unit.setText("Upper")
        d.reasons.setPlainText("Fire damage: roof open, stairway unsafe")
        opened.append(d)

    opened: list[CondemnationDialog] = []
    results = fill_with(monkeypatch, forget_the_grounds)
    view.condemn()
    assert results == [False]  # the dialog stayed open
    assert "Grounds: tick at least one of the defects" in opened[-1].error_label.text()
    assert view.condemnations.rows == []

    def fill(d: QDialog) -> None:
        forget_the_grounds(d)
        assert isinstance(d, CondemnationDialog)
        # The vacate date follows the condemnation date: 60 days (Hudson 140 C).
        d.condemned_on.setDate(to_qdate(date(2026, 2, 27)))
        assert d.vacate_by.date() == to_qdate(date(2026, 4, 28))
        d.grounds[Ground.B1].setChecked(True)
        d.grounds[Ground.B3].setChecked(True)
        d.notified.setText("Owner by certified mail")

    fill_with(monkeypatch, fill)
    view.condemn()
    assert [r.cells for r in view.condemnations.rows] == [
        (
            "5820 N Lake Dr",
            "Upper",
            "02/27/2026",
            "B(1), B(3)",
            "04/28/2026",
            "Open: vacate by 04/28/2026",
            "—",
        )
    ]
    assert view.condemnations.summary == "1 open condemnation"
    assert view.states.tabText(0) == "Open (1)"
    # The grounds in the ordinance's words; no other municipality's section (a Glendale register).
    assert "Grounds: B(1) so damaged" in view.condemnation_note.text()
    assert "Hudson" not in view.condemnation_note.text()
    # The placard prints for the selected condemnation.
    out = view.print_placard()
    assert out is not None and out in seen["opened"]
    text = " ".join(PdfReader(str(out)).pages[0].extract_text().split())
    assert "UNFIT FOR HUMAN HABITATION" in text and "5820 N Lake Dr, Upper" in text
    assert "vacated by 04/28/2026" in text


def test_a_clerk_sees_the_register_but_cannot_condemn_or_grant(
    qtbot: QtBot, empty_database: Database, clock: FixedClock, reg: Register
) -> None:
    view = view_for(qtbot, empty_database, clock, reg.clerk)
    assert not view.grantLicence_button.isEnabled()
    assert "15.1.75" in view.grantLicence_button.toolTip()
    assert not view.recordCondemnation_button.isEnabled()


def test_the_clerk_schedules_the_hearing_and_the_inspector_revokes_upon_the_finding(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    monkeypatch: pytest.MonkeyPatch,
    seen: dict[str, list[object]],
) -> None:
    uow = empty_database.uow()
    party = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name="Sparks Electric LLC")
    )
    permits.add_credential(
        uow,
        clock,
        reg.clerk,
        party,
        Credential(kind=CredentialKind.MASTER_ELECTRICIAN, number="ME-22041"),
    )
    # The inspector grants through the section's dialog, choosing the licensee found.
    inspector = view_for(qtbot, empty_database, clock, reg.inspector)

    def choose(d: QDialog) -> None:
        d.search.setText("spark")  # type: ignore[attr-defined]
        assert d.licensee.count() == 1  # type: ignore[attr-defined]

    fill_with(monkeypatch, choose)
    inspector.grant()
    assert inspector.licences.rows[0].cells[:2] == ("EL-2026-0001", "Sparks Electric LLC")
    licence = inspector.licences.licence(0)
    assert licence is not None
    svc.file_licence_complaint(uow, clock, reg.inspector, licence.id, TODAY, "Unsafe wiring")

    clerk = view_for(qtbot, empty_database, clock, reg.clerk)
    assert clerk.scheduleHearing_button.isEnabled()

    def too_late(d: QDialog) -> None:
        assert isinstance(d, HearingDialog)
        d.hearing_on.setDate(to_qdate(date(2026, 4, 2)))  # the 31st day
        said.append(d.error_label)

    said: list[QLabel] = []
    results = fill_with(monkeypatch, too_late)
    clerk.hearing()
    assert results == [False]
    assert said[-1].text().startswith("Hearing on: ") and "04/01/2026" in said[-1].text()

    def in_time(d: QDialog) -> None:
        assert isinstance(d, HearingDialog)
        d.hearing_on.setDate(to_qdate(date(2026, 3, 16)))
        d.notice_on.setDate(to_qdate(date(2026, 3, 4)))

    fill_with(monkeypatch, in_time)
    clerk.hearing()
    assert clerk.licences.rows[0].cells[-1] == "Hearing 03/16/2026"
    clock.set(date(2026, 3, 17))
    clerk.load()

    def disqualified(d: QDialog) -> None:
        assert isinstance(d, FindingDialog)
        d.finding.setPlainText("Disqualified, 6–1")

    fill_with(monkeypatch, disqualified)
    clerk.finding()
    assert not clerk.revokeLicence_button.isEnabled()  # the inspector revokes
    inspector.load()
    assert inspector.revokeLicence_button.isEnabled()
    inspector.revoke()
    assert "15.1.78(c)" in str(seen["asked"][-1])
    inspector.show_licences("any")
    assert inspector.licences.rows[0].cells[5:] == ("Revoked", "Revoked 03/17/2026")
    out = inspector.print_licence()
    assert out is not None
    assert "REVOKED 03/17/2026" in PdfReader(str(out)).pages[0].extract_text()


def test_the_section_is_in_the_main_window_for_every_role(
    qtbot: QtBot, empty_database: Database, clock: FixedClock, reg: Register
) -> None:
    application()
    for actor in (reg.clerk, reg.inspector, reg.treasurer, reg.admin):
        window = MainWindow(
            empty_database, make_session(empty_database, actor), remember_geometry=False
        )
        qtbot.addWidget(window)
        assert SECTION_TITLE in window.section_titles()
        assert window.show_section(SECTION_TITLE) is window.licensing_view


def test_both_table_models_pass_the_model_tester(
    qtbot: QtBot, qtmodeltester: object, empty_database: Database, clock: FixedClock, reg: Register
) -> None:
    view = view_with_a_condemnation(qtbot, empty_database, clock, reg)
    assert len(view.condemnations.rows) == 1
    qtmodeltester.check(view.condemnation_model)  # type: ignore[attr-defined]
    qtmodeltester.check(view.licence_model)  # type: ignore[attr-defined]


def test_a_placard_is_filed_without_a_save_dialog_and_an_unusable_folder_is_named(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    reg: Register,
    monkeypatch: pytest.MonkeyPatch,
    seen: dict[str, list[object]],
    tmp_path: Path,
) -> None:
    from ui import settings

    view = view_with_a_condemnation(qtbot, empty_database, clock, reg)
    view.show_page("condemnations")
    asked: list[str] = []
    monkeypatch.setattr(
        dialogs, "choose_file", lambda _p, caption, *_a, **_k: asked.append(caption)
    )
    out = view.print_placard()
    assert asked == []
    assert out is not None and out.name == "placard-5820-n-lake-dr.pdf"
    assert out.parent.name == "Notices" and seen["opened"] == [out]
    assert "UNFIT FOR HUMAN HABITATION" in PdfReader(str(out)).pages[0].extract_text()

    # A document folder that cannot be made: the inspector is told which, and the placard is
    # still shown (from a temporary copy), to print or save as.
    errors: list[str] = []
    monkeypatch.setattr(dialogs, "error", lambda _p, _t, text: errors.append(text))
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    settings.write(settings.DOCUMENT_FOLDER, str(blocked / "documents"))
    again = view.print_placard()
    assert errors and f"The document folder {blocked / 'documents'}" in errors[0]
    assert again is not None and again.exists() and seen["opened"] == [out, again]
