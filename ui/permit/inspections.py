"""The permit window's Inspections tab, and the inspection dialogs the Inspections
section shares: a request taken on the phone, scheduling, a result (from the keyboard: P passed,
R rejected, A partial, C cancelled, O OK for service), an exception to the order of 15.1.11(a),
more time on a correction order, and the certificate of occupancy (15.1.13); printing the route
sheet, the correction order's notice and the certificate.

Each dialog is an ActionDialog (ui/permit/actions.py): OK runs one service; on a mistake it stays
open with everything typed and says why, pointing at the field the service named.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db import inspection_queries as iq
from db import queries
from db.database import Database
from desk.domain.inspections import InspectionType, Result, correction_due, sequence_for
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.errors import ValidationError
from desk.services import inspections as svc
from desk.services.inspections import (
    CertificateInput,
    CertificateResult,
    RequestInput,
    RequestResult,
    ResultInput,
    ResultOutcome,
)
from ui import dialogs
from ui.exports import CERTIFICATES, NOTICES, save_and_open
from ui.permit import actions
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.formatting import format_amount, format_date
from ui.presenters.inspections import (
    HISTORY_COLUMNS,
    STAGE_COLUMNS,
    PermitInspectionsPresenter,
    due_text,
    result_choices,
    result_key,
)
from ui.views.common import date_edit, from_qdate, to_qdate

TITLE = "Inspections"
TIMES = ("", "AM", "PM")


def next_working_day(day: date) -> date:
    nxt = day + timedelta(days=1)
    while nxt.weekday() >= 5:
        nxt += timedelta(days=1)
    return nxt


def _types_of(database: Database, permit_id: int) -> tuple[list[InspectionType], str]:
    """The permit's inspection types, the ones that may be requested now first; and the permit
    as the dialog names it."""
    with database.read() as conn:
        data = iq.permit_inspections(conn, permit_id)
        detail = queries.permit_detail(conn, permit_id)
    if data is None or detail is None:
        return [], ""
    seq = sequence_for(data.municipality_key, detail.kind)
    name = ", ".join(x for x in (detail.number or f"#{permit_id}", detail.address) if x)
    if seq is None:
        return [], name
    presenter = PermitInspectionsPresenter(data, date.today())
    return presenter.type_choices(seq.types), name


# --------------------------------------------------------------------------- request


class RequestDialog(ActionDialog):
    """A call at the counter. Opened from a permit (context.permit_id) or from the Inspections
    section (permit_id 0: the permit is found by number or address as you type)."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Request an inspection",
            "Who called, for which inspection, and when they would like it. The order of the "
            "stages is checked when the result is recorded (15.1.11(a)).",
            "&Request",
            parent,
        )
        self.permit_id = context.permit_id
        self.matches: dict[str, int] = {}
        self.finder = QLineEdit(self)
        self.finder.setObjectName("permitFinder")
        self.finder.setPlaceholderText("Permit number or address, e.g. 2026-0012 or 6120 N Port")
        self.completer_model = QStringListModel(self)
        completer = QCompleter(self.completer_model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.finder.setCompleter(completer)
        self.finder.textEdited.connect(self._search)
        completer.activated.connect(self.choose_permit_text)
        self.finder.returnPressed.connect(lambda: self.choose_permit_text(self.finder.text()))
        self.permit_label = QLabel(self)
        self.permit_label.setObjectName("noteText")
        if self.permit_id:
            self.finder.hide()  # not laid out: it would sit over the heading
            self.add_field("Permit:", self.permit_label, "permit")
        else:
            self.add_field("&Permit:", self.finder, "permit")
            self.add_field("", self.permit_label)
        self.type_combo = QComboBox(self)
        self.type_combo.setObjectName("inspectionType")
        self.add_field("&Inspection:", self.type_combo, "inspection type")
        self.caller = QLineEdit(self)
        self.caller.setObjectName("callerName")
        self.caller.setPlaceholderText("Name of the person who called")
        self.add_field("&Caller:", self.caller, "caller")
        self.phone = QLineEdit(self)
        self.phone.setObjectName("callerPhone")
        self.phone.setPlaceholderText("(414) 555-0100")
        self.add_field("P&hone:", self.phone, "phone")
        self.desired = date_edit(self, "desiredDate")
        self.desired.setDate(to_qdate(next_working_day(context.clock.today())))
        self.any_day = QCheckBox("&Any day", self)
        self.any_day.setObjectName("anyDay")
        self.any_day.toggled.connect(lambda on: self.desired.setEnabled(not on))
        when = QHBoxLayout()
        when.addWidget(self.desired)
        when.addWidget(self.any_day)
        when.addStretch(1)
        holder = QWidget(self)
        holder.setLayout(when)
        when.setContentsMargins(0, 0, 0, 0)
        self.add_field("&Wanted on:", holder, "desired date")
        self.fields["desired date"] = self.desired
        self.time = QComboBox(self)
        self.time.setObjectName("desiredTime")
        self.time.setEditable(True)
        self.time.addItems(TIMES)
        self.time.setToolTip("AM, PM or a time such as 09:30")
        self.add_field("&Time:", self.time, "desired time")
        self.notes = _text_box(self, "requestNotes", "e.g. gate code, dog on site, call first", 2)
        self.add_field("&Notes:", self.notes, "notes")
        self.request: RequestResult | None = None
        if self.permit_id:
            self.load_types(self.permit_id)
            self.caller.setFocus()
        else:
            self.finder.setFocus()

    def _search(self, text: str) -> None:
        if len(text.strip()) < 2:
            return
        with self.context.database.read() as conn:
            rows = queries.search_permits(
                conn, self.context.session.municipality_id, text, limit=15
            )
        self.matches = {}
        for r in rows:
            if not r.number:
                continue
            label = " — ".join(x for x in (r.number, r.address, r.owner) if x)
            self.matches[label] = r.id
        self.completer_model.setStringList(list(self.matches))

    def choose_permit_text(self, text: str) -> bool:
        """The permit picked from the list (or typed exactly); False when nothing matches."""
        permit_id = self.matches.get(text)
        if permit_id is None:
            with self.context.database.read() as conn:
                permit_id = queries.permit_id_by_number(
                    conn, self.context.session.municipality_id, text.strip()
                )
        if permit_id is None:
            self.permit_label.setText("No permit found; type its number or address.")
            return False
        self.choose_permit(permit_id)
        return True

    def choose_permit(self, permit_id: int) -> None:
        self.permit_id = permit_id
        self.load_types(permit_id)
        self.type_combo.setFocus()

    def load_types(self, permit_id: int) -> None:
        types, name = _types_of(self.context.database, permit_id)
        self.permit_label.setText(name)
        self.type_combo.clear()
        for t in types:
            self.type_combo.addItem(f"{t.label} ({t.section})", t.code)
        if not types:
            self.permit_label.setText(f"{name}: this kind of permit has no inspections.")

    def select_type(self, code: str) -> None:
        self.type_combo.setCurrentIndex(max(0, self.type_combo.findData(code)))

    def run(self) -> None:
        if not self.permit_id:
            raise ValidationError("permit", "find the permit by its number or address first")
        code = self.type_combo.currentData()
        if code is None:
            raise ValidationError("inspection type", "choose the inspection")
        self.request = svc.request_inspection(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            RequestInput(
                permit_id=self.permit_id,
                type_code=str(code),
                requested_by=self.caller.text(),
                requested_phone=self.phone.text(),
                desired_on=None if self.any_day.isChecked() else from_qdate(self.desired.date()),
                desired_time=self.time.currentText(),
                notes=self.notes.toPlainText(),
            ),
        )

    def confirmation(self) -> str:
        """What the clerk tells the caller once the request is saved."""
        r = self.request
        if r is None:
            return ""
        lines = [f"{r.type_label} requested."]
        if r.due is not None:
            lines.append(f"The ordinance's limit: inspected {due_text(r.due.due_at)}.")
        if r.waiting_for:
            lines.append("Not yet passed: " + "; ".join(r.waiting_for))
        return "\n".join(lines)


# --------------------------------------------------------------------------- schedule


class ScheduleDialog(ActionDialog):
    def __init__(
        self,
        context: PermitContext,
        inspection_id: int,
        what: str,
        parent: QWidget | None = None,
        *,
        inspector_id: int | None = None,
        day: date | None = None,
    ) -> None:
        super().__init__(
            context,
            "Schedule the inspection",
            f"{what}. It goes at the end of the inspector's route for the day; the inspector "
            "rearranges the route on the Day page.",
            "&Schedule",
            parent,
        )
        self.inspection_id = inspection_id
        self.inspector = QComboBox(self)
        self.inspector.setObjectName("scheduleInspector")
        with context.database.read() as conn:
            for uid, name in iq.inspectors(conn):
                self.inspector.addItem(name, uid)
        if inspector_id is not None:
            self.inspector.setCurrentIndex(max(0, self.inspector.findData(inspector_id)))
        self.add_field("&Inspector:", self.inspector, "inspector")
        self.day = date_edit(self, "scheduleDate")
        self.day.setDate(to_qdate(day or next_working_day(context.clock.today())))
        self.add_field("&Date:", self.day, "date")
        self.position: int | None = None
        self.day.setFocus()

    def run(self) -> None:
        uid = self.inspector.currentData()
        if uid is None:
            raise ValidationError("inspector", "there is no inspector account yet")
        self.position = svc.schedule_inspection(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.inspection_id,
            int(uid),
            from_qdate(self.day.date()),
        )


# --------------------------------------------------------------------------- result


class ResultDialog(ActionDialog):
    """The result as the inspector found it. A rejection lists what must be corrected and the
    date (30 days, electrical 7: 15.1.90(b)(1), 15.1.76(c)); the fee of a re-inspection or a
    failure to call is added unless waived with a reason."""

    def __init__(
        self,
        context: PermitContext,
        inspection_id: int,
        what: str,
        itype: InspectionType | None,
        parent: QWidget | None = None,
        *,
        result: Result | None = None,
    ) -> None:
        super().__init__(
            context,
            "Record the result",
            f"{what}. Keys: P passed, R rejected, A partial, C cancelled"
            + (", O OK for service" if itype is not None and itype.ok_for_service else "")
            + ".",
            "&Record",
            parent,
        )
        self.inspection_id = inspection_id
        self.itype = itype
        self.result_combo = QComboBox(self)
        self.result_combo.setObjectName("resultChoice")
        for r in result_choices(itype):
            self.result_combo.addItem(f"{result_key(r)} — {r.label}", r.value)
        self.add_field("R&esult:", self.result_combo, "result")
        self.notes = _text_box(self, "resultNotes", "What was seen on site", 3)
        self.add_field("&Notes:", self.notes, "notes")
        self.items = _text_box(
            self, "correctionItems", "One item to correct per line (the written notice)", 4
        )
        self.add_field("Correction &items:", self.items, "correction items")
        trade = itype.trade if itype is not None else "building"
        self.standard_due = correction_due(context.clock.today(), trade)
        self.correct_by = date_edit(self, "correctBy")
        self.correct_by.setDate(to_qdate(self.standard_due))
        self.add_field("Correct &by:", self.correct_by, "correct by")
        self.extension = QLineEdit(self)
        self.extension.setObjectName("extensionReason")
        self.extension.setPlaceholderText("Only for a later date than the ordinance's period")
        self.add_field("Why &later:", self.extension, "reason")
        # The rule's name in the label column: the box's text stays short enough for 1366 px.
        self.failure = QCheckBox("Work was &covered before it was called for", self)
        self.failure.setObjectName("failureToCall")
        self.add_field("Failure to call:", self.failure, "failure to call")
        self.waiver = QLineEdit(self)
        self.waiver.setObjectName("feeWaiver")
        self.waiver.setPlaceholderText("Leave empty to charge the fee")
        self.add_field("&Waive fee, because:", self.waiver, "waiver reason")
        self.outcome: ResultOutcome | None = None
        self.result_combo.currentIndexChanged.connect(self._result_changed)
        if result is not None:
            self.set_result(result)
        self._result_changed()
        self.notes.setFocus() if result is not None else self.result_combo.setFocus()

    def set_result(self, result: Result) -> None:
        self.result_combo.setCurrentIndex(max(0, self.result_combo.findData(result.value)))

    @property
    def chosen(self) -> Result:
        return Result(str(self.result_combo.currentData()))

    def _result_changed(self) -> None:
        rejected = self.chosen is Result.REJECTED
        for w in (self.items, self.correct_by, self.extension):
            w.setEnabled(rejected)

    def run(self) -> None:
        rejected = self.chosen is Result.REJECTED
        due = from_qdate(self.correct_by.date())
        self.outcome = svc.record_result(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            ResultInput(
                inspection_id=self.inspection_id,
                result=self.chosen,
                notes=self.notes.toPlainText(),
                correction_items=self.items.toPlainText() if rejected else "",
                correct_by=due if rejected and due != self.standard_due else None,
                extension_reason=self.extension.text() if rejected else "",
                failure_to_call=self.failure.isChecked(),
                fee_waiver=self.waiver.text(),
            ),
        )

    def summary(self) -> str:
        o = self.outcome
        if o is None:
            return ""
        lines = [f"{o.type_label}: {o.result.label.lower() if o.result else 'recorded'}."]
        for f in o.fees:
            lines.append(f"{format_amount(f.amount)} added to the permit: {f.why}.")
        lines.extend(o.waived)
        if o.correct_by is not None:
            lines.append(f"Correction order: correct by {format_date(o.correct_by)}.")
        if o.completed_on is not None:
            lines.append(f"The permit is completed as of {format_date(o.completed_on)}.")
        return "\n".join(lines)


# --------------------------------------------------------------------------- exception, order


class ExceptionDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, stages: list[tuple[str, str]], parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Exception to the order of inspections",
            "The stage need not pass before the stages that follow it (15.1.11(a)), e.g. slab on "
            "grade: no basement floor. The reason is kept with the permit.",
            "Record e&xception",
            parent,
        )
        self.stage = QComboBox(self)
        self.stage.setObjectName("exceptionStage")
        for code, label in stages:
            self.stage.addItem(label, code)
        self.add_field("&Stage:", self.stage, "inspection type")
        self.reason = _text_box(self, "exceptionReason", "Why the stage does not apply or waits", 3)
        self.add_field("&Reason:", self.reason, "reason")
        self.reason.setFocus()

    def run(self) -> None:
        code = self.stage.currentData()
        if code is None:
            raise ValidationError("inspection type", "no stage waits for another")
        svc.record_exception(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            str(code),
            self.reason.toPlainText(),
        )


class ExtendOrderDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, order_id: int, due_on: date, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "More time to correct",
            f"The order is to be corrected by {format_date(due_on)}. The inspector may grant "
            "more time (15.1.90(b)(1)); the reason is printed on the notice.",
            "E&xtend",
            parent,
        )
        self.order_id = order_id
        self.until = date_edit(self, "orderUntil")
        self.until.setDate(to_qdate(due_on + timedelta(days=14)))
        self.add_field("&New date:", self.until, "correct by")
        self.reason = _text_box(self, "orderExtendReason", "e.g. materials on order", 3)
        self.add_field("&Reason:", self.reason, "reason")
        self.reason.setFocus()

    def run(self) -> None:
        svc.extend_correction(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.order_id,
            from_qdate(self.until.date()),
            self.reason.toPlainText(),
        )


# --------------------------------------------------------------------------- certificate


def balance_note(due: Decimal) -> str:
    """Fees charged since issuance and not paid: the certificate does not wait for them
    (15.1.13 names its conditions), but the inspector and the owner are told."""
    if due <= 0:
        return ""
    return (
        f"{format_amount(due)} is still due on this permit. The certificate does not wait for "
        "it (15.1.13); the counter collects it."
    )


def _due_on(context: PermitContext) -> Decimal:
    from db.cash_queries import payable_permit

    with context.database.read() as conn:
        found = payable_permit(conn, context.permit_id)
    return found.due if found is not None else Decimal("0.00")


class CertificateDialog(ActionDialog):
    """15.1.13: after the final inspection found no violation, a certificate stating the use;
    for hardship a temporary one, the premises found safe and sanitary, at most 120 days."""

    def __init__(
        self, context: PermitContext, parent: QWidget | None = None, *, temporary: bool = False
    ) -> None:
        super().__init__(
            context,
            "Certificate of occupancy",
            "The certificate states the purpose for which the building may be used "
            "(15.1.13(a)(1)). A temporary certificate (15.1.13(d)) needs the premises examined "
            "and found safe and sanitary, and runs at most 120 days.",
            "&Issue certificate",
            parent,
        )
        self.use = QLineEdit(self)
        self.use.setObjectName("certificateUse")
        self.use.setPlaceholderText("e.g. Single-family dwelling (R-3), attached garage")
        self.add_field("&Use:", self.use, "use")
        self.occupant = QLineEdit(self)
        self.occupant.setObjectName("certificateOccupant")
        self.occupant.setPlaceholderText("The user of a non-residential building (15.1.13(c))")
        self.add_field("&Occupant:", self.occupant, "occupant")
        self.conditions = _text_box(self, "certificateConditions", "None", 3)
        self.add_field("&Conditions:", self.conditions, "conditions")
        self.temporary = QCheckBox("&Temporary (hardship, 15.1.13(d))", self)
        self.temporary.setObjectName("certificateTemporary")
        self.add_field("", self.temporary)
        self.until = date_edit(self, "certificateUntil")
        self.until.setDate(to_qdate(context.clock.today() + timedelta(days=120)))
        self.add_field("Complete &by:", self.until, "complete by")
        self.safe = QCheckBox("Premises examined and found &safe and sanitary", self)
        self.safe.setObjectName("certificateSafe")
        self.add_field("", self.safe, "safe and sanitary")
        self.temporary.toggled.connect(self._temporary_changed)
        self.temporary.setChecked(temporary)
        self._temporary_changed(temporary)
        self.certificate: CertificateResult | None = None
        self.balance_note = balance_note(_due_on(context))
        if self.balance_note:
            self.note.setText(f"{self.note.text()}\n\n{self.balance_note}")
            self.note.setVisible(True)
        self.use.setFocus()

    def _temporary_changed(self, on: bool) -> None:
        self.until.setEnabled(on)
        self.safe.setEnabled(on)

    def run(self) -> None:
        temporary = self.temporary.isChecked()
        self.certificate = svc.issue_certificate(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            CertificateInput(
                permit_id=self.context.permit_id,
                use=self.use.text(),
                conditions=self.conditions.toPlainText(),
                occupant=self.occupant.text(),
                temporary_until=from_qdate(self.until.date()) if temporary else None,
                safe_and_sanitary=temporary and self.safe.isChecked(),
            ),
        )


# --------------------------------------------------------------------------- printing


def print_correction_notice(parent: QWidget, database: Database, order_id: int) -> Path | None:
    with database.read() as conn:
        data = iq.correction_notice(conn, order_id)
    if data is None:
        return None
    from reports.correction_notice import render_correction_notice

    return save_and_open(
        parent,
        "Print correction order",
        "Save the correction order as PDF",
        f"correction-order-{data.permit_number}-{data.order_id}.pdf",
        lambda path: render_correction_notice(data, path),
        subfolder=NOTICES,
    )


def print_certificate(parent: QWidget, database: Database, certificate_id: int) -> Path | None:
    with database.read() as conn:
        data = iq.certificate_data(conn, certificate_id)
    if data is None:
        return None
    from reports.occupancy_certificate import render_occupancy_certificate

    return save_and_open(
        parent,
        "Print certificate",
        "Save the certificate of occupancy as PDF",
        f"certificate-of-occupancy-{data.number}.pdf",
        lambda path: render_occupancy_certificate(data, path),
        subfolder=CERTIFICATES,
    )


# --------------------------------------------------------------------------- the tab


_Table = TypeVar("_Table", bound=QTableView)


def inspection_table(table: _Table, name: str) -> _Table:
    """The inspection lists, here and in the Inspections section: whole rows, one at a time,
    read-only, one line a row, headings on the left, columns as wide as their values and the
    last one taking the rest."""
    table.setObjectName(name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTabKeyNavigation(False)
    table.verticalHeader().setVisible(False)
    header = table.horizontalHeader()
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


def _table(parent: QWidget, name: str, columns: tuple[str, ...]) -> QTableWidget:
    table = QTableWidget(0, len(columns), parent)
    table.setHorizontalHeaderLabels(list(columns))
    return inspection_table(table, name)


def _fill(table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            table.setItem(r, c, item)


class InspectionsTab(PermitTab):
    """The sequence with each stage's state and what comes next, the history of results, the
    correction orders and certificates; Request inspection…, Record result…, Exception…,
    Issue certificate…, and the printed notice and certificate."""

    key = "inspections"
    title = TITLE

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitInspectionsPresenter | None = None
        actor = context.session.actor
        self.is_inspector = allowed(actor, Permission.ISSUE_PERMIT)
        self.heading = QLabel(self)
        self.heading.setObjectName("sectionTitle")
        self.next_label = QLabel(self)
        self.next_label.setObjectName("inspectionsNext")
        self.next_label.setWordWrap(True)
        self.stages = _table(self, "stagesTable", STAGE_COLUMNS)
        history_title = QLabel("Inspections", self)
        history_title.setObjectName("sectionTitle")
        self.history = _table(self, "inspectionHistory", HISTORY_COLUMNS)
        # The permit window is 920 px: the texts share what is left and elide, not scroll.
        for column in (1, 2, 6):  # inspection, caller, notes
            self.history.horizontalHeader().setSectionResizeMode(
                column, QHeaderView.ResizeMode.Stretch
            )
        self.orders_label = QLabel(self)
        self.orders_label.setObjectName("inspectionOrders")
        self.orders_label.setWordWrap(True)
        self.certificates_label = QLabel(self)
        self.certificates_label.setObjectName("inspectionCertificates")
        self.certificates_label.setWordWrap(True)
        self.message = QLabel(self)
        self.message.setObjectName("inspectionMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.request_button = QPushButton("Re&quest inspection…", self)
        self.request_button.setObjectName("requestInspection")
        self.result_button = QPushButton("Record &result…", self)
        self.result_button.setObjectName("recordResult")
        self.exception_button = QPushButton("E&xception…", self)
        self.exception_button.setObjectName("recordException")
        self.certificate_button = QPushButton("Issue &certificate…", self)
        self.certificate_button.setObjectName("issueCertificate")
        self.notice_button = QPushButton("Print correction &order…", self)
        self.notice_button.setObjectName("printCorrectionOrder")
        self.print_certificate_button = QPushButton("Print cer&tificate…", self)
        self.print_certificate_button.setObjectName("printCertificate")
        self.request_button.clicked.connect(self.request_inspection)
        self.result_button.clicked.connect(lambda: self.record_result())
        self.exception_button.clicked.connect(self.record_exception)
        self.certificate_button.clicked.connect(lambda: self.issue_certificate())
        self.notice_button.clicked.connect(self.print_latest_order)
        self.print_certificate_button.clicked.connect(self.print_latest_certificate)
        for b in (self.result_button, self.exception_button, self.certificate_button):
            b.setVisible(self.is_inspector)  # the services check again

        buttons = QHBoxLayout()
        for b in (
            self.request_button,
            self.result_button,
            self.exception_button,
            self.certificate_button,
        ):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.notice_button)
        buttons.addWidget(self.print_certificate_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(6)
        layout.addWidget(self.heading)
        layout.addWidget(self.next_label)
        layout.addWidget(self.stages, 2)
        layout.addWidget(history_title)
        layout.addWidget(self.history, 3)
        layout.addWidget(self.orders_label)
        layout.addWidget(self.certificates_label)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        data = iq.permit_inspections(conn, detail.id)
        if data is None:
            return
        p = PermitInspectionsPresenter(data, self.context.clock.today())
        self.presenter = p
        self.heading.setText(p.heading)
        self.next_label.setText(p.next_text)
        _fill(self.stages, [s.cells for s in p.stages])
        _fill(self.history, [cells for _, cells in p.history])
        self.orders_label.setText(p.orders_text)
        self.orders_label.setVisible(bool(p.orders_text))
        self.certificates_label.setText(p.certificates_text)
        self.certificates_label.setVisible(bool(p.certificates_text))
        self.request_button.setEnabled(p.has_sequence)
        self.result_button.setEnabled(bool(p.open_inspections()))
        waiting = any(s.state.value == "waiting" for s in p.stages)
        self.exception_button.setEnabled(p.has_sequence and waiting)
        self.certificate_button.setVisible(self.is_inspector and data.may_certify)
        self.certificate_button.setEnabled(bool(detail.number))
        self.notice_button.setEnabled(bool(data.orders))
        self.print_certificate_button.setEnabled(bool(data.certificates))

    def refresh(self) -> None:
        from ui.permit.window import PermitWindow

        window = self.window()
        if isinstance(window, PermitWindow):
            window.reload()
            return
        with self.context.database.read() as conn:
            detail = queries.permit_detail(conn, self.context.permit_id)
            if detail is not None:
                self.load(conn, detail)

    # --- actions ----------------------------------------------------------------------

    def request_inspection(self) -> RequestDialog | None:
        dialog = RequestDialog(self.context, self)
        done = actions.exec_dialog(dialog)
        self.refresh()
        if done:  # said in place: no box to dismiss after every call
            self.message.setText(dialog.confirmation())
        return dialog if done else None

    def record_result(
        self, inspection_id: int | None = None, result: Result | None = None
    ) -> ResultDialog | None:
        if self.presenter is None:
            return None
        waiting = self.presenter.open_inspections()
        if inspection_id is None:
            if not waiting:
                return None
            if len(waiting) == 1:
                inspection_id = waiting[0][0]
            else:
                chosen = dialogs.choose(
                    self, "Record the result", "Inspection:", [w for _, w in waiting]
                )
                if chosen is None:
                    return None
                inspection_id = next(i for i, w in waiting if w == chosen)
        line = next(x for x in self.presenter.data.inspections if x.id == inspection_id)
        itype = svc.inspection_type(self.presenter.data.municipality_key, line.type_code)
        dialog = ResultDialog(
            self.context, inspection_id, line.type_label, itype, self, result=result
        )
        done = actions.exec_dialog(dialog)
        self.refresh()
        if done:
            after_result(self, self.context, dialog)
        return dialog if done else None

    def record_exception(self) -> None:
        if self.presenter is None:
            return
        stages = [(s.code, s.cells[0]) for s in self.presenter.stages if s.state.value == "waiting"]
        # The stages the waiting ones wait for are the ones an exception clears.
        blocking: list[tuple[str, str]] = []
        for s in self.presenter.data.stages:
            for code in s.type.prerequisites:
                other = next(x for x in self.presenter.data.stages if x.type.code == code)
                if other.state.value not in ("passed", "excepted") and code not in [
                    b[0] for b in blocking
                ]:
                    blocking.append((code, other.type.label))
        dialog = ExceptionDialog(self.context, blocking or stages, self)
        actions.exec_dialog(dialog)
        self.refresh()

    def issue_certificate(self, temporary: bool = False) -> CertificateDialog | None:
        dialog = CertificateDialog(self.context, self, temporary=temporary)
        done = actions.exec_dialog(dialog)
        self.refresh()
        if (
            done
            and dialog.certificate is not None
            and dialogs.ask(
                self,
                "Certificate of occupancy",
                f"Certificate {dialog.certificate.number} is issued. "
                + balance_note(dialog.certificate.balance_due)
                + " Print it now?",
                default_yes=True,
            )
        ):
            print_certificate(self, self.context.database, dialog.certificate.certificate_id)
        return dialog if done else None

    def print_latest_order(self) -> None:
        if self.presenter and self.presenter.data.orders:
            print_correction_notice(self, self.context.database, self.presenter.data.orders[-1].id)

    def print_latest_certificate(self) -> None:
        if self.presenter and self.presenter.data.certificates:
            print_certificate(self, self.context.database, self.presenter.data.certificates[-1].id)


def after_result(parent: QWidget, context: PermitContext, dialog: ResultDialog) -> None:
    """Say what the result did; offer the written notice of a correction order and, after a
    building permit's final, the certificate of occupancy (15.1.13(a))."""
    o = dialog.outcome
    if o is None:
        return
    dialogs.inform(parent, "Result recorded", dialog.summary())
    if o.correction_order_id is not None and dialogs.ask(
        parent,
        "Correction order",
        "Print the written notice of the correction order now (15.1.90(b)(1))?",
        default_yes=True,
    ):
        print_correction_notice(parent, context.database, o.correction_order_id)
    if (o.offer_certificate or o.temporary_certificate) and dialogs.ask(
        parent,
        "Certificate of occupancy",
        "The final inspection passed. Issue the certificate of occupancy now (15.1.13(a))?",
        default_yes=True,
    ):
        cert = CertificateDialog(
            PermitContext(
                context.database,
                context.session,
                _permit_of(context.database, o.inspection_id),
                context.clock,
            ),
            parent,
            temporary=o.temporary_certificate,
        )
        if actions.exec_dialog(cert) and cert.certificate is not None:
            owed = balance_note(cert.certificate.balance_due)
            if owed:  # issued all the same (15.1.13): say what is owed
                dialogs.inform(
                    parent,
                    "Certificate of occupancy",
                    f"Certificate {cert.certificate.number} is issued. {owed}",
                )
            print_certificate(parent, context.database, cert.certificate.certificate_id)


def _permit_of(database: Database, inspection_id: int) -> int:
    from sqlalchemy import select

    from db import schema

    with database.read() as conn:
        return int(
            conn.execute(
                select(schema.inspection.c.permit_id).where(schema.inspection.c.id == inspection_id)
            ).scalar_one()
        )
