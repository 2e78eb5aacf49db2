"""Starting the window: open the database, first run or sign in, main window; or a screenshot."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from db import queries
from db.database import Database, open_database
from db.engine import DatabaseError
from db.queries import permit_id_by_number, user_full_name
from desk.clock import SystemClock
from desk.domain.enums import Role
from desk.domain.kinds import kinds_for
from desk.domain.model import Actor
from desk.errors import DeskError
from desk.services import setup, users
from ui import dialogs
from ui.application import APP_TITLE, application, process_events, settle
from ui.presenters.first_run import municipality_choices
from ui.presenters.login import DEMO_NOTE
from ui.presenters.session import Session
from ui.presenters.views import INSPECTION_PAGES, ISSUE, ViewSpec, parse_view

if TYPE_CHECKING:
    from ui.main_window import MainWindow

NOT_A_DEMO = "--user is required for a screenshot of a database that is not a demo"


class StartError(Exception):
    """Why the app cannot show the window; one line, for stderr or a message box."""


# --- the application object -----------------------------------------------------------


# --- sign-in and session ----------------------------------------------------------------


def is_demo_database(database: Database) -> bool:
    with database.read() as conn:
        return queries.is_demo(conn)


def make_session(database: Database, actor: Actor, municipality_id: int | None = None) -> Session:
    """The session in `municipality_id` (chosen at sign-in or by File → Switch municipality);
    None, or one no longer in the register: its first (usually only) municipality."""
    with database.read() as conn:
        municipality = next(
            (m for m in queries.municipalities(conn) if m[0] == municipality_id), None
        ) or queries.first_municipality(conn)
        full_name = user_full_name(conn, actor.user_id)
        if municipality is not None:
            ordinance = queries.municipality_ordinance(conn, municipality[0])
    if municipality is None:
        raise StartError("the database has no municipality yet; an administrator must set it up")
    municipality_id, _key, name = municipality
    return Session(
        actor=actor,
        full_name=full_name,
        municipality_id=municipality_id,
        municipality_key=ordinance,
        municipality_name=name,
        where=database.where,
    )


def screenshot_actor(database: Database, user: str | None) -> Actor:
    if user:
        return users.actor_for_username(database.uow(), user)
    if is_demo_database(database):
        return users.actor_for_username(database.uow(), "admin")
    raise StartError(NOT_A_DEMO)


# --- screenshot mode --------------------------------------------------------------------


def take_screenshot(
    database: Database,
    path: str,
    spec: ViewSpec,
    size: tuple[int, int],
    user: str | None,
    search: str,
) -> None:
    """Render the view offscreen and save it; StartError/DeskError say why it cannot."""
    with rendered_view(database, spec, size, user, search) as shown:
        if not shown.grab().save(path):
            raise StartError(f"cannot write the screenshot to {path}")


@contextmanager
def rendered_view(
    database: Database,
    spec: ViewSpec,
    size: tuple[int, int],
    user: str | None,
    search: str = "",
) -> Iterator[QWidget]:
    """The view shown offscreen, as in a screenshot (the layout test walks it too); the
    windows close on exit."""
    from ui.main_window import DEADLINES, PERMITS, MainWindow
    from ui.views.fee_schedules import SECTION_TITLE as FEE_SCHEDULES

    app = application()
    session = make_session(database, screenshot_actor(database, user))
    window = MainWindow(database, session, remember_geometry=False)
    shown: QWidget = window
    try:
        window.resize(*size)
        window.show()
        window.load()
        if search or spec.section == "permits":
            window.show_section(PERMITS)
        if search:
            window.permits_view.set_search_now(search)
        if spec.section == "home":
            window.show_home()
        process_events(app)
        if spec.section == "permit":
            permit_id = spec.permit_id
            if permit_id is None:
                with database.read() as conn:
                    permit_id = permit_id_by_number(
                        conn, session.municipality_id, spec.permit_number
                    )
                if permit_id is None:
                    raise StartError(f"no permit numbered '{spec.permit_number}'")
            permit_window = window.open_permit(permit_id)
            if permit_window.presenter is None:
                raise StartError(f"no permit or application #{permit_id}")
            shown = permit_window
            if spec.tab == ISSUE:
                dialog = permit_window.open_issue_dialog()
                if dialog is None:
                    raise StartError(
                        f"{permit_window.presenter.title} cannot be issued by "
                        f"{session.actor.username} (issued already, withdrawn or denied, or "
                        "not an inspector: use --user)"
                    )
                shown = dialog
            else:
                try:
                    permit_window.select_tab(spec.tab)
                except KeyError as e:
                    raise StartError(str(e.args[0])) from e
            process_events(app)
        if spec.section == "inspections":
            from ui.views.inspections import SECTION_TITLE as INSPECTIONS

            window.show_section(INSPECTIONS)
            window.inspections_view.pages.setCurrentIndex(INSPECTION_PAGES.index(spec.tab))
            process_events(app)
        if spec.section == "deadlines":
            window.show_section(DEADLINES)
            process_events(app)
        if spec.section == "users":  # Administration → Users
            from ui.views.users import SECTION_TITLE as USERS

            if window.users_view is None:
                raise StartError("the Users section is for administrators (use --user)")
            window.show_section(USERS)
            window.users_view.table.selectRow(0)
            process_events(app)
        if spec.section == "municipality":  # Administration → Municipality
            from ui.views.municipality import SECTION_TITLE as MUNICIPALITY

            try:
                window.show_section(MUNICIPALITY)
            except KeyError as e:
                raise StartError(
                    "the Municipality section is for administrators (use --user)"
                ) from e
            process_events(app)
        if spec.section == "gl":  # Administration → GL accounts
            from ui.views.gl_accounts import SECTION_TITLE as GL_ACCOUNTS

            try:
                window.show_section(GL_ACCOUNTS)
            except KeyError as e:
                raise StartError("GL accounts are for administrators (use --user)") from e
            process_events(app)
        if spec.section in ("bonds", "deposits"):
            from ui.views.bonds import SECTION_TITLE as BONDS
            from ui.views.deposits import SECTION_TITLE as DEPOSITS

            if spec.section == "bonds":
                window.show_section(BONDS)
                window.bonds_view.show_page(spec.tab)
            else:
                window.show_section(DEPOSITS)
                window.deposits_view.select_queue(spec.tab)
            process_events(app)
        if spec.section in ("licences", "condemnations"):  # City licences, condemnations
            from ui.views.licensing import SECTION_TITLE as LICENSING

            window.show_section(LICENSING)
            window.licensing_view.show_page(spec.section)
            if spec.section == "licences":
                window.licensing_view.show_licences(spec.tab)
            else:
                window.licensing_view.select_state(spec.tab)
            process_events(app)
        if spec.section == "reports":  # the report made now, for its preview
            window.show_section("Reports")
            window.reports_view.select(spec.tab)
            if spec.tab != "blds":
                window.reports_view.make_now()
                # QtPdf renders the pages in a thread of its own: give it time to finish.
                settle(app, 1.5)
            process_events(app)
        if spec.section in ("cashier", "treasurer"):
            _show_money_section(window, spec, session.actor.username)
            process_events(app)
        if spec.section == "fees":
            if window.fee_schedules_view is None:
                raise StartError(
                    f"the Fee schedules section is for administrators; {session.actor.username} "
                    "is not one (use --user)"
                )
            window.show_section(FEE_SCHEDULES)
            window.fee_schedules_view.select_row(0)
            process_events(app)
        if spec.section == "calculator":
            if not kinds_for(session.municipality_key):  # code enforcement only (Hudson)
                raise StartError(f"{session.municipality_name} has no permit kinds to price")
            calculator = window.open_fee_calculator()
            if calculator is None:
                raise StartError("the fee calculator cannot open: no fee schedule")
            calculator.resize(*size)
            calculator.load_sample()
            shown = calculator
            process_events(app)
        if spec.section == "occupancy":  # Tools → Occupancy calculator, a two-bedroom unit
            occupancy = window.open_occupancy_calculator()
            occupancy.resize(*size)
            occupancy.load_sample()
            shown = occupancy
            process_events(app)
        if spec.section in ("enforcement", "case"):  # Code enforcement (Hudson 140-3)
            from db.enforcement_case_view import case_id_by_number
            from ui.views.enforcement import SECTION_TITLE as ENFORCEMENT

            window.show_section(ENFORCEMENT)
            process_events(app)
            if spec.section == "case":
                with database.read() as conn:
                    case_id = case_id_by_number(conn, session.municipality_id, spec.permit_number)
                if case_id is None:
                    raise StartError(f"no code enforcement case numbered '{spec.permit_number}'")
                case_window = window.enforcement_view.open_case(case_id)
                case_window.resize(*size)
                shown = case_window
            process_events(app)
        if spec.section in ("rooming-houses", "licence"):  # Hudson 140-10
            from db.licence_view import licence_id_by_number
            from ui.views.rooming import SECTION_TITLE as ROOMING

            window.show_section(ROOMING)
            process_events(app)
            if spec.section == "licence":
                with database.read() as conn:
                    lid = licence_id_by_number(conn, session.municipality_id, spec.permit_number)
                if lid is None:
                    raise StartError(f"no rooming house licence numbered '{spec.permit_number}'")
                licence_window = window.rooming_view.open_licence(lid)
                licence_window.resize(*size)
                shown = licence_window
            process_events(app)
        if spec.section in ("people", "person"):  # people and organizations, a person's window
            from db.party_queries import party_id_by_name
            from ui.views.people import SECTION_TITLE as PEOPLE

            window.show_section(PEOPLE)
            process_events(app)
            if spec.section == "person":
                with database.read() as conn:
                    party_id = party_id_by_name(conn, spec.permit_number)
                if party_id is None:
                    raise StartError(f"no person or organization named '{spec.permit_number}'")
                person_window = window.people_view.open_person(party_id, spec.tab)
                person_window.resize(*size)
                shown = person_window
            process_events(app)
        if spec.section in ("parcels", "parcel"):  # the parcel register, a parcel's window
            from db.parcel_queries import parcel_id_by_pin
            from ui.views.parcels import SECTION_TITLE as PARCELS

            window.show_section(PARCELS)
            process_events(app)
            if spec.section == "parcel":
                with database.read() as conn:
                    pid = parcel_id_by_pin(conn, session.municipality_id, spec.permit_number)
                if pid is None:
                    raise StartError(f"no parcel with PIN '{spec.permit_number}'")
                parcel_window = window.parcels_view.open_parcel(pid)
                parcel_window.resize(*size)
                shown = parcel_window
            process_events(app)
        if spec.section == "intake":
            if not kinds_for(session.municipality_key):  # code enforcement only (Hudson)
                raise StartError(f"{session.municipality_name} has no permit kinds")
            intake = window.new_application()
            if intake is None:
                raise StartError("the new-application form cannot open: no fee schedule")
            intake.resize(*size)
            intake.load_sample()
            intake.presenter.dirty = False  # a screenshot closes without asking
            shown = intake
            process_events(app)
        yield shown
    finally:
        window.close()
        window.deleteLater()
        process_events(app, 1)


def _show_money_section(window: MainWindow, spec: ViewSpec, username: str) -> None:
    """The Cashier (the latest permits owing, for a screenshot) or a Treasurer page."""
    from ui.views.cashier import SECTION_TITLE as CASHIER
    from ui.views.treasurer import SECTION_TITLE as TREASURER

    title = CASHIER if spec.section == "cashier" else TREASURER
    if title not in window.section_titles():
        raise StartError(
            f"the {title} section is not for {username}'s roles (use --user, e.g. treasurer)"
        )
    window.show_section(title)
    if spec.section == "cashier" and window.cashier_view is not None:
        window.cashier_view.owing.setChecked(True)  # what is due, newest first
        window.cashier_view.add_result(0)
        if window.treasurer_view is not None:  # the receipts of the latest day with some
            window.cashier_view.show_receipts_of(window.treasurer_view.show_latest_day())
    if spec.section == "treasurer" and window.treasurer_view is not None:
        window.treasurer_view.show_page(spec.tab)
        if spec.tab == "close":
            window.treasurer_view.show_latest_day()


# --- interactive mode -------------------------------------------------------------------


def _excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """A service error raised in a slot becomes its message; anything else a calm sentence
    naming the action and what was saved, never SQL or a traceback on screen: those go to the
    log file support asks for."""
    if isinstance(value, DeskError | DatabaseError):
        dialogs.warn(None, APP_TITLE, str(value))
        return
    from permitdesk.logs import log_file
    from ui.presenters.failures import describe

    logging.getLogger("permitdesk").error("unexpected error", exc_info=(kind, value, tb))
    failure = describe(kind, value, tb, log_file())
    dialogs.unexpected(None, APP_TITLE, failure.text, failure.details)


def _first_run(database: Database) -> tuple[Actor | None, str, bool]:
    """(actor if signed in already, note for the login dialog, quit?)"""
    from ui.first_run import DEMO, FirstRunDialog

    dialog = FirstRunDialog(database)
    if dialog.exec() != FirstRunDialog.DialogCode.Accepted:
        return None, "", True
    if dialog.outcome == DEMO:
        return None, DEMO_NOTE, False
    return dialog.actor, "", False


def _ensure_municipality(database: Database, actor: Actor) -> bool:
    """A database with users but no municipality (an interrupted set-up): let an admin choose."""
    with database.read() as conn:
        if queries.first_municipality(conn) is not None:
            return True
    if Role.ADMINISTRATOR not in actor.roles:
        return False
    choices = municipality_choices()
    name = dialogs.choose(
        None, APP_TITLE, "Which municipality does this office serve?", [n for _, n in choices]
    )
    if name is None:
        return False
    key = next(k for k, n in choices if n == name)
    setup.ensure_municipality(database.uow(), SystemClock(), actor, key)
    return True


def _sweep_lapsed(database: Database, municipality_id: int) -> str:
    """On start, permits whose deadline has passed become expired (15.1.8, 15.1.42, ...), and
    notices of violation past their petition window become orders (Hudson 140-3D).
    Returns a line for the status bar (no dialog: nothing to decide, and the list is in
    Deadlines and in each permit's history)."""
    from desk.clock import SystemClock
    from desk.services.enforcement.sweep import sweep_notices
    from desk.services.lifecycle import sweep_lapsed

    found = sweep_lapsed(database.uow(), SystemClock(), municipality_id)
    expired = [e for e in found if not e.flag]
    ended = [e for e in found if e.flag]  # 15.1.13(d): listed in Deadlines as overdue
    lines = []
    if expired:
        numbers = ", ".join(e.number or f"#{e.permit_id}" for e in expired[:6])
        more = f" and {len(expired) - 6} more" if len(expired) > 6 else ""
        lines.append(f"{len(expired)} permit(s) lapsed and are now expired: {numbers}{more}.")
    if ended:
        lines.append(
            f"{len(ended)} temporary certificate(s) of occupancy ended without a final "
            "certificate; see Deadlines (15.1.13(d))."
        )
    # Hudson 140-3D: a notice of violation with no petition within 10 days after service is
    # an order.
    orders = sweep_notices(database.uow(), SystemClock(), municipality_id)
    if orders:
        from db.enforcement_case_view import municipality_housing_code
        from desk.domain.reports import code_citations

        with database.read() as conn:  # cited as the municipality's code cites its procedure
            code = municipality_housing_code(conn, municipality_id) or None
        cases = ", ".join(o.case_number for o in orders[:6])
        more = f" and {len(orders) - 6} more" if len(orders) > 6 else ""
        lines.append(
            f"{len(orders)} notice(s) of violation became orders, no petition having been filed "
            f"within 10 days after service ({code_citations(code).step('140-3D')}): "
            f"{cases}{more}."
        )
    # Hudson 140-10D: a licence suspended with no petition within 10 days is revoked.
    from desk.services.enforcement.licences import sweep_licences

    revoked = sweep_licences(database.uow(), SystemClock(), municipality_id)
    if revoked:
        numbers = ", ".join(r.number for r in revoked[:6])
        lines.append(f"{len(revoked)} rooming house licence(s) revoked (140-10D): {numbers}.")
    return " ".join(lines)


def sign_in(database: Database, note: str, username: str) -> Actor | None:
    """The sign-in dialog, then the change of a first or reset password (Cancel at either
    quits): nobody works under a password an administrator knows."""
    signed = sign_in_to(database, note, username)
    return None if signed is None else signed[0]


def sign_in_to(database: Database, note: str, username: str) -> tuple[Actor, int | None] | None:
    """sign_in, with the municipality chosen in the dialog (None: the register's only one)."""
    from ui.login import LoginDialog
    from ui.views.users import change_own_password_dialog

    login = LoginDialog(database, note=note, username=username)
    if login.exec() != LoginDialog.DialogCode.Accepted or login.actor is None:
        return None
    if login.first_password:
        change = change_own_password_dialog(
            None, database, login.actor, SystemClock(), current=login.first_password
        )
        if change.exec() != change.DialogCode.Accepted:
            return None
    return login.actor, login.municipality_id


def _interactive(database: Database, user: str | None) -> int:
    from ui.main_window import MainWindow

    app = application()
    if database.opened.message:
        dialogs.inform(None, APP_TITLE, database.opened.message)
    if database.warning:
        dialogs.warn(None, APP_TITLE, database.warning)
    with database.read() as conn:
        first_run = queries.user_count(conn) == 0
    actor: Actor | None = None
    municipality_id: int | None = None  # chosen at sign-in or by File → Switch municipality
    note = ""
    if first_run:
        actor, note, quit_now = _first_run(database)
        if quit_now:
            return 0
    previous_hook = sys.excepthook
    sys.excepthook = _excepthook
    try:
        while True:  # again after a user is signed out (disabled while working)
            if actor is None:
                signed = sign_in_to(database, note, user or "")
                if signed is None:
                    return 0
                actor, municipality_id = signed
            if not _ensure_municipality(database, actor):
                dialogs.error(
                    None,
                    APP_TITLE,
                    "This database has no municipality yet; an administrator must set it up.",
                )
                return 2
            session = make_session(database, actor, municipality_id)
            # A read-only copy is looked at as it was copied: nothing lapses in it.
            swept = "" if database.read_only else _sweep_lapsed(database, session.municipality_id)
            window = MainWindow(database, session)
            window.show()
            if swept:
                window.statusBar().showMessage(swept, 30_000)
            window.load()
            window.show_home()  # what waits for this user first; Ctrl+F finds a permit
            # The day's first start backs the register up, in the background (ui/backups.py).
            window.backups.start_automatic()
            app.exec()
            window.backups.wait()  # a backup stopped half-way would be lost
            if window.switch_to is not None:  # File → Switch municipality: the same user
                municipality_id = window.switch_to
                window.deleteLater()
                continue
            if not window.sign_out_reason and not window.signing_out:
                return 0  # Quit; Cancel at the next sign-in quits too
            # Signed out (File → Sign out, Someone else, or refused): who signs in next.
            actor, note, user = None, window.sign_out_reason, ""
            window.deleteLater()
    finally:
        sys.excepthook = previous_hook


# --- entry point ------------------------------------------------------------------------


def run_gui(
    url: str,
    screenshot: str | None,
    view: str,
    size: tuple[int, int],
    user: str | None,
    search: str,
    start_frame: QWidget | None = None,
) -> int:
    """`permitdesk gui`: 0 when done, 2 with a one-line reason when it cannot start.
    `start_frame` (ui.application) is shown until the register is open."""
    if screenshot:
        if not os.environ.get("QT_QPA_PLATFORM"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        try:
            spec = parse_view(view)
        except ValueError as e:
            return _fail_line(str(e))
        if size[0] < 200 or size[1] < 150:
            return _fail_line(f"--size {size[0]}x{size[1]} is too small; try 1280x800")
        try:
            database = open_database(url)
        except (DatabaseError, DeskError) as e:
            return _fail_line(str(e))
        try:
            take_screenshot(database, screenshot, spec, size, user, search)
        except (StartError, DeskError, DatabaseError) as e:
            return _fail_line(str(e))
        finally:
            database.close()
        return 0

    application()
    try:
        # A server restarting (a few seconds) is waited for once before the clerk is told.
        database = open_database(url, reconnect_pause=RECONNECT_PAUSE)
    except (DatabaseError, DeskError) as e:
        _close(start_frame)
        dialogs.error(None, APP_TITLE, f"Permit Desk cannot open the database.\n\n{e}")
        return 2
    _close(start_frame)
    try:
        return _interactive(database, user)
    except (StartError, DeskError, DatabaseError) as e:
        dialogs.error(None, APP_TITLE, str(e))
        return 2
    finally:
        database.close()


RECONNECT_PAUSE = 3.0  # seconds


def _close(frame: QWidget | None) -> None:
    if frame is not None:
        frame.close()
        frame.deleteLater()


def _fail_line(message: str) -> int:
    print(f"permitdesk: error: {message}", file=sys.stderr)
    return 2
