"""The Bonds & Insurance section and the permit window's Sureties tab (issue 6): filing a bond
and a certificate through their dialogs (a missing field named, the dialog kept open), the
lists and their filters, the expiry watch's reminder letters, and the conditions the
inspector records turning into requirements on the permit's tab."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QDialog
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.model import Actor, Party
from desk.domain.sureties import BondKind, BondPurpose, Coverage, CoverageKind
from desk.services import permits
from desk.services import sureties as svc
from tests.factories import Register, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.permit import actions, tabs
from ui.permit.base import PermitContext
from ui.permit.sureties import FactsDialog, SuretiesTab
from ui.permit.window import PermitWindow
from ui.views.bonds import BondDialog, BondsView, CertificateDialog

TODAY = date(2026, 3, 2)


@pytest.fixture
def office(tmp_path: Path) -> Iterator[tuple[Database, FixedClock, Register, int, int]]:
    database = open_database(sqlite_url(tmp_path / "bonds.db"))
    clock = FixedClock(TODAY)
    reg = seed_register(database, clock)
    uow = database.uow()
    mover = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(
            kind=PartyKind.ORGANIZATION,
            name="Lakeshore House Movers Inc",
            address_line1="400 W Silver Spring Dr",
            city="Glendale",
            zip="53217",
        ),
    )
    move = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="MOVE",
            parcel_id=reg.parcel_id,
            description="Move a garage over Port Washington Rd",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.CONTRACTOR, mover)),
        ),
    )
    try:
        yield database, clock, reg, mover, move
    finally:
        database.close()


class Seen:
    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.opened: list[Path] = []


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Seen:
    s = Seen()
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: s.warnings.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: None)
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    monkeypatch.setattr(
        dialogs,
        "choose_file",
        lambda _p, _c, _f="", **kw: str(tmp_path / Path(kw["directory"]).name),
    )

    def show_file(_parent: object, path: object, _title: str) -> None:
        s.opened.append(Path(str(path)))

    monkeypatch.setattr(dialogs, "show_file", show_file)
    return s


def fill_with(monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], Any]) -> list[QDialog]:
    shown: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        shown.append(dialog)
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)
    return shown


def bonds_view(qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor) -> BondsView:
    application()
    view = BondsView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    return view


def test_a_bond_is_filed_from_its_dialog_and_a_missing_field_is_named(
    qtbot: QtBot,
    office: tuple[Database, FixedClock, Register, int, int],
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
    qtmodeltester: ModelTester,
) -> None:
    database, clock, reg, _mover, move = office
    view = bonds_view(qtbot, database, clock, reg.clerk)
    assert view.bonds.summary == "No bond is on file yet."

    def fill(d: QDialog) -> None:
        assert isinstance(d, BondDialog)
        d.purpose.setCurrentIndex(d.purpose.findData(BondPurpose.MOVING.value))
        d.kind.setCurrentIndex(d.kind.findData(BondKind.SURETY.value))
        d.principal.setText("Lakeshore House Movers Inc")
        d.amount.setText("$1,500")
        d.number.setText("SB-1001")
        d.expires.setText("12/31/2027")
        d.permits.setText(f"#{move}")
        d.condition_boxes["barriers_48h"].setChecked(True)

    shown = fill_with(monkeypatch, fill)
    view.new_bond_button.click()
    assert seen.warnings == []  # said once, in the form
    dialog = shown[0]
    assert isinstance(dialog, BondDialog)
    assert dialog.error_label.text() == "Surety company: enter the surety company"
    dialog.company.setText("Western Surety Company")
    assert dialog.submit()
    view.load()
    assert [r.cells for r in view.bonds.rows] == [
        (
            "SB-1001",
            "Moving a building",
            "Lakeshore House Movers Inc",
            "Corporate surety",
            "$1,500.00",
            "03/02/2026",
            "12/31/2027",
            f"#{move}",
            "In force",
        )
    ]
    qtmodeltester.check(view.bond_model)
    row = view.bonds.bond(0)
    assert row is not None
    # The principal was picked from the register: the bond is the mover's.
    assert svc.bond_input(database.uow(), row.id).principal_party_id is not None
    view.bond_table.selectRow(0)
    assert not view.release_button.isEnabled()
    assert view.release_button.toolTip() == (
        "Releasing a bond takes the engineer's or the inspector's role."
    )
    view.bond_search.setText("nothing like it")
    assert view.bonds.summary == "No bond matches."


def test_an_association_certificate_lists_its_members_and_the_watch_writes_letters(
    qtbot: QtBot,
    office: tuple[Database, FixedClock, Register, int, int],
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
    qtmodeltester: ModelTester,
) -> None:
    database, clock, reg, _mover, _move = office
    view = bonds_view(qtbot, database, clock, reg.clerk)

    def fill(d: QDialog) -> None:
        assert isinstance(d, CertificateDialog)
        d.insured.setText("Milwaukee Master Plumbers Association")
        d.insurer.setText("Employers Mutual Casualty Co")
        d.policy.setText("MMPA-26")
        d.limits[CoverageKind.PER_PERSON].setText("50,000")
        d.limits[CoverageKind.PER_ACCIDENT].setText("100000")
        d.effective.setText("04/15/2025")
        d.expires.setText("2026-04-14")
        d.association.setChecked(True)
        d.filed_on.setText("04/15/2025")
        d.members.setText("North Shore Plumbing Co; Dahl Plumbing LLC")

    fill_with(monkeypatch, fill)
    view.pages.setCurrentIndex(1)
    view.new_cert_button.click()
    assert seen.warnings == []
    assert [r.cells[:4] for r in view.certificates.rows] == [
        (
            "MMPA-26",
            "Milwaukee Master Plumbers Association (association, 2 members)",
            "Employers Mutual Casualty Co",
            "$50,000 person, $100,000 accident",
        )
    ]
    assert view.certificates.rows[0].cells[-1] == "Expires in 43 days"
    qtmodeltester.check(view.cert_model)

    # A mover's certificate ending soon goes on the watch, and a letter to him.
    svc.record_certificate(
        database.uow(),
        clock,
        reg.clerk,
        svc.CertificateInput(
            municipality_id=reg.municipality_id,
            insured="Lakeshore House Movers Inc",
            insured_party_id=_mover,
            insurer="Badger Mutual",
            policy="GL-4471",
            effective_on=date(2025, 4, 1),
            expires_on=date(2026, 3, 31),
            coverages=(Coverage(CoverageKind.PER_PERSON, Decimal("100000")),),
        ),
    )
    view.load()
    view.pages.setCurrentIndex(2)
    assert [r.cells[:4] for r in view.watch.rows] == [
        ("03/31/2026", "29 days", "Insurance certificate: Public liability insurance", "GL-4471"),
        (
            "04/14/2026",
            "43 days",
            "Insurance certificate: Public liability insurance for the association's members",
            "MMPA-26",
        ),
    ]
    qtmodeltester.check(view.watch_model)
    view.watch_table.selectRow(0)
    out = view.letters()
    assert out is not None and seen.opened == [out]
    reader = PdfReader(out)
    assert len(reader.pages) == 1  # the selected line only
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Lakeshore House Movers Inc 400 W Silver Spring Dr" in text
    assert (
        "Our records show that your certificate of insurance GL-4471 issued by Badger Mutual "
        "ends on 03/31/2026." in text
    )
    assert "with this office by 03/30/2026" in text


def test_the_sureties_tab_shows_what_the_inspectors_conditions_require(
    qtbot: QtBot,
    office: tuple[Database, FixedClock, Register, int, int],
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
    qtmodeltester: ModelTester,
) -> None:
    database, clock, reg, mover, move = office
    svc.record_bond(
        database.uow(),
        clock,
        reg.clerk,
        svc.BondInput(
            municipality_id=reg.municipality_id,
            purpose=BondPurpose.MOVING,
            kind=BondKind.SURETY,
            principal="",
            principal_party_id=mover,
            obligee="City of Glendale",
            amount=Decimal("1000.00"),
            effective_on=TODAY,
            expires_on=date(2029, 1, 1),
            number="SB-1001",
            surety_company="Western Surety Company",
            conditions=("barriers_48h",),
            permit_ids=(move,),
        ),
    )
    monkeypatch.setattr(tabs, "PERMIT_TABS", [*tabs.PERMIT_TABS, SuretiesTab])
    monkeypatch.setattr("ui.permit.window.PERMIT_TABS", [*tabs.PERMIT_TABS])
    application()
    session = make_session(database, reg.inspector)
    window = PermitWindow(PermitContext(database, session, move, clock), remember_geometry=False)
    qtbot.addWidget(window)
    window.reload()
    window.select_tab("sureties")
    tab = window.tab("sureties")
    assert isinstance(tab, SuretiesTab)
    assert tab.status.text().startswith("1 shortfall on 03/02/2026")
    assert tab.shortfalls.text().startswith("•  No insurance certificate is on file")
    assert [r.cells[:2] for r in tab.model.presenter.rows] == [("Bond", "SB-1001")]  # type: ignore[union-attr]
    qtmodeltester.check(tab.model)

    def conditions(d: QDialog) -> None:
        assert isinstance(d, FactsDialog)
        d.boxes["exterior_altered"].setChecked(True)
        d.amounts["bond_amount"].setText("2,500")

    fill_with(monkeypatch, conditions)
    tab.facts_button.click()
    assert seen.warnings == []
    assert "Bond to the Plan Commission for the exterior alterations" in tab.requirements.text()
    assert tab.status.text().startswith("3 shortfalls on 03/02/2026")
    assert "•  Bond SB-1001 is for $1,000, below the $2,500 required (15.1.9(f)(1))" in (
        tab.shortfalls.text()
    )
    assert "Bond amount fixed by the Building Inspector (15.1.9(f)(1)): $2,500.00" in (
        tab.facts_label.text()
    )
