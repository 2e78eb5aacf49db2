"""The app's style: Fusion, with the sort arrow of a column header pointing the way Windows,
macOS and GNOME point it (▲ ascending: A to Z, oldest first; ▼ descending). Qt's header asks the
style for the opposite arrow, the convention of KDE alone."""

from __future__ import annotations

from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionHeader,
    QWidget,
)

STYLE_NAME = "permitdesk-fusion"


class DeskStyle(QProxyStyle):
    def __init__(self) -> None:
        super().__init__("Fusion")
        self.setObjectName(STYLE_NAME)

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element == QStyle.PrimitiveElement.PE_IndicatorHeaderArrow and isinstance(
            option, QStyleOptionHeader
        ):
            flipped = QStyleOptionHeader(option)
            up, down = (
                QStyleOptionHeader.SortIndicator.SortUp,
                QStyleOptionHeader.SortIndicator.SortDown,
            )
            if option.sortIndicator == up:
                flipped.sortIndicator = down
            elif option.sortIndicator == down:
                flipped.sortIndicator = up
            option = flipped
        super().drawPrimitive(element, option, painter, widget)


def use_desk_style(app: QApplication) -> None:
    """Set the style once: setting it again re-polishes every widget alive. (app.style() is the
    stylesheet's wrapper once a stylesheet is set, so the app remembers it in a property.)"""
    if app.property(STYLE_NAME) is not True:
        app.setStyle(DeskStyle())
        app.setProperty(STYLE_NAME, True)
