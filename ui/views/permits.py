"""The Permits section: search as you type, a paged table sorted in SQL, a count, empty states."""

from __future__ import annotations

import html
from datetime import date

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QStyle,
    QStyleOptionFrame,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desk.dates import short_date
from desk.domain.permit_filter import SavedSearch
from reports.list_report import ListColumn, ListReport
from ui import dialogs, settings
from ui.models.permits import PermitTableModel
from ui.presenters.permit_list import SEARCH_PLACEHOLDER, PermitListPresenter
from ui.presenters.saved_searches import SavedSearches
from ui.views.permit_filter_bar import PermitFilterBar

SEARCH_DELAY_MS = 150

# Columns that hold short, fixed-shape values get the width of a sample (plus padding); the
# text columns share what is left of the table's width by these weights.
_SAMPLES = {
    "number": "2026-0000",
    "status": "Work started",
    "applied": "00/00/0000",
    "issued": "00/00/0000",
    "valuation": "$9,999,999.00",
}
_WEIGHTS = {"kind": 7, "address": 6, "owner": 4, "contractor": 4}
_MIN_TEXT_WIDTH_CHARS = 10  # what a text column gets while there is room
# The search box's instruction where the whole one does not fit (a 1024-pixel screen).
SHORT_SEARCH_PLACEHOLDER = "Number, address, parcel, owner or contractor"
_CLEAR_BUTTON = 24  # the search box's clear button, inside its text area
_CELL_PADDING = 22  # the stylesheet's item padding and some air
_TIGHT_PADDING = 19  # the stylesheet's item padding and Qt's text margin, no air
# On a narrow screen a valuation of a million dollars or more is elided, not the table scrolled.
_TIGHT_SAMPLES = {"valuation": "$999,999.00"}


def _tight_sample(key: str) -> str:
    return _TIGHT_SAMPLES.get(key, _SAMPLES[key])


def ask_name(parent: QWidget, title: str, label: str, text: str = "") -> str | None:
    """A name typed by the user, or None when cancelled (patched in tests)."""
    name, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
    return str(name) if ok else None


def rich_text(text: str) -> str:
    """The first sentence as a heading, `code` in a fixed font (for empty-state messages)."""
    first, _, rest = text.partition(". ")
    parts = html.escape(rest).split("`")
    body = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    return f"<p style='font-size:13pt; font-weight:600'>{html.escape(first)}.</p><p>{body}</p>"


class PermitTable(QTableView):
    """A table that opens the current row on Enter or a double click."""

    open_requested = Signal(int)  # row
    resized = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doubleClicked.connect(lambda index: self.open_requested.emit(index.row()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.open_requested.emit(self.currentIndex().row())
            event.accept()
            return
        super().keyPressEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        # The viewport, not the table: it narrows when the vertical scroll bar appears.
        handled = super().viewportEvent(event)
        if event.type() == QEvent.Type.Resize:
            self.resized.emit()
        return handled


class PermitsView(QWidget):
    open_permit = Signal(int)  # permit id
    new_application = Signal()
    saved_searches_changed = Signal()  # one saved or deleted: the sidebar lists them
    filters_edited = Signal()  # the user changed the search or a filter by hand

    def __init__(
        self,
        presenter: PermitListPresenter,
        parent: QWidget | None = None,
        *,
        remember_columns: bool = True,
        saved: SavedSearches | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("permitsView")
        self.presenter = presenter
        self.remember_columns = remember_columns
        self.saved = saved
        self.current_saved: str | None = None  # the saved search shown, until edited
        self.model = PermitTableModel(presenter, self)
        self.filter_bar = PermitFilterBar(presenter.municipality_key, self)
        self.filter_bar.changed.connect(self._filters_changed)

        self.search_box = QLineEdit(self)
        self.search_box.setObjectName("searchBox")
        self.search_box.setPlaceholderText(SEARCH_PLACEHOLDER)
        self.search_box.setClearButtonEnabled(True)
        self.search_box.setAccessibleName("Search permits")
        self.search_box.installEventFilter(self)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("countLabel")
        self.count_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.table = PermitTable(self)
        self.table.setObjectName("permitsTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        vertical = self.table.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 12)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionsMovable(True)
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(48)
        self._auto_fit = True  # until the clerk resizes a column or saved widths are restored
        self._fitting = False
        header.sectionResized.connect(self._section_resized)
        self.table.resized.connect(self._table_resized)
        header.setSortIndicator(
            presenter.column_index(presenter.sort_key),
            Qt.SortOrder.DescendingOrder if presenter.descending else Qt.SortOrder.AscendingOrder,
        )
        # The header flips the indicator on a click; the model re-queries in SQL (no proxy).
        self.table.setSortingEnabled(True)
        header.sortIndicatorChanged.connect(lambda *_: self.table.scrollToTop())
        self.table.open_requested.connect(self._open_row)

        self.empty_label = QLabel(self)
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setTextFormat(Qt.TextFormat.RichText)
        self.empty_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.table)
        self.pages.addWidget(self.empty_label)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.setSpacing(6)
        self.new_button = QPushButton("&New application", self)
        self.new_button.setObjectName("newApplication")
        self.new_button.setToolTip("Take a new permit application (Ctrl+N)")
        self.new_button.clicked.connect(self.new_application)
        self.save_button = QPushButton("&Save search…", self)
        self.save_button.setObjectName("saveSearch")
        self.save_button.setToolTip("Keep this search and these filters in the sidebar")
        self.save_button.clicked.connect(self.save_search)
        self.delete_button = QPushButton("&Delete search", self)
        self.delete_button.setObjectName("deleteSearch")
        self.delete_button.setToolTip("Remove the saved search shown from the sidebar")
        self.delete_button.clicked.connect(self.delete_search)
        self.save_button.setVisible(saved is not None)
        self.delete_button.setVisible(False)
        search_row = QHBoxLayout()
        search_row.setSpacing(8)
        search_row.addWidget(self.search_box, 1)
        search_row.addWidget(self.save_button)
        search_row.addWidget(self.delete_button)
        search_row.addWidget(self.new_button)
        layout.addLayout(search_row)
        layout.addWidget(self.filter_bar)
        count_row = QHBoxLayout()
        count_row.setSpacing(8)
        count_row.addWidget(self.count_label)
        count_row.addWidget(self.filter_bar.extras_chip)
        count_row.addStretch(1)
        count_row.addWidget(self.filter_bar.dates)
        layout.addLayout(count_row)
        layout.addSpacing(2)
        layout.addWidget(self.pages, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.apply_search)
        self.search_box.textChanged.connect(self._search_typed)
        self.setFocusProxy(self.search_box)
        # A page that cannot be read is reported after the paint that asked for it.
        presenter.on_error = lambda message: QTimer.singleShot(0, lambda: self._show_error(message))

    # --- loading and searching ----------------------------------------------------------

    def load(self) -> None:
        """Count and show the first rows (synchronously: a COUNT and one page of 200)."""
        self._load_inspectors()
        self.model.reload()
        self._refresh_labels()

    def _load_inspectors(self) -> None:
        read = getattr(self.presenter.source, "inspectors", None)  # test fakes have none
        if read is not None:
            try:
                self.filter_bar.set_inspectors(read())
            except Exception:  # the list still loads (and reports) without the choices
                return

    # --- filters and saved searches -------------------------------------------------------

    def _search_typed(self, _text: str) -> None:
        self._timer.start()
        self._edited_by_hand()

    def _filters_changed(self) -> None:
        self._edited_by_hand()
        self.apply_filters()

    def _edited_by_hand(self) -> None:
        if self.current_saved is not None:
            self.current_saved = None
            self._update_saved_buttons()
        self.filters_edited.emit()

    def apply_filters(self) -> None:
        """Filter by what the bar shows (with the search text), in SQL."""
        if self.model.set_filter(self.filter_bar.filter()):
            self.table.scrollToTop()
        self._refresh_labels()

    def clear_filters(self) -> None:
        self.filter_bar.clear()

    def show_saved(self, search: SavedSearch) -> None:
        """Show the list as `search` filters it: its text in the box, its filter on the bar."""
        self._timer.stop()
        self.search_box.blockSignals(True)
        self.search_box.setText(search.text)
        self.search_box.blockSignals(False)
        self.filter_bar.show_filter(search.filter)
        self.model.show(search.text, self.filter_bar.filter())
        self.table.scrollToTop()
        self.current_saved = search.name
        self._update_saved_buttons()
        self._refresh_labels()

    def save_search(self) -> SavedSearch | None:
        """Save search…: the search text and filters under a name this user chooses."""
        if self.saved is None:
            return None
        if self.search_pending:
            self.apply_search()
        current = self.saved.find(self.current_saved or "")
        name = ask_name(
            self,
            "Save search",
            "Name of the search (shown in the sidebar under Permits):",
            current.name if current is not None and not current.built_in else "",
        )
        if name is None:
            return None
        problem = self.saved.check_name(name)
        if problem:
            dialogs.warn(self, "Save search", problem)
            return None
        name = name.strip()
        exists = any(s.name.casefold() == name.casefold() for s in self.saved.own)
        if exists and not dialogs.ask(
            self, "Save search", f"Replace your saved search “{name}”?", default_yes=True
        ):
            return None
        search = self.saved.save(name, self.search_box.text(), self.filter_bar.filter())
        self.current_saved = search.name
        self._update_saved_buttons()
        self.saved_searches_changed.emit()
        return search

    def delete_search(self) -> bool:
        """Delete search: forget the user's saved search shown (built-in ones stay)."""
        if self.saved is None or self.current_saved is None:
            return False
        found = self.saved.find(self.current_saved)
        if found is None or found.built_in:
            return False
        if not dialogs.ask(self, "Delete search", f"Delete your saved search “{found.name}”?"):
            return False
        self.saved.delete(found.name)
        self.current_saved = None
        self._update_saved_buttons()
        self.saved_searches_changed.emit()
        return True

    def _update_saved_buttons(self) -> None:
        found = self.saved.find(self.current_saved) if self.saved and self.current_saved else None
        self.delete_button.setVisible(found is not None and not found.built_in)

    def refresh(self) -> None:
        """Changed on another workstation: the same search, the same permit selected, the
        same place in the list (a clerk reading it is not thrown back to the top)."""
        index = self.table.currentIndex()
        chosen = self.model.permit_id(index.row()) if index.isValid() else None
        column = index.column() if index.isValid() else 0
        scroll = self.table.verticalScrollBar().value()
        self.load()
        if chosen is not None:
            for row in range(self.model.rowCount()):
                if self.model.permit_id(row) == chosen:
                    self.table.setCurrentIndex(self.model.index(row, column))
                    break
        self.table.verticalScrollBar().setValue(scroll)

    def apply_search(self) -> None:
        self._timer.stop()
        if self.model.search(self.search_box.text()):
            self.table.scrollToTop()
        self._refresh_labels()

    def set_search_now(self, text: str) -> None:
        """Type `text` and search at once, without the debounce (screenshots, tests)."""
        self.search_box.setText(text)
        self.apply_search()

    @property
    def search_pending(self) -> bool:
        return self._timer.isActive()

    def focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    def _show_error(self, message: str) -> None:
        self.count_label.setText(message)
        self.count_label.setProperty("noMatch", True)
        self.count_label.style().unpolish(self.count_label)
        self.count_label.style().polish(self.count_label)

    def _refresh_labels(self) -> None:
        p = self.presenter
        self.count_label.setText(p.count_text)
        if p.empty_database:
            self.empty_label.setText(rich_text(p.empty_text))
            self.pages.setCurrentWidget(self.empty_label)
            self.search_box.setEnabled(False)
            self.filter_bar.setEnabled(False)
            self.filter_bar.dates.setEnabled(False)
            self.save_button.setEnabled(False)
            self.count_label.setVisible(False)
        else:
            self.pages.setCurrentWidget(self.table)
            self.search_box.setEnabled(True)
            self.filter_bar.setEnabled(True)
            self.filter_bar.dates.setEnabled(True)
            self.save_button.setEnabled(True)
            self.count_label.setVisible(True)
        self.count_label.setProperty("noMatch", p.no_match)
        self.count_label.style().unpolish(self.count_label)
        self.count_label.style().polish(self.count_label)

    # --- printing -----------------------------------------------------------------------

    def list_printout(self, today: date) -> ListReport:
        """Ctrl+P: every permit the search and filters match (all pages, in the list's order),
        the filter in words (ui.list_print prints it)."""
        if self.search_pending:
            self.apply_search()
        p = self.presenter
        rows = []
        for i in range(p.count):
            row = p.row(i)
            if row is not None:
                rows.append([p.cell_text(row, c.key) for c in p.columns])
        return ListReport(
            title="Permits",
            filter_words=self.filter_words(),
            printed_on=today,
            noun="permit",
            columns=[ListColumn(c.title, "RIGHT" if c.numeric else "LEFT") for c in p.columns],
            rows=rows,
        )

    def filter_words(self) -> str:
        """The search, the filter bar's choices and the order, as a clerk would say them."""
        bar, p = self.filter_bar, self.presenter
        words: list[str] = []
        if self.current_saved:
            words.append(f"saved search “{self.current_saved}”")
        text = " ".join(p.search_text.split())
        if text:
            close = ", ".join(f"“{w}”" for w in p.close_matches)
            words.append(f"search “{text}”" + (f" (close matches: {close})" if close else ""))
        f = bar.filter()
        if f.statuses:
            words.append(f"status {bar.status_combo.currentText()}")
        if f.kind:
            words.append(f"kind {bar.kind_combo.currentText()}")
        if f.inspector_id is not None:
            words.append(f"inspector {bar.inspector_combo.currentText()}")
        for what, low, high in (
            ("applied", f.applied_from, f.applied_to),
            ("issued", f.issued_from, f.issued_to),
        ):
            if low and high:
                words.append(f"{what} {short_date(low)} to {short_date(high)}")
            elif low:
                words.append(f"{what} on or after {short_date(low)}")
            elif high:
                words.append(f"{what} on or before {short_date(high)}")
        if f.open_only:
            words.append("open permits only")
        if f.entered_by_me:
            words.append("entered by me")
        if f.lapsing_days is not None:
            words.append(f"lapsing within {f.lapsing_days} days")
        said = "; ".join(words) if words else "all permits"
        title = p.columns[p.column_index(p.sort_key)].title
        order = "descending" if p.descending else "ascending"
        return f"{said[0].upper()}{said[1:]}. Sorted by {title.lower()}, {order}."

    # --- opening ------------------------------------------------------------------------

    def _open_row(self, row: int) -> None:
        permit_id = self.model.permit_id(row)
        if permit_id is not None:
            self.open_permit.emit(permit_id)

    def current_permit_id(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.permit_id(index.row()) if index.isValid() else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """In the search box, Down moves to the table; Enter opens the only match, or moves."""
        if watched is self.search_box and event.type() == QEvent.Type.Resize:
            self._fit_placeholder()
        if watched is self.search_box and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self.search_pending:
                    self.apply_search()
                if self.presenter.count == 0:
                    return True
                if key != Qt.Key.Key_Down and self.presenter.count == 1:
                    self._open_row(0)
                    return True
                self.table.setFocus(Qt.FocusReason.OtherFocusReason)
                if not self.table.currentIndex().isValid():
                    self.table.selectRow(0)
                return True
        return super().eventFilter(watched, event)

    def _fit_placeholder(self) -> None:
        """The whole instruction when it fits in the box, else the short one: never cut."""
        box = self.search_box
        option = QStyleOptionFrame()
        box.initStyleOption(option)
        inside = box.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, box)
        room = inside.width() - 4 - _CLEAR_BUTTON
        fits = box.fontMetrics().horizontalAdvance(SEARCH_PLACEHOLDER) <= room
        box.setPlaceholderText(SEARCH_PLACEHOLDER if fits else SHORT_SEARCH_PLACEHOLDER)

    # --- columns ------------------------------------------------------------------------

    def fit_columns(self) -> None:
        """Fixed-shape columns as wide as their values; the text columns share the rest."""
        header = self.table.horizontalHeader()
        metrics = self.table.fontMetrics()
        bold = self.table.font()
        bold.setBold(True)
        header_metrics = QFontMetrics(bold)
        fixed: dict[int, int] = {}
        weights: dict[int, int] = {}
        for i, column in enumerate(self.presenter.columns):
            title = header_metrics.horizontalAdvance(column.title) + _CELL_PADDING
            if column.key in _SAMPLES:
                value = metrics.horizontalAdvance(_SAMPLES[column.key]) + _CELL_PADDING
                fixed[i] = max(title, value)
            else:
                weights[i] = _WEIGHTS.get(column.key, 4)
        available = self.table.viewport().width() - sum(fixed.values())
        chars = metrics.averageCharWidth() * _MIN_TEXT_WIDTH_CHARS
        minimum = {
            i: max(
                chars,
                header_metrics.horizontalAdvance(self.presenter.columns[i].title) + _CELL_PADDING,
            )
            for i in weights
        }
        short = sum(minimum.values()) - available
        if short > 0:
            # A narrow screen: the text columns give up room down to their headings' width
            # (their values are elided) rather than the table scrolling sideways.
            floor = {i: self._heading_width(i) for i in weights}
            slack = sum(minimum[i] - floor[i] for i in weights)
            if slack > 0:
                take = min(short, slack)
                minimum = {
                    i: minimum[i] - -(-(minimum[i] - floor[i]) * take // slack) for i in weights
                }
                short -= take
            # Still short: the fixed columns give up some of their air, each in proportion,
            # never below their widest value or their heading.
            air = {
                i: max(
                    0,
                    fixed[i]
                    - max(
                        self._heading_width(i),
                        metrics.horizontalAdvance(_tight_sample(self.presenter.columns[i].key))
                        + _TIGHT_PADDING,
                    ),
                )
                for i in fixed
            }
            total_air = sum(air.values())
            if short > 0 and total_air > 0:
                take = min(short, total_air)
                for i in fixed:
                    fixed[i] -= -(-air[i] * take // total_air)
        # Each text column gets its minimum, then a share of what is left by its weight.
        spare = max(0, available - sum(minimum.values()))
        total_weight = sum(weights.values()) or 1
        self._fitting = True
        try:
            for i, width in fixed.items():
                header.resizeSection(i, width)
            for i, weight in weights.items():
                header.resizeSection(i, minimum[i] + spare * weight // total_weight)
        finally:
            self._fitting = False

    def _heading_width(self, column: int) -> int:
        """The width a column's heading needs: its title, and the sort arrow when sorted."""
        header = self.table.horizontalHeader()
        bold = self.table.font()
        bold.setBold(True)
        title = QFontMetrics(bold).horizontalAdvance(self.presenter.columns[column].title)
        need = title + _CELL_PADDING
        if header.sortIndicatorSection() == column:
            need = max(need, header.sectionSizeFromContents(column).width())
        return need

    def _section_resized(self, _index: int, _old: int, _new: int) -> None:
        if not self._fitting and self.table.isVisible() and self._user_resizing():
            self._auto_fit = False

    def _user_resizing(self) -> bool:
        return bool(QApplication.mouseButtons() & Qt.MouseButton.LeftButton)

    def _table_resized(self) -> None:
        if self._auto_fit:
            self.fit_columns()

    def restore_columns(self) -> None:
        if not self.remember_columns:
            return
        state = settings.read_bytes(settings.PERMITS_HEADER)
        if state is not None:
            self._auto_fit = False
            self.table.horizontalHeader().restoreState(state)
            # The saved indicator is only a picture: sort the model the same way.
            header = self.table.horizontalHeader()
            section = header.sortIndicatorSection()
            if 0 <= section < len(self.presenter.columns):
                self.model.sort(section, header.sortIndicatorOrder())

    def save_columns(self) -> None:
        if self.remember_columns:
            settings.write(settings.PERMITS_HEADER, self.table.horizontalHeader().saveState())
