"""Columns that fit the table's width: each as wide as its values when there is room, the
stretching ones sharing what is left; on a narrow screen (1024 px) the widest give up room,
never below their heading, so a list is read without scrolling sideways (its long values are
elided, the whole value in the cell's tooltip where the model gives one)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractItemModel, QEvent, QObject, QTimer
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

# Rows measured for a column's width: enough for a page of a list, cheap on a long one.
_MEASURED_ROWS = 200


def shares(natural: list[int], floor: list[int], room: int, stretch: Iterable[int]) -> list[int]:
    """The widths of columns whose values want `natural` and whose headings need `floor`, in
    `room` pixels: with room to spare, the `stretch` columns (else none) share it; short of
    room, the widest columns are cut to one common width, never below their floor."""
    natural = [max(n, f) for n, f in zip(natural, floor, strict=True)]
    total = sum(natural)
    if total <= room:
        spread = [i for i in stretch if 0 <= i < len(natural)]
        widths = list(natural)
        if spread:
            extra = room - total
            for k, i in enumerate(spread):
                widths[i] += extra // len(spread) + (1 if k < extra % len(spread) else 0)
        return widths
    if sum(floor) >= room:
        return list(floor)
    # The largest cap with sum(max(floor, min(natural, cap))) <= room (it grows with the cap).
    low, high = 0, max(natural)
    while low < high:
        cap = (low + high + 1) // 2
        if sum(max(f, min(n, cap)) for f, n in zip(floor, natural, strict=True)) <= room:
            low = cap
        else:
            high = cap - 1
    widths = [max(f, min(n, low)) for f, n in zip(floor, natural, strict=True)]
    # The pixels the integer cap leaves go to the columns still cut, left to right.
    left = room - sum(widths)
    for i, (w, n) in enumerate(zip(widths, natural, strict=True)):
        if left <= 0:
            break
        if w < n:
            widths[i] += 1
            left -= 1
    return widths


class ColumnFit(QObject):
    """Keeps a table's columns fitted to its width as its rows and its size change."""

    def __init__(
        self, table: QTableView, stretch: Iterable[int], optional: Iterable[int] = ()
    ) -> None:
        super().__init__(table)
        self.table = table
        self.stretch = tuple(stretch)
        self.optional = tuple(optional)
        self._dropped: set[int] = set()
        self._natural: list[int] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        table.viewport().installEventFilter(self)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.sectionCountChanged.connect(self._values_changed)
        self._model: QAbstractItemModel | None = None
        self._watch_model()

    def _watch_model(self) -> None:
        model = self.table.model()
        if model is self._model or model is None:
            return
        self._model = model
        for signal in (
            model.modelReset,
            model.layoutChanged,
            model.rowsInserted,
            model.rowsRemoved,
            model.dataChanged,
            model.headerDataChanged,
        ):
            signal.connect(self._values_changed)

    def _values_changed(self, *_args: object) -> None:
        self._natural = None
        self._timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._timer.start()
        return False

    def fit(self) -> None:
        self._watch_model()
        header = self.table.horizontalHeader()
        for i in self._dropped:
            header.showSection(i)
        self._dropped.clear()
        shown = [i for i in range(header.count()) if not header.isSectionHidden(i)]
        if not shown:
            return
        if self._natural is None or len(self._natural) != header.count():
            self._natural = [
                max(header.sectionSizeHint(i), self.table.sizeHintForColumn(i))
                for i in range(header.count())
            ]
        room = self.table.viewport().width()
        # Too narrow for every heading: the optional columns go, in the order given.
        for i in self.optional:
            if sum(heading_width(header, j) for j in shown) <= room:
                break
            if i in shown and len(shown) > 1:
                header.hideSection(i)
                self._dropped.add(i)
                shown.remove(i)
        floor = [heading_width(header, i) for i in shown]
        natural = [self._natural[i] for i in shown]
        stretch = [shown.index(i) for i in self.stretch if i in shown]
        for i, width in zip(shown, shares(natural, floor, room, stretch), strict=True):
            if header.sectionSize(i) != width:
                header.resizeSection(i, width)


def heading_width(header: QHeaderView, section: int) -> int:
    """The width a column's heading needs; Qt counts room for a sort arrow on every section,
    only the sorted one has it."""
    need = header.sectionSizeFromContents(section).width()
    if header.isSortIndicatorShown() and header.sortIndicatorSection() != section:
        style = header.style()
        need -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
        need -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    return need


def fit_to_width(
    table: QTableView, stretch: Iterable[int] = (), optional: Iterable[int] = ()
) -> ColumnFit:
    """Fit the table's columns to its width from now on (see the module's note); the columns
    in `stretch` take the room to spare, those in `optional` are left out, in that order, where
    even the headings do not fit (they come back when the window is wider)."""
    found = getattr(table, "_column_fit", None)
    if isinstance(found, ColumnFit):
        found.stretch, found.optional = tuple(stretch), tuple(optional)
        found._values_changed()
        return found
    fit = ColumnFit(table, stretch, optional)
    table._column_fit = fit  # type: ignore[attr-defined]
    fit._values_changed()
    return fit
