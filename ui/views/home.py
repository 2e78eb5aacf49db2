"""Needs attention: the first screen after signing in (F2). What waits for this user, grouped,
each group with its count; Enter or a double-click opens the permit, or the section where the
thing is done."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.attention import Group, Item
from ui.presenters.home import HomePresenter
from ui.presenters.session import Session

SECTION_TITLE = "Needs attention"
ITEM_ROLE = Qt.ItemDataRole.UserRole


class _Tree(QTreeWidget):
    activated_item = Signal(object)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentItem():
            self.activated_item.emit(self.currentItem())
            return
        super().keyPressEvent(event)


class HomeView(QWidget):
    open_permit = Signal(int)
    open_section = Signal(str)
    open_place = Signal(str, str)  # a section and the place in it (desk.domain.attention)

    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("homeView")
        self.presenter = HomePresenter(database, session, clock)
        self.heading = QLabel(SECTION_TITLE, self)
        self.heading.setObjectName("viewHeading")
        self.note = QLabel(
            "Enter opens the permit, or the screen where it is done. The list follows the "
            "other workstations by itself.",
            self,
        )
        self.note.setObjectName("noteText")
        self.note.setWordWrap(True)
        self.tree = _Tree(self)
        self.tree.setObjectName("attentionTree")
        self.tree.setAccessibleName("Needs attention")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["What", "Why"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.tree.setColumnWidth(0, 380)
        self.tree.activated_item.connect(self._activate)
        self.tree.itemDoubleClicked.connect(lambda item, _col: self._activate(item))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.heading)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)

    @property
    def groups(self) -> list[Group]:
        return self.presenter.groups

    def load(self) -> None:
        """Read the lists again, keeping the group the user was in open and selected."""
        current = self.tree.currentItem()
        keep = self._group_key(current) if current is not None else None
        groups = self.presenter.load()
        self.heading.setText(self.presenter.heading())
        self.tree.clear()
        bold = QFont(self.font())
        bold.setBold(True)
        select: QTreeWidgetItem | None = None
        for group in groups:
            top = QTreeWidgetItem([f"{group.title} ({group.count})", ""])
            top.setData(0, ITEM_ROLE, group)
            top.setFont(0, bold)
            if not group.count:
                top.setText(1, "nothing waiting")
                top.setForeground(0, self.palette().placeholderText())
                top.setForeground(1, self.palette().placeholderText())
            for item in group.items:
                child = QTreeWidgetItem([item.what, item.why])
                child.setData(0, ITEM_ROLE, item)
                child.setToolTip(1, item.why)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
            top.setExpanded(group.count > 0)
            if select is None and (group.key == keep or (keep is None and group.count)):
                select = top
        if select is not None:
            self.tree.setCurrentItem(select)

    def _group_key(self, item: QTreeWidgetItem) -> str | None:
        top = item.parent() or item
        group = top.data(0, ITEM_ROLE)
        return group.key if isinstance(group, Group) else None

    def _activate(self, item: QTreeWidgetItem) -> None:
        data = item.data(0, ITEM_ROLE)
        if isinstance(data, Item):
            if data.permit_id is not None:
                self.open_permit.emit(data.permit_id)
            elif data.section and data.place:
                self.open_place.emit(data.section, data.place)
            elif data.section:
                self.open_section.emit(data.section)
        elif isinstance(data, Group):
            if data.count and not item.isExpanded():
                item.setExpanded(True)
            elif data.section:
                self.open_section.emit(data.section)

    def focus_list(self) -> None:
        self.tree.setFocus()
