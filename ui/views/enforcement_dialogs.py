"""The dialogs of code enforcement (Hudson 140-3), one service call each: take a complaint,
record an inspection (violations found; at a re-inspection, each open one corrected or not),
issue a notice, record its service, a petition, the hearing, the Council's decision, what is
done about an order not complied with, and close the case. OK runs the service; on a mistake
the dialog stays open with what was typed and marks the field the service named
(ui.permit.actions.ActionDialog)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QWidget,
)

from db.enforcement_case_view import (
    CaseFacts,
    NoticeFact,
    ViolationFact,
    housing_code_days,
    municipality_housing_code,
)
from desk.domain.reports import code_citations
from desk.enforcement import deadlines
from desk.enforcement.model import (
    AddresseeRole,
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    ServiceMethod,
)
from desk.errors import ValidationError
from desk.housing.codes import HousingCode, HousingCodeError, Standard, load_housing_code
from desk.services.enforcement import cases, complaints, inspections, notices, orders, petitions
from desk.services.enforcement.cases import CaseOpened
from desk.services.parcels.owner import owner_of_record
from ui.date_field import DateField
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters import enforcement as p
from ui.presenters import violation_withdrawal as vw
from ui.presenters.formatting import format_date
from ui.views.common import date_edit, to_qdate
from ui.views.dialog_fields import combo as _combo
from ui.views.dialog_fields import day as _day
from ui.views.dialog_fields import line as _line
from ui.views.dialog_fields import parcel_lookup
from ui.views.violation_picker import ViolationPicker

__all__ = [
    "CloseDialog",
    "ComplaintDialog",
    "DecisionDialog",
    "EscalationDialog",
    "HearingDialog",
    "InspectionDialog",
    "NoticeDialog",
    "PetitionDialog",
    "ServiceDialog",
    "WithdrawViolationDialog",
]


def office_step(context: PermitContext) -> Callable[[str], str]:
    """How the texts cite a step of the procedure ('140-3B') for the code the municipality
    enforces now: Hudson's own section, or a code's procedure as a whole ('Ch. 512')."""
    with context.database.read() as conn:
        code = municipality_housing_code(conn, context.session.municipality_id)
    return code_citations(code or None).step


def case_code(context: PermitContext, f: CaseFacts) -> HousingCode | None:
    """The case's housing code with the office's own days (as the services read it)."""
    try:
        code = load_housing_code(f.housing_code)
    except HousingCodeError:
        return None
    with context.database.read() as conn:
        days = housing_code_days(conn, context.session.municipality_id)
    try:
        return code.with_days(days) if days else code
    except HousingCodeError:
        return code


# --- the complaint (the clerk, at the counter or on the phone) -------------------------------


class ComplaintDialog(ActionDialog):
    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Take a complaint",
            "A complaint about a property opens a code enforcement case, numbered CE-YYYY-NNNN, "
            "or joins the property's open case. Who complained is kept confidential: only the "
            "inspector sees it, and no notice or list shows it.",
            "&Take complaint",
            parent,
        )
        self.search, self.parcel = parcel_lookup(
            self, ("complaintProperty", "complaintParcel"), "5517 N Lake", "P&arcel:", "property"
        )
        self.channel = _combo(
            self, "complaintChannel", [(c.value.title(), c.value) for c in Channel]
        )
        self.channel.setCurrentIndex(list(Channel).index(Channel.PHONE))
        self.add_field("&How:", self.channel, "channel")
        self.received_on = date_edit(self, "complaintReceived", context.clock.today())
        self.add_field("&Received on:", self.received_on, "received on")
        self.description = _text_box(self, "complaintDescription", "what is wrong, where", 3)
        self.add_field("&What is wrong:", self.description, "what is wrong")
        self.complainant = _line(self, "complainantName", "optional; kept confidential")
        self.add_field("Compla&inant:", self.complainant, "complainant")
        self.contact = _line(self, "complainantContact", "optional: phone, e-mail or address")
        self.add_field("&Contact:", self.contact, "contact")
        self.taken: complaints.ComplaintTaken | None = None

    def run(self) -> None:
        self.taken = complaints.take_complaint(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.session.municipality_id,
            self.parcel.currentData(),
            Channel(self.channel.currentData()),
            self.description.toPlainText(),
            complainant_name=self.complainant.text(),
            complainant_contact=self.contact.text(),
            received_on=_day(self.received_on),
        )

    @property
    def opened(self) -> CaseOpened | None:
        return self.taken.case if self.taken is not None else None


# --- the inspection ---------------------------------------------------------------------------

_FINDINGS = (("Not checked", None), ("Corrected", True), ("Not corrected", False))


class InspectionDialog(ActionDialog):
    """140-2: the inspection; each violation found is an item of the case's housing code, to be
    corrected by the item's days after the inspection unless the inspector gives a date
    (140-3A(3)). At a re-inspection each open violation is found corrected or not."""

    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        self.code = case_code(context, f)
        name = self.code.name if self.code else f.housing_code
        step = code_citations(f.housing_code).step
        super().__init__(
            context,
            f"Inspection of {f.address}",
            f"Case {f.number}. Add each violation found from {name}: type its section or "
            "words, the unit and room, then Add (Alt+A). The correction date follows the item "
            f"({step('140-3A(3)')}); change it when the notice should allow another time.",
            "&Record inspection",
            parent,
        )
        self.setMinimumWidth(720)
        self.facts = f
        self.inspected_on = date_edit(self, "inspectedOn", context.clock.today())
        self.inspected_on.dateChanged.connect(self._item_chosen)
        self.add_field("Inspected &on:", self.inspected_on, "inspected on")
        # Re-inspection: each open violation corrected or not.
        self.findings: dict[int, QComboBox] = {}
        for v in p.open_violations(f):
            combo = _combo(self, f"finding{v.id}", list(_FINDINGS))
            where = f" ({v.location})" if v.location else ""
            words = QLabel(f"{v.title}{where}, correct by {format_date(v.correct_by)}", self)
            words.setObjectName("noteText")
            row = QHBoxLayout()
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(combo)
            row.addWidget(words, 1)
            holder = QWidget(self)
            holder.setLayout(row)
            self.form.addRow(f"{v.section}:", holder)  # the combo itself is what is read
            self.findings[v.id] = combo
        self.standards: list[Standard] = list(self.code.standards) if self.code else []
        # Only an exact choice: Down opens the items the words find, Enter picks one and never
        # records the inspection (ui/views/violation_picker.py).
        self.item = ViolationPicker(self.standards, name, self)
        self.item.setObjectName("violationItem")
        self.item.chosen.connect(self._item_chosen)
        self.item.refused.connect(self._refused)
        self.add_field("&Violation:", self.item, "section", "violation")
        self.unit = _line(self, "violationUnit", "optional: 1, Upper …")
        self.room = _line(self, "violationRoom", "optional: kitchen, rear porch …")
        place = QHBoxLayout()
        place.addWidget(self.unit, 1)
        place.addWidget(self.room, 2)
        holder = QWidget(self)
        holder.setLayout(place)
        place.setContentsMargins(0, 0, 0, 0)
        self.add_field("&Unit, room:", holder, "unit", "room")
        self.correct_by = date_edit(self, "violationCorrectBy", context.clock.today())
        self.add_button = QPushButton("&Add", self)
        self.add_button.setObjectName("addViolation")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self._add_clicked)
        row = QHBoxLayout()
        row.addWidget(self.correct_by)
        row.addWidget(self.add_button)
        row.addStretch(1)
        holder2 = QWidget(self)
        holder2.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        self.add_field("Correct &by:", holder2, "correct by")
        self.found_list = QListWidget(self)
        self.found_list.setObjectName("violationsFound")
        self.found_list.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.add_field("Found:", self.found_list, "violations")
        self.notes = _line(self, "inspectionNotes", "optional")
        self.add_field("No&tes:", self.notes, "notes")
        self.found: list[inspections.FoundViolation] = []
        self.recorded: inspections.InspectionRecorded | None = None

    def _standard(self) -> Standard | None:
        """The item chosen: the text names it exactly (its section, or section and title)."""
        return self.item.standard()

    def _item_chosen(self) -> None:
        s = self._standard()
        if s is not None:
            day = deadlines.correction_date(_day(self.inspected_on), s.days)
            self.correct_by.setDate(to_qdate(day))
            self.item.setToolTip(s.text)
            self.error_label.setVisible(False)

    def _refused(self, why: str) -> None:
        self.error_label.setText(str(ValidationError("violation", why)))
        self.error_label.setVisible(True)

    def add_violation(self) -> bool:
        """The violation chosen above, added to those found; False when there is none. A text
        that names no one item is refused (the field marked), never its first match."""
        typed = self.item.currentText().strip()
        if not typed:
            return False
        s = self._standard()
        if s is None:
            self.item.mark(True)
            raise ValidationError("violation", self.item.refusal())
        found = inspections.FoundViolation(
            s.section,
            unit=self.unit.text(),
            room=self.room.text(),
            correct_by=_day(self.correct_by),
        )
        self.found.append(found)
        where = ", ".join(x for x in (f"Unit {found.unit}" if found.unit else "", found.room) if x)
        self.found_list.addItem(
            f"{s.section} {s.title}"
            + (f" ({where})" if where else "")
            + f", correct by {format_date(found.correct_by)}"
        )
        self.item.clear_choice()
        self.unit.clear()
        self.room.clear()
        self.item.setFocus()
        return True

    def _add_clicked(self) -> bool:
        try:
            return self.add_violation()
        except ValidationError as e:
            self._refused(e.message)
            self.item.setFocus()
            return False

    def submit(self) -> bool:
        try:
            self.add_violation()  # chosen but not added: the inspector meant it
        except ValidationError as e:
            self._refused(e.message)
            self.item.setFocus()
            return False
        return super().submit()

    def run(self) -> None:
        checks = {
            vid: combo.currentData()
            for vid, combo in self.findings.items()
            if combo.currentData() is not None
        }
        self.recorded = inspections.record_inspection(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            _day(self.inspected_on),
            found=self.found,
            checks=checks,
            notes=self.notes.text(),
        )


# --- the notice -------------------------------------------------------------------------------


class NoticeDialog(ActionDialog):
    """140-3A: in writing (1), with the reasons (2), a time to correct each violation (3), served
    on the persons responsible and any known agent (4), with the remedial action (5)."""

    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        step = code_citations(f.housing_code).step  # Hudson 140-3, or the code's procedure
        super().__init__(
            context,
            "Issue a notice of violation",
            f"Case {f.number}, {f.address}. Only violations the housing code marks as affecting "
            f"health or safety are noticed ({step('140-3A')}). Add each addressee (Alt+A); the "
            "notice is frozen once issued.",
            "&Issue notice",
            parent,
        )
        self.setMinimumWidth(720)
        self.facts = f
        code = case_code(context, f)
        self.lines: dict[int, tuple[QCheckBox, QLineEdit]] = {}
        first_order_day = deadlines.earliest_order_day(
            context.clock.today(), f.calendar, f.procedure.request.days
        )
        for v in p.noticeable(f):
            s = None
            if code is not None:
                try:
                    s = code.standard(v.section)
                except KeyError:
                    s = None
            box = QCheckBox(
                f"{v.section} {v.title}" + (f" ({v.location})" if v.location else ""), self
            )
            box.setObjectName(f"include{v.id}")
            ok = s is None or s.health_safety
            box.setChecked(ok)
            box.setEnabled(ok)
            if not ok:
                box.setText(box.text() + ": not a health or safety item")
            action = _line(self, f"remedial{v.id}", f"the remedial action ({step('140-3A(5)')})")
            action.setEnabled(ok)
            self.add_field("" if self.lines else "&Violations:", box, "violations")
            # A notice is enforced once it is an order (140-3B, D): the date it gives is never
            # inside the petition window (desk.services.enforcement.notices.notice_correct_by).
            by = max(v.correct_by, first_order_day)
            self.add_field(f"correct by {format_date(by)}:", action, "remedial action")
            self.lines[v.id] = (box, action)
        self.statement = _text_box(self, "noticeStatement", "why the notice is issued", 2)
        self.add_field("&Reasons:", self.statement, "reasons")
        self.emergency = QCheckBox(f"Emergency order, effective today ({step('140-3H')})", self)
        self.emergency.setObjectName("emergencyOrder")
        self.add_field("", self.emergency)
        self.role = _combo(
            self, "addresseeRole", [(r.value.title(), r.value) for r in AddresseeRole]
        )
        self.name = _line(self, "addresseeName", "name")
        self.address = _line(self, "addresseeAddress", "last known address")
        self.add_button = QPushButton("&Add", self)
        self.add_button.setObjectName("addAddressee")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_addressee)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.role)
        row.addWidget(self.name, 2)
        row.addWidget(self.address, 3)
        row.addWidget(self.add_button)
        holder = QWidget(self)
        holder.setLayout(row)
        self.add_field("A&ddressee:", holder, "addressee's name", "addressee's address")
        self.addressee_list = QListWidget(self)
        self.addressee_list.setObjectName("addressees")
        self.addressee_list.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 12)
        self.add_field("To:", self.addressee_list, "addressees")
        self.addressees: list[notices.Addressee] = []
        self.issued: notices.NoticeIssued | None = None
        # The owner of record at the owner's mailing address, as the county's file has them:
        # the first addressee unless the inspector changes it (140-3A(4): the last known
        # address).
        record = owner_of_record(context.database.uow(), f.parcel_id)
        if record is not None:
            self.role.setCurrentIndex(self.role.findData(AddresseeRole.OWNER.value))
            self.name.setText(record.name)
            self.address.setText(record.address)

    def add_addressee(self) -> bool:
        if not (self.name.text().strip() or self.address.text().strip()):
            return False
        a = notices.Addressee(
            AddresseeRole(self.role.currentData()), self.name.text(), self.address.text()
        )
        self.addressees.append(a)
        self.addressee_list.addItem(f"{a.name} ({a.role.value}), {a.address}")
        self.name.clear()
        self.address.clear()
        self.role.setFocus()
        return True

    def run(self) -> None:
        self.add_addressee()
        lines = [
            notices.NoticeLine(vid, action.text())
            for vid, (box, action) in self.lines.items()
            if box.isChecked()
        ]
        self.issued = notices.issue_notice(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            self.addressees,
            lines,
            self.statement.toPlainText(),
            emergency=self.emergency.isChecked(),
        )


# --- service, petition, hearing, decision --------------------------------------------------

_METHODS = [
    ("Personally", ServiceMethod.PERSONAL),
    ("Registered mail", ServiceMethod.REGISTERED_MAIL),
    ("Posting in a conspicuous place", ServiceMethod.POSTING),
]


class ServiceDialog(ActionDialog):
    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Record the service of the notice",
            f"Case {f.number}. {code_citations(f.housing_code).step('140-3A(4)')}: served "
            "personally, by registered mail to the last known address (served the day it is "
            "sent), or by posting in a conspicuous place in or about the dwelling. A petition "
            "is timely through the 10th day after.",
            "&Record service",
            parent,
        )
        self.facts = f
        self.addressee = _combo(
            self,
            "serviceAddressee",
            [
                (f"{a.name} ({a.role.value}), notice of {format_date(n.issued_on)}", a.id)
                for n, a in p.unserved(f)
            ],
        )
        self.add_field("&Addressee:", self.addressee, "addressee")
        self.method = _combo(self, "serviceMethod", [(w, m.value) for w, m in _METHODS])
        self.add_field("&How:", self.method, "method")
        self.served_on = date_edit(self, "servedOn", context.clock.today())
        self.add_field("Served &on:", self.served_on, "served on")
        me = context.session.full_name or context.session.actor.username
        self.served_by = _line(self, "servedBy", "who served it", me)
        self.add_field("Served &by:", self.served_by, "served by")
        self.served: notices.ServiceRecorded | None = None

    def run(self) -> None:
        self.served = notices.record_service(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.addressee.currentData(),
            ServiceMethod(self.method.currentData()),
            _day(self.served_on),
            self.served_by.text(),
        )


class PetitionDialog(ActionDialog):
    """A petition for a hearing (140-3B); with `texts` (title, intro, OK) and the field names
    of `prefix`, the same filing under another procedure (a request for review, Wis. Stat.
    68.08, ui.views.review_dialogs). Both are recorded by the petitions service."""

    def __init__(
        self,
        context: PermitContext,
        f: CaseFacts,
        parent: QWidget | None = None,
        *,
        texts: tuple[str, str, str] | None = None,
        prefix: str = "petition",
        by: tuple[str, str] = ("petitioner", "&Petitioner:"),
    ) -> None:
        super().__init__(
            context,
            *(
                texts
                or (
                    "Record a petition for a hearing",
                    f"Case {f.number}. {code_citations(f.housing_code).step('140-3B')}: a "
                    "written petition filed in the office, with a brief statement of the "
                    "grounds, within 10 days after service on the petitioner. A late one is "
                    "recorded as late.",
                    "&Record petition",
                )
            ),
            parent,
        )
        choices = p.petitionable(f)
        self.addressee = _combo(
            self,
            f"{prefix}Addressee",
            [(f"{a.name} ({a.role.value})", a.id) for _n, a in choices],
        )
        self.names = {a.id: a.name for _n, a in choices}
        self.addressee.currentIndexChanged.connect(self._chosen)
        self.add_field("&Addressee:", self.addressee, "addressee")
        self.filed_on = date_edit(self, f"{prefix}Filed", context.clock.today())
        self.add_field("&Filed on:", self.filed_on, "filed on")
        self.petitioner = _line(self, by[0], "who signed it")
        self.add_field(by[1], self.petitioner, "petitioner")
        self.grounds = _text_box(self, f"{prefix}Grounds", "the grounds, as written", 3)
        self.add_field("&Grounds:", self.grounds, "grounds")
        self._chosen()
        self.recorded: petitions.PetitionRecorded | None = None

    def _chosen(self) -> None:
        self.petitioner.setText(self.names.get(self.addressee.currentData(), ""))

    def run(self) -> None:
        self.recorded = petitions.record_petition(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.addressee.currentData(),
            _day(self.filed_on),
            self.petitioner.text(),
            self.grounds.toPlainText(),
        )


class HearingDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: CaseFacts, n: NoticeFact, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Schedule the Council's hearing",
            f"Case {f.number}. {code_citations(f.housing_code).step('140-3B')}: the inspector "
            "arranges the time and place of the hearing before the Common Council and gives "
            "the petitioner written notice of it.",
            "&Schedule",
            parent,
        )
        self.notice = n
        today = context.clock.today()
        self.hearing_on = date_edit(self, "hearingOn", n.hearing_on or today)
        self.add_field("&Hearing on:", self.hearing_on, "hearing on")
        self.place = _line(
            self, "hearingPlace", "", n.hearing_place or "Council Chambers, City Hall"
        )
        self.add_field("&Place:", self.place, "place")
        self.sent_on = date_edit(self, "hearingNoticeSent", today)
        self.add_field("Written &notice sent:", self.sent_on, "written notice sent on")

    def run(self) -> None:
        petitions.schedule_hearing(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.notice.id,
            _day(self.hearing_on),
            self.place.text(),
            _day(self.sent_on),
        )


_DECISIONS = (
    ("Sustained: the notice is an order", Decision.SUSTAIN),
    ("Modified: new correction dates", Decision.MODIFY),
    ("Withdrawn", Decision.WITHDRAW),
)


class DecidedDialog(ActionDialog):
    """A decision that sustains (affirms), modifies with new correction dates, or withdraws
    (reverses) a notice: the Council's (140-3C) or, under Wis. Stat. ch. 68, the decision on
    review and the final determination (ui.views.review_dialogs)."""

    def _decision_fields(
        self,
        f: CaseFacts,
        n: NoticeFact,
        names: tuple[str, str, str],  # the decision, its day, the new dates' prefix
        label: str = "&Decision:",
        choices: Sequence[tuple[str, Decision]] = _DECISIONS,
    ) -> None:
        self.decision = _combo(self, names[0], [(w, d.value) for w, d in choices])
        self.decision.currentIndexChanged.connect(self._decided)
        self.add_field(label, self.decision, "decision")
        self.decided_on = date_edit(self, names[1], self.context.clock.today())
        self.add_field("Decided &on:", self.decided_on, "decided on")
        self.new_dates: dict[int, DateField] = {}
        for v in f.violations:
            if v.id in n.violation_ids:
                edit = date_edit(self, f"{names[2]}{v.id}", v.correct_by)
                self.add_field(f"{v.section} correct by:", edit, "correction dates")
                self.new_dates[v.id] = edit

    def _decided(self) -> None:
        modify = self.decision.currentData() == Decision.MODIFY.value
        for edit in self.new_dates.values():
            edit.setEnabled(modify)

    def _chosen(self) -> tuple[Decision, dict[int, date]]:
        decision = Decision(self.decision.currentData())
        if decision is not Decision.MODIFY:
            return decision, {}
        return decision, {vid: _day(e) for vid, e in self.new_dates.items()}


class DecisionDialog(DecidedDialog):
    def __init__(
        self, context: PermitContext, f: CaseFacts, n: NoticeFact, parent: QWidget | None = None
    ) -> None:
        step = code_citations(f.housing_code).step
        super().__init__(
            context,
            "Record the Common Council's decision",
            f"Case {f.number}, hearing of {format_date(n.hearing_on)}. {step('140-3C')}: the "
            "Council sustains, modifies or withdraws the notice; sustained or modified, it is an "
            f"order from the decision. The findings are the record of the hearing "
            f"({step('140-3F')}).",
            "&Record decision",
            parent,
        )
        self.notice = n
        self._decision_fields(f, n, ("councilDecision", "decidedOn", "newDate"))
        self.findings = _text_box(self, "councilFindings", "the findings, as the minutes say", 3)
        self.add_field("&Findings:", self.findings, "findings")
        self._decided()

    def run(self) -> None:
        decision, dates = self._chosen()
        petitions.record_council_decision(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.notice.id,
            decision,
            _day(self.decided_on),
            self.findings.toPlainText(),
            dates,
        )


# --- an order not complied with, and closing -----------------------------------------------

_ESCALATIONS = [
    ("Re-inspect on a later day", EscalationKind.REINSPECTION),
    ("Citation to the municipal court", EscalationKind.CITATION),
    ("Condemnation (the condemnation register)", EscalationKind.CONDEMNATION),
    ("Abatement by the city, cost to the tax roll", EscalationKind.ABATEMENT),
]


class EscalationDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: CaseFacts, order_id: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Enforce the order",
            f"Case {f.number}: a violation of the order is still open after its correction "
            "date. Record what is done: a re-inspection, a citation, a condemnation (record it "
            "in Licences & condemnations first and give its number) or abatement by the city "
            "(Wis. s. 66.0627: the cost is a special charge on the tax roll).",
            "&Record",
            parent,
        )
        self.facts = f
        self.order_id = order_id
        today = context.clock.today()
        self.kind = _combo(self, "escalationKind", [(w, k.value) for w, k in _ESCALATIONS])
        self.add_field("&What:", self.kind, "kind")
        self.decided_on = date_edit(self, "escalationDecided", today)
        self.add_field("Decided &on:", self.decided_on, "decided on")
        self.reinspect_on = date_edit(self, "reinspectOn", today)
        self.add_field("Re-&inspect on:", self.reinspect_on, "re-inspect on")
        self.reference = _line(self, "courtReference", "the citation's number")
        self.add_field("&Citation:", self.reference, "court reference")
        self.condemnation = _line(self, "condemnationNumber", "the condemnation's number, e.g. 3")
        self.add_field("Co&ndemnation #:", self.condemnation, "condemnation")
        self.cost = _line(self, "abatementCost", "e.g. 1250.00")
        self.add_field("Co&st $:", self.cost, "cost")
        self.notes = _line(self, "escalationNotes", "optional")
        self.add_field("No&tes:", self.notes, "notes")
        self.kind.currentIndexChanged.connect(self._kind)
        self._kind()

    def _kind(self) -> None:
        kind = EscalationKind(self.kind.currentData())
        self.reinspect_on.setEnabled(kind is EscalationKind.REINSPECTION)
        self.reference.setEnabled(kind is EscalationKind.CITATION)
        self.condemnation.setEnabled(kind is EscalationKind.CONDEMNATION)
        self.cost.setEnabled(kind is EscalationKind.ABATEMENT)

    def run(self) -> None:
        kind = EscalationKind(self.kind.currentData())
        cost: Decimal | None = None
        condemnation: int | None = None
        if kind is EscalationKind.ABATEMENT:
            try:
                cost = Decimal(self.cost.text().replace("$", "").replace(",", "").strip())
            except InvalidOperation:
                raise ValidationError("cost", "give the cost in dollars and cents") from None
        if kind is EscalationKind.CONDEMNATION:
            typed = self.condemnation.text().strip().lstrip("#")
            if not typed.isdigit():
                raise ValidationError("condemnation", "give the condemnation's number")
            condemnation = int(typed)
        orders.record_escalation(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            orders.EscalationInput(
                order_id=self.order_id,
                kind=kind,
                decided_on=_day(self.decided_on),
                notes=self.notes.text(),
                reinspect_on=_day(self.reinspect_on)
                if kind is EscalationKind.REINSPECTION
                else None,
                court_reference=self.reference.text(),
                condemnation_id=condemnation,
                cost=cost,
            ),
        )


_CLOSURES = [
    ("Every violation corrected", ClosureReason.CORRECTED),
    ("Unfounded: inspected, no violation found", ClosureReason.UNFOUNDED),
    ("Withdrawn (give the reason)", ClosureReason.WITHDRAWN),
]


class CloseDialog(ActionDialog):
    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            f"Close case {f.number}",
            f"{f.address}. A case closes when every violation is corrected, as unfounded when "
            "the inspection found none, or withdrawn with the reason in words (its open "
            "violations are withdrawn with it).",
            "&Close case",
            parent,
        )
        self.facts = f
        default = ClosureReason.CORRECTED if f.violations else ClosureReason.UNFOUNDED
        self.reason = _combo(self, "closeReason", [(w, r.value) for w, r in _CLOSURES])
        self.reason.setCurrentIndex([r for _w, r in _CLOSURES].index(default))
        self.add_field("&Reason:", self.reason, "reason")
        self.closed_on = date_edit(self, "closedOn", context.clock.today())
        self.add_field("Closed &on:", self.closed_on, "closed on")
        self.close_note = _line(self, "closeNote", "required when withdrawn")
        self.add_field("&Note:", self.close_note, "note")

    def run(self) -> None:
        cases.close_case(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            ClosureReason(self.reason.currentData()),
            self.close_note.text(),
            _day(self.closed_on),
        )


def complainant_words(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


# --- registered mail returned unclaimed (140-3A(4)) -------------------------------------------


class ReturnedDialog(ActionDialog):
    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Registered mail returned",
            f"Case {f.number}. {code_citations(f.housing_code).step('140-3A(4)')}: a notice "
            "sent by registered mail to the last known address was served the day it was "
            "mailed. A letter returned unclaimed or refused is recorded and the addressee goes "
            "on the Serve again list; the service stands, and its petition window with it.",
            "&Record returned",
            parent,
        )
        self.service = _combo(
            self,
            "returnedService",
            [
                (f"{a.name} ({a.role.value}), mailed {format_date(s.served_on)}", s.id)
                for _n, a, s in p.returnable(f)
            ],
        )
        self.add_field("&Letter:", self.service, "service")
        self.returned_on = date_edit(self, "returnedOn", context.clock.today())
        self.add_field("&Returned on:", self.returned_on, "returned on")
        self.how = _combo(self, "returnedHow", [(h.capitalize(), h) for h in notices.RETURNED_HOW])
        self.add_field("&How:", self.how, "returned")

    def run(self) -> None:
        notices.record_returned_unclaimed(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.service.currentData(),
            _day(self.returned_on),
            self.how.currentData(),
        )


# --- a service or petition entered by mistake -------------------------------------------------


class CorrectionDialog(ActionDialog):
    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        step = code_citations(f.housing_code).step
        super().__init__(
            context,
            "Correct a mistake",
            f"Case {f.number}. A service or petition entered by mistake is withdrawn, not "
            "deleted: the timeline keeps it with the reason, and the petition window and the "
            f"order ({step('140-3B, D')}) count from the true service. Once an order or a "
            "hearing rests on it, it stays.",
            "&Withdraw",
            parent,
        )
        self.choices = p.corrections(f)
        self.entry = _combo(
            self, "correctionEntry", [(c.words, i) for i, c in enumerate(self.choices)]
        )
        self.add_field("&Entered by mistake:", self.entry, "service", "petition")
        self.reason = _line(self, "correctionReason", "what was wrong, e.g. wrong addressee")
        self.add_field("&Reason:", self.reason, "reason")

    def run(self) -> None:
        from desk.services.enforcement import corrections

        index = self.entry.currentData()
        if index is None:
            raise ValidationError("service", "choose the service or petition to withdraw")
        chosen = self.choices[index]
        withdraw = (
            corrections.withdraw_service
            if chosen.kind == "service"
            else corrections.withdraw_petition
        )
        withdraw(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            chosen.row_id,
            self.reason.text(),
        )


class WithdrawViolationDialog(ActionDialog):
    """A violation recorded by mistake, withdrawn with the reason (never deleted): the timeline
    keeps it, no list, reminder or report counts it."""

    def __init__(
        self,
        context: PermitContext,
        f: CaseFacts,
        v: ViolationFact,
        parent: QWidget | None = None,
    ) -> None:
        step = code_citations(f.housing_code).step
        super().__init__(
            context,
            "Withdraw a violation recorded by mistake",
            f"Case {f.number}. The violation stays on the case's timeline with the reason; it "
            "is no longer open and nothing counts it. A violation on an issued notice stays: "
            f"the Common Council withdraws or modifies the notice ({step('140-3C')}).",
            "&Withdraw",
            parent,
        )
        self.facts = f
        self.violation = v
        shown = QLabel(vw.violation_words(v), self)
        shown.setObjectName("withdrawnViolation")
        self.add_field("Violation:", shown, "violation")
        self.reason = _line(self, "withdrawReason", "why it was a mistake, e.g. wrong item")
        self.add_field("&Reason:", self.reason, "reason")

    def run(self) -> None:
        from desk.services.enforcement import corrections

        corrections.withdraw_violation(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.violation.id,
            self.reason.text(),
        )


# --- a case opened on the inspector's own observation (140-2) ---------------------------------


class ObservationDialog(ActionDialog):
    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Open a case on observation",
            "The inspector opens a case on what he or she observed "
            f"({office_step(context)('140-2')}), numbered CE-YYYY-NNNN. A property with an "
            "open case takes the observation on that case.",
            "&Open case",
            parent,
        )
        self.search, self.parcel = parcel_lookup(
            self,
            ("observationProperty", "observationParcel"),
            "5517 N Lake",
            "P&arcel:",
            "property",
        )
        self.observed = _text_box(self, "observationText", "what was observed, where", 3)
        self.add_field("&What was observed:", self.observed, "what was observed")
        self.opened_on = date_edit(self, "observationDay", context.clock.today())
        self.add_field("&Day:", self.opened_on, "opened on")
        self.opened: CaseOpened | None = None

    def run(self) -> None:
        self.opened = cases.open_case(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.session.municipality_id,
            self.parcel.currentData(),
            self.observed.toPlainText(),
            _day(self.opened_on),
        )


# --- the Council's hearing docket (140-3B) ---------------------------------------------------


class DocketDialog(ActionDialog):
    """The meeting date of the docket to print (no service: nothing is recorded)."""

    def __init__(self, context: PermitContext, on: date, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Common Council hearing docket",
            "The hearings before the Common Council on one meeting date "
            f"({office_step(context)('140-3B')}): case, address, the notice heard, the "
            "petitioners and the place.",
            "&Print docket",
            parent,
        )
        self.meeting_on = date_edit(self, "docketDate", on)
        self.add_field("&Meeting date:", self.meeting_on, "meeting date")
        self.chosen: date | None = None

    def run(self) -> None:
        self.chosen = _day(self.meeting_on)


# --- a case inspection on the inspector's day (Hudson 140-2, 140-3A(3), 140-10A) -------------


class ScheduleVisitDialog(ActionDialog):
    """Put the case's inspection on an inspector's day, beside the permit inspections: the first
    inspection until the case has one, then a re-inspection on the earliest open correction
    date (140-3A(3)). A visit scheduled already is moved (or called off) instead."""

    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        from db.inspection_queries import case_visits, inspectors
        from desk.enforcement import visits as rules_v
        from desk.enforcement.model import VisitPurpose, VisitStatus

        with context.database.read() as conn:
            people = inspectors(conn)
            pending = [x for x in case_visits(conn, f.id) if x.status is VisitStatus.SCHEDULED]
        step = code_citations(f.housing_code).step
        self.visit = pending[0] if pending else None
        v = self.visit
        moving = (
            f" {rules_v.PURPOSE_WORDS[v.purpose].capitalize()} is scheduled on "
            f"{format_date(v.scheduled_on)} with {v.inspector_name}: OK moves it; tick "
            "“Call it off” to cancel it, the reason in the notes."
            if v is not None
            else ""
        )
        super().__init__(
            context,
            f"Schedule the inspection of {f.address}",
            f"Case {f.number}. The visit goes on the inspector's day and route sheet beside the "
            "permit inspections; recording the inspection marks it done." + moving,
            "&Schedule" if v is None else "&Save",
            parent,
        )
        self.facts = f
        self.rules_v = rules_v
        today = context.clock.today()
        self.open_by = [x.correct_by for x in p.open_violations(f)]
        self.purpose = _combo(
            self,
            "visitPurpose",
            [
                (f"Inspection of the complaint ({step('140-2')})", VisitPurpose.INSPECTION.value),
                (
                    f"Re-inspection on the correction date ({step('140-3')})",
                    VisitPurpose.REINSPECTION.value,
                ),
                (
                    f"Rooming-house licence inspection ({step('140-10A')})",
                    VisitPurpose.LICENCE.value,
                ),
            ],
        )
        first = v.purpose if v is not None else rules_v.default_purpose(f.inspections)
        self.purpose.setCurrentIndex(self.purpose.findData(first.value))
        self.purpose.setEnabled(v is None)  # a visit moved keeps what it is for
        self.purpose.currentIndexChanged.connect(self._purpose_chosen)
        self.add_field("&For:", self.purpose, "purpose")
        self.inspector = _combo(self, "visitInspector", [(n, uid) for uid, n in people])
        chosen = v.inspector_id if v is not None else context.session.actor.user_id
        self.inspector.setCurrentIndex(max(0, self.inspector.findData(chosen)))
        self.add_field("Ins&pector:", self.inspector, "inspector")
        day = v.scheduled_on if v is not None else rules_v.suggested_day(first, self.open_by, today)
        self.day = date_edit(self, "visitDay", day)
        self.add_field("&Day:", self.day, "date")
        self.time = _line(
            self,
            "visitTime",
            "optional: 9:30 or 2 PM",
            rules_v.time_words(v.scheduled_time) if v is not None else "",
        )
        self.add_field("&Time:", self.time, "time")
        self.notes = _line(self, "visitNotes", "optional; the reason when calling it off")
        self.add_field("&Notes:", self.notes, "notes", "reason")
        self.call_off = QCheckBox("Call it &off (cancel the visit)", self)
        self.call_off.setObjectName("visitCancel")
        self.call_off.setVisible(v is not None)
        self.add_field("", self.call_off)
        self.scheduled: object | None = None

    def _purpose_chosen(self) -> None:
        from desk.enforcement.model import VisitPurpose

        purpose = VisitPurpose(self.purpose.currentData())
        today = self.context.clock.today()
        self.day.setDate(to_qdate(self.rules_v.suggested_day(purpose, self.open_by, today)))

    def run(self) -> None:
        from desk.enforcement.model import VisitPurpose
        from desk.services.enforcement import visits

        c = self.context
        if self.visit is not None and self.call_off.isChecked():
            visits.cancel_visit(
                c.database.uow(), c.clock, c.session.actor, self.visit.id, self.notes.text()
            )
            return
        if self.visit is not None:
            self.scheduled = visits.reschedule_visit(
                c.database.uow(),
                c.clock,
                c.session.actor,
                self.visit.id,
                _day(self.day),
                inspector_id=self.inspector.currentData(),
                time=self.time.text(),
                notes=self.notes.text() or None,  # blank: the notes as they were
            )
            return
        self.scheduled = visits.schedule_visit(
            c.database.uow(),
            c.clock,
            c.session.actor,
            self.facts.id,
            _day(self.day),
            inspector_id=self.inspector.currentData(),
            time=self.time.text(),
            purpose=VisitPurpose(self.purpose.currentData()),
            notes=self.notes.text(),
        )
