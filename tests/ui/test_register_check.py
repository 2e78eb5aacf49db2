"""The anchors in the window: the daily close and the turnover append the audit trail's head to
the office's anchors file and print it on their papers, and Administration → Check the register
compares the register with its audit trail and with that file, off the UI thread, for the
administrator to read, copy and print."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QGuiApplication
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from db import schema
from db.audit_anchors import head, read_anchors
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.cashiering import PaymentMethod
from desk.domain.model import Actor
from tests.cashbook import DAY, CashDay, open_day
from tests.db.tampering import tamper
from ui import dialogs
from ui.anchors import ANCHORS_FILE, anchors_path
from ui.app import make_session
from ui.main_window import MainWindow
from ui.views.register_check import RegisterCheckDialog
from ui.views.treasurer import TreasurerView


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "t.db"))
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def day(db: Database) -> CashDay:
    return open_day(db, FixedClock(DAY))


def pdf_text(path: Path) -> str:
    return "\n".join(" ".join(p.extract_text().split()) for p in PdfReader(str(path)).pages)


def treasury(qtbot: QtBot, day: CashDay, who: Actor) -> TreasurerView:
    view = TreasurerView(day.database, make_session(day.database, who), day.clock)
    qtbot.addWidget(view)
    view.show()
    view.load()
    return view


def close_in_the_window(qtbot: QtBot, day: CashDay) -> TreasurerView:
    view = treasury(qtbot, day, day.reg.clerk)
    page = view.show_page("close")
    for method, text in ((PaymentMethod.CASH, "163.00"), (PaymentMethod.CHECK, "579.00")):
        page.counted[method].setText(text)
        page.presenter.counted_text[method] = text
    page.explanation.setPlainText("change given twice")
    assert page.close_day(), page.message.text()
    return view


def checked(qtbot: QtBot, database: Database) -> RegisterCheckDialog:
    dialog = RegisterCheckDialog(database)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=30_000)
    return dialog


def test_the_daily_close_files_the_anchor_and_prints_it_on_the_report(
    qtbot: QtBot, day: CashDay, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[Path] = []
    monkeypatch.setattr(dialogs, "show_file", lambda _p, path, _t: shown.append(Path(path)))
    view = close_in_the_window(qtbot, day)
    path = anchors_path()
    assert path.name == ANCHORS_FILE and path.parent.name == "documents"
    with day.database.read() as conn:
        now = head(conn)
    (filed,) = read_anchors(path)
    assert (filed.row_id, filed.row_hash, filed.count) == (now.row_id, now.row_hash, now.count)

    page = view.show_page("close")
    written = page.export(".pdf")
    assert written is not None and shown == [written]
    text = pdf_text(written)
    assert f"Audit trail anchor: row {now.row_id} ({now.count} rows)" in text
    assert now.row_hash in text.replace(" ", "")  # the full line, in small type
    assert f"id={now.row_id} rows={now.count}" in text
    # The head has not moved since the close: the file keeps one line for it.
    assert len(read_anchors(path)) == 1


def test_a_turnover_files_the_anchor_and_its_transmittal_prints_it(
    qtbot: QtBot, day: CashDay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialogs, "show_file", lambda *_a: None)
    view = close_in_the_window(qtbot, day)
    page = view.show_page("turnovers")
    page.presenter.toggle(page.presenter.open_closes[0].close_id, True)
    turnover_id = page.create_turnover()
    assert turnover_id is not None
    with day.database.read() as conn:
        now = head(conn)
    anchors = read_anchors(anchors_path())
    assert len(anchors) == 2 and anchors[-1].row_id == now.row_id
    written = page.export(".pdf")
    assert written is not None
    text = pdf_text(written)
    assert f"Audit trail anchor: row {now.row_id} ({now.count} rows)" in text
    assert now.row_hash in text.replace(" ", "")


def test_check_the_register_is_offered_to_the_administrator_only(
    qtbot: QtBot, day: CashDay
) -> None:
    for who, offered in ((day.reg.admin, True), (day.reg.clerk, False)):
        window = MainWindow(
            day.database,
            make_session(day.database, who),
            remember_geometry=False,
            clock=day.clock,
        )
        qtbot.addWidget(window)
        assert (window.check_register_action is not None) is offered
        if offered:
            assert window.admin_menu is not None
            assert window.admin_menu.actions()[-1].text() == "Check the register…"


def test_the_check_says_ok_then_names_what_was_changed_behind_the_windows_back(
    qtbot: QtBot, day: CashDay, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    close_in_the_window(qtbot, day)
    dialog = checked(qtbot, day.database)
    assert dialog.outcome is not None and dialog.outcome.ok
    text = dialog.output.toPlainText()
    assert text.startswith("OK: the register is sound.")
    assert f"compared with the 1 anchor of {anchors_path()}" in text
    assert dialog.status.text() == "OK: nothing wrong was found."

    f = schema.permit_fee_line.c
    with day.database.read() as conn:
        line = conn.execute(
            select(f.id).where(f.permit_id == day.house, f.code == "RES-NEW")
        ).scalar_one()
        last = (
            conn.execute(select(schema.audit_event.c.id).order_by(schema.audit_event.c.id.desc()))
            .scalars()
            .first()
        )
    assert last is not None
    tamper(
        day.database.engine,
        ("UPDATE permit_fee_line SET amount = 1 WHERE id = :id", {"id": line}),
        ("DELETE FROM audit_event WHERE id > :id", {"id": last - 2}),
    )
    dialog = checked(qtbot, day.database)
    text = dialog.output.toPlainText()
    assert dialog.status.text() == "Problems were found: see below."
    assert (
        f"• fee line #{line} of application #{day.house}: amount is $0.01 but the audit trail "
        "recorded $404.00"
    ) in text
    assert f"• the audit trail ends at row {last - 2} but the anchor of " in text

    dialog.copy()
    assert QGuiApplication.clipboard().text() == text
    printed = tmp_path / "check.pdf"

    def to_file(_parent: object, printer: QPrinter, _pages: int) -> bool:
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(printed))
        return True

    monkeypatch.setattr("ui.pdf.choose_printer", to_file)
    assert dialog.print_result()
    assert "amount is $0.01 but the audit trail recorded $404.00" in pdf_text(printed)
