"""A column sorted A to Z shows ▲, Z to A ▼ (Windows, macOS and GNOME); Qt's header asks the
style for the opposite arrow, which the app's style turns round."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionHeader

from ui.app import application
from ui.style import DeskStyle


def _arrow_widths(order: Qt.SortOrder) -> list[int]:
    """The dark pixels of each row of the arrow drawn for a header sorted in `order`, top down."""
    application()
    style = DeskStyle()
    option = QStyleOptionHeader()
    option.rect = QRect(0, 0, 24, 24)
    option.palette = QApplication.palette()
    # What QHeaderView asks for (qheaderview.cpp): SortDown for ascending, SortUp for descending.
    option.sortIndicator = (
        QStyleOptionHeader.SortIndicator.SortDown
        if order == Qt.SortOrder.AscendingOrder
        else QStyleOptionHeader.SortIndicator.SortUp
    )
    image = QImage(24, 24, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorHeaderArrow, option, painter)
    painter.end()
    widths = [
        sum(1 for x in range(24) if QColor(image.pixel(x, y)).lightness() < 160) for y in range(24)
    ]
    return [w for w in widths if w]


def test_ascending_points_up_and_descending_points_down() -> None:
    up = _arrow_widths(Qt.SortOrder.AscendingOrder)
    down = _arrow_widths(Qt.SortOrder.DescendingOrder)
    assert len(up) >= 2 and len(down) >= 2
    assert up[0] < up[-1]  # ▲: narrow at the top
    assert down[0] > down[-1]  # ▼: wide at the top


def test_the_style_is_set_once_so_widgets_are_not_polished_again() -> None:
    app = application()
    style = app.style()
    application()
    assert app.style() is style
