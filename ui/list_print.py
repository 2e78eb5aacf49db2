"""Ctrl+P on a list: the section's own printout when it has one (print_current: a receipt, a
route sheet, a case's notice); otherwise the list shown, printed as a report (reports.list_report)
of every row its search and filter match, all pages of it, not only the rows scrolled to, with
the filter stated in words. A view says what its list is with `list_printout(today)`; any other
section prints its largest table as shown, after reading the rest of it."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QStatusBar,
    QTableView,
    QTabWidget,
    QWidget,
)

from db.database import Database
from db.letterheads import letterhead_as_of
from desk.clock import Clock
from desk.domain.reports import Heading
from reports.list_report import ListColumn, ListReport, write_list_report
from ui.exports import REPORTS, printout
from ui.presenters.session import Session

NOTHING = "Nothing to print here."


def print_shown(
    section: QWidget | None, status: QStatusBar, database: Database, session: Session, clock: Clock
) -> Path | bool:
    """File ▸ Print (Ctrl+P) in the main window: the section's printout, else its list; the
    status bar says so when it has neither. The list's filed PDF, True for the section's own
    printout, False for nothing."""
    own = getattr(section, "print_current", None)
    if callable(own) and own():
        return True
    report = list_of(section, clock.today()) if section is not None else None
    if report is None:
        status.showMessage(NOTHING, 5000)
        return False
    assert section is not None
    path = print_list(section, database, session, report)
    return path if path is not None else False


def list_of(section: QWidget, today: date) -> ListReport | None:
    """What the section's list holds now, as a report; None when it shows no list."""
    own = getattr(section, "list_printout", None)
    if callable(own):
        report: ListReport | None = own(today)
        return report
    table = _largest_table(section)
    if table is None or table.model() is None:
        return None
    return table_report(section, table, today)


def print_list(
    parent: QWidget, database: Database, session: Session, report: ListReport
) -> Path | None:
    """The list filed under Reports and sent to the print dialog (Ctrl+P goes straight there)."""
    today = report.printed_on

    def write(out: Path) -> None:
        with database.read() as conn:
            head = letterhead_as_of(conn, session.municipality_id, today)
        heading = Heading(
            session.municipality_id,
            session.municipality_key,
            session.municipality_name,
            tuple(head),
            head.inspector_name,
            head.inspector_title,
        )
        write_list_report(heading, report, out)

    stem = re.sub(r"[^a-z0-9]+", "-", report.title.lower()).strip("-") or "list"
    return printout(
        parent,
        f"Print {report.title.lower()}",
        f"{stem}-{today.isoformat()}.pdf",
        write,
        REPORTS,
        "The list",
        direct=True,
    )


# --- any table --------------------------------------------------------------------------------


def _largest_table(section: QWidget) -> QTableView | None:
    tables = [t for t in section.findChildren(QTableView) if t.isVisibleTo(section)]
    if not tables:
        return None
    return max(tables, key=lambda t: t.width() * t.height())


def table_report(section: QWidget, table: QTableView, today: date) -> ListReport:
    """The table's every row (a paged list reads its remaining pages first, with the same search
    and filter) and its visible columns; the search box and filter choices beside it in words."""
    model: QAbstractItemModel = table.model()
    root = QModelIndex()
    while model.canFetchMore(root):
        before = model.rowCount(root)
        model.fetchMore(root)
        if model.rowCount(root) == before:
            break  # a page that could not be read: the list says so; print what there is
    header = table.horizontalHeader()
    columns = [
        header.logicalIndex(v)
        for v in range(header.count())
        if not header.isSectionHidden(header.logicalIndex(v))
    ]
    cols = []
    for c in columns:
        align = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole)
        right = _is_right(align)
        title = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        cols.append(ListColumn(str(title or ""), "RIGHT" if right else "LEFT"))
    rows = [
        [_text(model.data(model.index(r, c, root), Qt.ItemDataRole.DisplayRole)) for c in columns]
        for r in range(model.rowCount(root))
    ]
    return ListReport(
        title=_title(section),
        filter_words=_filter_words(section, table),
        printed_on=today,
        noun="row",
        columns=cols,
        rows=rows,
    )


def _is_right(align: Any) -> bool:
    try:
        return bool(Qt.AlignmentFlag(int(align)) & Qt.AlignmentFlag.AlignRight)
    except (TypeError, ValueError):
        return False


def _text(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split())


def _title(section: QWidget) -> str:
    heading = section.findChild(QLabel, "viewHeading")
    title = heading.text() if heading is not None else section.objectName()
    tabs = [t for t in section.findChildren(QTabWidget) if t.isVisibleTo(section)]
    if tabs:
        tab = tabs[0]
        page = tab.tabText(tab.currentIndex()).replace("&", "")
        if page and page != title:
            title = f"{title} — {page}"
    return title.replace("&", "")


def _filter_words(section: QWidget, table: QTableView) -> str:
    """The search text and the filter choices shown over the table, as words."""
    scope: QWidget = table.parentWidget() or section
    words: list[str] = []
    for edit in scope.findChildren(QLineEdit):
        if edit.isVisibleTo(section) and edit.text().strip() and not edit.isReadOnly():
            if edit.parentWidget() is not None and isinstance(edit.parentWidget(), QComboBox):
                continue  # an editable combo's own line: the combo says it
            words.append(f"search “{edit.text().strip()}”")
    for combo in scope.findChildren(QComboBox):
        if combo.isVisibleTo(section) and combo.currentText().strip():
            name = combo.accessibleName() or combo.toolTip()
            text = combo.currentText().strip()
            words.append(f"{name.lower()}: {text}" if name else text)
    if not words:
        return "none (every row)"
    said = "; ".join(words)
    return said[0].upper() + said[1:]
