"""The Deposits section (Glendale 15.1.43): the street deposits register and the refund
queue — eligible now, eligible in the next 30 days, ordered and awaiting the check, retained —
with the actions along a deposit's way: take it at the counter (the money goes to the liability
account "Street deposits held"), record the completion of the work, the City Engineer's order,
the City Clerk's refund check, and the Common Council's retention. Exports for the engineer's
order and for the Council (.xlsx, .pdf).

Keyboard: Ctrl+1…5 pick a list; Enter opens the permit; the buttons carry mnemonics. The
buttons follow the signed-in user's roles (the services check again).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabBar,
    QWidget,
)

from db import queries
from db import surety_queries as sq
from db.database import Database
from desk.clock import Clock
from desk.domain.cashiering import PaymentMethod, Tender
from desk.domain.sureties import DepositStatus
from desk.errors import ValidationError
from desk.services import sureties as svc
from desk.services.cashiering import DEFAULT_DRAWER
from ui import dialogs
from ui.exports import REPORTS, filed_path, send_to_printer
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters.formatting import format_amount, format_date
from ui.presenters.session import Session
from ui.presenters.sureties import QUEUE_ORDER, DepositsPresenter, parse_day, parse_money
from ui.views.common import (
    LinesModel,
    enable_buttons,
    fit_columns,
    note_label,
    read_only_table,
    selected_row,
    wire_buttons,
)
from ui.views.section import SectionView

SECTION_TITLE = "Deposits"
ELIGIBLE = QColor(30, 110, 50)
METHODS = (PaymentMethod.CHECK, PaymentMethod.CASH, PaymentMethod.MONEY_ORDER, PaymentMethod.CARD)


# --- dialogs ------------------------------------------------------------------------------------


class TenderFields:
    """How the depositor pays: method, check or money order number, name on the check, bank,
    card reference, drawer."""

    def __init__(self, dialog: ActionDialog) -> None:
        self.method = QComboBox(dialog)
        self.method.setObjectName("tenderMethod")
        for m in METHODS:
            self.method.addItem(m.label, m.value)
        dialog.add_field("Paid &by:", self.method, "method")
        self.number = QLineEdit(dialog)
        self.number.setObjectName("checkNumber")
        dialog.add_field("Check or money order n&umber:", self.number, "check number",
                         "money order number")  # fmt: skip
        self.drawer_name = QLineEdit(dialog)
        self.drawer_name.setObjectName("nameOnCheck")
        dialog.add_field("&Name on check:", self.drawer_name, "name on check")
        self.bank = QLineEdit(dialog)
        self.bank.setObjectName("checkBank")
        dialog.add_field("Ban&k:", self.bank, "bank")
        self.card = QLineEdit(dialog)
        self.card.setObjectName("cardReference")
        dialog.add_field("Card refe&rence:", self.card, "card reference")
        self.drawer = QLineEdit(DEFAULT_DRAWER, dialog)
        self.drawer.setObjectName("cashDrawer")
        dialog.add_field("Cash &drawer:", self.drawer, "drawer")
        self.method.currentIndexChanged.connect(self._method_changed)
        self._method_changed()

    def _method_changed(self) -> None:
        m = PaymentMethod(self.method.currentData())
        for widget, on in (
            (self.number, m in (PaymentMethod.CHECK, PaymentMethod.MONEY_ORDER)),
            (self.drawer_name, m is PaymentMethod.CHECK),
            (self.bank, m is PaymentMethod.CHECK),
            (self.card, m is PaymentMethod.CARD),
        ):
            widget.setEnabled(on)

    def tender(self, amount: Any) -> Tender:
        return Tender(
            PaymentMethod(self.method.currentData()),
            amount,
            self.number.text(),
            self.drawer_name.text(),
            self.bank.text(),
            self.card.text(),
        )


class TakeDepositDialog(ActionDialog):
    """The counter: record the deposit and take its money in one step (15.1.43)."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Take a street deposit",
            "Before a permit involving sewer or water excavations is issued, a deposit is made: "
            "$500 for a paved street; the City Engineer may increase it (15.1.43). It is held in "
            "the liability account Street deposits held and returned to the payee by check.",
            "&Take deposit",
            parent,
        )
        self.permit_id = context.permit_id
        self.parties: list[sq.PermitParty] = []
        self.permit = QLineEdit(self)
        self.permit.setObjectName("depositPermit")
        self.permit.setPlaceholderText("Permit number, e.g. 2026-0042")
        self.permit.editingFinished.connect(self._permit_entered)
        self.permit_note = QLabel(self)
        self.permit_note.setObjectName("noteText")
        self.add_field("&Permit:", self.permit, "permit")
        self.add_field("", self.permit_note)
        self.depositor = QComboBox(self)
        self.depositor.setObjectName("depositor")
        self.depositor.setEditable(True)
        self.depositor.currentIndexChanged.connect(self._depositor_chosen)
        self.add_field("Paid b&y (depositor):", self.depositor, "depositor")
        self.address = QLineEdit(self)
        self.address.setObjectName("depositorAddress")
        self.add_field("Depositor's &address:", self.address, "depositor address")
        self.payee = QLineEdit(self)
        self.payee.setObjectName("refundPayee")
        self.payee.setPlaceholderText("the depositor")
        self.add_field("Re&fund to:", self.payee, "refund payee")
        self.payee_address = QLineEdit(self)
        self.payee_address.setObjectName("refundAddress")
        self.payee_address.setPlaceholderText("the depositor's address")
        self.add_field("Check mai&led to:", self.payee_address, "refund address")
        self.amount = QLineEdit("500.00", self)
        self.amount.setObjectName("depositAmount")
        self.add_field("A&mount:", self.amount, "amount")
        self.paved = QCheckBox("The street is pa&ved", self)
        self.paved.setObjectName("streetPaved")
        self.paved.setChecked(True)
        self.add_field("", self.paved, "street paved")
        self.tender = TenderFields(self)
        self.deposit_id: int | None = None
        self.receipt = ""
        if self.permit_id:
            with context.database.read() as conn:
                self.permit.setText(sq.permit_label(conn, self.permit_id).split(" — ")[0])
            self._permit_entered()

    def _permit_entered(self) -> None:
        number = self.permit.text().strip()
        if not number:
            return
        with self.context.database.read() as conn:
            permit_id = queries.permit_id_by_number(
                conn, self.context.session.municipality_id, number
            )
            if permit_id is None and number.startswith("#") and number[1:].isdigit():
                permit_id = int(number[1:])
            if permit_id is None:
                self.permit_note.setText(f"No permit is numbered {number}.")
                self.permit_id = 0
                return
            self.permit_id = permit_id
            self.permit_note.setText(sq.permit_label(conn, permit_id))
            self.parties = sq.permit_parties(conn, permit_id)
        self.depositor.blockSignals(True)
        self.depositor.clear()
        # The plumber usually pays (15.1.43 deposits come with the sewer or water permit).
        order = sorted(self.parties, key=lambda p: p.role.value != "plumber")
        for p in order:
            self.depositor.addItem(f"{p.name}", p.party_id)
        self.depositor.blockSignals(False)
        self._depositor_chosen()

    def _depositor_chosen(self) -> None:
        pid = self.depositor.currentData()
        party = next((p for p in self.parties if p.party_id == pid), None)
        if party is not None:
            self.address.setText(party.address.replace("\n", ", "))

    def _party_id(self) -> int | None:
        name = self.depositor.currentText().strip()
        for p in self.parties:
            if p.name == name:
                return p.party_id
        return None

    def run(self) -> None:
        if not self.permit_id:
            raise ValidationError("permit", "enter the permit's number")
        amount = parse_money(self.amount.text(), "amount")
        assert amount is not None
        self.deposit_id, paid = svc.take_deposit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            svc.DepositInput(
                permit_id=self.permit_id,
                depositor=self.depositor.currentText(),
                depositor_party_id=self._party_id(),
                depositor_address=self.address.text(),
                refund_payee=self.payee.text(),
                refund_address=self.payee_address.text(),
                amount=amount,
                street_paved=self.paved.isChecked(),
            ),
            self.tender.tender(amount),
            self.tender.drawer.text(),
        )
        self.receipt = paid.receipt_number if paid is not None else ""


class PayDepositDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: svc.DepositLine, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Take the deposit's payment",
            f"{format_amount(line.amount)} from {line.depositor} for permit {line.permit_label}, "
            "to the liability account Street deposits held (15.1.43).",
            "&Take payment",
            parent,
        )
        self.line = line
        self.tender = TenderFields(self)
        self.receipt = ""

    def run(self) -> None:
        paid = svc.pay_deposit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.deposit_id,
            self.tender.tender(self.line.amount),
            self.tender.drawer.text(),
        )
        self.receipt = paid.receipt_number


class CompletionDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: svc.DepositLine, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Record the completion of the work",
            f"Permit {line.permit_label}: the date the work was properly completed. The deposit "
            "may be returned not less than 180 days later (15.1.43).",
            "&Record",
            parent,
        )
        self.line = line
        self.date = QLineEdit(format_date(line.completed_on or context.clock.today()), self)
        self.date.setObjectName("completedOn")
        self.add_field("&Completed on:", self.date, "completed on")
        self.eligible: date | None = None

    def run(self) -> None:
        day = parse_day(self.date.text(), "completed on")
        assert day is not None
        self.eligible = svc.record_completion(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.deposit_id,
            day,
        )


class RefundDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: svc.DepositLine, parent: QWidget | None = None
    ) -> None:
        retained = (
            f" ({format_amount(line.retained)} retained by the Council)" if line.retained else ""
        )
        super().__init__(
            context,
            "Refund the deposit by check",
            f"{format_amount(line.refund_amount)}{retained} to {line.payee}, on the City "
            f"Engineer's order of {format_date(line.ordered_on)} (15.1.43). The check leaves the "
            "liability account and goes to the treasurer with the next turnover.",
            "&Refund",
            parent,
        )
        self.line = line
        self.check_number = QLineEdit(self)
        self.check_number.setObjectName("refundCheckNumber")
        self.add_field("Check &number:", self.check_number, "check_number", "check number")
        self.check_date = QLineEdit(format_date(context.clock.today()), self)
        self.check_date.setObjectName("refundCheckDate")
        self.add_field("Check &date:", self.check_date, "check date")
        self.amount: Decimal | None = None

    def run(self) -> None:
        day = parse_day(self.check_date.text(), "check date")
        assert day is not None
        self.amount = svc.refund_deposit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.deposit_id,
            self.check_number.text(),
            day,
        )


class RetentionDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: svc.DepositLine, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Record the Council's retention",
            "When in the opinion of the Common Council it is necessary to correct, complete or "
            "supplement the work, the deposit or any part of it may be retained to pay the cost "
            "(15.1.43). The amount moves to the account that pays for completing the work.",
            "Re&cord",
            parent,
        )
        self.line = line
        self.resolution = QLineEdit(self)
        self.resolution.setObjectName("resolutionNumber")
        self.add_field("&Resolution no.:", self.resolution, "resolution")
        self.resolved_on = QLineEdit(format_date(context.clock.today()), self)
        self.resolved_on.setObjectName("resolvedOn")
        self.add_field("Adopted &on:", self.resolved_on, "resolved on")
        self.amount = QLineEdit(f"{line.amount:.2f}", self)
        self.amount.setObjectName("retainedAmount")
        self.add_field("&Amount retained:", self.amount, "amount")
        self.reason = QLineEdit(self)
        self.reason.setObjectName("retentionReason")
        self.reason.setPlaceholderText(
            "the work the amount pays to correct, complete or supplement"
        )
        self.add_field("Rea&son:", self.reason, "reason")

    def run(self) -> None:
        day = parse_day(self.resolved_on.text(), "resolved on")
        amount = parse_money(self.amount.text(), "amount")
        assert day is not None and amount is not None
        svc.retain_deposit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.deposit_id,
            self.resolution.text(),
            day,
            amount,
            self.reason.text(),
        )


# --- the section ----------------------------------------------------------------------------------


class DepositsView(SectionView):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__("depositsView", database, session, clock, parent)
        self.presenter = DepositsPresenter(self._fetch, clock.today, session.actor.roles)
        self.model = LinesModel(self.presenter, self, ELIGIBLE)
        top = self._heading(SECTION_TITLE)
        self.tabs = QTabBar(self)
        self.tabs.setObjectName("depositQueues")
        self.tabs.setExpanding(False)
        self.tabs.setDrawBase(False)
        for key in QUEUE_ORDER:
            self.tabs.addTab(key)
        self.tabs.currentChanged.connect(self._queue_changed)
        self.table = read_only_table(self, "depositsTable", self.model)
        self.table.doubleClicked.connect(lambda _i: self._open())
        self.table.activated.connect(lambda _i: self._open())
        self.detail = note_label(self)
        self.why = note_label(self, selectable=False)

        self.take_button = QPushButton("&Take deposit…", self)
        self.pay_button = QPushButton("Take &payment…", self)
        self.complete_button = QPushButton("&Completion…", self)
        self.order_button = QPushButton("&Order refund", self)
        self.refund_button = QPushButton("Refund by c&heck…", self)
        self.retain_button = QPushButton("Council &retention…", self)
        self.xlsx_button = QPushButton("Export .&xlsx…", self)
        self.pdf_button = QPushButton("Export P&DF…", self)
        wire_buttons(
            ("takeDeposit", self.take_button, self.take_deposit),
            ("payDeposit", self.pay_button, self.pay),
            ("recordCompletion", self.complete_button, self.complete),
            ("orderRefund", self.order_button, self.order),
            ("refundDeposit", self.refund_button, self.refund),
            ("retainDeposit", self.retain_button, self.retain),
            ("exportXlsx", self.xlsx_button, lambda: self.export("xlsx")),
            ("exportPdf", self.pdf_button, lambda: self.export("pdf")),
        )
        # Two rows of buttons: the counter's and the way back to the depositor (the screen
        # stays narrow enough for a small window).
        counter = QHBoxLayout()
        for b in (self.take_button, self.pay_button):
            counter.addWidget(b)
        counter.addStretch(1)
        counter.addWidget(self.xlsx_button)
        counter.addWidget(self.pdf_button)
        back = QHBoxLayout()
        for b in (self.complete_button, self.order_button, self.refund_button, self.retain_button):
            back.addWidget(b)
        back.addStretch(1)
        layout = self._section_layout(top)
        layout.addWidget(self.tabs)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.why)
        layout.addLayout(back)
        layout.addLayout(counter)
        self._pick_keys(len(QUEUE_ORDER), self.tabs.setCurrentIndex)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._selection())
        self.tabs.setCurrentIndex(QUEUE_ORDER.index("all"))

    def _fetch(self, on: date) -> list[svc.DepositLine]:
        with self.database.read() as conn:
            return sq.deposit_lines(conn, self.session.municipality_id, on)

    # --- loading ---------------------------------------------------------------------------

    def load(self, select_deposit: int | None = None) -> None:
        current = self.current()
        keep = select_deposit or (current.deposit_id if current else None)
        with self.database.read() as conn:
            self.presenter.orderer = sq.refund_order_role(conn, self.session.municipality_id)
        self.presenter.load()
        self._refresh_rows(keep)
        self.loaded = True

    def _refresh_rows(self, keep: int | None = None) -> None:
        self.model.reload()
        for n, key in enumerate(QUEUE_ORDER):
            self.tabs.setTabText(n, self.presenter.tab_title(key))
        self.summary.setText(self.presenter.summary)
        fit_columns(self.table, (1,))
        row = self.presenter.row_of(keep) if keep else -1
        if row < 0 and self.presenter.rows:
            row = 0
        if row >= 0:
            self.table.selectRow(row)
        self._selection()

    def _queue_changed(self, index: int) -> None:
        if 0 <= index < len(QUEUE_ORDER):
            self.presenter.set_queue(QUEUE_ORDER[index])
            self._refresh_rows()

    def select_queue(self, key: str) -> None:
        self.tabs.setCurrentIndex(QUEUE_ORDER.index(key))

    def show_place(self, place: str) -> None:
        """A Needs attention item: the queue it names (refunds ordered, awaiting the check)."""
        if not self.loaded:
            self.load()
        if place in QUEUE_ORDER:
            self.select_queue(place)

    def current_row(self) -> int:
        return selected_row(self.table)

    def current(self) -> svc.DepositLine | None:
        return self.presenter.line(self.current_row())

    def _selection(self) -> None:
        row = self.current_row()
        self.detail.setText(self.presenter.detail(row))
        reasons = []
        p = self.presenter
        enable_buttons(
            (
                (self.pay_button, p.can_pay(row)),
                (self.complete_button, p.can_complete(row)),
                (self.order_button, p.can_order(row)),
                (self.refund_button, p.can_refund(row)),
                (self.retain_button, p.can_retain(row)),
            )
        )
        # The next step of the deposit, and who takes it: the engineer's order (or the role
        # acting for him), then the clerk's check (15.1.43).
        line = self.presenter.line(row)
        step = None
        if line is None:
            step = (False, "Choose a deposit.") if self.presenter.rows else None
        elif line.status in (DepositStatus.HELD, DepositStatus.ELIGIBLE):
            step = self.presenter.can_order(row)
        elif line.status is DepositStatus.ORDERED:
            step = self.presenter.can_refund(row)
        if step is not None and not step[0] and step[1]:
            reasons.append(step[1])
        self.why.setText(" ".join(reasons))
        self.why.setVisible(bool(reasons))

    def _open(self) -> None:
        line = self.current()
        if line is not None:
            self.open_permit.emit(line.permit_id)

    # --- actions ---------------------------------------------------------------------------

    def _after(self, deposit_id: int | None, message: str) -> None:
        self.load(deposit_id)
        self._status(message)

    def take_deposit(self) -> None:
        dialog = TakeDepositDialog(self._context(), self)
        if actions.exec_dialog(dialog):
            receipt = f", receipt {dialog.receipt}" if dialog.receipt else ""
            self._after(dialog.deposit_id, f"Street deposit taken{receipt}.")

    def pay(self) -> None:
        line = self.current()
        if line is None or not self.presenter.can_pay(self.current_row())[0]:
            return
        dialog = PayDepositDialog(self._context(), line, self)
        if actions.exec_dialog(dialog):
            self._after(line.deposit_id, f"Deposit received, receipt {dialog.receipt}.")

    def complete(self) -> None:
        line = self.current()
        if line is None or not self.presenter.can_complete(self.current_row())[0]:
            return
        dialog = CompletionDialog(self._context(), line, self)
        if actions.exec_dialog(dialog):
            self._after(
                line.deposit_id,
                f"Completion recorded; eligible for return from {format_date(dialog.eligible)}.",
            )

    def order(self) -> None:
        line = self.current()
        if line is None:
            return
        question = (
            f"Order the street deposit of {format_amount(line.amount)} for permit "
            f"{line.permit_label} returned to {line.payee} (15.1.43)?"
        )
        if not self._confirmed(
            "Order the refund",
            self.presenter.can_order(self.current_row()),
            question,
            lambda: svc.order_deposit_refund(
                self.database.uow(), self.clock, self.session.actor, line.deposit_id
            ),
        ):
            return
        self._after(line.deposit_id, f"Refund ordered for permit {line.permit_label}.")

    def refund(self) -> None:
        line = self.current()
        if line is None or not self.presenter.can_refund(self.current_row())[0]:
            return
        dialog = RefundDialog(self._context(), line, self)
        if actions.exec_dialog(dialog):
            self._after(
                line.deposit_id,
                f"Refunded {format_amount(dialog.amount)} to {line.payee}.",
            )

    def retain(self) -> None:
        line = self.current()
        if line is None or not self.presenter.can_retain(self.current_row())[0]:
            return
        dialog = RetentionDialog(self._context(), line, self)
        if actions.exec_dialog(dialog):
            self._after(line.deposit_id, "The Council's retention is recorded.")

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the street deposits list straight to the print dialog."""
        return self.export("pdf", direct=True) is not None

    def export(self, kind: str, *, direct: bool = False) -> Path | None:
        from reports import surety_reports

        on = self.clock.today()
        name = f"street-deposits-{on.isoformat()}.{kind}"
        if kind == "xlsx":
            path = dialogs.choose_file(
                self,
                "Export the street deposits",
                "Excel workbook (*.xlsx)",
                save=True,
                directory=name,
            )
        else:  # a printout: filed in the document folder without asking
            path = str(filed_path(self, "Street deposits", name, REPORTS))
        if not path:
            return None
        with self.database.read() as conn:
            report = sq.deposits_report(conn, self.session.municipality_id, on)
        out = Path(path)
        if kind == "xlsx":
            surety_reports.export_deposits_xlsx(report, out)
        else:
            surety_reports.render_deposits_pdf(report, out)
        if direct and kind == "pdf":
            send_to_printer(self, "Street deposits", out, "The street deposits list")
        else:
            dialogs.show_file(self, out, "Street deposits")
        return out
