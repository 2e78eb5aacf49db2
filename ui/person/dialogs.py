"""The dialogs that correct a person's or organization's record, each over one service of
desk/services/people/: Edit (every field, saved with the version shown; a save over a newer one
offers to reload), Retire (with the reason), Merge (the record kept and the duplicate, what
moves listed before it is confirmed), Add credential and Renew (the old credential stays as
history). Each opens with the cursor in its first field; OK saves only a valid form, and a
mistake names the field in words."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from db.party_queries import (
    CredentialFact,
    PartyFacts,
    PartyFilter,
    PartyRow,
    party_facts,
    party_row,
)
from db.party_queries import party_rows as find_parties
from desk.domain.enums import PartyKind
from desk.domain.records import MergePreview
from desk.errors import DeskError, ValidationError
from desk.services.people import credentials, edit, merge, retire
from ui import dialogs
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters import people as p
from ui.presenters.formatting import format_date
from ui.views.common import date_edit, from_qdate, to_qdate


def focus_first(dialog: ActionDialog) -> None:
    """The first field takes the cursor when the dialog opens."""
    for w in dialog.fields.values():
        if w.isEnabled() and w.focusPolicy() != Qt.FocusPolicy.NoFocus:
            w.setFocus()
            return


def _text_box(parent: QWidget, name: str, placeholder: str, lines: int) -> QPlainTextEdit:
    box = QPlainTextEdit(parent)
    box.setObjectName(name)
    box.setPlaceholderText(placeholder)
    box.setTabChangesFocus(True)  # Tab leaves the box, as in the rest of the form
    box.setFixedHeight(box.fontMetrics().lineSpacing() * lines + 14)
    return box


def read_facts(context: PermitContext, party_id: int) -> PartyFacts | None:
    with context.database.read() as conn:
        return party_facts(conn, party_id, context.session.municipality_id)


# --- edit -----------------------------------------------------------------------------------


class PartyEditDialog(ActionDialog):
    """Every field of the record, as it is now; saved with the version shown."""

    def __init__(
        self, context: PermitContext, f: PartyFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            f"Edit {f.name}",
            "Correct what was typed wrong or has changed (a new address, phone or e-mail). "
            "Each change is kept in the record's history; documents already issued keep the "
            "name and address they were issued with.",
            "&Save",
            parent,
        )
        self.setObjectName("partyEditDialog")
        self.facts = f
        self.version = f.version
        self.inputs: dict[str, QWidget] = {}
        words = {v: k for k, v in p.ERROR_FIELDS.items()}
        for name, label in p.FORM_FIELDS:
            widget: QWidget
            if name == "kind":
                kind = QComboBox(self)
                kind.addItem("Person", PartyKind.PERSON.value)
                kind.addItem("Organization (a company, a trust, a public body)", "organization")
                kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
                widget = kind
            elif name == "notes":
                widget = _text_box(self, "party_notes", "", 3)
            else:
                widget = QLineEdit(self)
            widget.setObjectName(f"party_{name}")
            self.inputs[name] = widget
            self.add_field(label, widget, *([words[name]] if name in words else []), name)
        self.kind_box.setMinimumContentsLength(12)
        self.reload = self._read_again
        self._fill(p.form_values(f))
        if f.id:
            self.watch("party", f.id, "This record")
        focus_first(self)

    @property
    def kind_box(self) -> QComboBox:
        box = self.inputs["kind"]
        assert isinstance(box, QComboBox)
        return box

    def _fill(self, values: dict[str, str]) -> None:
        for name, widget in self.inputs.items():
            value = values.get(name, "")
            if isinstance(widget, QComboBox):
                widget.setCurrentIndex(max(0, widget.findData(value)))
            elif isinstance(widget, QPlainTextEdit):
                widget.setPlainText(value)
            elif isinstance(widget, QLineEdit):
                widget.setText(value)
        self._kind_changed()

    def _kind_changed(self) -> None:
        person = self.kind_box.currentData() == PartyKind.PERSON.value
        for name in ("first_name", "last_name"):  # a person's only
            self.inputs[name].setEnabled(person)
            self.form.setRowVisible(self.inputs[name], person)

    def values(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                out[name] = str(widget.currentData())
            elif isinstance(widget, QPlainTextEdit):
                out[name] = widget.toPlainText()
            elif isinstance(widget, QLineEdit):
                out[name] = widget.text()
        return out

    def set_value(self, name: str, value: str) -> None:
        widget = self.inputs[name]
        if isinstance(widget, QLineEdit):
            widget.setText(value)
        elif isinstance(widget, QPlainTextEdit):
            widget.setPlainText(value)

    def _read_again(self) -> None:
        """After a save refused over a newer version: the record as it is now."""
        f = read_facts(self.context, self.facts.id)
        if f is None:
            return
        self.facts, self.version = f, f.version
        self._fill(p.form_values(f))

    def run(self) -> None:
        changed = p.edit_from(self.values())
        if not p.changed_fields(self.facts, changed):
            return  # nothing to save: OK closes
        edit.update_party(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            changed,
            self.version,
        )


# --- retire ---------------------------------------------------------------------------------


class RetireDialog(ActionDialog):
    def __init__(
        self, context: PermitContext, f: PartyFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(context, f"Retire {f.name}", p.retire_note(f), "Re&tire", parent)
        self.setObjectName("retirePartyDialog")
        self.facts = f
        self.reason = _text_box(self, "retireReason", "e.g. entered twice; the company closed", 3)
        self.add_field("&Reason:", self.reason, "reason")
        focus_first(self)

    def run(self) -> None:
        retire.retire_party(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            self.reason.toPlainText(),
            self.facts.version,
        )


# --- merge ----------------------------------------------------------------------------------

CANDIDATES = 30  # the records a search offers to merge


class MergeDialog(ActionDialog):
    """Two records of the same person: the one kept and the duplicate, found by what is typed
    (name, address, phone); what the merge moves is listed before it is confirmed."""

    def __init__(
        self,
        context: PermitContext,
        kept_id: int | None,
        find: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            context,
            "Merge two records",
            "Find the records by name, address or phone. Everything on the duplicate (roles on "
            "permits, bonds, certificates, licences, payments, deposits, notices, credentials) "
            "moves to the record kept, and the duplicate is retired.",
            "&Merge…",
            parent,
        )
        self.setObjectName("mergePartiesDialog")
        self.initial_kept = kept_id
        self.preview: MergePreview | None = None
        self.merged = False
        self.lookup = QLineEdit(find, self)
        self.lookup.setObjectName("mergeFind")
        self.lookup.setPlaceholderText("Name, address or phone")
        self.add_field("&Find:", self.lookup, "find")
        self.kept = QComboBox(self)
        self.kept.setObjectName("mergeKept")
        self.add_field("&Keep:", self.kept, "kept", "record")
        self.duplicate = QComboBox(self)
        self.duplicate.setObjectName("mergeDuplicate")
        self.add_field("&Duplicate:", self.duplicate, "duplicate")
        # How many records move, then each one a line (a busy contractor's run to hundreds).
        self.moves = _text_box(self, "mergeMoves", "", 10)
        self.moves.setReadOnly(True)
        self.add_field("What mo&ves:", self.moves)
        self.lookup.textChanged.connect(lambda _t: self._search())
        self.kept.currentIndexChanged.connect(lambda _i: self._preview())
        self.duplicate.currentIndexChanged.connect(lambda _i: self._preview())
        self._search()
        focus_first(self)
        self.setMinimumWidth(720)

    def _rows(self) -> list[PartyRow]:
        today = self.context.clock.today()
        with self.context.database.read() as conn:
            found = find_parties(conn, today, PartyFilter.ALL, self.lookup.text(), CANDIDATES, 0)
            ids = {r.party_id for r in found}
            if self.initial_kept is not None and self.initial_kept not in ids:
                mine = party_row(conn, self.initial_kept)
                found = ([mine] if mine is not None else []) + found
        return [r for r in found if not r.merged_into]

    def _search(self) -> None:
        keep = self.kept.currentData() or self.initial_kept
        dup = self.duplicate.currentData()
        rows = self._rows()
        for box in (self.kept, self.duplicate):
            box.blockSignals(True)
            box.clear()
            for r in rows:
                box.addItem(p.choice_words(r), r.party_id)
        kept_at = max(0, self.kept.findData(keep)) if keep is not None else 0
        self.kept.setCurrentIndex(kept_at if rows else -1)
        dup_at = self.duplicate.findData(dup) if dup is not None else -1
        if dup_at < 0 or dup_at == kept_at:
            dup_at = next((i for i in range(len(rows)) if i != kept_at), -1)
        self.duplicate.setCurrentIndex(dup_at)
        for box in (self.kept, self.duplicate):
            box.blockSignals(False)
        self._preview()

    def _chosen(self) -> tuple[int, int] | None:
        kept, dup = self.kept.currentData(), self.duplicate.currentData()
        return (int(kept), int(dup)) if kept is not None and dup is not None else None

    def _preview(self) -> None:
        self.preview = None
        chosen = self._chosen()
        self.ok_button.setEnabled(False)
        if chosen is None:
            self.moves.setPlainText("Choose the record to keep and its duplicate.")
            return
        try:
            self.preview = merge.merge_preview(self.context.database.uow(), *chosen)
        except DeskError as e:
            self.moves.setPlainText(str(e))
            return
        lines = [f"• {line}" for line in p.merge_lines(self.preview)]
        self.moves.setPlainText("\n".join([p.merge_counts(self.preview), "", *lines]))
        self.ok_button.setEnabled(True)
        self.error_label.setVisible(False)

    def run(self) -> None:
        chosen = self._chosen()
        if chosen is None or self.preview is None:
            raise ValidationError("duplicate", "choose the record to keep and its duplicate")
        self.merged = False
        if not dialogs.ask(self, self.windowTitle(), p.merge_question(self.preview)):
            return
        merge.merge_parties(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            *chosen,
        )
        self.merged = True

    def submit(self) -> bool:
        """Merged and closed on a yes; a no keeps the dialog open."""
        if not super().submit():
            return False
        return self.merged

    def accept(self) -> None:
        if self.merged:
            super().accept()

    @property
    def kept_id(self) -> int | None:
        chosen = self._chosen()
        return chosen[0] if chosen else None


# --- credentials ----------------------------------------------------------------------------


class CredentialDialog(ActionDialog):
    """A state credential new to the record (a renewal of one on record is Renew…)."""

    def __init__(
        self, context: PermitContext, f: PartyFacts, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            f"Add a credential — {f.name}",
            "A state licence, certification or registration the person or company holds. A "
            "renewal of one already listed is Renew…, so the old one stays as history.",
            "&Add",
            parent,
        )
        self.setObjectName("addCredentialDialog")
        self.facts = f
        self.kind = QComboBox(self)
        self.kind.setObjectName("credentialKind")
        for label, kind in p.CREDENTIAL_KINDS:
            self.kind.addItem(label, kind.value)
        self.add_field("&Credential:", self.kind, "credential", "kind")
        self.number = QLineEdit(self)
        self.number.setObjectName("credentialNumber")
        self.number.setPlaceholderText("e.g. MP-1234")
        self.add_field("&Number:", self.number, "licence number", "number")
        self.state = QLineEdit("WI", self)
        self.state.setObjectName("credentialState")
        self.state.setMaxLength(2)
        self.add_field("Issuing &state:", self.state, "state")
        self.expires = date_edit(self, "credentialExpires", context.clock.today())
        self.expires.setMinimumDate(QDate(1950, 1, 1))
        self.add_field("&Expires:", self.expires, "expires")
        self.no_expiry = QCheckBox("N&o expiry date", self)
        self.no_expiry.setObjectName("credentialNoExpiry")
        self.no_expiry.toggled.connect(lambda on: self.expires.setEnabled(not on))
        self.add_field("", self.no_expiry)
        focus_first(self)

    def run(self) -> None:
        from desk.domain.enums import CredentialKind

        credentials.record_credential(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.facts.id,
            credentials.CredentialInput(
                CredentialKind(self.kind.currentData()),
                self.number.text(),
                None if self.no_expiry.isChecked() else from_qdate(self.expires.date()),
                self.state.text() or "WI",
            ),
        )


class RenewDialog(ActionDialog):
    """The credential renewed (or a number or date typed wrong corrected): a new one with the
    number and expiry given; the old one stays listed as history, pointing at it."""

    def __init__(
        self,
        context: PermitContext,
        f: PartyFacts,
        old: CredentialFact,
        parent: QWidget | None = None,
    ) -> None:
        until = format_date(old.expires_on) or "no expiry date"
        super().__init__(
            context,
            f"Renew {old.kind.label.lower()} {old.number}",
            f"{f.name}: {old.kind.label} {old.number}, {until}. Enter the number and expiry "
            "of the renewed credential; the old one stays listed as history.",
            "&Renew",
            parent,
        )
        self.setObjectName("renewCredentialDialog")
        self.facts, self.old = f, old
        self.number = QLineEdit(old.number, self)
        self.number.setObjectName("renewNumber")
        self.number.selectAll()
        self.add_field("New &number:", self.number, "licence number", "number")
        self.expires = date_edit(self, "renewExpires", p.renewal_expiry(old, context.clock.today()))
        self.expires.setMinimumDate(QDate(1950, 1, 1))
        self.add_field("New &expiry:", self.expires, "expires")
        self.no_expiry = QCheckBox("N&o expiry date", self)
        self.no_expiry.setObjectName("renewNoExpiry")
        self.no_expiry.toggled.connect(lambda on: self.expires.setEnabled(not on))
        self.add_field("", self.no_expiry)
        focus_first(self)

    def set_expiry(self, day: date | None) -> None:
        self.no_expiry.setChecked(day is None)
        if day is not None:
            self.expires.setDate(to_qdate(day))

    def run(self) -> None:
        expires = None if self.no_expiry.isChecked() else from_qdate(self.expires.date())
        p.check_renewal(self.old, self.number.text(), expires)
        credentials.renew_credential(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.old.id,
            self.number.text(),
            expires,
        )
