"""Every window fits the screen it opens on: a default size clamped to the screen's available
area (less the frame the window manager draws), centred on the window it was opened from; and the
size (and maximised state) each user leaves a kind of window at, restored the next time, clamped
to the screen of that time (a laptop at the counter after a large monitor in the office)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from ui import settings

# What the window manager adds around a window: a title bar and thin borders. The sizes below are
# the client area's; the frame must fit on the screen too.
FRAME = QMargins(8, 32, 8, 8)


def available_geometry(window: QWidget) -> QRect:
    """The area (without the taskbar) of the screen the window opens on: its parent's screen,
    else its own, else the primary one. Tests replace this to stand for a smaller screen."""
    parent = window.parentWidget()
    screen = (parent.window().screen() if parent is not None else None) or window.screen()
    if screen is None:
        screen = QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1366, 728)


def room_for(area: QRect) -> QSize:
    """The largest client size whose frame fits in `area`."""
    return QSize(
        max(1, area.width() - FRAME.left() - FRAME.right()),
        max(1, area.height() - FRAME.top() - FRAME.bottom()),
    )


def clamped(size: QSize, area: QRect) -> QSize:
    return size.boundedTo(room_for(area))


def signed_in_user(window: QWidget) -> str:
    """The username of the session the window (or a window it was opened from) belongs to; ""
    before anyone has signed in."""
    widget: QWidget | None = window
    while widget is not None:
        for holder in (widget, getattr(widget, "context", None)):
            session = getattr(holder, "session", None)
            username = getattr(getattr(session, "actor", None), "username", None)
            if isinstance(username, str) and username:
                return username
        widget = widget.parentWidget()
    return ""


def remembered(kind: str, username: str) -> tuple[QSize | None, bool]:
    """The size and maximised state `username` left a `kind` window at, if any."""
    store = settings.settings()
    size = store.value(settings.window_size_key(kind, username), None)
    maximised = store.value(settings.window_maximised_key(kind, username), False, type=bool)
    if not isinstance(size, QSize) or not size.isValid() or size.isEmpty():
        return None, bool(maximised)
    return size, bool(maximised)


def remember(kind: str, username: str, size: QSize, maximised: bool) -> None:
    settings.write(settings.window_size_key(kind, username), size)
    settings.write(settings.window_maximised_key(kind, username), maximised)


class _Keeper(QObject):
    """Writes the window's size when it is closed or hidden (a dialog's accept or reject hides
    it without a close event)."""

    def __init__(self, window: QWidget, kind: str, username: str) -> None:
        super().__init__(window)
        self.kind = kind
        self.username = username

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            isinstance(watched, QWidget)
            and event.type() == QEvent.Type.Hide
            and not event.spontaneous()  # minimised: not closed
        ):
            maximised = watched.isMaximized()
            size = watched.normalGeometry().size() if maximised else watched.size()
            if not size.isValid() or size.isEmpty():
                size = watched.size()
            remember(self.kind, self.username, size, maximised)
        return False


def fit_window(
    window: QWidget,
    kind: str,
    default: tuple[int, int],
    *,
    username: str | None = None,
    keep: bool = True,
) -> QSize:
    """Size the (not yet shown) window for its screen and centre it on its parent. With `keep`
    and a signed-in user, the size the user left this kind of window at is used instead of
    `default`, and the size is written again when the window closes. Returns the size given."""
    user = signed_in_user(window) if username is None else username
    area = available_geometry(window)
    wanted, maximised = QSize(*default), False
    if keep and user:
        saved, maximised = remembered(kind, user)
        if saved is not None:
            wanted = saved
    size = clamped(wanted, area)
    window.resize(size)
    window.move(_centred(window, window.size(), area))
    if maximised:
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    if keep and user:
        window.installEventFilter(_Keeper(window, kind, user))
    return window.size()


def _centred(window: QWidget, size: QSize, area: QRect) -> QPoint:
    """The top-left corner that centres the framed window on its parent (on the screen when it
    has none), moved back inside the screen's area."""
    parent = window.parentWidget()
    over = parent.window().frameGeometry() if parent is not None else area
    if not area.intersects(over):
        over = area
    framed = QSize(
        size.width() + FRAME.left() + FRAME.right(),
        size.height() + FRAME.top() + FRAME.bottom(),
    )
    x = over.center().x() - framed.width() // 2
    y = over.center().y() - framed.height() // 2
    x = max(area.left(), min(x, area.right() + 1 - framed.width()))
    y = max(area.top(), min(y, area.bottom() + 1 - framed.height()))
    # move() places the frame's top-left corner for a top-level window.
    return QPoint(x, y)
