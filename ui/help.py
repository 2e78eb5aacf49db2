"""The Help menu: the user guide (F1) with its contents, the keyboard shortcuts, About."""

from __future__ import annotations

from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QObject, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from db.migrate import HEAD, current_revision
from db.places import default_sqlite_path, log_dir
from desk import __version__
from ui import dialogs
from ui.backups import last_backup_text
from ui.geometry import fit_window
from ui.presenters.help import (
    GUIDE_MISSING,
    AboutInfo,
    ContentsNode,
    ShortcutRow,
    action_label,
    contents_tree,
    find_guide,
    shortcut_rows,
    slug,
)

Keys = QKeySequence.StandardKey | str
StdKey = QKeySequence.StandardKey

# Shortcuts made with QShortcut (no text to read at run time) or in windows not open yet.
FIXED_SHORTCUTS: tuple[tuple[str, tuple[tuple[Keys, str], ...]], ...] = (
    (
        "Sections",
        (
            ("Ctrl+1", "Sections with pages: the first page (Ctrl+2 the second, …)"),
            (
                StdKey.Find,
                "Sections with pages or their own search (Parcels, People, Code enforcement, "
                "Rooming houses): go to the search",
            ),
            ("Ctrl+E", "Parcels, People: edit the parcel or person chosen (in their windows too)"),
            ("Ctrl+R", "Inspections: new inspection request"),
            ("Ctrl+J", "Code enforcement: take a complaint"),
            ("Alt+Up", "Inspector's day: the stop earlier in the route"),
            ("Alt+Down", "Inspector's day: the stop later in the route"),
            ("Ctrl+Return", "Cashier: take the payment; Reports: make the report"),
            ("Esc", "Reports: cancel the report being made"),
            (
                StdKey.Print,
                "Print what the section shows, straight to the print dialog: the receipt, the "
                "route sheet, the report, the licence or placard, the treasurer's page",
            ),
        ),
    ),
    (
        "Permit window",
        (
            (StdKey.Close, "Close the permit window (Esc too)"),
            (StdKey.Refresh, "Read the permit again"),
            (StdKey.Print, "Print the permit card (the application before it is issued)"),
            ("Space", "Checklist: tick or untick the item"),
        ),
    ),
    (
        "New application",
        (
            (StdKey.Save, "Save the application"),
            ("Alt+N", "Use the parcel's owner of record as the owner"),
            (StdKey.Close, "Close the form (asks first when something is not saved)"),
        ),
    ),
    (
        "PDF preview",
        (
            (StdKey.ZoomIn, "Zoom in"),
            (StdKey.ZoomOut, "Zoom out"),
            ("Ctrl+0", "Show the whole page"),
            (StdKey.Print, "Print"),
        ),
    ),
)


def _first_key(sequence: QKeySequence) -> int:
    combination = sequence[0]  # type: ignore[index]  # PySide6's stubs lack __getitem__
    return int(combination.key().value)


def native(keys: Keys | QKeySequence) -> str:
    """In the platform's words; a standard key with every binding it has here (Ctrl+F4, Ctrl+W)."""
    if isinstance(keys, QKeySequence.StandardKey):
        # Not the media keys of some keyboards (Find, Refresh, Close): nobody looks for them.
        bindings = [
            b
            for b in QKeySequence.keyBindings(keys)
            if b.count() and _first_key(b) < Qt.Key.Key_Back.value
        ]
    else:
        bindings = [keys if isinstance(keys, QKeySequence) else QKeySequence(keys)]
    texts = (b.toString(QKeySequence.SequenceFormat.NativeText) for b in bindings)
    return ", ".join(t for t in texts if t)


# --- the user guide ---------------------------------------------------------------------


class GuideWindow(QWidget):
    """docs/user-guide.md rendered by Qt's own Markdown support, its headings on the left."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("guideWindow")
        self.setWindowTitle("Permit Desk user guide")
        self.contents = QTreeWidget(self)
        self.contents.setObjectName("guideContents")
        self.contents.setHeaderHidden(True)
        self.contents.setAccessibleName("Contents")
        self.contents.setMinimumWidth(220)
        self.text = QTextBrowser(self)
        self.text.setObjectName("guideText")
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._link)
        self.text.document().setDocumentMargin(16)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.contents)
        splitter.addWidget(self.text)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([300, 800])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.contents.itemClicked.connect(lambda item, _col: self.scroll_to_item(item))
        self.contents.currentItemChanged.connect(lambda item, _old: self.scroll_to_item(item))
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self.close)
        fit_window(self, "help", (1100, 780))
        self.path = find_guide() if path is None else path
        self.load()

    def load(self) -> None:
        self.contents.clear()
        self.anchors: dict[str, int] = {}
        text = None
        if self.path is not None:
            try:
                text = self.path.read_text("utf-8")
            except OSError:
                text = None
        if text is None:
            self.text.setPlainText(GUIDE_MISSING)
            self.contents.setVisible(False)
            return
        assert self.path is not None
        # Relative image paths in the guide resolve beside it (docs/img).
        self.text.document().setBaseUrl(QUrl.fromLocalFile(str(self.path.parent) + "/"))
        self.text.setMarkdown(text)
        headings: list[tuple[int, str, int]] = []
        block = self.text.document().begin()
        while block.isValid():
            level = block.blockFormat().headingLevel()
            if level > 0 and block.text().strip():
                headings.append((level, block.text().strip(), block.blockNumber()))
                self.anchors.setdefault(slug(block.text()), block.blockNumber())
            block = block.next()
        self._add_nodes(self.contents.invisibleRootItem(), contents_tree(headings))
        self.contents.expandAll()

    def _add_nodes(self, parent: QTreeWidgetItem, nodes: list[ContentsNode]) -> None:
        for node in nodes:
            item = QTreeWidgetItem(parent, [node.title])
            item.setData(0, Qt.ItemDataRole.UserRole, node.position)
            item.setToolTip(0, node.title)
            self._add_nodes(item, node.children)

    def heading_titles(self) -> list[str]:
        root = self.contents.invisibleRootItem()
        items = (root.child(i) for i in range(root.childCount()))
        return [item.text(0) for item in items if item is not None]

    def item_for(self, title: str) -> QTreeWidgetItem | None:
        found = self.contents.findItems(
            title, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive
        )
        return found[0] if found else None

    def scroll_to_item(self, item: QTreeWidgetItem | None) -> None:
        if item is not None:
            self.scroll_to_block(int(item.data(0, Qt.ItemDataRole.UserRole)))

    def scroll_to_block(self, number: int) -> None:
        """The heading at the top of the view (and the cursor on it, for the keyboard)."""
        document = self.text.document()
        block = document.findBlockByNumber(number)
        if not block.isValid():
            return
        cursor = self.text.textCursor()
        cursor.setPosition(block.position())
        self.text.setTextCursor(cursor)
        top = document.documentLayout().blockBoundingRect(block).top() - document.documentMargin()
        self.text.verticalScrollBar().setValue(max(0, int(top)))

    def _link(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
        elif url.hasFragment() and url.fragment() in self.anchors:
            self.scroll_to_block(self.anchors[url.fragment()])


# --- keyboard shortcuts -----------------------------------------------------------------


def window_shortcuts(window: QWidget) -> list[ShortcutRow]:
    """Every QAction under the window with a shortcut, as the menus name it."""
    rows: list[ShortcutRow] = []
    for action in window.findChildren(QAction):
        keys = ", ".join(native(s) for s in action.shortcuts() if not s.isEmpty())
        rows.append(ShortcutRow(keys, action_label(action.text())))
    return shortcut_rows(rows)


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(0, 2, self)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels(["Shortcut", "What it does"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self._group("Main window", window_shortcuts(window))
        for title, fixed in FIXED_SHORTCUTS:
            self._group(title, shortcut_rows([ShortcutRow(native(k), w) for k, w in fixed]))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        fit_window(self, "shortcuts", (620, 640))

    def _group(self, title: str, rows: list[ShortcutRow]) -> None:
        heading = QTableWidgetItem(title)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, heading)
        self.table.setSpan(row, 0, 1, 2)
        for shortcut in rows:
            row = self.table.rowCount()
            self.table.insertRow(row)
            self.table.setItem(row, 0, QTableWidgetItem(shortcut.keys))
            self.table.setItem(row, 1, QTableWidgetItem(shortcut.what))

    def rows(self) -> list[tuple[str, str]]:
        out = []
        for row in range(self.table.rowCount()):
            what = self.table.item(row, 1)
            keys = self.table.item(row, 0)
            if what is not None and keys is not None:
                out.append((keys.text(), what.text()))
        return out


# --- about ------------------------------------------------------------------------------


def about_info(database: Database) -> AboutInfo:
    try:
        revision = current_revision(database.engine)
    except Exception:  # a server gone away must not stop the About box
        revision = None
    return AboutInfo(
        version=__version__,
        database=database.where + (" (read-only)" if database.read_only else ""),
        revision=revision,
        head=HEAD,
        data_folder=str(default_sqlite_path().parent),
        log_folder=str(log_dir()),
        qt_version=f"{pyside_version} (PySide6)",
        last_backup=last_backup_text(database),
    )


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None, info: AboutInfo) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About Permit Desk")
        self.info = info
        title = QLabel(f"Permit Desk {info.version}", self)
        title.setObjectName("viewHeading")
        blurb = QLabel("Building permits, fees, inspections and the treasurer's books.", self)
        blurb.setObjectName("noteText")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.values: dict[str, QLabel] = {}
        for label, value in info.rows():
            field = QLabel(value, self)
            field.setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse
                | Qt.TextInteractionFlag.TextSelectableByKeyboard
            )
            self.values[label] = field
            form.addRow(f"{label}:", field)
        buttons = QDialogButtonBox(self)
        self.copy_button = buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Copy these lines, e.g. for an e-mail to support")
        self.copy_button.clicked.connect(self.copy)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.reject)
        close.setDefault(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.addWidget(title)
        layout.addWidget(blurb)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.info.text())


# --- the menu -----------------------------------------------------------------------------


class HelpMenu(QObject):
    """The Help menu of the main window and the windows it opens (one of each)."""

    def __init__(self, window: QMainWindow, database: Database) -> None:
        super().__init__(window)
        self.window = window
        self.database = database
        self.guide: GuideWindow | None = None
        menu = window.menuBar().addMenu("&Help")
        self.guide_action = QAction("&User Guide", window)
        self.guide_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        self.guide_action.triggered.connect(self.open_guide)
        self.shortcuts_action = QAction("&Keyboard Shortcuts", window)
        self.shortcuts_action.triggered.connect(self.open_shortcuts)
        self.log_action = QAction("Open &Log Folder", window)
        self.log_action.setToolTip("The log files support asks for when something went wrong")
        self.log_action.triggered.connect(self.open_log_folder)
        self.about_action = QAction("&About Permit Desk", window)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(self.open_about)
        menu.addAction(self.guide_action)
        menu.addAction(self.shortcuts_action)
        menu.addSeparator()
        menu.addAction(self.log_action)
        menu.addAction(self.about_action)
        window.addAction(self.guide_action)  # F1 works while the menu bar is hidden too

    def open_guide(self) -> GuideWindow:
        if self.guide is None:
            self.guide = GuideWindow(self.window)
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()
        return self.guide

    def shortcuts_dialog(self) -> ShortcutsDialog:
        return ShortcutsDialog(self.window)

    def open_shortcuts(self) -> None:
        dialog = self.shortcuts_dialog()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exec()

    def open_log_folder(self) -> Path:
        """The folder of the rotating log (permitdesk.log and its older parts) in the file
        manager; where there is none to show it, its path in a message to copy."""
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if not dialogs.open_file(folder):
            dialogs.inform(self.window, "Log folder", f"The log files are in {folder}")
        return folder

    def about_dialog(self) -> AboutDialog:
        return AboutDialog(self.window, about_info(self.database))

    def open_about(self) -> None:
        dialog = self.about_dialog()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exec()


def install_help_menu(window: QMainWindow, database: Database) -> HelpMenu:
    return HelpMenu(window, database)
