"""The bar over the permit window's Parties tab: one of the permit's people chosen, then Edit
person… (the People section's edit dialog) or Credentials… (the person's window on its
Credentials tab, to add or renew one), so a contractor's renewed state credential, new phone
or new address is recorded from the permit too; the permit shows it at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from desk.domain.readmodels import PartyLine
from ui import dialogs
from ui.permit.base import PermitContext
from ui.presenters.people import manage_allowed
from ui.views.common import enable_buttons


class PersonBar(QWidget):
    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("partiesPersonBar")
        self.context = context
        # The main window opens the person's window (one per person); alone, the bar opens
        # one of its own.
        self.person_opener: Callable[[int, str], object] | None = None
        self.choice = QComboBox(self)
        self.choice.setObjectName("partiesPerson")
        self.edit_button = QPushButton("Edit &person…", self)
        self.edit_button.setObjectName("editPerson")
        self.edit_button.setAutoDefault(False)
        self.edit_button.clicked.connect(lambda: self.edit_person())
        self.credentials_button = QPushButton("Cre&dentials…", self)
        self.credentials_button.setObjectName("personCredentials")
        self.credentials_button.setAutoDefault(False)
        self.credentials_button.clicked.connect(lambda: self.show_credentials())
        label = QLabel("Perso&n:", self)
        label.setBuddy(self.choice)
        row = QHBoxLayout(self)
        row.setContentsMargins(20, 10, 20, 0)
        row.addWidget(label)
        row.addWidget(self.choice, 1)
        row.addWidget(self.edit_button)
        row.addWidget(self.credentials_button)

    def load(self, parties: Sequence[PartyLine]) -> None:
        """Each person on the permit once, with the roles they hold on it."""
        chosen = self.choice.currentData()
        roles: dict[int, list[str]] = {}
        names: dict[int, str] = {}
        for line in parties:
            roles.setdefault(line.party_id, []).append(line.role.label)
            names[line.party_id] = line.name
        self.choice.clear()
        for party_id, held in roles.items():
            self.choice.addItem(f"{names[party_id]} ({', '.join(held)})", party_id)
        self.choice.setCurrentIndex(max(0, self.choice.findData(chosen)))
        some = (True, "") if roles else (False, "No one is recorded on this permit.")
        may = manage_allowed(self.context.session.actor)
        enable_buttons(
            ((self.edit_button, may if some[0] else some), (self.credentials_button, some))
        )
        self.choice.setEnabled(bool(roles))

    def _party_id(self) -> int | None:
        chosen = self.choice.currentData()
        return int(chosen) if chosen is not None else None

    def _reload_permit(self) -> None:
        window = self.window()
        if hasattr(window, "reload"):
            window.reload()

    def edit_person(self) -> bool:
        """The person chosen, in the edit dialog; the permit shows the change."""
        from ui.permit.actions import exec_dialog
        from ui.person.dialogs import PartyEditDialog, read_facts

        party_id = self._party_id()
        f = read_facts(self.context, party_id) if party_id is not None else None
        if f is None:
            return False
        if f.retired_on is not None:
            dialogs.warn(
                self, "Edit person", f"{f.name} is retired: restore the record in People first."
            )
            return False
        dialog = PartyEditDialog(self.context, f, self)
        done = exec_dialog(dialog)
        dialog.deleteLater()
        if done:
            self._reload_permit()
        return done

    def show_credentials(self) -> object:
        """The person's window on its Credentials tab (Add credential…, Renew…)."""
        party_id = self._party_id()
        if party_id is None:
            return None
        if self.person_opener is not None:
            return self.person_opener(party_id, "credentials")
        from ui.person.window import PersonWindow

        window = PersonWindow(self.context, party_id, self.window())
        window.changed.connect(lambda _pid: self._reload_permit())
        window.reload()
        window.select_tab("credentials")
        window.show()
        return window
