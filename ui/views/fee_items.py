"""The items table of a fee schedule version, as the Fee schedules screen and the new-version
dialog both show it: columns as wide as what they hold (long ones capped and elided, the full
text in the tooltip); the description takes what is left, and below a minimum the table scrolls
sideways."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QTableView,
    QWidget,
)

from ui.columns import shares
from ui.models.fee_schedules import FeeItemsTableModel

# Caps, in average characters: the unit of an acre item and a GL account name are long.
_CAPS = {"section": 13, "unit": 17, "rates": 22, "gl_account": 21, "council_value": 14}
_MIN_DESCRIPTION_CHARS = 26
_PADDING = 18  # the cell's margins and some air


class _ItemColumns(QObject):
    """Keeps the description filling the table's width as the window is resized."""

    def __init__(self, table: QTableView, model: FeeItemsTableModel) -> None:
        super().__init__(table)
        self.table = table
        self.model = model
        self.auto = True  # until the user drags a column's edge
        self._fitting = False
        table.viewport().installEventFilter(self)
        table.horizontalHeader().sectionResized.connect(self._resized)
        model.modelReset.connect(self.fit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            if self.auto:
                self.fit()
            else:
                self.fit_description()
        return False

    def _resized(self, *_args: object) -> None:
        if not self._fitting and QApplication.mouseButtons() & Qt.MouseButton.LeftButton:
            self.auto = False

    def fit(self) -> None:
        self._fitting = True
        try:
            self._fit()
        finally:
            self._fitting = False

    def _fit(self) -> None:
        table, model = self.table, self.model
        header = table.horizontalHeader()
        metrics = table.fontMetrics()
        bold = QFont(table.font())
        bold.setBold(True)
        header_metrics = QFontMetrics(bold)
        char = metrics.averageCharWidth()
        check = table.style().pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth) + 8
        natural: dict[int, int] = {}
        capped: dict[int, int] = {}
        titles: dict[int, int] = {}
        for i, column in enumerate(model.columns):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive)
            if column.key == "description":
                continue
            title = header_metrics.horizontalAdvance(column.title) + _PADDING
            titles[i] = title
            widest = 0
            for row in range(model.rowCount()):
                text = model.data(model.index(row, i)) or ""
                width = metrics.horizontalAdvance(str(text))
                if column.flag and model.editable:
                    width += check
                widest = max(widest, width)
            natural[i] = max(title, widest + _PADDING)
            cap = _CAPS.get(column.key)
            capped[i] = min(natural[i], max(title, cap * char)) if cap else natural[i]
        # Long columns are capped only when the description would otherwise get too narrow;
        # on a narrow screen (1024 px) the widest give up more room, never below their heading.
        room = table.viewport().width() - char * _MIN_DESCRIPTION_CHARS
        if sum(natural.values()) <= room:
            widths = natural
        elif sum(capped.values()) <= room:
            widths = capped
        else:
            keys = list(capped)
            # The code names the item: as much of it as the headings leave room for.
            spare = max(0, room - sum(titles.values()))
            floor = [
                min(capped[i], 14 * char, titles[i] + spare)
                if model.columns[i].key == "code"
                else titles[i]
                for i in keys
            ]
            floor = [max(f, titles[i]) for f, i in zip(floor, keys, strict=True)]
            cut = shares([capped[i] for i in keys], floor, room, ())
            widths = dict(zip(keys, cut, strict=True))
        for i, width in widths.items():
            header.resizeSection(i, width)
        self.fit_description()

    def fit_description(self) -> None:
        header = self.table.horizontalHeader()
        was = self._fitting
        self._fitting = True
        try:
            index = self.model.column_of("description")
        except KeyError:
            return
        others = sum(header.sectionSize(i) for i in range(header.count()) if i != index)
        minimum = self.table.fontMetrics().averageCharWidth() * _MIN_DESCRIPTION_CHARS
        header.resizeSection(index, max(minimum, self.table.viewport().width() - others))
        self._fitting = was


def fit_item_columns(table: QTableView, model: FeeItemsTableModel) -> None:
    """Size the columns now and whenever the model is reset or the table resized."""
    fitter = table.findChild(_ItemColumns)
    if fitter is None:
        fitter = _ItemColumns(table, model)
    fitter.fit()


def items_table(parent: QWidget, name: str) -> QTableView:
    table = QTableView(parent)
    table.setObjectName(name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(False)
    header.setMinimumSectionSize(40)
    return table
