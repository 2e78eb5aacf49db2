"""An error nobody foresaw, raised in a slot: a calm dialog naming the log file (never SQL or a
traceback on screen), the traceback in the log, and the window still working afterwards."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from desk.domain.cashiering import PaymentMethod, Tender
from desk.services import cashiering
from permitdesk.logs import LOGGER, configure_logging
from tests.ui.sample import Sample
from ui import app, dialogs
from ui.main_window import MainWindow


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(
        dialogs, "unexpected", lambda _p, _t, text, details: seen.append((text, details))
    )
    return seen


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The app's log in a folder of the test's own (other tests may have configured one)."""
    logger = logging.getLogger(LOGGER)
    monkeypatch.setattr(logger, "handlers", [])
    path = configure_logging(tmp_path / "logs")
    assert path is not None
    yield path
    for handler in logger.handlers:
        handler.close()


def _raise_in_slot(error: BaseException) -> None:
    try:
        raise error
    except BaseException as e:
        app._excepthook(type(e), e, e.__traceback__)


def test_an_unexpected_error_is_a_calm_sentence_and_the_traceback_is_in_the_log(
    main_window: MainWindow, shown: list[tuple[str, str]], log: Path
) -> None:
    _raise_in_slot(RuntimeError("UPDATE payment SET amount=? WHERE id=? failed"))
    assert len(shown) == 1
    text, details = shown[0]
    assert text.startswith("Something went wrong. Check whether it was done before you do it")
    assert text.endswith(f"The details are in the log: {log}")
    assert "UPDATE" not in text and "Traceback" not in text
    assert details.startswith("RuntimeError: UPDATE payment") and str(log) in details
    logged = log.read_text("utf-8")
    assert "Traceback (most recent call last)" in logged and "UPDATE payment" in logged
    main_window.permits_view.load()  # the window still works
    assert main_window.permits_view.model.rowCount() > 0


def _payment(sample: Sample) -> cashiering.PaymentInput:
    """$50 paid ahead, kept as the payer's credit (the sample's permits are all paid)."""
    return cashiering.PaymentInput(
        municipality_id=sample.municipality_id,
        tender=Tender(PaymentMethod.CASH, Decimal("50.00")),
        allocations=(),
        payer_name="Tran Nguyen",
    )


def _receipts(sample: Sample) -> int:
    with sample.database.read() as conn:
        return int(conn.execute(text("SELECT count(*) FROM payment")).scalar_one())


def test_a_service_failing_midway_names_the_action_and_saves_nothing(
    main_window: MainWindow, sample: Sample, shown: list[tuple[str, str]], log: Path
) -> None:
    def fail(_payment: object) -> None:
        raise KeyError("drawer")  # a bug after the payment's rows were written

    before = _receipts(sample)
    try:
        cashiering.take_payment(
            sample.database.uow(), sample.clock, sample.clerk, _payment(sample), on_taken=fail
        )
    except KeyError as e:
        app._excepthook(type(e), e, e.__traceback__)
    text, details = shown[0]
    assert text == (
        "Something went wrong during “take payment”. Nothing was saved; you can try again. "
        f"The details are in the log: {log}"
    )
    assert "Action: take payment" in details
    assert _receipts(sample) == before  # rolled back: no receipt, no money recorded
    # The window goes on: the same payment now goes through.
    cashiering.take_payment(sample.database.uow(), sample.clock, sample.clerk, _payment(sample))
    assert _receipts(sample) == before + 1
    main_window.permits_view.load()
    assert main_window.permits_view.model.rowCount() > 0


def test_a_lost_connection_says_nothing_was_saved(shown: list[tuple[str, str]], log: Path) -> None:
    lost = OperationalError("SELECT 1", {}, Exception("server closed the connection"))
    lost.connection_invalidated = True
    _raise_in_slot(lost)
    assert shown[0][0].startswith(
        "The connection to the database server was lost. Nothing was saved; when the server is "
        "back (Permit Desk reconnects by itself), do it again."
    )
    assert "SELECT" not in shown[0][0]


def test_a_connection_lost_during_commit_says_it_may_have_been_saved(
    sample: Sample, shown: list[tuple[str, str]], log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cut_during_commit(session: Session) -> None:
        lost = OperationalError("COMMIT", {}, Exception("server closed the connection"))
        lost.connection_invalidated = True
        raise lost

    monkeypatch.setattr(Session, "commit", cut_during_commit)
    try:
        cashiering.take_payment(sample.database.uow(), sample.clock, sample.clerk, _payment(sample))
    except OperationalError as e:
        app._excepthook(type(e), e, e.__traceback__)
    assert shown[0][0] == (
        "The connection to the database server was lost during “take payment”, as it was being "
        "saved: the server may or may not have kept it. When the server is back, look it up "
        f"before you do it again. The details are in the log: {log}"
    )
