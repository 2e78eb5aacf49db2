"""The issue dialog: the issue date, every unmet condition in plain words,
and Issue, which stays disabled while any is unmet.

It is not modal: the clerk or inspector may tick checklist items in the permit window meanwhile;
the list is checked again when the date changes, on "Check again", and whenever the permit
window reloads. Enter issues when allowed; Esc closes.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desk.errors import DeskError, IssuanceRefused
from desk.services import issuance, lifecycle, permits
from ui import dialogs, focus
from ui.geometry import fit_window
from ui.permit.base import PermitContext
from ui.permit.documents import print_permit_card
from ui.presenters.issuance import UNMET, IssuancePresenter, term_text
from ui.views.common import date_edit, from_qdate, to_qdate

TITLE = "Issue permit"


class IssueDialog(QDialog):
    issued = Signal(str)  # the permit number

    def __init__(
        self,
        context: PermitContext,
        title: str,
        subtitle: str,
        parent: QWidget | None = None,
        *,
        applied_on: date | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("issueDialog")
        self.setWindowTitle(f"{TITLE} — {title}")
        self.context = context
        self.presenter = IssuancePresenter(title)

        heading = QLabel(TITLE, self)
        heading.setObjectName("dialogHeading")
        about = QLabel(f"{title} — {subtitle}" if subtitle else title, self)
        about.setObjectName("noteText")
        about.setWordWrap(True)

        self.date_edit = date_edit(self, "issueDate")
        self.date_edit.setDate(to_qdate(context.clock.today()))
        if applied_on is not None:
            self.date_edit.setMinimumDate(to_qdate(applied_on))  # the service refuses earlier
        date_label = QLabel("Issue &date:", self)
        date_label.setBuddy(self.date_edit)
        self.check_button = QPushButton("&Check again", self)
        self.check_button.setObjectName("checkAgain")
        self.check_button.setToolTip("Check the conditions again (after ticking checklist items)")
        date_row = QHBoxLayout()
        date_row.addWidget(date_label)
        date_row.addWidget(self.date_edit)
        date_row.addStretch(1)
        date_row.addWidget(self.check_button)

        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("issueSummary")
        self.summary_label.setWordWrap(True)
        # One row per unmet condition: a red ✗ and the words, wrapped under themselves.
        self.conditions = QWidget()
        self.conditions.setObjectName("shortfallList")
        self.conditions_grid = QGridLayout(self.conditions)
        self.conditions_grid.setContentsMargins(10, 8, 10, 8)
        self.conditions_grid.setHorizontalSpacing(8)
        self.conditions_grid.setVerticalSpacing(8)
        self.conditions_scroll = QScrollArea(self)
        self.conditions_scroll.setObjectName("shortfallScroll")
        self.conditions_scroll.setWidgetResizable(True)
        self.conditions_scroll.setWidget(self.conditions)
        self.conditions_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.condition_labels: list[QLabel] = []

        # The term the permit would have (§435-8.A: a street opening ends by November 14).
        self.term_label = QLabel(self)
        self.term_label.setObjectName("noteText")
        self.term_label.setWordWrap(True)
        self.term_label.setVisible(False)

        self.result_label = QLabel(self)
        self.result_label.setObjectName("issueResult")
        self.result_label.setVisible(False)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.issue_button = QPushButton(self)
        self.issue_button.setObjectName("issueButton")
        self.issue_button.setDefault(True)  # Enter issues, when it is enabled
        self.card_button = QPushButton("Print permit &card…", self)
        self.card_button.setObjectName("issuePrintCard")
        self.card_button.setVisible(False)
        self.close_button = QPushButton("Close", self)
        self.close_button.setObjectName("issueClose")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.card_button)
        buttons.addWidget(self.issue_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(heading)
        layout.addWidget(about)
        layout.addSpacing(4)
        layout.addLayout(date_row)
        layout.addSpacing(4)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.term_label)
        layout.addWidget(self.conditions_scroll, 1)
        layout.addWidget(self.result_label)
        layout.addStretch(0)  # takes the room when the list is hidden (all met, or issued)
        layout.addLayout(buttons)

        self.date_edit.dateChanged.connect(lambda _d: self.check())
        self.check_button.clicked.connect(self.check)
        self.issue_button.clicked.connect(self.issue)
        self.card_button.clicked.connect(self.print_card)
        self.close_button.clicked.connect(self.reject)
        fit_window(self, "issue_permit", (600, 400))
        self.date_edit.setFocus()
        focus.install(self)
        self.check()

    # --- what the window and the tests read --------------------------------------------------

    @property
    def on(self) -> date:
        return from_qdate(self.date_edit.date())

    def condition_texts(self) -> list[str]:
        """The unmet conditions as the dialog shows them (without the ✗)."""
        return [label.text() for label in self.condition_labels]

    # --- actions ----------------------------------------------------------------------------

    def check(self) -> None:
        """Ask the service which conditions are unmet on the chosen day, and show them."""
        if self.presenter.issued_ok:
            return
        try:
            found = issuance.issuance_shortfalls(
                self.context.database.uow(), self.context.permit_id, self.on
            )
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            return
        self.presenter.set_shortfalls(self.on, found)
        term = lifecycle.term_if_issued(
            self.context.database.uow(), self.context.permit_id, self.on
        )
        self.term_label.setText(
            term_text(self.on, term.label, term.due, term.section) if term is not None else ""
        )
        self.term_label.setVisible(term is not None)
        self._show()

    def issue(self) -> str | None:
        """Issue on the chosen day; the number, or None when refused (the reasons are shown)."""
        if not self.presenter.can_issue:
            return None
        try:
            number = permits.issue_permit(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                issued_on=self.on,
            )
        except IssuanceRefused as e:
            # Something changed since the last check (another workstation, the other tab).
            self.presenter.set_shortfalls(self.on, e.shortfalls)
            self._show()
            dialogs.warn(self, TITLE, str(e))
            return None
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            self.check()
            return None
        self.presenter.issued(number)
        self._show()
        self.issued.emit(number)
        return number

    def print_card(self) -> None:
        print_permit_card(self, self.context)

    # --- showing ----------------------------------------------------------------------------

    def _show(self) -> None:
        p = self.presenter
        self.summary_label.setText(p.summary)
        self.summary_label.setProperty("ok", p.can_issue or p.issued_ok)
        _repolish(self.summary_label)
        while self.conditions_grid.count():
            item = self.conditions_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        for row in range(self.conditions_grid.rowCount()):
            self.conditions_grid.setRowStretch(row, 0)
        self.condition_labels = []
        for row, text in enumerate(p.shortfalls):
            mark = QLabel(UNMET, self.conditions)
            mark.setObjectName("conditionUnmet")
            words = QLabel(text, self.conditions)
            words.setObjectName("conditionText")
            words.setWordWrap(True)
            words.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.conditions_grid.addWidget(mark, row, 0, Qt.AlignmentFlag.AlignTop)
            self.conditions_grid.addWidget(words, row, 1)
            self.condition_labels.append(words)
        self.conditions_grid.setColumnStretch(1, 1)
        self.conditions_grid.setRowStretch(len(p.shortfalls), 1)
        self.conditions_scroll.setVisible(bool(p.shortfalls))
        self.issue_button.setText(p.issue_text)
        self.issue_button.setEnabled(p.can_issue)
        if p.issued_ok:
            self.summary_label.setVisible(False)
            self.term_label.setVisible(False)
            self.result_label.setText(p.result_text)
            self.result_label.setVisible(True)
            self.issue_button.setVisible(False)
            self.date_edit.setEnabled(False)
            self.check_button.setEnabled(False)
            self.card_button.setVisible(True)
            self.card_button.setDefault(True)  # Enter now prints the card
            self.card_button.setFocus()


def _repolish(widget: QWidget) -> None:
    widget.style().unpolish(widget)
    widget.style().polish(widget)
