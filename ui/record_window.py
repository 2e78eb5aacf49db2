"""What a record's own window is built of, the same for a permit, a code enforcement case and a
rooming house licence (Hudson 140-10): the header frame (the title with its status badge, the
lines under it, the rows of steps), the read-only tables on their tabs, and the keys every such
window answers (close, refresh, print). One place, so the three windows look and behave alike."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ui.views.common import read_only_table


def header_label(parent: QWidget, name: str, *, selectable: bool = True) -> QLabel:
    """A header line (permitTitle, statusChip, permitAddress, permitKind: the style sheet's
    names); selectable ones can be copied with the mouse."""
    label = QLabel(parent)
    label.setObjectName(name)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def header_frame(parent: QWidget) -> tuple[QFrame, QGridLayout]:
    """The header's frame and its grid, margins and spacing as in every record window."""
    header = QFrame(parent)
    header.setObjectName("permitHeader")
    grid = QGridLayout(header)
    grid.setContentsMargins(20, 14, 20, 12)
    grid.setVerticalSpacing(4)
    return header, grid


def title_row(title: QLabel, chip: QLabel) -> QHBoxLayout:
    """The title with the status badge beside it."""
    row = QHBoxLayout()
    row.setSpacing(12)
    row.addWidget(title)
    row.addWidget(chip, 0, Qt.AlignmentFlag.AlignVCenter)
    row.addStretch(1)
    return row


def stacked_header(
    parent: QWidget,
    title: QLabel,
    chip: QLabel,
    lines: Sequence[QWidget],
    rows: Sequence[QLayout],
) -> QFrame:
    """The header in one column: the title row, the lines, then the rows of buttons."""
    header, grid = header_frame(parent)
    grid.addLayout(title_row(title, chip), 0, 0)
    at = 1
    for line in lines:
        grid.addWidget(line, at, 0)
        at += 1
    for row in rows:
        grid.addLayout(row, at, 0)
        at += 1
    return header


def step_buttons(
    parent: QWidget, labels: Iterable[tuple[str, str]], run: Callable[[str], object]
) -> dict[str, QPushButton]:
    """One button per step (object name step_KEY), each running its step; the caller lays
    them out."""
    buttons: dict[str, QPushButton] = {}
    for key, label in labels:
        button = QPushButton(label, parent)
        button.setObjectName(f"step_{key}")
        button.setAutoDefault(False)
        button.clicked.connect(lambda _=False, k=key: run(k))
        buttons[key] = button
    return buttons


def button_row(spacing: int = 6) -> QHBoxLayout:
    row = QHBoxLayout()
    row.setSpacing(spacing)
    return row


def show_status(chip: QLabel, text: str, tone: str) -> None:
    """The badge's words and colour (the style sheet's [status=…] rule, applied again)."""
    chip.setText(text)
    chip.setProperty("status", tone)
    chip.style().unpolish(chip)
    chip.style().polish(chip)


def table_tab(tabs: QTabWidget, name: str, model: QAbstractItemModel, label: str) -> QTableView:
    """A read-only table on its own tab, with the margin the other tabs have."""
    page = QWidget(tabs)
    table = read_only_table(page, name, model)
    box = QVBoxLayout(page)
    box.setContentsMargins(12, 12, 12, 12)
    box.addWidget(table)
    tabs.addTab(page, label)
    return table


def record_tabs(parent: QWidget, name: str) -> QTabWidget:
    tabs = QTabWidget(parent)
    tabs.setObjectName(name)
    tabs.setDocumentMode(True)
    return tabs


def lay_out(window: QWidget, header: QFrame, tabs: QTabWidget) -> None:
    """The header over the tabs, edge to edge."""
    layout = QVBoxLayout(window)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(header)
    layout.addWidget(tabs, 1)


def window_keys(
    window: QWidget, reload: Callable[[], object], print_main: Callable[[], object]
) -> None:
    """Ctrl+W and Escape close, F5 reads again, Ctrl+P prints the record's main printout (its
    own window: no clash with the main window's Print)."""
    for sequence in (
        QKeySequence(QKeySequence.StandardKey.Close),
        QKeySequence(Qt.Key.Key_Escape),
    ):
        QShortcut(sequence, window).activated.connect(window.close)
    QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), window).activated.connect(
        lambda: reload()
    )
    QShortcut(QKeySequence(QKeySequence.StandardKey.Print), window).activated.connect(
        lambda: print_main()
    )
    # Ctrl+N takes a new application from any window, as it does from the main window.
    QShortcut(QKeySequence(QKeySequence.StandardKey.New), window).activated.connect(new_application)


def new_application() -> QWidget | None:
    """The main window's New application (its File menu's action: refused there, with its
    reason, to a user who may not take applications)."""
    from PySide6.QtWidgets import QApplication

    for top in QApplication.topLevelWidgets():
        if top.objectName() == "mainWindow" and top.isVisible():
            action = getattr(top, "new_action", None)
            if action is not None and action.isEnabled():
                action.trigger()
                return getattr(top, "intake_window", None)
    return None
