"""Every screen is usable at 1366×768, the common office laptop: each `--view` of screenshot
mode is rendered at that size and no label, button, field or column heading is cut off by its
parent or squeezed narrower than its text. At 1024×768 (the oldest counter screens) the same holds,
and no working panel must be scrolled sideways to reach its buttons or columns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QComboBox,
    QDateEdit,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStyle,
    QStyleOptionFrame,
    QTableView,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot
from sqlalchemy import text

from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.services.municipality import update_municipality
from desk.services.users import actor_for_username
from ui.app import application, rendered_view
from ui.presenters.views import (
    BOND_PAGES,
    CONDEMNATION_STATES,
    DEPOSIT_QUEUES,
    INSPECTION_PAGES,
    ISSUE,
    LICENCE_FILTERS,
    PERMIT_TABS,
    PERSON_TABS,
    REPORT_PAGES,
    SECTIONS,
    TREASURER_PAGES,
    parse_view,
)

SIZE = (1366, 768)
SMALL = (1024, 768)
TODAY = date(2026, 12, 1)
# Placeholders the test fills with a real permit from the demo register.
ISSUED = "{issued}"
PENDING = "{pending}"
PERSON = "{person}"  # a contractor with a state credential
PARCEL = "{parcel}"  # the parcel with the most permits


@dataclass(frozen=True)
class Case:
    view: str
    user: str = "admin"
    municipality: str = "glendale"

    def __str__(self) -> str:
        return f"{self.municipality}-{self.view}-{self.user}"


def _cases() -> list[Case]:
    money = {"cashier": "treasurer"}
    cases = [Case(view, money.get(view, "admin")) for view in SECTIONS]
    cases += [Case(f"treasurer:{page}", "treasurer") for page in TREASURER_PAGES]
    cases += [Case(f"reports:{page}") for page in REPORT_PAGES]
    for name, pages in (
        ("bonds", BOND_PAGES),
        ("deposits", DEPOSIT_QUEUES),
        ("licences", LICENCE_FILTERS),
        ("condemnations", CONDEMNATION_STATES),
        ("inspections", INSPECTION_PAGES),
    ):
        cases += [Case(f"{name}:{page}") for page in pages]
    cases += [Case(f"permit:{ISSUED}:{tab}") for tab in PERMIT_TABS]
    cases += [Case(f"permit:{PENDING}:{tab}") for tab in ("summary", "checklist", "fees")]
    cases.append(Case(f"permit:{PENDING}:{ISSUE}", "inspector"))
    cases += [Case(f"person:{PERSON}:{tab}", "clerk") for tab in PERSON_TABS]
    cases.append(Case(f"parcel:{PARCEL}", "clerk"))
    # New Lisbon's kinds and fees give the intake form other rows (the emergency, the paving).
    cases += [
        Case(view, "admin", "new_lisbon")
        for view in ("intake", "calculator", "permits", "inspections:requests")
    ]
    cases += [Case(f"permit:{ISSUED}:{tab}", "admin", "new_lisbon") for tab in PERMIT_TABS]
    cases.append(Case("treasurer:refunds", "treasurer", "new_lisbon"))
    return cases


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Database]]:
    """One demo register per municipality, built once for the module."""
    built: dict[str, Database] = {}
    try:
        for key in ("glendale", "new_lisbon"):
            database = open_database(sqlite_url(tmp_path_factory.mktemp(key) / "demo.db"))
            built[key] = database
            build_demo(database, DemoSpec(key, years=1, per_year=150, seed=1, today=TODAY))
        _adopt_housing_code(built["glendale"])
        yield built
    finally:
        for database in built.values():
            database.close()


def _adopt_housing_code(database: Database) -> None:
    """Glendale's own ordinance has no housing code: adopt Hudson ch. 140 so the code
    enforcement, rooming-house and occupancy views are there to measure."""
    with database.read() as conn:
        municipality_id = conn.execute(text("SELECT id FROM municipality")).scalar_one()
    admin = actor_for_username(database.uow(), "admin")
    changes = {"housing_code": "hudson-140"}
    update_municipality(database.uow(), FixedClock(TODAY), admin, municipality_id, changes)


def _fill(view: str, database: Database) -> str:
    """The view with a real permit: the latest issued one, or an application the inspector
    may issue; or a real contractor (one with a state credential)."""
    with database.read() as conn:
        issued = conn.execute(
            text("SELECT number FROM permit WHERE number IS NOT NULL ORDER BY id DESC LIMIT 1")
        ).scalar_one()
        pending = conn.execute(
            text(
                "SELECT id FROM permit WHERE number IS NULL AND status = 'approved' "
                "ORDER BY id DESC LIMIT 1"
            )
        ).scalar_one()
        person = conn.execute(
            text(
                "SELECT id FROM party WHERE id IN (SELECT party_id FROM credential) "
                "ORDER BY id LIMIT 1"
            )
        ).scalar_one()
        parcel = conn.execute(
            text(
                "SELECT pin FROM parcel JOIN permit ON permit.parcel_id = parcel.id "
                "GROUP BY parcel.id, pin ORDER BY count(*) DESC, parcel.id LIMIT 1"
            )
        ).scalar_one()
    return (
        view.replace(ISSUED, issued)
        .replace(PENDING, f"#{pending}")
        .replace(PERSON, f"#{person}")
        .replace(PARCEL, parcel)
    )


# --- the clipping check -------------------------------------------------------------------

# Widgets whose text is cut when they are narrower than their size hint. A QLineEdit scrolls
# its text and a word-wrapped label grows down, so only their place in the parent counts.
TEXT_CUT_WHEN_NARROW = (QAbstractButton, QLabel, QDateEdit, QComboBox)
CHECKED = (
    QAbstractButton,
    QLabel,
    QLineEdit,
    QComboBox,
    QDateEdit,
    QHeaderView,
    QAbstractScrollArea,
)


def _name(widget: QWidget) -> str:
    label = ""
    if isinstance(widget, QAbstractButton | QLabel | QLineEdit):
        label = widget.text() or (widget.placeholderText() if isinstance(widget, QLineEdit) else "")
    elif isinstance(widget, QComboBox):
        label = widget.currentText()
    where = widget.objectName() or type(widget.parentWidget()).__name__
    return f"{type(widget).__name__} {where!r} {label[:50]!r}"


def _in_scrolled_viewport(widget: QWidget) -> bool:
    """A scroll area's contents (or an item view's cell widget) may extend past the viewport:
    the user scrolls to it."""
    parent = widget.parentWidget()
    holder = parent.parentWidget() if parent is not None else None
    return isinstance(holder, QAbstractScrollArea) and holder.viewport() is parent


def _header_problems(header: QHeaderView) -> list[str]:
    """A column heading narrower than its text; hidden and zero-width sections are choices."""
    found = []
    model = header.model()
    if model is None:
        return found
    for section in range(header.count()):
        if header.isSectionHidden(section) or header.sectionSize(section) == 0:
            continue
        needed = header.sectionSizeFromContents(section)
        wanted = (
            needed.width() if header.orientation() == Qt.Orientation.Horizontal else needed.height()
        )
        if header.isSortIndicatorShown() and header.sortIndicatorSection() != section:
            # Room for a sort arrow is counted on every section; only the sorted one has it.
            style = header.style()
            wanted -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
            wanted -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        size = header.sectionSize(section)
        if size < wanted:
            title = model.headerData(section, header.orientation())
            found.append(
                f"column {title!r} of {header.parentWidget().objectName() or 'a table'}: "
                f"{size} px, its heading needs {wanted}"
            )
    return found


def _line_edit_room(edit: QLineEdit) -> int:
    """The width a line edit draws its text in: inside the style's frame and padding, the text
    margins and the 2 px QLineEdit keeps each side."""
    option = QStyleOptionFrame()
    edit.initStyleOption(option)
    inside = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, edit)
    margins = edit.textMargins()
    return inside.width() - margins.left() - margins.right() - 4


def _scroll_problems(area: QAbstractScrollArea) -> list[str]:
    """Scrolling down is fine; a form or a table that must be scrolled sideways at 1366 px hides
    its right-hand buttons and columns."""
    name = area.objectName() or type(area).__name__
    shown = area.viewport().width()
    needed = 0
    if isinstance(area, QScrollArea) and area.widget() is not None and area.widgetResizable():
        needed = area.widget().minimumSizeHint().width()
    elif isinstance(area, QTableView) and area.horizontalHeader().isVisible():
        needed = area.horizontalHeader().length()
    if needed > shown + 1:
        return [f"{type(area).__name__} {name!r} needs {needed} px across, it shows {shown}"]
    return []


def clipped_widgets(root: QWidget, size: tuple[int, int]) -> list[str]:
    """One line per widget cut off by its parent or squeezed narrower than its text."""
    problems = []
    if root.width() > size[0] or root.height() > size[1]:
        problems.append(
            f"the window needs {root.width()}×{root.height()}, larger than {size[0]}×{size[1]}"
        )
    for widget in root.findChildren(QWidget):
        if widget.isWindow() or not widget.isVisibleTo(root) or not isinstance(widget, CHECKED):
            continue
        parent = widget.parentWidget()
        if parent is None:
            continue
        box: QRect = widget.geometry()
        if not _in_scrolled_viewport(widget) and not parent.rect().contains(box):
            problems.append(
                f"{_name(widget)} at {box.x()},{box.y()} {box.width()}×{box.height()} is "
                f"cut off by its parent {type(parent).__name__} "
                f"{parent.objectName()!r} ({parent.width()}×{parent.height()})"
            )
            continue
        if isinstance(widget, QHeaderView):
            problems += _header_problems(widget)
            continue
        if isinstance(widget, QAbstractScrollArea):
            problems += _scroll_problems(widget)
        if isinstance(widget, QLabel) and (widget.wordWrap() or not widget.text()):
            continue
        if isinstance(widget, QLineEdit) and not widget.text() and widget.placeholderText():
            # An empty field's placeholder is its instruction: cut, it says half of it.
            needed = widget.fontMetrics().horizontalAdvance(widget.placeholderText())
            room = _line_edit_room(widget)
            if room < needed:
                problems.append(
                    f"{_name(widget)} has {room} px for its placeholder, which needs {needed}"
                )
            continue
        if isinstance(widget, QAbstractButton) and not widget.text():
            continue  # an icon button (a line edit's clear button)
        if (
            isinstance(widget, QToolButton)
            and widget.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
            and not widget.icon().isNull()
        ):
            continue  # its text is a tooltip's (a date field's calendar button)
        if isinstance(widget, TEXT_CUT_WHEN_NARROW):
            hint = widget.minimumSizeHint().width()
            if isinstance(widget, QPushButton):
                # The style's 80 px minimum is a look, not the text's need ('◀' fits in 36).
                hint = widget.fontMetrics().horizontalAdvance(widget.text().replace("&", ""))
                hint += 12 + (widget.iconSize().width() if not widget.icon().isNull() else 0)
            elif isinstance(widget, QAbstractButton | QDateEdit):
                hint = max(hint, widget.sizeHint().width())
            if widget.width() < hint - 1:
                problems.append(
                    f"{_name(widget)} is {widget.width()} px wide, its text needs {hint}"
                )
    return problems


def sideways_scrollbars(root: QWidget) -> list[str]:
    """The scroll areas in `root` that show a horizontal scrollbar: a panel whose buttons or
    columns are reached only by scrolling sideways."""
    return [
        f"{type(area).__name__} {area.objectName() or type(area.parentWidget()).__name__!r} "
        f"scrolls sideways ({area.horizontalScrollBar().maximum()} px hidden)"
        for area in root.findChildren(QAbstractScrollArea)
        if area.isVisibleTo(root) and area.horizontalScrollBar().isVisibleTo(root)
    ]


# --- the test ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _cases(), ids=str)
def test_the_view_fits_1366_by_768_with_nothing_cut_off(
    qtbot: QtBot, demos: dict[str, Database], case: Case
) -> None:
    application()  # the stylesheet, as in the app
    database = demos[case.municipality]
    spec = parse_view(_fill(case.view, database))
    with rendered_view(database, spec, SIZE, case.user) as shown:
        problems = clipped_widgets(shown, SIZE)
        if hasattr(shown, "presenter") and hasattr(shown.presenter, "dirty"):
            shown.presenter.dirty = False  # the window closes without asking
    assert not problems, f"{case.view} at 1366×768:\n" + "\n".join(problems)


@pytest.mark.parametrize("case", _cases(), ids=str)
def test_the_view_fits_1024_by_768_and_scrolls_only_down(
    qtbot: QtBot, demos: dict[str, Database], case: Case
) -> None:
    application()
    database = demos[case.municipality]
    spec = parse_view(_fill(case.view, database))
    with rendered_view(database, spec, SMALL, case.user) as shown:
        problems = clipped_widgets(shown, SMALL) + sideways_scrollbars(shown)
        if hasattr(shown, "presenter") and hasattr(shown.presenter, "dirty"):
            shown.presenter.dirty = False
    assert not problems, f"{case.view} at 1024×768:\n" + "\n".join(problems)


def _dialogs(shown: QWidget, database: Database) -> list[QDialog]:
    """The dialogs a view opens, built over it as the view builds them."""
    from desk.clock import FixedClock
    from ui.permit.inspections import ResultDialog
    from ui.views.intake_dialogs import HouseNumberDialog, NewParcelDialog, NewPartyDialog

    clock = FixedClock(TODAY)
    if hasattr(shown, "context"):  # the permit window: the result, with its failure to call
        return [ResultDialog(shown.context, 1, "Building final", None, shown)]
    actor = shown.session.actor
    with database.read() as conn:
        parcel = conn.execute(text("SELECT id FROM parcel ORDER BY id LIMIT 1")).scalar_one()
    return [
        NewParcelDialog(database, clock, actor, shown.session.municipality_id, shown),
        NewPartyDialog(database, clock, actor, shown),
        HouseNumberDialog(database, clock, actor, parcel, "116 E Bridge St", shown),
    ]


@pytest.mark.parametrize(
    "case",
    [Case("intake"), Case("intake", "admin", "new_lisbon"), Case(f"permit:{ISSUED}:inspections")],
    ids=str,
)
def test_the_dialogs_of_the_view_show_every_label_whole(
    qtbot: QtBot, demos: dict[str, Database], case: Case
) -> None:
    application()
    database = demos[case.municipality]
    spec = parse_view(_fill(case.view, database))
    problems = []
    with rendered_view(database, spec, SIZE, case.user) as shown:
        for dialog in _dialogs(shown, database):
            dialog.show()
            qtbot.waitExposed(dialog)
            problems += [f"{type(dialog).__name__}: {p}" for p in clipped_widgets(dialog, SIZE)]
            dialog.reject()
            dialog.deleteLater()
        if hasattr(shown, "presenter") and hasattr(shown.presenter, "dirty"):
            shown.presenter.dirty = False
    assert not problems, "\n".join(problems)


def test_the_reconciliation_opens_on_the_month_it_is_shown_in(
    qtbot: QtBot, demos: dict[str, Database]
) -> None:
    from desk.clock import FixedClock
    from desk.services import users
    from ui.app import make_session
    from ui.views.common import from_qdate, to_qdate
    from ui.views.treasurer import TreasurerView

    database = demos["glendale"]
    clock = FixedClock(date(2026, 11, 20))
    actor = users.actor_for_username(database.uow(), "treasurer")
    view = TreasurerView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.load()
    page = view.show_page("reconciliation")
    assert (from_qdate(page.start.date()), from_qdate(page.end.date())) == (
        date(2026, 11, 1),
        date(2026, 11, 20),
    )
    clock.set(date(2026, 12, 2))  # the window stayed open past the month end
    view.load()  # the section shown again
    assert (from_qdate(page.start.date()), from_qdate(page.end.date())) == (
        date(2026, 12, 1),
        date(2026, 12, 2),
    )
    page.start.setDate(to_qdate(date(2026, 10, 1)))  # a period the treasurer chose stays
    clock.set(date(2026, 12, 3))
    view.load()
    assert from_qdate(page.start.date()) == date(2026, 10, 1)


@pytest.mark.parametrize("view", ["home", "permits", "cashier", "treasurer:reconciliation"])
def test_the_main_window_s_first_size_shows_the_busiest_sections_whole(
    qtbot: QtBot, demos: dict[str, Database], view: str
) -> None:
    # The main window opens at 1280×800 on a new computer.
    application()
    size = (1280, 800)
    database = demos["glendale"]
    with rendered_view(database, parse_view(view), size, "admin") as shown:
        problems = clipped_widgets(shown, size)
    assert not problems, f"{view} at 1280×800:\n" + "\n".join(problems)
