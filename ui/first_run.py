"""First start on an empty database: demo data, or a municipality and its administrator."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCommandLinkButton,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock, SystemClock
from desk.domain.model import Actor
from desk.services import users
from ui import workers
from ui.presenters.first_run import (
    NEW_MUNICIPALITY,
    AdminForm,
    create_administrator,
    municipality_choices,
)
from ui.presenters.new_municipality import NewMunicipalityForm, NewMunicipalityPresenter
from ui.views.new_municipality import NewMunicipalityDialog

DEMO = "demo"
ADMIN = "admin"


def _run_demo(database: Database, progress: workers.Progress) -> str:
    from db.demo import DemoSpec, build_demo  # only on first run: keeps the start fast

    return build_demo(database, DemoSpec(), progress)


class FirstRunDialog(QDialog):
    """Ends accepted with `outcome` DEMO (then sign in) or ADMIN (signed in as `actor`)."""

    def __init__(
        self, database: Database, parent: QWidget | None = None, *, clock: Clock | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunDialog")
        self.setWindowTitle("Welcome to Permit Desk")
        self.database = database
        self.clock: Clock = clock or SystemClock()
        self.outcome: str | None = None
        self.actor: Actor | None = None
        self.demo_summary = ""
        self._worker: workers.Worker | None = None

        self.pages = QStackedWidget(self)
        self.welcome_page = self._welcome_page()
        self.progress_page = self._progress_page()
        self.admin_page = self._admin_page()
        for page in (self.welcome_page, self.progress_page, self.admin_page):
            self.pages.addWidget(page)
        # Enter in a field of the administrator's form creates it. Set as the default only
        # now the page is in the dialog (before, the welcome page's first button took it).
        self.create_button.setDefault(True)
        self.pages.currentChanged.connect(self._page_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 16)
        layout.addWidget(self.pages)
        self.setMinimumWidth(520)

    # --- pages --------------------------------------------------------------------------

    def _welcome_page(self) -> QWidget:
        page = QWidget()
        heading = QLabel("Welcome to Permit Desk")
        heading.setObjectName("dialogHeading")
        text = QLabel(f"This database is new: it has no users yet.\n{self.database.where}")
        text.setObjectName("noteText")
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.demo_button = QCommandLinkButton(
            "Load demo data",
            "Three years of made-up permits for the City of Glendale, to try Permit Desk out.",
        )
        self.demo_button.clicked.connect(self.start_demo)
        self.empty_button = QCommandLinkButton(
            "Start with an empty database",
            "Choose your municipality — Glendale, Hudson, New Lisbon or any other Wisconsin "
            "city, village or town — and create the first administrator.",
        )
        self.empty_button.clicked.connect(self.show_admin_page)
        self.welcome_error = QLabel()
        self.welcome_error.setObjectName("errorText")
        self.welcome_error.setWordWrap(True)
        self.welcome_error.setVisible(False)
        cancel = QPushButton("Quit")
        cancel.clicked.connect(self.reject)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        layout.addWidget(heading)
        layout.addWidget(text)
        layout.addSpacing(6)
        layout.addWidget(self.demo_button)
        layout.addWidget(self.empty_button)
        layout.addWidget(self.welcome_error)
        layout.addStretch(1)
        layout.addWidget(cancel, 0, Qt.AlignmentFlag.AlignRight)
        return page

    def _progress_page(self) -> QWidget:
        page = QWidget()
        heading = QLabel("Loading demo data…")
        heading.setObjectName("dialogHeading")
        self.progress_text = QLabel("Preparing…")
        self.progress_text.setObjectName("noteText")
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 0)  # busy until the first report
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        layout.addWidget(heading)
        layout.addWidget(self.progress_text)
        layout.addWidget(self.progress_bar)
        layout.addStretch(1)
        return page

    def _admin_page(self) -> QWidget:
        page = QWidget()
        heading = QLabel("Set up Permit Desk")
        heading.setObjectName("dialogHeading")
        self.municipality_box = QComboBox()
        self.municipality_box.setObjectName("municipality")
        for key, name in municipality_choices():
            self.municipality_box.addItem(name, key)
        # Any other Wisconsin city, village or town: set up in the New municipality form, and
        # created with the administrator below.
        self.new_municipality: NewMunicipalityForm | None = None
        self.another_button = QPushButton("Another &Wisconsin municipality…")
        self.another_button.setObjectName("anotherMunicipality")
        self.another_button.setAutoDefault(False)
        self.another_button.clicked.connect(self.set_up_another)
        municipality_row = QHBoxLayout()
        municipality_row.setContentsMargins(0, 0, 0, 0)
        municipality_row.addWidget(self.municipality_box, 1)
        municipality_row.addWidget(self.another_button)
        self.username_edit = QLineEdit()
        self.username_edit.setObjectName("username")
        self.full_name_edit = QLineEdit()
        self.full_name_edit.setObjectName("full_name")
        self.password_edit = QLineEdit()
        self.password_edit.setObjectName("password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_again_edit = QLineEdit()
        self.password_again_edit.setObjectName("password_again")
        self.password_again_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.fields: dict[str, QWidget] = {
            "municipality": self.municipality_box,
            "username": self.username_edit,
            "full_name": self.full_name_edit,
            "password": self.password_edit,
            "password_again": self.password_again_edit,
        }
        form = QFormLayout()
        municipality_label = QLabel("&Municipality")
        municipality_label.setBuddy(self.municipality_box)
        form.addRow(municipality_label, municipality_row)
        form.addRow("&User name", self.username_edit)
        form.addRow("&Full name", self.full_name_edit)
        form.addRow("&Password", self.password_edit)
        form.addRow("Password (&again)", self.password_again_edit)
        rule = QLabel(users.PASSWORD_RULE)
        rule.setObjectName("noteText")
        rule.setWordWrap(True)
        hint = QLabel(
            "After signing in, add the other users under Administration → Users and set the "
            "letterhead under Administration → Municipality."
        )
        hint.setObjectName("noteText")
        hint.setWordWrap(True)
        self.admin_error = QLabel()
        self.admin_error.setObjectName("errorText")
        self.admin_error.setWordWrap(True)
        self.admin_error.setVisible(False)
        buttons = QDialogButtonBox()
        self.create_button = buttons.addButton(
            "Create administrator", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.create_button.setDefault(True)
        back = buttons.addButton("Back", QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.create_admin)
        back.clicked.connect(lambda: self.pages.setCurrentWidget(self.welcome_page))
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        layout.addWidget(heading)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(rule)
        layout.addWidget(self.admin_error)
        layout.addStretch(1)
        layout.addWidget(buttons)
        return page

    def _page_changed(self, _index: int) -> None:
        if self.pages.currentWidget() is self.admin_page:
            self.create_button.setDefault(True)  # a welcome button focused meanwhile took it

    def show_admin_page(self) -> None:
        self.pages.setCurrentWidget(self.admin_page)
        self.municipality_box.setFocus()  # the page's first field

    # --- demo ---------------------------------------------------------------------------

    def start_demo(self) -> None:
        self.welcome_error.setVisible(False)
        self.pages.setCurrentWidget(self.progress_page)
        worker = workers.Worker(lambda progress: _run_demo(self.database, progress))
        worker.signals.progress.connect(self._demo_progress)
        worker.signals.finished.connect(self._demo_finished)
        worker.signals.failed.connect(self._demo_failed)
        self._worker = worker
        workers.start(worker)

    def _demo_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)
            self.progress_text.setText(f"{done:,} of {total:,} permits")

    def _demo_finished(self, summary: Any) -> None:
        self._worker = None
        self.demo_summary = str(summary or "")
        self.outcome = DEMO
        self.accept()

    def _demo_failed(self, message: str) -> None:
        self._worker = None
        self.pages.setCurrentWidget(self.welcome_page)
        self.welcome_error.setText(f"The demo data could not be loaded: {message}")
        self.welcome_error.setVisible(True)

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def reject(self) -> None:
        if self.busy:  # the demo is being written; closing now would leave half of it
            return
        super().reject()

    # --- administrator ------------------------------------------------------------------

    def set_up_another(self) -> NewMunicipalityDialog:
        """Another Wisconsin municipality…: the New municipality form (what was typed before,
        when it is opened again); created with the administrator."""
        dialog = NewMunicipalityDialog(
            self, form=self.new_municipality, ok_text="&Use this municipality"
        )
        dialog.accepted.connect(lambda: self._use_new(dialog))
        dialog.open()
        return dialog

    def _use_new(self, dialog: NewMunicipalityDialog) -> None:
        self.new_municipality = dialog.presenter.form
        box = self.municipality_box
        at = box.findData(NEW_MUNICIPALITY)
        if at < 0:
            box.addItem("", NEW_MUNICIPALITY)
            at = box.count() - 1
        box.setItemText(at, dialog.presenter.checked_name)
        box.setCurrentIndex(at)
        self.admin_error.setVisible(False)
        self.username_edit.setFocus()

    def form(self) -> AdminForm:
        key = str(self.municipality_box.currentData() or "")
        spec = None
        if key == NEW_MUNICIPALITY and self.new_municipality is not None:
            spec = NewMunicipalityPresenter(self.new_municipality).spec()
        return AdminForm(
            municipality=key,
            username=self.username_edit.text(),
            full_name=self.full_name_edit.text(),
            password=self.password_edit.text(),
            password_again=self.password_again_edit.text(),
            new_municipality=spec,
        )

    def create_admin(self) -> None:
        actor, problem = create_administrator(self.database.uow(), self.clock, self.form())
        if problem is not None:
            self.admin_error.setText(problem.message)
            self.admin_error.setVisible(True)
            widget = self.fields.get(problem.field)
            if widget is not None:
                widget.setFocus()
            return
        self.actor = actor
        self.outcome = ADMIN
        self.accept()
