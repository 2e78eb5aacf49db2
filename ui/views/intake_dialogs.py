"""Small dialogs of the new-application form: a new parcel, a new party (with a licence), the
house number of a parcel. Each calls its service and shows the service's message on a mistake."""

from __future__ import annotations

import re
from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from db.parcel_queries import usual_city_zip
from desk.clock import Clock
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.model import Actor, Credential, Parcel, Party
from desk.errors import DeskError, DuplicateRecord, ValidationError
from desk.services import intake, permits
from ui import dialogs, focus
from ui.views.common import date_edit, from_qdate, to_qdate


class _ServiceDialog(QDialog):
    """A form over one service call: OK runs it; its error shows under the form, naming the
    field in words, with the cursor in it. Opens in its first field (ui.focus)."""

    def __init__(self, title: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        focus.install(self)

    def line(self, label: str, name: str, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        if placeholder:  # the example is the instruction: wide enough to read it whole
            edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance(placeholder) + 40)
        self.form.addRow(label, edit)
        return edit

    def run(self) -> None:
        raise NotImplementedError

    def _ok(self) -> None:
        try:
            self.run()
        except DeskError as e:
            focus.show_error(self, self.error_label, e)
            return
        self.accept()


class NewParcelDialog(_ServiceDialog):
    def __init__(
        self,
        database: Database,
        clock: Clock,
        actor: Actor,
        municipality_id: int,
        parent: QWidget | None = None,
        *,
        street: str = "",
    ) -> None:
        """`street`: the address as typed in the form: "6100 N Port Washington Rd" gives the
        house number and the street; the city and ZIP are the municipality's usual ones."""
        super().__init__("New parcel", parent)
        self.database, self.clock, self.actor = database, clock, actor
        self.municipality_id = municipality_id
        self.parcel_id: int | None = None
        self.pin = self.line("Parcel number (&PIN)", "newParcelPin", "e.g. 047-9991-002")
        self.house = self.line("&House number", "newParcelHouse", "blank if none assigned yet")
        self.street = self.line("&Street", "newParcelStreet", "e.g. N Port Washington Rd")
        typed = street.strip()
        house, _, rest = typed.partition(" ")
        if re.fullmatch(r"\d+(-\d+)+", typed):  # "047-9991-002": the parcel number
            self.pin.setText(typed)
        elif re.fullmatch(r"\d+[A-Za-z]?", typed):  # a house number alone
            self.house.setText(typed)
        elif re.fullmatch(r"\d+[A-Za-z]?(-\d+)?", house) and rest.strip():
            self.house.setText(house)
            self.street.setText(rest.strip())
        else:
            self.street.setText(typed)
        self.unit = self.line("&Unit", "newParcelUnit")
        self.city = self.line("&City", "newParcelCity")
        self.zip = self.line("&ZIP", "newParcelZip")
        with database.read() as conn:
            city, zip_code = usual_city_zip(conn, municipality_id)
        self.city.setText(city)
        self.zip.setText(zip_code)
        # The buttons were made first: Tab goes down the form, then to OK.
        QWidget.setTabOrder(self.zip, self.buttons)

    def run(self) -> None:
        try:
            self.parcel_id = permits.add_parcel(
                self.database.uow(),
                self.clock,
                self.actor,
                Parcel(
                    municipality_id=self.municipality_id,
                    pin=self.pin.text().strip(),
                    house_number=self.house.text().strip(),
                    street=self.street.text().strip(),
                    unit=self.unit.text().strip(),
                    city=self.city.text().strip(),
                    zip=self.zip.text().strip(),
                ),
            )
        except DuplicateRecord as e:
            # The parcel is on file already: most likely the clerk missed it in the list.
            question = f"{e.message.removesuffix('.')} — use it?"
            if not dialogs.ask(self, "New parcel", question, default_yes=True):
                self.pin.setFocus()
                self.pin.selectAll()
                raise
            self.parcel_id = e.existing_id


class NewPartyDialog(_ServiceDialog):
    """A person or an organization, and the state licence it holds, if any."""

    def __init__(
        self,
        database: Database,
        clock: Clock,
        actor: Actor,
        parent: QWidget | None = None,
        *,
        name: str = "",
        credential: CredentialKind | None = None,
    ) -> None:
        super().__init__("New person or organization", parent)
        self.database, self.clock, self.actor = database, clock, actor
        self.party_id: int | None = None
        self.organization = QCheckBox("An &organization (a company), not a person", self)
        self.form.addRow("", self.organization)
        self.name = self.line("&Name", "newPartyName", "e.g. Anna Schmidt or Badger Builders LLC")
        self.name.setText(name)
        self.address = self.line("&Address", "newPartyAddress")
        self.city = self.line("&City", "newPartyCity")
        self.state = self.line("S&tate", "newPartyState")
        self.state.setText("WI")
        self.zip = self.line("&ZIP", "newPartyZip")
        self.phone = self.line("&Phone", "newPartyPhone")
        self.email = self.line("&Email", "newPartyEmail")
        self.credential_kind = QComboBox(self)
        self.credential_kind.addItem("(none)", None)
        for kind in CredentialKind:
            self.credential_kind.addItem(kind.label, kind)
        if credential is not None:
            self.credential_kind.setCurrentIndex(self.credential_kind.findData(credential))
        self.form.addRow("&Licence", self.credential_kind)
        self.credential_number = self.line("Licence n&umber", "newPartyLicence")
        self.credential_expires = date_edit(self, "newPartyLicenceExpires")
        self.credential_expires.setDate(to_qdate(clock.today()).addYears(1))
        self.credential_expires.setMinimumDate(QDate(1990, 1, 1))
        self.form.addRow("E&xpires", self.credential_expires)
        # The buttons were made first: Tab goes down the form, then to OK. The cursor starts in
        # the name (the organization box above it is a check, not a field to type in).
        self.name.setFocus()
        QWidget.setTabOrder(self.credential_expires, self.buttons)

    def run(self) -> None:
        name = self.name.text().strip()
        person = not self.organization.isChecked()
        first, _, last = name.rpartition(" ") if person else ("", "", "")
        kind = self.credential_kind.currentData()
        if kind is not None and not self.credential_number.text().strip():
            raise ValidationError("licence number", "enter the licence or registration number")
        uow = self.database.uow()
        self.party_id = permits.add_party(
            uow,
            self.clock,
            self.actor,
            Party(
                kind=PartyKind.PERSON if person else PartyKind.ORGANIZATION,
                name=name,
                first_name=first,
                last_name=last,
                address_line1=self.address.text().strip(),
                city=self.city.text().strip(),
                state=self.state.text().strip() or "WI",
                zip=self.zip.text().strip(),
                phone=self.phone.text().strip(),
                email=self.email.text().strip(),
            ),
        )
        if kind is not None:
            expires: date = from_qdate(self.credential_expires.date())
            permits.add_credential(
                uow,
                self.clock,
                self.actor,
                self.party_id,
                Credential(
                    kind=kind, number=self.credential_number.text().strip(), expires_on=expires
                ),
            )


class HouseNumberDialog(_ServiceDialog):
    """Record the official house number of a parcel (New Lisbon §435-15.E)."""

    def __init__(
        self,
        database: Database,
        clock: Clock,
        actor: Actor,
        parcel_id: int,
        where: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Record house number", parent)
        self.database, self.clock, self.actor = database, clock, actor
        self.parcel_id = parcel_id
        note = QLabel(
            f"{where}\nThe official house number, as assigned for the new structure "
            "(New Lisbon §435-15.E).",
            self,
        )
        note.setWordWrap(True)
        self.form.addRow(note)
        self.number = self.line("&House number", "houseNumber", "e.g. 6124")

    def run(self) -> None:
        intake.record_house_number(
            self.database.uow(), self.clock, self.actor, self.parcel_id, self.number.text()
        )
