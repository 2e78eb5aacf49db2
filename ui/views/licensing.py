"""The "Licences & condemnations" section, two pages:

- Electrical licences: the City licence register (Glendale 15.1.75) with its search and status
  filter; Grant… (the inspector), Complaint… (15.1.78(a)), Hearing… and Finding… (the Clerk,
  15.1.78(b), (c)), Revoke… (the inspector, upon the Council's finding), Print licence….
- Condemnations: dwellings condemned as unfit for human habitation (Hudson ch. 140; the record of
  15.1.6(c)) by state — open, overdue to vacate, lifted, razed or removed; Record condemnation…,
  Vacated…, Lift (reoccupy)…, Razed/removed…, Print placard….

A thin view over ui/presenters/licensing.py; each dialog calls one service of
desk/services/licensing.py and, on a mistake, stays open with what was typed and marks the field
the service named. Ctrl+1 and Ctrl+2 pick a page; Ctrl+F the search.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabBar,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db import licence_queries as lq
from db import queries
from db.database import Database
from desk.clock import Clock
from desk.domain import licensing as rules
from desk.domain.licensing import Ground, LicenceLine, LicenceStatus, Outcome
from desk.errors import ValidationError
from desk.services import licensing as svc
from ui.exports import CERTIFICATES, NOTICES, printout
from ui.permit import actions
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters.formatting import format_date
from ui.presenters.licensing import (
    PAGES,
    SECTION_TITLE,
    STATE_ORDER,
    STATUS_FILTERS,
    CondemnationsPresenter,
    LicencesPresenter,
)
from ui.presenters.session import Session
from ui.views.common import (
    LinesModel,
    button_row,
    date_edit,
    enable_buttons,
    filter_combo,
    fit_columns,
    from_qdate,
    note_label,
    read_only_table,
    search_field,
    selected_row,
    to_qdate,
)
from ui.views.section import SectionView

__all__ = ["SECTION_TITLE", "LicensingView"]
WARN = QColor(160, 40, 30)


# --- licence dialogs ------------------------------------------------------------------------------


class GrantDialog(ActionDialog):
    """15.1.75(a): a holder of a state electrical contractor's or master electrician's licence is
    entitled to the City licence."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Grant a City electrical licence",
            "Holders of a state electrical contractor's or master electrician's licence are "
            "entitled to the City licence (15.1.75(a)); the state licence must be in force today. "
            "The licence is numbered EL-YYYY-NNNN and runs through December 31, or through the "
            "state licence's expiry when that comes first. Minor repairs need no licence (b).",
            "&Grant",
            parent,
        )
        self.search = QLineEdit(self)
        self.search.setObjectName("licenseeSearch")
        self.search.setPlaceholderText("Part of the name, e.g. Sparks")
        self.search.textChanged.connect(self._search)
        self.add_field("&Find:", self.search)
        self.licensee = QComboBox(self)
        self.licensee.setObjectName("licensee")
        self.licensee.currentIndexChanged.connect(self._chosen)
        self.add_field("&Licensee:", self.licensee, "licensee")
        self.credential = QLabel(self)
        self.credential.setObjectName("noteText")
        self.credential.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.add_field("State licence:", self.credential)
        self.fee_note = QLineEdit(self)
        self.fee_note.setObjectName("feeNote")
        self.fee_note.setPlaceholderText("optional: the fee paid, the receipt")
        self.add_field("Fee &note:", self.fee_note, "fee note")
        self.credentials: dict[int, str] = {}
        self.granted: svc.LicenceGranted | None = None
        self._search("")

    def _search(self, text: str) -> None:
        with self.context.database.read() as conn:
            found = lq.licence_candidates(conn, text, self.context.clock.today())
        self.licensee.blockSignals(True)
        self.licensee.clear()
        self.credentials = {}
        for c in found:
            lapsed = "" if c.in_force else " (state licence lapsed)"
            self.licensee.addItem(f"{c.name}{lapsed}", c.party_id)
            self.credentials[c.party_id] = c.credential
        self.licensee.blockSignals(False)
        self._chosen()

    def _chosen(self) -> None:
        pid = self.licensee.currentData()
        self.credential.setText(
            self.credentials.get(pid, "No holder of a state electrical licence matches.")
        )

    def run(self) -> None:
        self.granted = svc.grant_city_licence(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.session.municipality_id,
            self.licensee.currentData(),
            fee_note=self.fee_note.text(),
        )


class ComplaintDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: LicenceLine, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "File a complaint against the licence",
            f"{line.number}, {line.licensee}. The Electrical Inspector files the complaint with "
            "the City Clerk, who schedules a hearing before the Common Council within thirty "
            "days (15.1.78(a), (b)). The notice to the licensee specifies its basis.",
            "&File complaint",
            parent,
        )
        self.line = line
        self.complaint_on = date_edit(self, "complaintDate", context.clock.today())
        self.add_field("&Filed on:", self.complaint_on, "complaint date")
        self.basis = _text_box(self, "complaintBasis", "the basis of the complaint", 3)
        self.add_field("&Basis:", self.basis, "basis")
        self.last_day: date | None = None

    def run(self) -> None:
        self.last_day = svc.file_licence_complaint(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.id,
            from_qdate(self.complaint_on.date()),
            self.basis.toPlainText(),
        )


class HearingDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: LicenceLine, parent: QWidget | None = None
    ) -> None:
        assert line.complaint_on is not None
        last = rules.hearing_deadline(line.complaint_on)
        super().__init__(
            context,
            "Schedule the Council's hearing",
            f"{line.number}, {line.licensee}: complaint filed {format_date(line.complaint_on)}. "
            f"The hearing is held by {format_date(last)}, with not less than five days' written "
            "notice to the licensee and the employer specifying the basis of the complaint "
            "(15.1.78(b)).",
            "&Schedule",
            parent,
        )
        self.line = line
        today = context.clock.today()
        default = line.hearing_on or min(max(today, line.complaint_on) + timedelta(days=14), last)
        self.hearing_on = date_edit(self, "hearingDate", default)
        self.add_field("&Hearing on:", self.hearing_on, "hearing date")
        self.notice_on = date_edit(self, "noticeDate", max(today, line.complaint_on))
        self.add_field("Written &notice on:", self.notice_on, "notice date")
        self.notified = QLineEdit("The licensee and the employer, by certified mail", self)
        self.notified.setObjectName("notified")
        self.add_field("Notice &to:", self.notified, "notified")

    def run(self) -> None:
        svc.schedule_revocation_hearing(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.id,
            from_qdate(self.hearing_on.date()),
            from_qdate(self.notice_on.date()),
            self.notified.text(),
        )


class FindingDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, line: LicenceLine, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Record the Council's finding",
            f"{line.number}, {line.licensee}: the hearing of {format_date(line.hearing_on)}. "
            "When the Council finds the licensee, for good and proper cause, disqualified, the "
            "Electrical Inspector formally revokes the licence (15.1.78(c)).",
            "&Record",
            parent,
        )
        self.line = line
        self.finding_on = date_edit(self, "findingDate", line.hearing_on or context.clock.today())
        self.add_field("Finding &on:", self.finding_on, "finding date")
        self.disqualified = QComboBox(self)
        self.disqualified.setObjectName("disqualified")
        self.disqualified.addItem("Disqualified: the licence is to be revoked", True)
        self.disqualified.addItem("Not disqualified: the complaint is dismissed", False)
        self.add_field("&Finding:", self.disqualified)
        self.finding = _text_box(
            self, "findingText", "as the minutes record it (vote, resolution)", 3
        )
        self.add_field("&Minutes:", self.finding, "finding")

    def run(self) -> None:
        svc.record_council_finding(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.line.id,
            from_qdate(self.finding_on.date()),
            bool(self.disqualified.currentData()),
            self.finding.toPlainText(),
        )


# --- condemnation dialogs ------------------------------------------------------------------------


class CondemnationDialog(ActionDialog):
    """Hudson 140 B: condemned as unfit for human habitation and placarded; C: vacated within
    the period ordered."""

    def __init__(self, context: PermitContext, days: int, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Record a condemnation",
            "A dwelling or dwelling unit with any of these defects is condemned as unfit for "
            f"human habitation and placarded (Hudson 140 B); it is vacated within {days} days as "
            "ordered (C). A permit is not needed; name one when there is.",
            "&Record",
            parent,
        )
        self.setMinimumWidth(680)  # the defects' words on one line each
        self.days = days
        self.permit_id: int | None = None
        self.parcel_id: int | None = None
        self.permit = QLineEdit(self)
        self.permit.setObjectName("condemnationPermit")
        self.permit.setPlaceholderText("optional: a permit number, e.g. 2026-0042")
        self.permit.editingFinished.connect(self._permit_entered)
        self.add_field("&Permit:", self.permit, "permit")
        self.address = QLineEdit(self)
        self.address.setObjectName("condemnationAddress")
        self.address.setPlaceholderText("e.g. 5820 N Lake Dr")
        self.add_field("&Address:", self.address, "address")
        self.unit = QLineEdit(self)
        self.unit.setObjectName("dwellingUnit")
        self.unit.setPlaceholderText("optional: Upper, Apt 3 …")
        self.add_field("Dwelling &unit:", self.unit, "dwelling unit")
        self.grounds: dict[Ground, QCheckBox] = {}
        for n, g in enumerate(Ground):
            box = QCheckBox(f"{g.code} {g.short}", self)
            box.setObjectName(f"ground{g.value}")
            box.setToolTip(f"{g.code}: one which is {g.words}")
            self.grounds[g] = box
            self.add_field("&Grounds:" if n == 0 else "", box, *(("grounds",) if n == 0 else ()))
        self.reasons = _text_box(self, "condemnationReasons", "the defects found", 3)
        self.add_field("&Reasons:", self.reasons, "reasons")
        today = context.clock.today()
        self.condemned_on = date_edit(self, "condemnedOn", today)
        self.condemned_on.dateChanged.connect(self._condemned_changed)
        self.add_field("&Condemned on:", self.condemned_on, "condemned on")
        self.placarded_on = date_edit(self, "placardedOn", today)
        self.add_field("P&lacarded on:", self.placarded_on, "placarded on")
        self.vacate_by = date_edit(self, "vacateBy", rules.vacate_date(today, days))
        self.add_field("&Vacate by:", self.vacate_by, "vacate by")
        self.notified = QLineEdit(self)
        self.notified.setObjectName("condemnationNotified")
        self.notified.setPlaceholderText("the owner and occupants: who, how")
        self.add_field("&Notified:", self.notified, "notified")
        self.condemnation_id: int | None = None

    def _condemned_changed(self) -> None:
        day = from_qdate(self.condemned_on.date())
        self.vacate_by.setDate(to_qdate(rules.vacate_date(day, self.days)))
        self.placarded_on.setDate(to_qdate(day))

    def _permit_entered(self) -> None:
        number = self.permit.text().strip()
        self.permit_id = None
        if not number:
            return
        with self.context.database.read() as conn:
            pid = queries.permit_id_by_number(conn, self.context.session.municipality_id, number)
            if pid is None:
                return
            address, self.parcel_id = lq.permit_address(conn, pid)
        self.permit_id = pid
        if address and not self.address.text().strip():
            self.address.setText(address)

    def run(self) -> None:
        if self.permit.text().strip():
            self._permit_entered()
            if self.permit_id is None:
                raise ValidationError(
                    "permit", f"no permit is numbered {self.permit.text().strip()}"
                )
        self.condemnation_id = svc.record_condemnation(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            svc.CondemnationInput(
                municipality_id=self.context.session.municipality_id,
                address=self.address.text(),
                grounds=tuple(g.value for g, box in self.grounds.items() if box.isChecked()),
                reasons=self.reasons.toPlainText(),
                condemned_on=from_qdate(self.condemned_on.date()),
                placarded_on=from_qdate(self.placarded_on.date()),
                vacate_by=from_qdate(self.vacate_by.date()),
                dwelling_unit=self.unit.text(),
                notified=self.notified.text(),
                permit_id=self.permit_id,
            ),
        )


class VacatedDialog(ActionDialog):
    def __init__(self, context: PermitContext, cid: int, where: str, parent: QWidget | None = None):
        super().__init__(
            context,
            "Record the dwelling vacated",
            f"{where}: vacated as ordered (Hudson 140 C). It stays placarded until the defects "
            "are eliminated and the placard removed (D).",
            "&Record",
            parent,
        )
        self.cid = cid
        self.vacated_on = date_edit(self, "vacatedOn", context.clock.today())
        self.add_field("&Vacated on:", self.vacated_on, "vacated on")

    def run(self) -> None:
        svc.record_vacated(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.cid,
            from_qdate(self.vacated_on.date()),
        )


class LiftDialog(ActionDialog):
    def __init__(self, context: PermitContext, cid: int, where: str, parent: QWidget | None = None):
        super().__init__(
            context,
            "Lift the condemnation (reoccupy)",
            f"{where}: the defects are eliminated. The dwelling is used for human habitation "
            "again only after written approval from the Building Inspector, who removes the "
            "placard (Hudson 140 D).",
            "&Lift",
            parent,
        )
        self.cid = cid
        self.removed_on = date_edit(self, "placardRemovedOn", context.clock.today())
        self.add_field("Placard &removed on:", self.removed_on, "placard removed on")
        self.approval = _text_box(
            self, "approvalNote", "the written approval to reoccupy: its date and reference", 3
        )
        self.add_field("Written &approval:", self.approval, "approval")

    def run(self) -> None:
        svc.lift_condemnation(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.cid,
            from_qdate(self.removed_on.date()),
            self.approval.toPlainText(),
        )


class RazedDialog(ActionDialog):
    def __init__(self, context: PermitContext, cid: int, where: str, parent: QWidget | None = None):
        super().__init__(
            context,
            "Record the building razed or removed",
            f"{where}: the condemned building is gone. The razing permit (15.1.10) is its own "
            "record; name it in the note.",
            "&Record",
            parent,
        )
        self.cid = cid
        self.outcome = QComboBox(self)
        self.outcome.setObjectName("razedOutcome")
        for o in (Outcome.RAZED, Outcome.REMOVED):
            self.outcome.addItem(o.label, o.value)
        self.add_field("&Outcome:", self.outcome, "outcome")
        self.on = date_edit(self, "razedOn", context.clock.today())
        self.add_field("&Date:", self.on, "date")
        self.outcome_note = QLineEdit(self)
        self.outcome_note.setObjectName("razedNote")
        self.outcome_note.setPlaceholderText("optional: the razing permit, who did it")
        self.add_field("&Note:", self.outcome_note, "note")

    def run(self) -> None:
        svc.record_razed(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.cid,
            from_qdate(self.on.date()),
            Outcome(self.outcome.currentData()),
            self.outcome_note.text(),
        )


# --- the section ----------------------------------------------------------------------------------


class LicensingView(SectionView):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__("licensingView", database, session, clock, parent)
        mid = session.municipality_id

        def licences(text: str, status: LicenceStatus | None) -> Any:
            with database.read() as conn:
                return lq.licence_rows(conn, mid, clock.today(), text, status)

        def licence_counts() -> Any:
            with database.read() as conn:
                return lq.licence_counts(conn, mid, clock.today())

        def condemnations(text: str, state: str) -> Any:
            with database.read() as conn:
                return lq.condemnation_rows(conn, mid, clock.today(), text, state)

        def condemnation_counts() -> Any:
            with database.read() as conn:
                return lq.condemnation_counts(conn, mid, clock.today())

        roles = session.actor.roles
        self.licences = LicencesPresenter(licences, licence_counts, clock.today, roles)
        self.condemnations = CondemnationsPresenter(
            condemnations, condemnation_counts, clock.today, roles
        )
        self._paged(
            SECTION_TITLE,
            "licensingPages",
            (
                (self._licences_page, "Electrical &licences"),
                (self._condemnations_page, "&Condemnations"),
            ),
        )

    # --- pages --------------------------------------------------------------------------------

    def _buttons(self, page: QWidget, specs: list[tuple[str, str, Any]]) -> QHBoxLayout:
        """The page's row of buttons, each kept as `self.<name>_button`."""
        made = []
        for name, text, slot in specs:
            button = QPushButton(text, page)
            setattr(self, f"{name}_button", button)
            made.append((name, button, slot))
        return button_row(*made)

    def _licences_page(self) -> QWidget:
        page = QWidget(self)
        self.licence_search = search_field(
            page, "licenceSearch", "Licensee or licence number", self._licence_filter
        )
        self.status_filter = filter_combo(
            page, "licenceStatusFilter", STATUS_FILTERS, self._licence_filter
        )
        self.licence_model = LinesModel(self.licences, self, WARN)
        self.licence_table = self._table(page, "licencesTable", self.licence_model)
        self.licence_note = note_label(page)
        buttons = self._buttons(
            page,
            [
                ("grantLicence", "&Grant…", self.grant),
                ("fileComplaint", "Com&plaint…", self.complaint),
                ("scheduleHearing", "&Hearing…", self.hearing),
                ("recordFinding", "F&inding…", self.finding),
                ("revokeLicence", "&Revoke…", self.revoke),
                ("printLicence", "Print lice&nce…", self.print_licence),
            ],
        )
        filters = QHBoxLayout()
        filters.addWidget(self.licence_search, 2)
        filters.addWidget(self.status_filter)
        layout = QVBoxLayout(page)
        layout.addLayout(filters)
        layout.addWidget(self.licence_table, 1)
        layout.addWidget(self.licence_note)
        layout.addLayout(buttons)
        self.licence_table.selectionModel().currentRowChanged.connect(
            lambda *_: self._licence_buttons()
        )
        return page

    def _condemnations_page(self) -> QWidget:
        page = QWidget(self)
        self.states = QTabBar(page)
        self.states.setObjectName("condemnationStates")
        self.states.setExpanding(False)
        self.states.setDrawBase(False)
        for state in STATE_ORDER:
            self.states.addTab(state)
        self.states.currentChanged.connect(self._state_changed)
        self.condemnation_search = search_field(
            page,
            "condemnationSearch",
            "Address, unit, reasons or permit",
            self._condemnation_filter,
        )
        self.condemnation_model = LinesModel(self.condemnations, self, WARN)
        self.condemnation_table = self._table(page, "condemnationsTable", self.condemnation_model)
        self.condemnation_table.activated.connect(lambda _i: self._open_permit())
        self.condemnation_note = note_label(page)
        buttons = self._buttons(
            page,
            [
                ("recordCondemnation", "Record &condemnation…", self.condemn),
                ("recordVacated", "&Vacated…", self.vacated),
                ("liftCondemnation", "&Lift (reoccupy)…", self.lift),
                ("recordRazed", "Ra&zed/removed…", self.razed),
                ("printPlacard", "Print pl&acard…", self.print_placard),
            ],
        )
        # The states' tabs take a 1024-px screen's width: the search goes under them.
        layout = QVBoxLayout(page)
        layout.addWidget(self.states)
        layout.addWidget(self.condemnation_search)
        layout.addWidget(self.condemnation_table, 1)
        layout.addWidget(self.condemnation_note)
        layout.addLayout(buttons)
        self.condemnation_table.selectionModel().currentRowChanged.connect(
            lambda *_: self._condemnation_buttons()
        )
        return page

    def _table(self, parent: QWidget, name: str, model: LinesModel) -> QTableView:
        table = read_only_table(parent, name, model)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        return table

    # --- loading ------------------------------------------------------------------------------

    def load(self) -> None:
        self._reload_licences()
        self._reload_condemnations()
        self._show_summary()
        self.loaded = True

    def _fit(self, table: QTableView, stretch: tuple[int, ...], keep: int) -> None:
        fit_columns(table, stretch)
        if table.model().rowCount():
            table.selectRow(max(keep, 0))

    def _reload_licences(self, keep: int | None = None) -> None:
        current = self.licences.licence(selected_row(self.licence_table))
        self.licences.load()
        row = self.licences.row_of(keep or (current.id if current else 0))
        self.licence_model.reload()
        self._fit(self.licence_table, (1, 2), row)
        self._licence_buttons()

    def _reload_condemnations(self, keep: int | None = None) -> None:
        current = self.condemnations.condemnation(selected_row(self.condemnation_table))
        self.condemnations.load()
        row = self.condemnations.row_of(keep or (current.id if current else 0))
        self.condemnation_model.reload()
        for n, state in enumerate(STATE_ORDER):
            self.states.setTabText(n, self.condemnations.tab_title(state))
        self._fit(self.condemnation_table, (0, 5), row)
        self._condemnation_buttons()

    def _show_summary(self) -> None:
        presenter = (self.licences, self.condemnations)[self.pages.currentIndex()]
        self.summary.setText(presenter.summary)

    def show_page(self, key: str) -> None:
        self.pages.setCurrentIndex(PAGES.index(key))

    def _focus_search(self) -> None:
        target = (self.licence_search, self.condemnation_search)[self.pages.currentIndex()]
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _licence_filter(self) -> None:
        self.licences.text = self.licence_search.text()
        value = self.status_filter.currentData()
        self.licences.status = LicenceStatus(value) if value else None
        self._reload_licences()
        self._show_summary()

    def _condemnation_filter(self) -> None:
        self.condemnations.text = self.condemnation_search.text()
        self._reload_condemnations()

    def _state_changed(self, index: int) -> None:
        if 0 <= index < len(STATE_ORDER):
            self.condemnations.state = STATE_ORDER[index]
            self._reload_condemnations()

    def show_licences(self, which: str) -> None:
        """'in_force', 'expired', 'revoked' or 'any' (the status filter)."""
        values = [s.value if s else "any" for _, s in STATUS_FILTERS]
        self.status_filter.setCurrentIndex(values.index(which))

    def select_state(self, state: str) -> None:
        self.states.setCurrentIndex(STATE_ORDER.index(state))

    def _licence_buttons(self) -> None:
        row = selected_row(self.licence_table)
        p = self.licences
        enable_buttons(
            (getattr(self, f"{name}_button"), check)
            for name, check in (
                ("grantLicence", p.can_grant()),
                ("fileComplaint", p.can_complain(row)),
                ("scheduleHearing", p.can_schedule(row)),
                ("recordFinding", p.can_find(row)),
                ("revokeLicence", p.can_revoke(row)),
                ("printLicence", p.can_print(row)),
            )
        )
        self.licence_note.setText(p.detail(row) if p.rows else p.empty_text)

    def _condemnation_buttons(self) -> None:
        row = selected_row(self.condemnation_table)
        p = self.condemnations
        enable_buttons(
            (getattr(self, f"{name}_button"), check)
            for name, check in (
                ("recordCondemnation", p.can_record()),
                ("recordVacated", p.can_vacate(row)),
                ("liftCondemnation", p.can_lift(row)),
                ("recordRazed", p.can_raze(row)),
                ("printPlacard", p.can_print(row)),
            )
        )
        self.condemnation_note.setText(p.detail(row) if p.rows else p.empty_text)

    def _open_permit(self) -> None:
        c = self.condemnations.condemnation(selected_row(self.condemnation_table))
        if c is not None and c.permit_id is not None:
            self.open_permit.emit(c.permit_id)

    # --- actions ------------------------------------------------------------------------------

    def _done(
        self, message: str, licence: int | None = None, condemnation: int | None = None
    ) -> None:
        self._reload_licences(licence)
        self._reload_condemnations(condemnation)
        self._show_summary()
        self._status(message)

    def _licence(self) -> LicenceLine | None:
        return self.licences.licence(selected_row(self.licence_table))

    def grant(self) -> None:
        if not self.licences.can_grant()[0]:
            return
        dialog = GrantDialog(self._context(), self)
        if actions.exec_dialog(dialog) and dialog.granted is not None:
            g = dialog.granted
            # Show the new licence whatever the filter: it is in force.
            self.status_filter.setCurrentIndex(0)
            self._done(
                f"City licence {g.number} granted, in force through {format_date(g.expires_on)}.",
                licence=g.licence_id,
            )

    def complaint(self) -> None:
        x = self._licence()
        if x is None or not self.licences.can_complain(selected_row(self.licence_table))[0]:
            return
        dialog = ComplaintDialog(self._context(), x, self)
        if actions.exec_dialog(dialog):
            self._done(
                f"Complaint against {x.number} filed; the Council's hearing is held by "
                f"{format_date(dialog.last_day)} (15.1.78(b)).",
                licence=x.id,
            )

    def hearing(self) -> None:
        x = self._licence()
        if x is None or not self.licences.can_schedule(selected_row(self.licence_table))[0]:
            return
        if actions.exec_dialog(HearingDialog(self._context(), x, self)):
            self._done(f"The hearing on {x.number} is scheduled.", licence=x.id)

    def finding(self) -> None:
        x = self._licence()
        if x is None or not self.licences.can_find(selected_row(self.licence_table))[0]:
            return
        if actions.exec_dialog(FindingDialog(self._context(), x, self)):
            self._done(f"The Council's finding on {x.number} is recorded.", licence=x.id)

    def revoke(self) -> None:
        x = self._licence()
        if x is None:
            return
        question = (
            f"Formally revoke City licence {x.number} of {x.licensee} as of today, upon the "
            f"Council's finding of {format_date(x.finding_on)} (15.1.78(c))?"
        )
        if not self._confirmed(
            "Revoke the licence",
            self.licences.can_revoke(selected_row(self.licence_table)),
            question,
            lambda: svc.revoke_city_licence(
                self.database.uow(), self.clock, self.session.actor, x.id
            ),
        ):
            return
        self._done(f"City licence {x.number} is revoked.", licence=x.id)

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the chosen licence's certificate, or the chosen condemnation's
        placard, straight to the print dialog."""
        if self.pages.currentIndex() == 0:
            return self.print_licence(direct=True) is not None
        return self.print_placard(direct=True) is not None

    def print_licence(self, direct: bool = False) -> Path | None:
        from reports.licensing_documents import render_licence_certificate

        x = self._licence()
        if x is None:
            return None

        def write(out: Path) -> None:
            with self.database.read() as conn:
                data = lq.licence_certificate(conn, x.id)
            render_licence_certificate(data, out)

        return printout(
            self,
            f"Licence {x.number}",
            f"{x.number}.pdf",
            write,
            CERTIFICATES,
            "The licence",
            direct=direct,
        )

    def _condemnation(self) -> Any:
        return self.condemnations.condemnation(selected_row(self.condemnation_table))

    def condemn(self) -> None:
        if not self.condemnations.can_record()[0]:
            return
        days = svc.vacate_days(self.database.uow(), self.session.municipality_id)
        dialog = CondemnationDialog(self._context(), days, self)
        if actions.exec_dialog(dialog):
            self.select_state("open")
            self._done(
                "The condemnation is recorded; print the placard to post it.",
                condemnation=dialog.condemnation_id,
            )

    def vacated(self) -> None:
        c = self._condemnation()
        if c is None or not self.condemnations.can_vacate(selected_row(self.condemnation_table))[0]:
            return
        if actions.exec_dialog(VacatedDialog(self._context(), c.id, c.where, self)):
            self._done(f"{c.where}: vacated.", condemnation=c.id)

    def lift(self) -> None:
        c = self._condemnation()
        if c is None or not self.condemnations.can_lift(selected_row(self.condemnation_table))[0]:
            return
        if actions.exec_dialog(LiftDialog(self._context(), c.id, c.where, self)):
            self._done(f"{c.where}: the condemnation is lifted.", condemnation=c.id)

    def razed(self) -> None:
        c = self._condemnation()
        if c is None or not self.condemnations.can_raze(selected_row(self.condemnation_table))[0]:
            return
        if actions.exec_dialog(RazedDialog(self._context(), c.id, c.where, self)):
            self._done(f"{c.where}: recorded as razed or removed.", condemnation=c.id)

    def print_placard(self, direct: bool = False) -> Path | None:
        from reports.licensing_documents import render_placard

        c = self._condemnation()
        if c is None:
            return None
        name = "".join(ch if ch.isalnum() else "-" for ch in c.address).strip("-").lower()

        def write(out: Path) -> None:
            with self.database.read() as conn:
                data = lq.placard(conn, c.id)
            render_placard(data, out)

        return printout(
            self,
            f"Placard — {c.address}",
            f"placard-{name}.pdf",
            write,
            NOTICES,
            "The placard",
            direct=direct,
        )
