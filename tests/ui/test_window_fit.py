"""Every window fits the screen it opens on: New application, the permit window and the PDF
previews open inside a 1366×768 or a 1024×768 screen (less the taskbar) with their Save, Print
and Close buttons on it; the size a user leaves a window at comes back for that user only, and
no larger than the screen of the day."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from db import queries
from reports.application_summary import render_application_summary
from reports.permit_card import render_permit_card
from tests.ui.sample import Sample
from ui import geometry
from ui.geometry import FRAME, fit_window
from ui.main_window import MainWindow
from ui.pdf import PdfWindow

TASKBAR = 40
SCREENS = {
    "1366x768": QRect(0, 0, 1366, 768 - TASKBAR),
    "1024x768": QRect(0, 0, 1024, 768 - TASKBAR),
}


@pytest.fixture(params=sorted(SCREENS))
def screen(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[QRect]:
    """The available area of the screen the windows open on (the taskbar at the bottom)."""
    area = SCREENS[request.param]
    monkeypatch.setattr(geometry, "available_geometry", lambda _window: QRect(area))
    yield area


def _fits(window: QWidget, area: QRect, buttons: list[str]) -> None:
    """The window with its frame inside the screen's area, and each named button whole on it."""
    framed = window.size().grownBy(FRAME)
    assert framed.width() <= area.width() and framed.height() <= area.height(), (
        f"{window.windowTitle()}: {window.width()}×{window.height()} with its frame does not "
        f"fit {area.width()}×{area.height()}"
    )
    assert area.contains(window.frameGeometry()), window.frameGeometry()
    shown = {b.text().replace("&", ""): b for b in window.findChildren(QPushButton)}
    for text in buttons:
        button = shown[text]
        assert button.isVisibleTo(window), text
        place = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        assert window.rect().contains(place), f"{text!r} at {place} is off {window.rect()}"


def _pdf(tmp_path: Path, sample: Sample, name: str) -> Path:
    """The issued permit's card, or its application summary (a report of several sections)."""
    out = tmp_path / f"{name}.pdf"
    with sample.database.read() as conn:
        if name == "card":
            card = queries.permit_card_data(conn, sample.issued_id)
            assert card is not None
            render_permit_card(card, out)
        else:
            data = queries.application_summary_data(conn, sample.issued_id)
            assert data is not None
            render_application_summary(data, out, sample.clock.today())
    return out


def test_new_application_fits_with_save_and_cancel_on_the_screen(
    qtbot: QtBot, main_window: MainWindow, screen: QRect
) -> None:
    form = main_window.new_application()
    assert form is not None
    qtbot.waitExposed(form)
    _fits(form, screen, ["Save application", "Cancel"])
    form.presenter.dirty = False
    form.close()


@pytest.mark.parametrize("name", ["card", "summary"])
def test_a_pdf_preview_fits_with_print_save_and_close_on_the_screen(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, tmp_path: Path, screen: QRect, name: str
) -> None:
    window = PdfWindow(main_window, _pdf(tmp_path, sample, name), f"Preview {name}")
    window.show()
    qtbot.waitExposed(window)
    _fits(window, screen, ["Print…", "Save as…", "Open in PDF viewer", "Close"])
    # The old fixed size was taller than either screen.
    assert window.height() < 900
    window.close()


def test_the_permit_window_fits_with_its_buttons_on_the_screen(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, screen: QRect
) -> None:
    window = main_window.open_permit(sample.issued_id)
    qtbot.waitExposed(window)
    _fits(window, screen, ["Print permit card…", "Print application…"])
    window.close()


def test_a_remembered_size_comes_back_for_its_user_only_and_within_the_screen(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    large = QRect(0, 0, 1920, 1080 - TASKBAR)
    monkeypatch.setattr(geometry, "available_geometry", lambda _window: QRect(large))
    path = _pdf(tmp_path, sample, "card")
    first = PdfWindow(main_window, path, "Permit card")  # the admin's session
    first.show()
    qtbot.waitExposed(first)
    first.resize(1500, 950)
    first.close()  # the size is kept for the admin

    again = PdfWindow(main_window, path, "Permit card")
    assert again.size() == QSize(1500, 950)
    again.close()

    # Another user on this computer gets the default size, not the admin's.
    other = QWidget()
    qtbot.addWidget(other)
    assert fit_window(other, "pdf_preview", (760, 900), username="carol") == QSize(760, 900)

    # The admin at the 1024×768 counter laptop: the size, no larger than that screen.
    small = SCREENS["1024x768"]
    monkeypatch.setattr(geometry, "available_geometry", lambda _window: QRect(small))
    laptop = PdfWindow(main_window, path, "Permit card")
    laptop.show()
    qtbot.waitExposed(laptop)
    assert laptop.size() == QSize(1024 - 16, 768 - TASKBAR - 40)
    _fits(laptop, small, ["Print…", "Close"])
    laptop.close()


def test_a_window_left_maximised_opens_maximised_for_that_user(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, tmp_path: Path, screen: QRect
) -> None:
    path = _pdf(tmp_path, sample, "card")
    first = PdfWindow(main_window, path, "Permit card")
    first.showMaximized()
    qtbot.waitExposed(first)
    first.close()
    again = PdfWindow(main_window, path, "Permit card")
    assert again.windowState() & Qt.WindowState.WindowMaximized
    again.close()
    other = QWidget()
    qtbot.addWidget(other)
    fit_window(other, "pdf_preview", (760, 900), username="carol")
    assert not other.windowState() & Qt.WindowState.WindowMaximized
