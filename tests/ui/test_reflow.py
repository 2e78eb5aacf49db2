"""Two parts side by side where both fit, one above the other where they do not."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.reflow import Reflow, holder


def _part(parent: QWidget, width: int, height: int) -> QWidget:
    layout = QVBoxLayout()
    label = QLabel("x", parent)
    label.setMinimumSize(width, height)
    layout.addWidget(label)
    return holder(parent, layout)


def test_the_parts_stand_side_by_side_when_both_fit_and_stack_when_not(qtbot: QtBot) -> None:
    area = QScrollArea()
    area.setWidgetResizable(True)
    page = QWidget()
    reflow = Reflow(_part(page, 400, 300), _part(page, 300, 200), page, spacing=20)
    QVBoxLayout(page).addWidget(reflow)
    area.setWidget(page)
    qtbot.addWidget(area)
    # The least width is the wider part's: a scroll area never shows it wider than it is.
    assert reflow.minimumSizeHint().width() == 400
    assert reflow.wide_enough() == 720

    area.resize(1000, 700)
    area.show()
    qtbot.waitUntil(lambda: reflow.side_by_side)
    assert reflow.first.geometry().top() == reflow.second.geometry().top()
    assert reflow.second.geometry().left() >= 420

    area.resize(600, 700)  # 1024 px less the sidebar: one above the other, scrolled down
    qtbot.waitUntil(lambda: not reflow.side_by_side)
    qtbot.waitUntil(lambda: reflow.second.geometry().top() >= reflow.first.geometry().bottom())
    assert reflow.first.height() >= 300 and reflow.second.height() >= 200
    assert page.width() <= area.viewport().width()  # never sideways
    assert area.horizontalScrollBar().maximum() == 0

    area.resize(1000, 700)  # wider again: side by side again
    qtbot.waitUntil(lambda: reflow.side_by_side)
