"""New Lisbon §435-8.I: the street register's repavings (Tools → Street repaving…, and the permit
window's Actions menu on a street opening) and the Common Council's approval of an opening
within five years of repaving (Actions → Record the Council's approval of the opening…).

Both are ActionDialogs over one service (desk.services.street_register); the issue dialog then
lists, or stops listing, the hold.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QWidget

from desk.errors import DeskError, ValidationError
from desk.services import street_register
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters.formatting import format_date
from ui.views.common import date_edit, from_qdate

COUNCIL_NOTE = (
    "§435-8.I: no permit is issued to open a street for five years after it was repaved unless "
    "the Common Council finds the opening absolutely essential. Record the day the Council "
    "approved this opening; the issue date may not be earlier."
)
REPAVING_NOTE = (
    "§435-8.I: for five years after a street is repaved, no opening permit is issued on it "
    "without the Common Council's approval. Record the day the street, or a segment of it "
    "between two house numbers, was repaved; every opening on it is held until the fifth "
    "anniversary."
)


class CouncilApprovalDialog(ActionDialog):
    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(
            context,
            "Record the Council's approval of the opening",
            COUNCIL_NOTE,
            "&Record approval",
            parent,
        )
        self.approved_on = date_edit(self, "councilApprovedOn", context.clock.today())
        self.add_field("&Approved by the Council on:", self.approved_on, "approved on")
        self.resolution = QLineEdit(self)
        self.resolution.setObjectName("councilResolution")
        self.resolution.setPlaceholderText("e.g. Res. 2026-14, minutes of 05/12/2026")
        self.resolution.setMaxLength(200)
        self.add_field("&Resolution or minutes:", self.resolution, "note")
        self.approved_on.setFocus()

    def run(self) -> None:
        street_register.record_council_approval(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            from_qdate(self.approved_on.date()),
            self.resolution.text(),
        )


def _optional_number(text: str, field: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise ValidationError(field, f"'{text}' is not a house number")
    return int(text)


class StreetRepavingDialog(ActionDialog):
    """Record a repaving on the street register. `street`: the permit's parcel street, when
    opened from a permit (a context without a permit: permit_id 0, from the Tools menu)."""

    def __init__(
        self, context: PermitContext, street: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(context, "Street repaving", REPAVING_NOTE, "&Record repaving", parent)
        self.street = QLineEdit(street, self)
        self.street.setObjectName("repavingStreet")
        self.street.setPlaceholderText("as the parcels spell it, e.g. E Bridge St")
        self.add_field("&Street:", self.street, "street")
        self.from_number = QLineEdit(self)
        self.from_number.setObjectName("repavingFrom")
        self.from_number.setPlaceholderText("blank: the whole street")
        self.add_field("&From house number:", self.from_number, "from number")
        self.to_number = QLineEdit(self)
        self.to_number.setObjectName("repavingTo")
        self.add_field("&To house number:", self.to_number, "to number")
        self.repaved_on = date_edit(self, "repavedOn", context.clock.today())
        self.add_field("Re&paved on:", self.repaved_on, "repaved on")
        self.notes = _text_box(self, "repavingNotes", "e.g. Mill and overlay, contract 2021-07", 2)
        self.add_field("&Notes:", self.notes, "notes")
        self.recorded = _text_box(self, "repavingRegister", "", 5)
        self.recorded.setReadOnly(True)
        self.add_field("On the register:", self.recorded)
        self._show_register()
        self.street.setFocus()

    def _show_register(self) -> None:
        try:
            rows = street_register.repavings(
                self.context.database.uow(), self.context.session.municipality_id
            )
        except DeskError:
            rows = []
        lines = [
            f"{r.segment}: repaved {format_date(r.repaved_on)}, no opening before "
            f"{format_date(r.moratorium_ends)} without the Council"
            for r in rows
        ]
        self.recorded.setPlainText("\n".join(lines) or "No repaving recorded yet.")

    def run(self) -> None:
        street_register.record_repaving(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.session.municipality_id,
            self.street.text(),
            from_qdate(self.repaved_on.date()),
            from_number=_optional_number(self.from_number.text(), "from number"),
            to_number=_optional_number(self.to_number.text(), "to number"),
            notes=self.notes.toPlainText(),
        )
