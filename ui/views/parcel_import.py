"""File → Import parcels…: the county's parcel file brought into the register in six steps —
the file, its layer, which column fills which field (with a preview of the first rows), whose
rows to read (PLACENAME), the dry run (shown, and saved as a workbook), and the import. Reading
the file and writing the register run off the UI thread with a progress bar and Cancel (Esc);
nothing is written before the dry run has been shown, and a cancelled or failed import leaves
the register as it was (one transaction, desk.services.parcels.imports).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.errors import DeskError
from desk.imports.mapping import TARGETS
from desk.imports.parcels import ImportPlan
from desk.services.parcels import imports as parcel_imports
from desk.services.parcels.imports import Imported
from reports.parcel_import_report import write_dry_run
from ui import dialogs, exports
from ui.geometry import fit_window
from ui.models.base import Index
from ui.presenters import parcel_import as p
from ui.presenters.registers import Line
from ui.presenters.session import Session
from ui.views.common import LinesModel, fit_columns, note_label, read_only_table
from ui.views.import_work import ImportWorkDialog
from ui.views.import_work import button as _button

TITLE = "Import parcels"


@dataclass
class _Rows:
    """Rows and columns for a LinesModel."""

    columns: tuple[str, ...]
    rows: list[Line] = field(default_factory=list)


class _Model(LinesModel):
    """A list whose columns of figures are aligned right."""

    def __init__(self, rows: _Rows, numbers: tuple[int, ...], parent: QWidget) -> None:
        super().__init__(rows, parent)
        self.numbers = numbers

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.numbers:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        return super().data(index, role)


def _combo(parent: QWidget, name: str) -> QComboBox:
    combo = QComboBox(parent)
    combo.setObjectName(name)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(20)
    combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return combo


class ParcelImportDialog(ImportWorkDialog):
    """The six steps in one window; `imported` carries the import's id."""

    imported = Signal(int)
    presenter: p.ParcelImportPresenter

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("parcelImport")
        self.setWindowTitle(f"{TITLE} — {session.municipality_name}")
        self.database = database
        self.session = session
        self.clock = clock
        settings = parcel_imports.import_settings(database.uow(), session.municipality_id)
        self.presenter = p.ParcelImportPresenter(
            settings, municipality_name=session.municipality_name, today=clock.today()
        )
        self._work_widgets()
        self._filling = False  # combos being filled: their signals are not the clerk's

        self.steps_label = QLabel(self)
        self.steps_label.setObjectName("noteText")
        self.steps_label.setTextFormat(Qt.TextFormat.RichText)
        self.heading = QLabel(self)
        self.heading.setObjectName("dialogHeading")
        self.pages = QStackedWidget(self)
        for build in (
            self._file_page,
            self._layer_page,
            self._mapping_page,
            self._place_page,
            self._dry_run_page,
            self._done_page,
        ):
            self.pages.addWidget(build())
        self.outcome.setObjectName("noteText")

        self.back_button = _button(self, "&Back", "importBack")
        self.back_button.clicked.connect(self.back)
        self.next_button = QPushButton("&Next", self)
        self.next_button.setObjectName("importNext")
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self.next)
        self.close_button = _button(self, "Close", "importClose")
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 14, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(self.steps_label)
        layout.addWidget(self.heading)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.outcome)
        layout.addWidget(self.work_row)
        layout.addLayout(buttons)
        fit_window(self, "parcel_import", (1180, 680))
        self._show_step(p.FILE)

    # --- pages ------------------------------------------------------------------------------

    def _file_page(self) -> QWidget:
        page = QWidget(self)
        intro = note_label(page)
        intro.setText(
            "Choose the parcel file your county publishes (the Wisconsin statewide parcel "
            "schema, or any layout you map on the third step): an Esri file geodatabase (a "
            ".gdb folder, or zipped), a shapefile (.shp, or zipped), a GeoPackage (.gpkg), a "
            "CSV file or an Excel workbook (.xlsx). Nothing is written before you have seen "
            "the dry run."
        )
        self.choose_file_button = _button(page, "Choose a &file…", "chooseFile")
        self.choose_file_button.clicked.connect(self.choose_file)
        self.choose_gdb_button = _button(page, "Choose a .&gdb folder…", "chooseGdb")
        self.choose_gdb_button.clicked.connect(self.choose_gdb)
        row = QHBoxLayout()
        row.addWidget(self.choose_file_button)
        row.addWidget(self.choose_gdb_button)
        row.addStretch(1)
        self.file_label = note_label(page)
        self.file_label.setObjectName("fieldValue")
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.file_label)
        layout.addStretch(1)
        return page

    def _layer_page(self) -> QWidget:
        page = QWidget(self)
        self.layer_combo = _combo(page, "importLayer")
        self.layer_combo.currentIndexChanged.connect(self._layer_chosen)
        label = QLabel("&Layer:", page)
        label.setBuddy(self.layer_combo)
        form = QFormLayout()
        form.addRow(label, self.layer_combo)
        self.layer_text = note_label(page)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.layer_text)
        layout.addStretch(1)
        return page

    def _mapping_page(self) -> QWidget:
        page = QWidget(self)
        intro = note_label(page)
        intro.setText(
            "Each field of a parcel and the column of the file it is read from. The parcel "
            "number is the key; a field not in the file stays blank. The mapping is kept for "
            "the next import."
        )
        self.v10_button = _button(page, "Wisconsin &V10 preset", "v10Preset")
        self.v10_button.setToolTip(
            "The columns of the Wisconsin statewide parcel schema, version 10 (the ones the "
            "file has)"
        )
        self.v10_button.clicked.connect(self.use_v10)
        fields = QWidget(page)
        form = QFormLayout(fields)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setContentsMargins(0, 0, 8, 0)
        self.mapping_combos: dict[str, QComboBox] = {}
        for target in TARGETS:
            combo = _combo(fields, f"map:{target.key}")
            combo.setMinimumContentsLength(16)
            combo.currentIndexChanged.connect(lambda _i, key=target.key: self._mapping_changed(key))
            text = f"{target.label}{' (required)' if target.required else ''}:"
            label = QLabel(text, fields)
            label.setBuddy(combo)
            if target.hint:
                label.setToolTip(target.hint)
            form.addRow(label, combo)
            self.mapping_combos[target.key] = combo
        scroll = QScrollArea(page)
        scroll.setObjectName("mappingFields")
        scroll.setWidgetResizable(True)
        scroll.setWidget(fields)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left = QWidget(page)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.v10_button, 0, Qt.AlignmentFlag.AlignLeft)
        left_layout.addWidget(scroll, 1)

        self.preview_rows = _Rows(p.PREVIEW_COLUMNS)
        self.preview_model = _Model(self.preview_rows, p.PREVIEW_NUMBERS, self)
        self.preview = read_only_table(page, "mappingPreview", self.preview_model)
        self.preview_title = QLabel(page)
        self.preview_title.setObjectName("columnHeading")
        right = QWidget(page)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.preview_title)
        right_layout.addWidget(self.preview, 1)

        split = QSplitter(Qt.Orientation.Horizontal, page)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([500, 640])
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        return page

    def _place_page(self) -> QWidget:
        page = QWidget(self)
        intro = note_label(page)
        intro.setText(
            "A county's file holds every municipality of the county. Choose the place whose "
            "parcels are yours (its PLACENAME); the rows of other places are counted and left "
            "out."
        )
        self.place_combo = _combo(page, "importPlace")
        self.place_combo.currentIndexChanged.connect(self._place_chosen)
        label = QLabel("&Only rows of:", page)
        label.setBuddy(self.place_combo)
        form = QFormLayout()
        form.addRow(label, self.place_combo)
        self.place_text = note_label(page)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.place_text)
        layout.addStretch(1)
        return page

    def _dry_run_page(self) -> QWidget:
        page = QWidget(self)
        self.summary = QLabel(page)
        self.summary.setObjectName("sectionTitle")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dry_run_text = note_label(page)
        self.save_button = _button(page, "&Save dry run…", "saveDryRun")
        self.save_button.setToolTip("The dry run as an Excel workbook, to keep with the file")
        self.save_button.clicked.connect(self.save_dry_run)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignTop)
        self.tabs = QTabWidget(page)
        self.tabs.setObjectName("dryRunTabs")
        self.tab_tables: dict[str, QTableView] = {}
        self.tab_rows: dict[str, _Rows] = {}
        for table in p.plan_tables(ImportPlan()):
            rows = _Rows(table.columns)
            view = read_only_table(page, f"dryRun:{table.key}", _Model(rows, table.numbers, page))
            self.tab_rows[table.key] = rows
            self.tab_tables[table.key] = view
            self.tabs.addTab(view, table.tab_title)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.dry_run_text)
        layout.addWidget(self.tabs, 1)
        return page

    def _done_page(self) -> QWidget:
        page = QWidget(self)
        self.result_label = QLabel(page)
        self.result_label.setObjectName("sectionTitle")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_note = note_label(page)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.result_label)
        layout.addWidget(self.result_note)
        layout.addStretch(1)
        return page

    # --- moving between steps --------------------------------------------------------------

    @property
    def step(self) -> int:
        return self.presenter.step

    def _show_step(self, step: int) -> None:
        pr = self.presenter
        pr.step = step
        self.pages.setCurrentIndex(step)
        self._say("")
        self.outcome.setVisible(False)
        crumbs = []
        for i, name in enumerate(p.STEPS):
            text = f"{i + 1}. {name}"
            crumbs.append(f"<b>{text}</b>" if i == step else text)
        self.steps_label.setText("  ›  ".join(crumbs))
        self.heading.setText(p.STEP_TITLES[step])
        if step == p.FILE:
            self.file_label.setText(pr.file_text)
            self.choose_file_button.setFocus()
        elif step == p.LAYER:
            self._fill_layers()
            self.layer_combo.setFocus()
        elif step == p.MAPPING:
            self._fill_mapping()
            self.mapping_combos["pin"].setFocus()
        elif step == p.PLACE:
            self._fill_places()
            self.place_combo.setFocus()
        elif step == p.DRY_RUN:
            self._fill_dry_run()
        else:
            self.result_label.setText(pr.result_text)
            self.result_note.setText(
                "The parcels are on the register: find them in the Parcels section and in every "
                "parcel choice (a complaint, an application). What the import changed is in "
                "each parcel's history."
            )
            self.close_button.setFocus()
        self._buttons()

    def _buttons(self) -> None:
        step, busy = self.step, bool(self.presenter.running)
        self.back_button.setVisible(step not in (p.FILE, p.DONE))
        self.back_button.setEnabled(not busy)
        self.next_button.setVisible(step != p.DONE)
        self.next_button.setEnabled(not busy)
        self.next_button.setDefault(step != p.DONE)
        self.close_button.setDefault(step == p.DONE)
        self.close_button.setText("&Close" if step == p.DONE else "Close")
        self.next_button.setText(
            {p.PLACE: "&Dry run", p.DRY_RUN: self.presenter.import_label}.get(step, "&Next")
        )
        if step == p.DRY_RUN:
            ok, why = self.presenter.may_import()
            self.next_button.setEnabled(ok and not busy)
            self.next_button.setToolTip(why)
        else:
            self.next_button.setToolTip("")
        for button in (self.choose_file_button, self.choose_gdb_button, self.v10_button):
            button.setEnabled(not busy)
        self.save_button.setEnabled(not busy and self.presenter.result is not None)

    def next(self) -> None:
        """Next (Enter): the step's choices checked, then the next step (or its work)."""
        if self.presenter.running:
            return
        step = self.step
        if step == p.FILE:
            if self.presenter.source is None:
                self._say("Choose the county's parcel file first (Alt+F, or Alt+G for a .gdb).")
                self.choose_file_button.setFocus()
                return
            self._show_step(p.LAYER)
        elif step == p.LAYER:
            if self.error.isVisible():
                self.layer_combo.setFocus()  # the layer cannot be read: another one
                return
            self._show_step(p.MAPPING)
        elif step == p.MAPPING:
            self._count_places()
        elif step == p.PLACE:
            self._dry_run()
        elif step == p.DRY_RUN:
            self._import()

    def back(self) -> None:
        if not self.presenter.running and self.step not in (p.FILE, p.DONE):
            self._show_step(self.step - 1)

    # --- 1. the file -----------------------------------------------------------------------

    def choose_file(self) -> None:
        chosen = dialogs.choose_file(self, "Choose the county's parcel file", p.FILE_FILTER)
        if chosen:
            self.open_file(chosen)

    def choose_gdb(self) -> None:
        chosen = dialogs.choose_folder(self, "Choose the file geodatabase (.gdb folder)")
        if chosen:
            self.open_file(chosen)

    def open_file(self, path: str | Path) -> None:
        """Open the file off the UI thread (a zip is checked through, a workbook counted)."""
        name = p.source_path(path).name
        self._run(f"Opening {name}…", lambda _progress: p.open_source(path), self._opened)

    def _opened(self, source: Any) -> None:
        try:
            self.presenter.file_opened(source)  # reads the first rows of the layer
        except DeskError as e:
            self._say(str(e))
            return
        self._show_step(p.LAYER)

    # --- 2. the layer ----------------------------------------------------------------------

    def _fill_layers(self) -> None:
        pr = self.presenter
        self._filling = True
        try:
            self.layer_combo.clear()
            for layer in pr.layers:
                self.layer_combo.addItem(p.layer_label(layer), layer.name)
            index = self.layer_combo.findData(pr.layer_name)
            self.layer_combo.setCurrentIndex(max(index, 0))
        finally:
            self._filling = False
        self.layer_text.setText(pr.layer_text)

    def _layer_chosen(self) -> None:
        if self._filling:
            return
        name = self.layer_combo.currentData()
        if name is not None:
            try:
                self.presenter.choose_layer(str(name))
            except DeskError as e:  # a damaged layer: said, and the next step refused
                self._say(str(e))
            else:
                self._say("")
            self.layer_text.setText(self.presenter.layer_text)

    # --- 3. the mapping --------------------------------------------------------------------

    def _fill_mapping(self) -> None:
        pr = self.presenter
        self._filling = True
        try:
            for key, combo in self.mapping_combos.items():
                combo.clear()
                options = pr.options(key)
                for option in options:
                    combo.addItem(option.label)
                wanted = pr.mapping.of(key)
                index = next((i for i, o in enumerate(options) if o.value == wanted), 0)
                combo.setCurrentIndex(index)
                self._combo_tip(key)
        finally:
            self._filling = False
        self._refresh_preview()

    def _combo_tip(self, key: str) -> None:
        """The whole choice (a long join is cut in the box) and the field's hint."""
        combo = self.mapping_combos[key]
        hint = next((t.hint for t in TARGETS if t.key == key), "")
        combo.setToolTip("\n".join(x for x in (combo.currentText(), hint) if x))

    def _mapping_changed(self, key: str) -> None:
        if self._filling:
            return
        combo = self.mapping_combos[key]
        options = self.presenter.options(key)
        index = combo.currentIndex()
        if 0 <= index < len(options):
            self.presenter.set_columns(key, tuple(options[index].value))
        self._combo_tip(key)
        self._refresh_preview()

    def use_v10(self) -> None:
        self.presenter.use_v10()
        self._fill_mapping()
        self.mapping_combos["pin"].setFocus()

    def _refresh_preview(self) -> None:
        pr = self.presenter
        self.preview_rows.rows = pr.preview_lines()
        self.preview_model.reload()
        fit_columns(self.preview, ())
        n = len(self.preview_rows.rows)
        self.preview_title.setText(
            f"The first {n} row{'' if n == 1 else 's'} as this mapping reads them"
        )
        problem = pr.mapping_problem()
        self._say(str(problem) if problem is not None else "")

    def _count_places(self) -> None:
        problem = self.presenter.mapping_problem()
        if problem is not None:
            self._say(str(problem))
            self.mapping_combos[self.presenter.problem_target(problem)].setFocus()
            return
        self._run("Counting each place's rows…", self.presenter.places_job(), self._counted)

    def _counted(self, counts: Any) -> None:
        self.presenter.places_counted(dict(counts))
        self._show_step(p.PLACE)

    # --- 4. the place ----------------------------------------------------------------------

    def _fill_places(self) -> None:
        pr = self.presenter
        self._filling = True
        try:
            self.place_combo.clear()
            if not pr.place_chosen:
                self.place_combo.addItem("Choose the place…", "")
            for option in pr.place_options():
                self.place_combo.addItem(option.label, option.value)
            if pr.place_chosen:
                index = self.place_combo.findData(pr.place) if pr.place is not None else -1
                if pr.place is None:
                    index = self.place_combo.count() - 1  # every row: the last choice
                self.place_combo.setCurrentIndex(max(index, 0))
        finally:
            self._filling = False
        self.place_text.setText(pr.place_text)

    def _place_chosen(self) -> None:
        if self._filling:
            return
        data = self.place_combo.currentData()
        if data == "":
            return  # the "Choose the place…" line
        self.presenter.choose_place(None if data is None else str(data))
        self._say("")

    # --- 5. the dry run --------------------------------------------------------------------

    def _dry_run(self) -> None:
        problem = self.presenter.check_place()
        if problem is not None:
            self._say(str(problem))
            self.place_combo.setFocus()
            return
        job = self.presenter.dry_run_job(
            self.database.uow, self.session.actor, self.session.municipality_id
        )
        name = self.presenter.source.name if self.presenter.source is not None else ""
        self._run(f"Reading {name}…", job, self._dry_run_done)

    def _dry_run_done(self, result: Any) -> None:
        self.presenter.dry_run_done(result)
        self._show_step(p.DRY_RUN)

    def _fill_dry_run(self) -> None:
        pr = self.presenter
        self.summary.setText(pr.summary)
        choice = pr.dry_run_choice
        place = (choice.place if choice is not None else None) or p.EVERY_ROW
        source = pr.source.name if pr.source is not None else ""
        layer = choice.layer if choice is not None else ""
        self.dry_run_text.setText(
            f"{source}, layer {layer}, only rows of {place}. Nothing has been written yet. "
            "Conflicts keep the office's value; parcels not in the file are listed, never "
            "retired."
        )
        first_with_rows = -1
        for i, table in enumerate(pr.tables()):
            rows = self.tab_rows[table.key]
            rows.rows = table.rows
            view = self.tab_tables[table.key]
            model = view.model()
            assert isinstance(model, LinesModel)
            model.reload()
            stretch = table.stretch if table.stretch >= 0 else len(table.columns) - 1
            fit_columns(view, (stretch,))
            self.tabs.setTabText(i, table.tab_title)
            if first_with_rows < 0 and table.rows:
                first_with_rows = i
        self.tabs.setCurrentIndex(max(first_with_rows, 0))
        current = self.tabs.currentWidget()
        if current is not None:
            current.setFocus()

    def save_dry_run(self) -> Path | None:
        pr = self.presenter
        if pr.result is None:
            return None
        dry = pr.dry_run()
        return exports.save_and_open(
            self,
            "Save dry run",
            "Save the dry run as",
            pr.report_name,
            lambda path: write_dry_run(dry, path),
            kind=exports.XLSX,
            what="The dry run",
        )

    # --- 6. the import ---------------------------------------------------------------------

    def _import(self) -> None:
        ok, why = self.presenter.may_import()
        if not ok:
            self._say(why)
            return
        job = self.presenter.import_job(
            self.database.uow, self.clock, self.session.actor, self.session.municipality_id
        )
        self._run("Importing the parcels…", job, self._imported)

    def _imported(self, imported: Any) -> None:
        self.presenter.import_done(imported)
        self._show_step(p.DONE)
        self.imported.emit(imported.import_id)

    # --- the work off the UI thread --------------------------------------------------------

    def _cancelled(self, result: Any) -> bool:
        # Reading is dropped once Cancel was pressed; an import that committed all the same
        # (Cancel came after its last chunk) is shown as done, as it is.
        cancelled = self.presenter.cancel.is_set() and not isinstance(result, Imported)
        return super()._cancelled(result) or cancelled

    def _after_work(self) -> None:
        self._focus_step()

    def _focus_step(self) -> None:
        focus = {
            p.FILE: self.choose_file_button,
            p.LAYER: self.layer_combo,
            p.MAPPING: self.mapping_combos["pin"],
            p.PLACE: self.place_combo,
            p.DRY_RUN: self.next_button,
        }.get(self.step, self.close_button)
        focus.setFocus()


def open_parcel_import(
    parent: QWidget | None, database: Database, session: Session, clock: Clock
) -> ParcelImportDialog:
    """File → Import parcels…: the window, shown; its focus on choosing the file."""
    dialog = ParcelImportDialog(database, session, clock, parent)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    dialog.choose_file_button.setFocus()
    return dialog
