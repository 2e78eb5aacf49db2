"""The dialogs that correct a parcel, one service call each (desk/services/parcels): the edit
form (every field a person types, the county's figures read-only beside them, saved with the
version it showed), retiring with the reason, and merging a parcel entered twice into the one
kept, with what moves listed before it is confirmed. OK runs the service; on a mistake the
dialog stays open with what was typed and names the field (ui.permit.actions.ActionDialog)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from db.parcel_queries import ParcelFacts, parcel_facts
from desk.domain.records import MergePreview
from desk.errors import DeskError, NotFound
from desk.services.parcels import edit, merge, retire
from ui import dialogs
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters import parcels as p
from ui.views.common import page_scroll, section_title, value_label
from ui.views.dialog_fields import parcel_lookup


def focus_first(dialog: ActionDialog) -> None:
    """The first field takes the cursor when the dialog opens (never OK)."""
    for w in dialog.fields.values():
        if w.isEnabled() and w.focusPolicy() != Qt.FocusPolicy.NoFocus:
            w.setFocus(Qt.FocusReason.OtherFocusReason)
            if isinstance(w, QLineEdit):
                w.selectAll()
            return


def read_facts(context: PermitContext, parcel_id: int) -> ParcelFacts:
    with context.database.read() as conn:
        facts = parcel_facts(conn, parcel_id)
    if facts is None:
        raise NotFound(f"parcel #{parcel_id} does not exist")
    return facts


class ParcelEditDialog(ActionDialog):
    """Every field of the parcel a person types, as it is now; the county's figures beside
    them, read-only (its next import sets them). Saved with the version the form showed: a
    save over a newer one is refused, and the form offers to read the parcel again."""

    def __init__(
        self, context: PermitContext, facts: ParcelFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            f"Correct parcel {facts.pin}",
            "Each change is recorded in the parcel's history with your name.",
            "Sa&ve",
            parent,
        )
        self.setObjectName("parcelEditDialog")
        self.setMinimumWidth(940)
        self.facts = facts
        self.edits: dict[str, QLineEdit | QPlainTextEdit] = {}
        # The office's fields on the left, the county's figures on the right.
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setVerticalSpacing(8)  # thirteen rows: the style's spacing would pass 768 px
        self.form = form  # add_field lays the fields out here
        for f in p.FORM_FIELDS:
            widget: QLineEdit | QPlainTextEdit
            if f.lines > 1:
                widget = _text_box(self, f"parcel_{f.key}", f.placeholder, f.lines)
            else:
                widget = QLineEdit(self)
                widget.setObjectName(f"parcel_{f.key}")
                widget.setPlaceholderText(f.placeholder)
            self.edits[f.key] = widget
            self.add_field(f.label, widget, f.error)
        self.county_note = QLabel(self)
        self.county_note.setObjectName("noteText")
        self.county_note.setWordWrap(True)
        self.county = QGridLayout()
        self.county.setHorizontalSpacing(12)
        self.county.setVerticalSpacing(4)
        right = QVBoxLayout()
        right.setSpacing(6)
        right.addWidget(section_title("From the county's parcel file"))
        right.addWidget(self.county_note)
        right.addLayout(self.county)
        right.addStretch(1)
        columns = QHBoxLayout()
        columns.setSpacing(24)
        columns.addLayout(form, 3)
        columns.addLayout(right, 2)
        outer = self.layout()
        assert isinstance(outer, QVBoxLayout)
        outer.insertLayout(outer.indexOf(self.error_label), columns)
        self.reload = self._read_again
        self._show(facts)
        self.watch("parcel", facts.id, "parcel")

    def _show(self, facts: ParcelFacts) -> None:
        self.facts = facts
        for key, text in p.form_values(facts).items():
            widget = self.edits[key]
            if isinstance(widget, QPlainTextEdit):
                widget.setPlainText(text)
            else:
                widget.setText(text)
        self.county_note.setText(p.county_note(facts))
        while self.county.count():
            item = self.county.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.deleteLater()
        for row, field in enumerate(p.county_figures(facts)):
            name = QLabel(field.label, self)
            name.setObjectName("fieldLabel")
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            self.county.addWidget(name, row, 0)
            self.county.addWidget(value_label(field.value), row, 1)
        self.county.setColumnStretch(1, 1)

    def _read_again(self) -> None:
        """After a StaleEdit: the parcel as it is now, with its new version."""
        self._show(read_facts(self.context, self.facts.id))

    def values(self) -> dict[str, str]:
        return {
            key: w.toPlainText() if isinstance(w, QPlainTextEdit) else w.text()
            for key, w in self.edits.items()
        }

    def field(self, key: str) -> QLineEdit | QPlainTextEdit:
        return self.edits[key]

    def run(self) -> None:
        edit.update_parcel(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            p.parcel_edit(self.values()),
            self.facts.version,
        )


class RetireDialog(ActionDialog):
    """A parcel no longer to be chosen (split, combined, entered by mistake): never deleted;
    what points at it stays with it, readable."""

    def __init__(
        self, context: PermitContext, facts: ParcelFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            f"Retire parcel {facts.pin}",
            f"{p.records_words(facts)}: they stay with the parcel and readable. A retired "
            "parcel is no longer offered when a parcel is chosen; Restore offers it again.",
            "&Retire",
            parent,
        )
        self.facts = facts
        self.reason = _text_box(self, "retireReason", "e.g. combined with 047-9991-003 in 2026", 3)
        self.add_field("Rea&son:", self.reason, "reason")
        self.reload = lambda: setattr(self, "facts", read_facts(context, facts.id))

    def run(self) -> None:
        retire.retire_parcel(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            self.reason.toPlainText(),
            self.facts.version,
        )


class MergeDialog(ActionDialog):
    """A parcel entered twice: everything on the duplicate moves to the parcel kept, listed
    here before it is confirmed; the duplicate is retired pointing at it."""

    def __init__(
        self, context: PermitContext, duplicate_pin: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Merge a parcel entered twice",
            "Choose the duplicate and the parcel kept. Its permits, cases, complaints, "
            "licences and condemnations move to the parcel kept, in one step recorded in the "
            "history; the duplicate is retired.",
            "&Merge",
            parent,
        )
        self.setObjectName("parcelMergeDialog")
        self.duplicate_search, self.duplicate = parcel_lookup(
            self,
            ("mergeDuplicateSearch", "mergeDuplicate"),
            "047-9991-002",
            "&Duplicate:",
            "parcel",
        )
        # parcel_lookup labels its line "&Property:" each time: the second one's own label.
        self.kept_search, self.kept = parcel_lookup(
            self, ("mergeKeptSearch", "mergeKept"), "6120 N Port", "&Kept:", "parcels"
        )
        self._relabel(self.duplicate_search, "Dup&licate, address or PIN:")
        self._relabel(self.kept_search, "Parcel ke&pt, address or PIN:")
        self.preview_label = QLabel(self)
        self.preview_label.setObjectName("mergePreview")
        self.preview_label.setWordWrap(True)
        self.preview_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.preview_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A parcel with many permits lists them all: the list scrolls, the dialog stays on screen.
        scroll = page_scroll(self, self.preview_label)
        scroll.setObjectName("mergePreviewScroll")
        scroll.setFixedHeight(self.fontMetrics().lineSpacing() * 12 + 8)
        self.form.addRow(scroll)
        self.preview: MergePreview | None = None
        for combo in (self.duplicate, self.kept):
            combo.currentIndexChanged.connect(lambda _i: self._preview())
        self.duplicate_search.setText(duplicate_pin)
        self._preview()

    def _relabel(self, widget: QWidget, text: str) -> None:
        label = self.form.labelForField(widget)
        if isinstance(label, QLabel):
            label.setText(text)

    def _chosen(self, combo: QComboBox) -> int | None:
        data = combo.currentData()
        return int(data) if data is not None else None

    def _preview(self) -> None:
        """What the merge would do, read again whenever a choice changes."""
        self.preview = None
        dup, kept = self._chosen(self.duplicate), self._chosen(self.kept)
        if dup is None or kept is None:
            self.preview_label.setText("Choose the duplicate and the parcel kept.")
            self.ok_button.setEnabled(False)
            return
        try:
            self.preview = merge.merge_preview(self.context.database.uow(), kept, dup)
        except DeskError as e:
            self.preview_label.setText(str(e))
            self.ok_button.setEnabled(False)
            return
        self.preview_label.setText(p.merge_words(self.preview))
        self.ok_button.setEnabled(True)

    def focus_start(self) -> None:
        """The duplicate chosen already (the parcel the clerk was on): the parcel kept next."""
        start = self.kept_search if self._chosen(self.duplicate) else self.duplicate_search
        start.setFocus(Qt.FocusReason.OtherFocusReason)

    def run(self) -> None:
        dup, kept = self._chosen(self.duplicate), self._chosen(self.kept)
        if dup is None or kept is None or self.preview is None:
            self._preview()
            raise DeskError("Choose the duplicate and the parcel kept.")
        if not dialogs.ask(self, self.windowTitle(), p.merge_question(self.preview)):
            raise _Kept()
        merge.merge_parcels(
            self.context.database.uow(), self.context.clock, self.context.session.actor, kept, dup
        )

    def submit(self) -> bool:
        try:
            return super().submit()
        except _Kept:
            return False


class _Kept(Exception):
    """The merge was not confirmed: the dialog stays open as it was."""
