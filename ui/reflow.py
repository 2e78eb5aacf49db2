"""Two parts of a page side by side where the width allows and one above the other where it
does not: on a 1024-px screen a two-column form scrolls down instead of sideways.

The page reports the narrower arrangement's width as its least, so a scroll area never has to
show it wider than it is; it lays the parts side by side as soon as both fit whole."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QLayout, QWidget


def holder(parent: QWidget, layout: QLayout) -> QWidget:
    """A plain widget around a layout, to be a part of a Reflow."""
    widget = QWidget(parent)
    widget.setLayout(layout)
    layout.setContentsMargins(0, 0, 0, 0)
    return widget


class Reflow(QWidget):
    """`first` beside `second` (sharing the width by `stretch`), or above it when narrow."""

    def __init__(
        self,
        first: QWidget,
        second: QWidget,
        parent: QWidget | None = None,
        *,
        stretch: tuple[int, int] = (1, 1),
        spacing: int = 24,
    ) -> None:
        super().__init__(parent)
        self.first = first
        self.second = second
        self.stretch = stretch
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.setSpacing(spacing)
        self.box.addWidget(first, stretch[0])
        self.box.addWidget(second, stretch[1])

    @property
    def side_by_side(self) -> bool:
        return self.box.direction() == QBoxLayout.Direction.LeftToRight

    def wide_enough(self) -> int:
        """The least width at which the parts stand side by side."""
        return (
            self.first.minimumSizeHint().width()
            + self.second.minimumSizeHint().width()
            + self.box.spacing()
        )

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()  # the arrangement shown now
        narrow = max(self.first.minimumSizeHint().width(), self.second.minimumSizeHint().width())
        return QSize(narrow, hint.height())

    def arrange(self, width: int) -> None:
        """Side by side when `width` holds both parts whole, else one above the other."""
        wide = width >= self.wide_enough()
        if wide == self.side_by_side:
            return
        self.box.setDirection(
            QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        )
        # A form's height for its width under-counts its wrapped notes: stacked, each part is
        # given at least the height it asks for, and the height shared in that proportion.
        heights = (self.first.sizeHint().height(), self.second.sizeHint().height())
        for i in (0, 1):
            self.box.setStretch(i, self.stretch[i] if wide else heights[i])
        self.setMinimumHeight(0 if wide else sum(heights) + self.box.spacing())
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.arrange(event.size().width())
        super().resizeEvent(event)
