"""At the counter: every form dialog opens with the cursor in its first field (the clerk's first
keystrokes are not lost on OK), Enter on an empty form saves nothing and puts the cursor in the
field the error names, and the error is said once, in words ("Check number: ..."), never with a
service's key ("check_number: ...")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from db.schema import audit_event, permit, permit_party
from db.surety_queries import deposit_lines
from desk.domain.cashiering import PaymentMethod, Tender
from desk.domain.enums import PartyRole, Role
from desk.domain.model import Actor
from desk.services import inspections, permits, sureties, users
from tests.ui.sample import PASSWORD, Sample
from ui import dialogs
from ui.app import application, make_session
from ui.permit.actions import ActionDialog, ExtendDeadlineDialog, RevokeDialog, StopWorkDialog
from ui.permit.base import PermitContext
from ui.permit.inspections import RequestDialog, ResultDialog
from ui.rooming.dialogs import ApplicationDialog
from ui.views.deposits import PayDepositDialog, RefundDialog, TakeDepositDialog
from ui.views.enforcement_dialogs import ComplaintDialog, ObservationDialog
from ui.views.gl_accounts import NewAccountDialog
from ui.views.intake_dialogs import NewParcelDialog, NewPartyDialog
from ui.views.users import UserDialog


@dataclass
class Case:
    dialog: QDialog
    first: str  # the object name of the field the cursor starts in
    error_field: str  # the field Enter on the empty form names; "" when the dialog has none
    # A form complete as it opens (a result defaults to the first choice): Enter saves it.
    complete: bool = False


Make = Callable[[Sample, QWidget], Case]


def _context(s: Sample, permit_id: int = 0, actor: Actor | None = None) -> PermitContext:
    session = make_session(s.database, actor or s.admin)
    return PermitContext(s.database, session, permit_id, s.clock)


def _sewer_permit(s: Sample) -> int:
    """A sewer lateral on 6120 N Port: 15.1.43 asks a street deposit before it is issued."""
    with s.database.read() as conn:
        parcel_id, owner_id = conn.execute(
            select(permit.c.parcel_id, permit_party.c.party_id)
            .join(permit_party, permit_party.c.permit_id == permit.c.id)
            .where(permit.c.id == s.issued_id, permit_party.c.role == PartyRole.BUILDING_OWNER)
        ).one()
    return permits.take_application(
        s.database.uow(),
        s.clock,
        s.clerk,
        permits.ApplicationInput(
            municipality_id=s.municipality_id,
            kind="SEWER-WATER",
            parcel_id=parcel_id,
            description="Sanitary lateral to the main in the street",
            parties=((PartyRole.BUILDING_OWNER, owner_id),),
        ),
    )


def _ordered_deposit(s: Sample) -> sureties.DepositLine:
    """A $500 street deposit the City Engineer ordered returned (15.1.43): the check is next."""
    uow = s.database.uow()
    users.create_user(
        uow, s.clock, s.admin, username="erin", full_name="Erin Engineer", password=PASSWORD,
        roles={Role.ENGINEER},
    )  # fmt: skip
    engineer = users.authenticate(uow, "erin", PASSWORD)
    users.create_user(
        uow, s.clock, s.admin, username="ivan", full_name="Ivan Inspector", password=PASSWORD,
        roles={Role.INSPECTOR},
    )  # fmt: skip
    inspector = users.authenticate(uow, "ivan", PASSWORD)
    deposit_id, _ = sureties.take_deposit(
        uow,
        s.clock,
        s.clerk,
        sureties.DepositInput(
            permit_id=_sewer_permit(s),
            depositor="Anna Schmidt",
            depositor_address="6120 N Port Washington Rd",
            amount=Decimal("500.00"),
        ),
        Tender(PaymentMethod.CASH, Decimal("500.00")),
    )
    s.clock.set(date(2026, 3, 3))
    sureties.record_completion(uow, s.clock, inspector, deposit_id, date(2026, 3, 3))
    s.clock.set(date(2026, 8, 30))
    sureties.order_deposit_refund(uow, s.clock, engineer, deposit_id)
    with s.database.read() as conn:
        return next(
            x
            for x in deposit_lines(conn, s.municipality_id, s.clock.today())
            if x.deposit_id == deposit_id
        )


def _unpaid_deposit(s: Sample) -> sureties.DepositLine:
    deposit_id = sureties.record_deposit(
        s.database.uow(),
        s.clock,
        s.clerk,
        sureties.DepositInput(
            permit_id=_sewer_permit(s),
            depositor="Anna Schmidt",
            depositor_address="6120 N Port Washington Rd",
            amount=Decimal("500.00"),
        ),
    )
    with s.database.read() as conn:
        return next(
            x
            for x in deposit_lines(conn, s.municipality_id, s.clock.today())
            if x.deposit_id == deposit_id
        )


def _requested(s: Sample) -> int:
    r = inspections.request_inspection(
        s.database.uow(),
        s.clock,
        s.clerk,
        inspections.RequestInput(s.issued_id, "BLD-LOCATION", "Mike"),
    )
    return r.inspection_id


CASES: dict[str, Make] = {
    "new parcel": lambda s, p: Case(
        NewParcelDialog(s.database, s.clock, s.clerk, s.municipality_id, p),
        "newParcelPin",
        "newParcelPin",
    ),
    "new person": lambda s, p: Case(
        NewPartyDialog(s.database, s.clock, s.clerk, p), "newPartyName", "newPartyName"
    ),
    "refund by check": lambda s, p: Case(
        RefundDialog(_context(s, actor=s.clerk), _ordered_deposit(s), p),
        "refundCheckNumber",
        "refundCheckNumber",
    ),
    "take a street deposit": lambda s, p: Case(
        TakeDepositDialog(_context(s), p), "depositPermit", "depositPermit"
    ),
    "record the deposit's payment": lambda s, p: Case(
        PayDepositDialog(_context(s), _unpaid_deposit(s), p), "tenderMethod", ""
    ),
    "new rooming house application": lambda s, p: Case(
        ApplicationDialog(_context(s), p), "operatorName", "licenceParcel"
    ),
    "inspection request": lambda s, p: Case(
        RequestDialog(_context(s), p), "permitFinder", "permitFinder"
    ),
    "inspection result": lambda s, p: Case(
        ResultDialog(_context(s, s.issued_id), _requested(s), "Location", None, p),
        "resultChoice",
        "",
        complete=True,
    ),
    "complaint": lambda s, p: Case(
        ComplaintDialog(_context(s), p), "complaintProperty", "complaintDescription"
    ),
    "case on observation": lambda s, p: Case(
        ObservationDialog(_context(s), p), "observationProperty", "observationText"
    ),
    "extend a deadline": lambda s, p: Case(
        ExtendDeadlineDialog(_context(s, s.issued_id), [], p), "extendDeadline", "extendDeadline"
    ),
    "stop-work order": lambda s, p: Case(
        StopWorkDialog(_context(s, s.issued_id), p), "stopWorkReasons", "stopWorkReasons"
    ),
    "revoke": lambda s, p: Case(
        RevokeDialog(_context(s, s.issued_id), p), "revokeDetails", "revokeReason_a"
    ),
    "add user": lambda s, p: Case(
        UserDialog(p, s.database, make_session(s.database, s.admin), s.clock),
        "username",
        "username",
    ),
    "new GL account": lambda s, p: Case(
        NewAccountDialog(s.database, make_session(s.database, s.admin), s.clock, p),
        "accountNumber",
        "accountNumber",
    ),
}


def _writes(s: Sample) -> int:
    with s.database.read() as conn:
        return int(conn.execute(select(func.count()).select_from(audit_event)).scalar_one())


def _open(qtbot: QtBot, dialog: QDialog) -> QWidget:
    """Show the dialog as exec() would and wait until it has the keyboard."""
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    focused = QApplication.focusWidget()
    assert focused is not None
    return focused


def _error_text(dialog: QDialog) -> str:
    label = dialog.findChild(QLabel, "errorText")
    return label.text() if label is not None and label.isVisible() else ""


@pytest.fixture
def parent(qtbot: QtBot) -> QWidget:
    application()  # the stylesheet, as in the app
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def boxes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: False)
    return said


@pytest.mark.parametrize("name", list(CASES))
def test_a_dialog_opens_in_its_first_field_and_enter_on_the_empty_form_saves_nothing(
    qtbot: QtBot, sample: Sample, parent: QWidget, boxes: list[str], name: str
) -> None:
    case = CASES[name](sample, parent)
    dialog = case.dialog
    qtbot.addWidget(dialog)
    focused = _open(qtbot, dialog)
    assert focused.objectName() == case.first, f"{name}: the cursor starts in {focused}"
    before = _writes(sample)
    qtbot.keyClick(focused, Qt.Key.Key_Return)
    if case.complete:
        assert dialog.result() == QDialog.DialogCode.Accepted, _error_text(dialog)
        assert _writes(sample) > before
        return
    if isinstance(focused, QPlainTextEdit):
        # Enter in a text box starts a new line (the reasons run to several); OK saves.
        assert dialog.isVisible() and not boxes and not _error_text(dialog), name
        assert _writes(sample) == before, name
        default = next(b for b in dialog.findChildren(QPushButton) if b.isDefault())
        default.click()
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted, name
    assert _writes(sample) == before, f"{name}: Enter on the empty form wrote to the register"
    said = [*boxes, _error_text(dialog)]
    said = [t for t in said if t]
    assert len(said) == 1, f"{name}: said {said}"  # once: the form's line or a box, not both
    assert re.match(r"[A-Z]", said[0]), said
    assert "_" not in said[0].split(":")[0], said  # no service key ("check_number: ...")
    now = QApplication.focusWidget()
    assert now is not None
    if case.error_field:
        assert now.objectName() == case.error_field, f"{name}: {said[0]} -> cursor in {now}"


def test_a_refund_without_the_check_number_says_so_in_words_once(
    qtbot: QtBot, sample: Sample, parent: QWidget, boxes: list[str]
) -> None:
    # The City Clerk writes the check (15.1.43).
    dialog = RefundDialog(_context(sample, actor=sample.clerk), _ordered_deposit(sample), parent)
    qtbot.addWidget(dialog)
    assert _open(qtbot, dialog) is dialog.check_number
    dialog.ok_button.click()
    assert dialog.error_label.text() == "Check number: enter the number of the refund check"
    assert boxes == []  # not again in a message box
    assert QApplication.focusWidget() is dialog.check_number
    qtbot.keyClicks(dialog.check_number, "10441")  # the clerk types straight into the field
    qtbot.keyClick(dialog.check_number, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.amount == Decimal("500.00")


def test_the_first_keystrokes_land_in_the_new_parcel_form_and_tab_goes_down_it(
    qtbot: QtBot, sample: Sample, parent: QWidget, boxes: list[str]
) -> None:
    dialog = NewParcelDialog(sample.database, sample.clock, sample.clerk, sample.municipality_id)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(_open(qtbot, dialog), "047-5555-001")
    assert dialog.pin.text() == "047-5555-001"
    qtbot.keyClick(dialog.pin, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is dialog.house
    qtbot.keyClick(dialog.house, Qt.Key.Key_Return)  # no street yet: refused, cursor there
    assert dialog.error_label.text() == "Street: enter the street"
    assert QApplication.focusWidget() is dialog.street
    assert dialog.parcel_id is None


def test_an_action_dialog_without_a_field_of_its_own_still_starts_in_its_first_field(
    qtbot: QtBot, sample: Sample, parent: QWidget
) -> None:
    """ActionDialog makes its buttons before its fields: without ui.focus, Qt starts on OK."""
    dialog = ApplicationDialog(_context(sample), parent)
    qtbot.addWidget(dialog)
    assert isinstance(dialog, ActionDialog)
    assert _open(qtbot, dialog) is not dialog.ok_button
    assert dialog.ok_button.isDefault()
