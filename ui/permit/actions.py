"""The lifecycle actions of the permit window: a small dialog per action
that calls its service. OK runs the service; on a mistake the dialog stays open with everything
typed in it, says why (ui.dialogs), and marks the field the service named.

Status changes (desk.services.lifecycle.change_status), extending a deadline (15.1.8(b),
15.2.8(e)(1), §435-7), stop-work orders (15.1.12, 15.1.90(b)(2), 15.2.10) and lifting them,
revocation (15.1.7(g)) and voiding (desk.services.permits.void_permit).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from db.changes import Change
from desk.domain.enums import PermitStatus
from desk.domain.lifecycle import Deadline
from desk.errors import DeskError, StaleEdit, ValidationError
from desk.services import lifecycle, permits
from ui import dialogs, focus
from ui.date_field import date_errors
from ui.live import changed_text, watch_record
from ui.permit.base import PermitContext
from ui.presenters.permit_actions import (
    STATUS_WORDS,
    STOP_WORK_SECTIONS,
    deadline_choices,
    default_extension,
    revocation_choices,
)
from ui.views.common import date_edit, from_qdate, to_qdate


def exec_dialog(dialog: QDialog) -> bool:
    """Show an action's dialog modally; True when its service ran. Tests patch this."""
    return dialog.exec() == QDialog.DialogCode.Accepted


def _text_box(parent: QWidget, name: str, placeholder: str, lines: int = 4) -> QPlainTextEdit:
    box = QPlainTextEdit(parent)
    box.setObjectName(name)
    box.setPlaceholderText(placeholder)
    box.setTabChangesFocus(True)  # Tab leaves the box, as in the rest of the form
    box.setFixedHeight(box.fontMetrics().lineSpacing() * lines + 14)
    return box


class ActionDialog(QDialog):
    """A heading, a note, a form and OK/Cancel over one service call (`run`)."""

    title = ""

    def __init__(
        self,
        context: PermitContext,
        heading: str,
        note: str,
        ok_text: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(heading)
        self.fields: dict[str, QWidget] = {}  # by the field name the services use in errors
        # A dialog that edits a record: shows the record as it is now (after a StaleEdit).
        self.reload: Callable[[], None] | None = None
        head = QLabel(heading, self)
        head.setObjectName("dialogHeading")
        self.note = QLabel(note, self)
        self.note.setObjectName("noteText")
        self.note.setWordWrap(True)
        self.note.setVisible(bool(note))
        self.form = QFormLayout()
        # Text boxes and lists take the width; a date stays as wide as a date.
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        self.buttons = QDialogButtonBox(self)
        self.ok_button = QPushButton(ok_text, self)
        self.ok_button.setObjectName("actionOk")
        self.ok_button.setDefault(True)
        self.buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        assert cancel is not None
        self.ok_button.clicked.connect(self.submit)
        cancel.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(head)
        layout.addWidget(self.note)
        layout.addLayout(self.form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(600)
        focus.install(self)  # opens in its first field, not on OK (ui.focus)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Wrapped labels know their height only once the width is set: fit the height to it.
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            self.resize(self.width(), layout.heightForWidth(self.width()))

    def add_field(self, label: str, widget: QWidget, *names: str) -> None:
        if isinstance(widget, QComboBox):
            # A long choice is cut in the closed box, not allowed to push the labels off.
            widget.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            widget.setMinimumContentsLength(24)
            widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.form.addRow(label, widget)
        for name in names:
            self.fields[name] = widget

    def watch(self, entity: str, entity_id: int, noun: str) -> None:
        """An edit of a record: a change committed meanwhile elsewhere is said at once."""

        def told(change: Change) -> None:
            self.error_label.setText(changed_text(change, noun))
            self.error_label.setVisible(True)

        watch_record(self.context.database, self, entity, entity_id, told)

    def run(self) -> None:
        raise NotImplementedError

    def submit(self) -> bool:
        """Run the service; on success close, else keep everything and say why, once, in the
        form's error line, with the cursor in the field the service named."""
        refused = date_errors([self])
        if refused:  # a date field's text that is not a date: never run on the last date shown
            field, message = refused[0]
            self.error_label.setText(message)
            self.error_label.setVisible(True)
            field.setFocus()
            field.selectAll()
            return False
        try:
            self.run()
        except StaleEdit as e:
            self.error_label.setText(str(e))
            self.error_label.setVisible(True)
            if self.reload is not None and dialogs.offer_reload(self, self.windowTitle(), str(e)):
                self.reload()
                self.error_label.setVisible(False)
            return False
        except DeskError as e:
            focus.show_error(self, self.error_label, e, self.fields)
            return False
        self.accept()
        return True


class StatusChangeDialog(ActionDialog):
    def __init__(
        self,
        context: PermitContext,
        permit_title: str,
        target: PermitStatus,
        parent: QWidget | None = None,
    ) -> None:
        words = STATUS_WORDS[target]
        super().__init__(
            context,
            words.title,
            f"{permit_title} becomes “{target.label.lower()}”. The change is recorded in its "
            "history with your name.",
            words.button,
            parent,
        )
        self.target = target
        self.date = date_edit(self, "statusDate")
        self.date.setDate(to_qdate(context.clock.today()))
        self.add_field(f"&{words.date_label}:", self.date, "date")

    def run(self) -> None:
        lifecycle.change_status(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            self.target,
            on=from_qdate(self.date.date()),
        )


class ExtendDeadlineDialog(ActionDialog):
    """15.1.8(b)(c): the inspector may extend with a reason and a new date; erosion control by up
    to 180 days at a time (15.2.8(e)(1)); a street opening 30 days at a time (§435-7)."""

    def __init__(
        self, context: PermitContext, deadlines: list[Deadline], parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Extend a deadline",
            "Choose the deadline, the new date and the reason. The reason is kept in the "
            "permit's history.",
            "E&xtend",
            parent,
        )
        self.choices = deadline_choices(deadlines)
        self.deadline = QComboBox(self)
        self.deadline.setObjectName("extendDeadline")
        for c in self.choices:
            self.deadline.addItem(c.text, c.code)
        self.add_field("&Deadline:", self.deadline, "deadline")
        self.until = date_edit(self, "extendUntil")
        self.add_field("&New date:", self.until, "new date", "valid until")
        self.reason = _text_box(self, "extendReason", "e.g. delay in delivery of materials", 3)
        self.add_field("&Reason:", self.reason, "reason")
        self.deadline.currentIndexChanged.connect(self._deadline_chosen)
        self._deadline_chosen(0)

    def _deadline_chosen(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.until.setDate(to_qdate(default_extension(self.choices[index].due)))

    def select(self, code: str) -> None:
        self.deadline.setCurrentIndex(max(0, self.deadline.findData(code)))

    def run(self) -> None:
        code = self.deadline.currentData()
        if code is None:
            raise ValidationError("deadline", "this permit has no deadline to extend")
        lifecycle.extend_deadline(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            str(code),
            from_qdate(self.until.date()),
            self.reason.toPlainText(),
        )


class StopWorkDialog(ActionDialog):
    """15.1.12: served on the owner and posted at the site; removed only by written notice."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Stop-work order",
            "The order is served on the owner and posted at the site; the permit goes on hold "
            "until the order is lifted by written notice (15.1.12).",
            "&Issue order",
            parent,
        )
        self.section = QComboBox(self)
        self.section.setObjectName("stopWorkSection")
        for code, text in STOP_WORK_SECTIONS:
            self.section.addItem(text, code)
        self.add_field("&Under section:", self.section, "section")
        self.reasons = _text_box(self, "stopWorkReasons", "The violations the order is for", 5)
        self.add_field("&Reasons:", self.reasons, "reasons")
        self.order_id: int | None = None
        self.reasons.setFocus()

    def run(self) -> None:
        self.order_id = lifecycle.issue_stop_work_order(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            self.reasons.toPlainText(),
            str(self.section.currentData()),
        )


class LiftStopWorkDialog(ActionDialog):
    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Lift the stop-work order",
            "15.1.12: the order is removed by the inspector's written notice, after satisfactory "
            "evidence that the violation is corrected. Work may then resume.",
            "&Lift order",
            parent,
        )
        self.notice = _text_box(
            self, "liftNotice", "e.g. Guardrails installed and inspected; work may resume.", 5
        )
        self.add_field("Written &notice:", self.notice, "notice")
        self.notice.setFocus()

    def run(self) -> None:
        lifecycle.lift_stop_work_order(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            self.notice.toPlainText(),
        )


class RevokeDialog(ActionDialog):
    """15.1.7(g): revocation for one or more of the reasons a–f, by written notice and placard;
    a revoked permit is void and work needs a new permit and new fees ((g)(4))."""

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Revoke the permit",
            "Tick the reasons of 15.1.7(g)(1). A revoked permit is void: before work resumes a "
            "new permit must be obtained and its fees paid (15.1.7(g)(4)).",
            "Re&voke",
            parent,
        )
        box = QWidget(self)
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(4)
        self.reason_boxes: dict[str, QCheckBox] = {}
        for row, (code, text) in enumerate(revocation_choices()):
            # Alt+A … Alt+F tick a reason; the words wrap beside the box.
            check = QCheckBox(f"(&{code})", box)
            check.setObjectName(f"revokeReason_{code}")
            words = QLabel(text, box)
            words.setWordWrap(True)
            words.setBuddy(check)
            grid.addWidget(check, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(words, row, 1, Qt.AlignmentFlag.AlignTop)
            self.reason_boxes[code] = check
        grid.setColumnStretch(1, 1)
        self.add_field("Reasons:", box, "reasons")
        self.details = _text_box(self, "revokeDetails", "What was found, where, when", 3)
        self.add_field("More de&tails:", self.details, "details")
        self.order_id: int | None = None
        self.setMinimumWidth(680)

    def chosen(self) -> list[str]:
        return [code for code, check in self.reason_boxes.items() if check.isChecked()]

    def run(self) -> None:
        self.order_id = lifecycle.revoke_permit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            self.chosen(),
            self.details.toPlainText(),
        )

    def submit(self) -> bool:
        ok = super().submit()
        if not ok and not self.chosen():
            self.reason_boxes["a"].setFocus()
        return ok


class VoidDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, permit_title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Void the permit",
            f"{permit_title} becomes void. It keeps its number; numbers are never reused.",
            "V&oid",
            parent,
        )
        self.reason = QLineEdit(self)
        self.reason.setObjectName("voidReason")
        self.reason.setPlaceholderText("e.g. issued to the wrong parcel")
        self.add_field("&Reason:", self.reason, "reason")

    def run(self) -> None:
        permits.void_permit(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            self.reason.text(),
        )
