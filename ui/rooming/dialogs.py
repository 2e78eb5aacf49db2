"""The dialogs of the rooming house licences (Hudson 140-10), one service call each: the
operator's application with its rooms, opening the inspection case, issuing (with the Council's
fee and the City Clerk's receipt), denying, the warning notice and the suspension (140-10C), a
petition (140-10B/D), the Council's decision (140-3C) and the change of owner or control
(140-10A). OK runs the service; on a mistake the dialog stays open with what was typed and
names the field (ui.permit.actions.ActionDialog)."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from db.licence_view import LicenceFacts, licence_fee
from desk.enforcement import licences as rules
from desk.enforcement.licences import HearingDecision
from desk.errors import ValidationError
from desk.services.enforcement import licences as svc
from desk.services.parcels.owner import owner_of_record
from ui.date_field import MomentField
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters import rooming as p
from ui.presenters.formatting import format_date
from ui.views.common import date_edit
from ui.views.dialog_fields import count as _count
from ui.views.dialog_fields import day as _day
from ui.views.dialog_fields import line as _line
from ui.views.dialog_fields import parcel_lookup

__all__ = [
    "ApplicationDialog",
    "ChangeDialog",
    "DecisionDialog",
    "DenyDialog",
    "IssueDialog",
    "PetitionDialog",
    "SuspendDialog",
    "WarningDialog",
]


# --- the application (the clerk, at the counter) ----------------------------------------------

ROOM_HEADINGS = ("Room", "Floor area (sq ft)", "Sleeping", "Over 12", "Under 12")


class ApplicationDialog(ActionDialog):
    """140-10A: the operator applies for the specific dwelling, in the operator's name, with
    the persons residing, the fixtures (140-10E) and the rooms (140-10G)."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Rooming house licence application",
            "Hudson 140-10A: the operator applies to the office of the Building Inspector for "
            "the specific dwelling. The inspector inspects it; the City Clerk issues the "
            "licence once the fixtures (140-10E) and sleeping rooms (140-10G) pass.",
            "&Record application",
            parent,
        )
        self.setMinimumWidth(760)
        self.operator = _line(self, "operatorName", "the operator, as on the licence")
        self.add_field("Op&erator:", self.operator, "operator's name")
        self.operator_address = _line(self, "operatorAddress", "street, city, state ZIP")
        self.add_field("Operator's a&ddress:", self.operator_address, "operator's address")
        self.search, self.parcel = parcel_lookup(
            self, ("licenceProperty", "licenceParcel"), "412 Vine", "Par&cel:", "property", "parcel"
        )
        self._filled = ("", "")  # the owner of record filled in as the operator, if any
        self.parcel.currentIndexChanged.connect(lambda _i: self._owner_as_operator())
        self.unit = _line(self, "dwellingUnit", "optional: the unit, e.g. 2 or Upper")
        self.add_field("Dwelling &unit:", self.unit, "dwelling unit")
        self.persons = _count(self, "persons")
        self.add_field("Per&sons residing:", self.persons, "persons")
        self.water_closets = _count(self, "waterClosets")
        self.lavatories = _count(self, "lavatories")
        self.baths = _count(self, "baths")
        fixtures = QHBoxLayout()
        fixtures.setContentsMargins(0, 0, 0, 0)
        for label, box in (
            ("&Water closets", self.water_closets),
            ("&Lavatories", self.lavatories),
            ("&Baths or showers", self.baths),
        ):
            words = QLabel(label, self)
            words.setBuddy(box)
            fixtures.addWidget(words)
            fixtures.addWidget(box)
        fixtures.addStretch(1)
        holder = QWidget(self)
        holder.setLayout(fixtures)
        self.add_field("Fixtures:", holder)
        self.fields["water closets"] = self.water_closets
        self.fields["lavatories"] = self.lavatories
        self.fields["baths or showers"] = self.baths
        self.rooms = QTableWidget(0, len(ROOM_HEADINGS), self)
        self.rooms.setObjectName("rooms")
        self.rooms.setHorizontalHeaderLabels(list(ROOM_HEADINGS))
        self.rooms.verticalHeader().setVisible(True)
        self.rooms.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rooms.setTabKeyNavigation(True)
        header = self.rooms.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.rooms.setMinimumHeight(self.fontMetrics().lineSpacing() * 8)
        self.add_field("R&ooms:", self.rooms, "rooms", "room", "floor area", "occupants")
        self.add_button = QPushButton("&Add room", self)
        self.add_button.setObjectName("addRoom")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(lambda: self.add_room())
        self.remove_button = QPushButton("Remo&ve room", self)
        self.remove_button.setObjectName("removeRoom")
        self.remove_button.setAutoDefault(False)
        self.remove_button.clicked.connect(self.remove_room)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addWidget(
            QLabel("Sleeping: yes or no; occupants count only in sleeping rooms.", self), 1
        )
        holder2 = QWidget(self)
        holder2.setLayout(row)
        self.add_field("", holder2)
        self.applied_on = date_edit(self, "appliedOn", context.clock.today())
        self.add_field("Applied o&n:", self.applied_on, "applied on")
        self.licence_id: int | None = None
        self.add_room()

    def _owner_as_operator(self) -> None:
        """The parcel's owner of record at the owner's mailing address, while the operator's
        fields are empty or hold what an earlier parcel filled in (an owner who operates the
        house applies in the name the county has; another operator is typed over it)."""
        shown = (self.operator.text().strip(), self.operator_address.text().strip())
        if shown not in (("", ""), self._filled):
            return
        parcel_id = self.parcel.currentData()
        record = owner_of_record(self.context.database.uow(), parcel_id) if parcel_id else None
        self._filled = (record.name, record.address) if record is not None else ("", "")
        self.operator.setText(self._filled[0])
        self.operator_address.setText(self._filled[1])

    def add_room(
        self,
        name: str = "",
        area: str = "",
        sleeping: bool = True,
        over_12: int = 0,
        under_12: int = 0,
    ) -> int:
        """A row of the rooms table; its index. The name cell takes the cursor."""
        r = self.rooms.rowCount()
        self.rooms.insertRow(r)
        self.rooms.setItem(r, 0, QTableWidgetItem(name))
        self.rooms.setItem(r, 1, QTableWidgetItem(area))
        sleep = QComboBox(self.rooms)
        sleep.addItems(["yes", "no"])
        sleep.setCurrentIndex(0 if sleeping else 1)
        self.rooms.setCellWidget(r, 2, sleep)
        self.rooms.setItem(r, 3, QTableWidgetItem(str(over_12)))
        self.rooms.setItem(r, 4, QTableWidgetItem(str(under_12)))
        self.rooms.setCurrentCell(r, 0)
        return r

    def remove_room(self) -> None:
        r = self.rooms.currentRow()
        if r >= 0:
            self.rooms.removeRow(r)

    def _cell(self, r: int, c: int) -> str:
        item = self.rooms.item(r, c)
        return item.text() if item is not None else ""

    def _sleeping(self, r: int) -> bool:
        w = self.rooms.cellWidget(r, 2)
        return not isinstance(w, QComboBox) or w.currentText() == "yes"

    def room_inputs(self) -> list[svc.RoomInput]:
        """The rooms typed; a mistake names the field and the room's row."""
        out = []
        for r in range(self.rooms.rowCount()):
            name = self._cell(r, 0).strip()
            typed = [self._cell(r, c).strip() for c in (1, 3, 4)]
            if not name and not typed[0] and typed[1:] in (["", ""], ["0", "0"]):
                continue  # a blank row left at the end
            where = f"room row {r + 1}" + (f" ({name})" if name else "")
            self.rooms.setCurrentCell(r, 0)
            if not name:
                raise ValidationError("room", f"{where}: give the room a name")
            area = p.parse_area(self._cell(r, 1), where)
            over = p.parse_count("occupants", self._cell(r, 3), where=where)
            under = p.parse_count("occupants", self._cell(r, 4), where=where)
            sleeping = self._sleeping(r)
            if not sleeping and over + under:
                raise ValidationError("occupants", f"{where}: only a sleeping room has sleepers")
            out.append(svc.RoomInput(name, area, sleeping, over, under))
        return out

    def run(self) -> None:
        parcel_id = self.parcel.currentData()
        if parcel_id is None:
            raise ValidationError("property", "type the address or PIN and pick the parcel")
        rooms = self.room_inputs()
        self.licence_id = svc.record_application(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            svc.ApplicationInput(
                municipality_id=self.context.session.municipality_id,
                parcel_id=parcel_id,
                operator_name=self.operator.text(),
                operator_address=self.operator_address.text(),
                persons=self.persons.value(),
                water_closets=self.water_closets.value(),
                lavatories=self.lavatories.value(),
                baths=self.baths.value(),
                rooms=rooms,
                dwelling_unit=self.unit.text(),
                applied_on=_day(self.applied_on),
            ),
        )


# --- the steps on a licence -------------------------------------------------------------------


class IssueDialog(ActionDialog):
    """140-10A: the City Clerk issues the licence, with the fee the Council set in force."""

    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Issue the rooming house licence",
            f"{f.operator_name}, {f.dwelling}. Numbered RH-YYYY-NNNN on issue, in the "
            "operator's name for this dwelling, valid through the anniversary of the day of "
            "issue; not transferable (140-10A)." + p.renewal_term_words(f),
            "&Issue licence",
            parent,
        )
        self.facts = f
        with context.database.read() as conn:
            self.fee = licence_fee(conn, context.session.municipality_id)
        self.fee_label = QLabel(p.fee_words(self.fee), self)
        self.fee_label.setObjectName("licenceFee")
        self.add_field("Fee:", self.fee_label, "fee")
        warning = p.fee_warning(self.fee)
        self.error_label.setText(warning)
        self.error_label.setVisible(bool(warning))
        self.receipt = _line(self, "feeReceipt", "the City Clerk's receipt number")
        self.receipt.setEnabled(self.fee is None or self.fee > 0)
        self.add_field("&Receipt:", self.receipt, "Receipt", "receipt", "fee receipt")
        self.issued_on = date_edit(self, "issuedOn", context.clock.today())
        self.add_field("Issued &on:", self.issued_on, "issued on")
        self.issued: svc.LicenceIssued | None = None

    def run(self) -> None:
        self.issued = svc.issue_licence(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            issued_on=_day(self.issued_on),
            fee_receipt=self.receipt.text(),
        )


class DenyDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Deny the application",
            f"{f.operator_name}, {f.dwelling}. 140-10B: the denial in writing with its reason; "
            "the operator may petition for a hearing under 140-3 within 10 days.",
            "&Deny",
            parent,
        )
        self.facts = f
        self.reason = _text_box(self, "denialReason", "why, as the written denial says", 3)
        self.add_field("&Reason:", self.reason, "reason")
        self.denied_on = date_edit(self, "deniedOn", context.clock.today())
        self.add_field("Denied &on:", self.denied_on, "denied on")
        self.petition_last_day: date | None = None

    def run(self) -> None:
        self.petition_last_day = svc.deny_application(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            self.reason.toPlainText(),
            _day(self.denied_on),
        )


class WarningDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Warning notice",
            f"Licence {f.number}, {f.dwelling}. 140-10C: the inspection found violations "
            f"({f.open_violations} open on case {f.case_number}); the written notice says the "
            "licence will be suspended unless they are corrected by the date given.",
            "&Give notice",
            parent,
        )
        self.facts = f
        today = context.clock.today()
        self.warned_on = date_edit(self, "warnedOn", today)
        self.add_field("Notice &given on:", self.warned_on, "notice given on")
        self.correct_by = date_edit(self, "correctBy", today)
        self.add_field("&Correct by:", self.correct_by, "correct by")

    def run(self) -> None:
        svc.give_warning(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            _day(self.correct_by),
            _day(self.warned_on),
        )


class SuspendDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Suspend the licence",
            f"Licence {f.number}, {f.dwelling}. 140-10C: re-inspected after "
            f"{format_date(f.correct_by)}, the violations not corrected: the written notice "
            "of suspension. The operator must cease operating; without a petition within 10 "
            "days the licence is revoked (140-10D).",
            "&Suspend",
            parent,
        )
        self.facts = f
        self.suspended_on = date_edit(self, "suspendedOn", context.clock.today())
        self.add_field("Suspended &on:", self.suspended_on, "suspended on")
        self.suspended: svc.Suspended | None = None

    def run(self) -> None:
        self.suspended = svc.suspend_licence(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            _day(self.suspended_on),
        )


class PetitionDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Record a petition for a hearing",
            f"{f.number or 'Application'}, {f.dwelling}. A written petition for a hearing "
            "under 140-3: on a denial (140-10B), a warning or a suspension (140-10D), timely "
            "within 10 days; a late one is recorded as late.",
            "&Record petition",
            parent,
        )
        self.facts = f
        self.filed_on = date_edit(self, "petitionFiled", context.clock.today())
        self.add_field("&Filed on:", self.filed_on, "filed on")
        self.petitioner = _line(self, "petitioner", "who signed it", f.operator_name)
        self.add_field("&Petitioner:", self.petitioner, "petitioner")
        self.timely: bool | None = None

    def run(self) -> None:
        self.timely = svc.record_petition(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            _day(self.filed_on),
            self.petitioner.text(),
        )


_DECISIONS = [
    ("Sustained", HearingDecision.SUSTAIN),
    ("Modified", HearingDecision.MODIFY),
    ("Withdrawn", HearingDecision.WITHDRAW),
]


class DecisionDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Record the Common Council's decision",
            f"{f.number or 'Application'}, petition of {format_date(f.petition_filed_on)}. "
            "140-3C: the Council sustains, modifies or withdraws. A suspension sustained or "
            "modified revokes the licence (140-3E); withdrawn, it is in force again.",
            "&Record decision",
            parent,
        )
        self.facts = f
        self.decision = QComboBox(self)
        self.decision.setObjectName("councilDecision")
        for words, d in _DECISIONS:
            self.decision.addItem(words, d.value)
        self.add_field("&Decision:", self.decision, "decision")
        self.decided_on = date_edit(self, "decidedOn", context.clock.today())
        self.add_field("Decided &on:", self.decided_on, "decided on")
        self.findings = _text_box(self, "councilFindings", "the findings, as the minutes say", 3)
        self.add_field("&Findings:", self.findings, "findings")

    def run(self) -> None:
        svc.record_hearing_decision(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            HearingDecision(self.decision.currentData()),
            _day(self.decided_on),
            self.findings.toPlainText(),
        )


class ChangeDialog(ActionDialog):
    """140-10A: the holder's written notice of a change of ownership, interest or control,
    within 24 hours, with the successor's name and address. The licence ends that day."""

    def __init__(
        self, context: PermitContext, f: LicenceFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Change of owner or control",
            f"Licence {f.number}, {f.dwelling}. 140-10A: the licence is not transferable: it "
            f"ends on the day of the change. Notice is due within {rules.CHANGE_NOTICE_HOURS} "
            "hours after it (a late one is recorded as late); the successor applies anew.",
            "&Record change",
            parent,
        )
        self.facts = f
        now = context.clock.now()
        self.changed_at = MomentField(self, "changedAt", now)
        self.add_field("&Changed at:", self.changed_at, "changed at")
        self.notice_at = MomentField(self, "noticeAt", now)
        self.add_field("&Notice received at:", self.notice_at, "notice received")
        self.successor = _line(self, "successorName", "the new owner or operator")
        self.add_field("&Successor:", self.successor, "successor's name")
        self.successor_address = _line(self, "successorAddress", "street, city, state ZIP")
        self.add_field("Successor's &address:", self.successor_address, "successor's address")
        self.recorded: svc.ChangeRecorded | None = None

    def run(self) -> None:
        self.recorded = svc.record_change(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            self.changed_at.moment("changed at"),
            self.successor.text(),
            self.successor_address.text(),
            self.notice_at.moment("notice received"),
        )


def focus_first(dialog: ActionDialog) -> None:
    """The first field takes the cursor when the dialog opens."""
    for w in dialog.fields.values():
        target = w.focusProxy() or w  # a day-and-time field: its day
        if target.isEnabled() and target.focusPolicy() != Qt.FocusPolicy.NoFocus:
            target.setFocus()
            return
