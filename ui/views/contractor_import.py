"""People → Import contractors…: a CSV file or an Excel workbook of contractors (the template
this window saves, or the office's own list with the same headings) brought into the register.
The file is read and the dry run shown (a preview of the first rows, then who is new, what
changes old → new, which credentials are added or renewed, and the rows rejected with why),
saved as a workbook if wanted, then imported off the UI thread with a progress bar and Cancel
(Esc). Nothing is written before the dry run has been shown, and a cancelled or failed import
leaves the register as it was (one transaction, desk.services.people.contractors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from ui import dialogs, exports
from ui.geometry import fit_window
from ui.presenters import contractor_import as p
from ui.presenters.registers import Line
from ui.presenters.session import Session
from ui.views.common import LinesModel, fit_columns, note_label, read_only_table
from ui.views.import_work import ImportWorkDialog
from ui.views.import_work import button as _button

TITLE = "Import contractors"


@dataclass
class _Rows:
    """Rows and columns for a LinesModel (the preview's columns are the file's)."""

    columns: tuple[str, ...]
    rows: list[Line] = field(default_factory=list)


class ContractorImportDialog(ImportWorkDialog):
    """One window: the file, the dry run, the import; `imported` carries the import's id."""

    imported = Signal(int)
    presenter: p.ContractorImportPresenter

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("contractorImport")
        self.setWindowTitle(f"{TITLE} — {session.municipality_name}")
        self.presenter = p.ContractorImportPresenter(
            database.uow,
            session.actor,
            session.municipality_id,
            clock,
            municipality_name=session.municipality_name,
        )
        self._work_widgets()
        self._filling = False

        intro = note_label(self)
        intro.setText(
            "A CSV file or an Excel workbook (.xlsx) with one row per contractor and credential "
            f"under the headings {', '.join(p.HEADINGS)} (Name is required). Save the template "
            "to start one. Nothing is written before you have seen the dry run."
        )
        self.choose_file_button = _button(self, "Choose a &file…", "chooseFile")
        self.choose_file_button.clicked.connect(self.choose_file)
        self.template_button = _button(self, "Save &template…", "saveTemplate")
        self.template_button.setToolTip(
            "An Excel workbook with the headings, and a sheet that explains each column"
        )
        self.template_button.clicked.connect(self.save_template)
        self.file_label = note_label(self)
        self.file_label.setObjectName("fieldValue")
        self.sheet_combo = QComboBox(self)
        self.sheet_combo.setObjectName("importSheet")
        self.sheet_combo.setMinimumContentsLength(20)
        self.sheet_combo.currentIndexChanged.connect(self._sheet_chosen)
        self.sheet_label = QLabel("&Sheet:", self)
        self.sheet_label.setBuddy(self.sheet_combo)
        file_row = QHBoxLayout()
        file_row.addWidget(self.choose_file_button)
        file_row.addWidget(self.template_button)
        file_row.addSpacing(12)
        file_row.addWidget(self.file_label, 1)
        file_row.addWidget(self.sheet_label)
        file_row.addWidget(self.sheet_combo)

        self.summary = QLabel(self)
        self.summary.setObjectName("sectionTitle")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.words = note_label(self)
        self.save_button = _button(self, "Save &dry run…", "saveDryRun")
        self.save_button.setToolTip("The dry run as an Excel workbook, to keep with the file")
        self.save_button.clicked.connect(self.save_dry_run)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignTop)

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("dryRunTabs")
        self.tab_tables: dict[str, QTableView] = {}
        self.tab_rows: dict[str, _Rows] = {}
        for table in self.presenter.tables():
            rows = _Rows(table.columns)
            view = read_only_table(self, f"dryRun:{table.key}", LinesModel(rows, self))
            self.tab_rows[table.key] = rows
            self.tab_tables[table.key] = view
            self.tabs.addTab(view, table.tab_title)

        self.import_button = QPushButton("&Import", self)
        self.import_button.setObjectName("importContractors")
        self.import_button.setDefault(True)
        self.import_button.clicked.connect(self.start_import)
        self.close_button = _button(self, "Close", "importClose")
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 14, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(intro)
        layout.addLayout(file_row)
        layout.addLayout(top)
        layout.addWidget(self.words)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.outcome)
        layout.addWidget(self.work_row)
        layout.addLayout(buttons)
        fit_window(self, "contractor_import", (1100, 640))
        self._fill()
        ok, why = self.presenter.may_open()
        if not ok:
            self._say(why)

    # --- showing -----------------------------------------------------------------------------

    def _fill(self) -> None:
        pr = self.presenter
        self.file_label.setText(pr.file_text)
        sheets = pr.sheets
        self._filling = True
        try:
            self.sheet_combo.clear()
            self.sheet_combo.addItems(sheets)
            if pr.loaded is not None and sheets:
                self.sheet_combo.setCurrentIndex(max(sheets.index(pr.loaded.sheet), 0))
        finally:
            self._filling = False
        self.sheet_combo.setVisible(bool(sheets))
        self.sheet_label.setVisible(bool(sheets))
        self.summary.setText(pr.summary or "Choose the contractors' file to see the dry run.")
        self.words.setText(pr.words)
        self.words.setVisible(bool(pr.words))
        first_with_rows = -1
        for i, table in enumerate(pr.tables()):
            self.tab_rows[table.key].columns = table.columns
            self.tab_rows[table.key].rows = table.rows
            view = self.tab_tables[table.key]
            model = view.model()
            assert isinstance(model, LinesModel)
            model.reload()
            fit_columns(view, (len(table.columns) - 1 if table.stretch < 0 else table.stretch,))
            self.tabs.setTabText(i, table.tab_title)
            if first_with_rows < 0 and table.rows and table.key != "preview":
                first_with_rows = i
        self.tabs.setCurrentIndex(max(first_with_rows, 0))
        self._buttons()

    def _buttons(self) -> None:
        pr, busy = self.presenter, bool(self.presenter.running)
        allowed, _why = pr.may_open()
        self.choose_file_button.setEnabled(allowed and not busy)
        self.sheet_combo.setEnabled(not busy)
        self.template_button.setEnabled(not busy)
        self.save_button.setEnabled(not busy and pr.loaded is not None)
        ok, why = pr.may_import()
        self.import_button.setText(pr.import_label)
        self.import_button.setEnabled(ok and not busy)
        self.import_button.setToolTip(why)
        self.close_button.setEnabled(not busy)

    # --- the file ----------------------------------------------------------------------------

    def choose_file(self) -> None:
        chosen = dialogs.choose_file(self, "Choose the contractors' file", p.FILE_FILTER)
        if chosen:
            self.open_file(chosen)

    def open_file(self, path: str | Path) -> None:
        """Read the file and make the dry run off the UI thread."""
        name = Path(path).name
        self._run(
            f"Reading {name}…", self.presenter.load_job(path), self._loaded, self._load_failed
        )

    def _sheet_chosen(self) -> None:
        if self._filling or self.presenter.loaded is None:
            return
        sheet = self.sheet_combo.currentText()
        if sheet and sheet != self.presenter.loaded.sheet:
            job = self.presenter.sheet_job(sheet)
            self._run(f"Reading sheet {sheet}…", job, self._loaded, self._load_failed)

    def _load_failed(self) -> None:
        self.presenter.load_failed()
        self._fill()

    def _loaded(self, loaded: Any) -> None:
        self.presenter.load_done(loaded)
        self.outcome.setVisible(False)
        self._fill()
        (self.import_button if self.import_button.isEnabled() else self.tabs).setFocus()

    def save_template(self) -> Path | None:
        return exports.save_and_open(
            self,
            "Save the contractors' template",
            "Save the template as",
            p.TEMPLATE_NAME,
            self.presenter.write_template,
            kind=exports.XLSX,
            what="The template",
        )

    def save_dry_run(self) -> Path | None:
        if self.presenter.loaded is None:
            return None
        return exports.save_and_open(
            self,
            "Save the dry run",
            "Save the dry run as",
            self.presenter.report_name,
            self.presenter.write_dry_run,
            kind=exports.XLSX,
            what="The dry run",
        )

    # --- the import --------------------------------------------------------------------------

    def start_import(self) -> None:
        ok, why = self.presenter.may_import()
        if not ok:
            self._say(why)
            return
        self._run("Importing the contractors…", self.presenter.import_job(), self._imported)

    def _imported(self, imported: Any) -> None:
        self.presenter.import_done(imported)
        self.words.setText(self.presenter.words)
        self._buttons()
        self.outcome.setText(self.presenter.result_text)
        self.outcome.setVisible(True)
        self.close_button.setFocus()
        self.imported.emit(imported.import_id)

    # --- the work off the UI thread ----------------------------------------------------------

    def _after_work(self) -> None:
        self.choose_file_button.setFocus()


def open_contractor_import(
    parent: QWidget | None, database: Database, session: Session, clock: Clock
) -> ContractorImportDialog:
    """People → Import contractors…: the window, shown; its focus on choosing the file."""
    dialog = ContractorImportDialog(database, session, clock, parent)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.choose_file_button.setFocus()
    return dialog
