"""Printing a permit's documents from its window: the permit card (15.1.8(a)) and the
application summary. The data is read here (db.queries); the renderers query nothing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QWidget

from db import queries
from ui import dialogs
from ui.permit.base import PermitContext

CARD_TITLE = "Print permit card"
SUMMARY_TITLE = "Print application"


def _choose(parent: QWidget, caption: str, name: str) -> Path | None:
    chosen = dialogs.choose_file(
        parent, caption, "PDF files (*.pdf)", save=True, directory=str(Path.home() / name)
    )
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.suffix.lower() == ".pdf" else path.with_suffix(".pdf")


def print_permit_card(parent: QWidget, context: PermitContext) -> Path | None:
    """Save the card as a PDF and open it; None when cancelled or there is no number yet."""
    with context.database.read() as conn:
        card = queries.permit_card_data(conn, context.permit_id)
    if card is None:
        dialogs.warn(parent, CARD_TITLE, "A permit card is printed once the permit is issued.")
        return None
    path = _choose(parent, "Save the permit card as PDF", f"permit-card-{card.number}.pdf")
    if path is None:
        return None
    from reports.permit_card import render_permit_card  # reportlab: load on first print

    try:
        render_permit_card(card, path)
    except OSError as e:
        dialogs.error(parent, CARD_TITLE, f"The card could not be saved to {path}: {e}")
        return None
    dialogs.open_file(path)
    return path


def print_application(parent: QWidget, context: PermitContext, today: date) -> Path | None:
    with context.database.read() as conn:
        data = queries.application_summary_data(conn, context.permit_id)
    if data is None:
        return None
    name = data.number or f"application-{data.permit_id}"
    path = _choose(parent, "Save the application summary as PDF", f"{name}-summary.pdf")
    if path is None:
        return None
    from reports.application_summary import render_application_summary

    try:
        render_application_summary(data, path, today)
    except OSError as e:
        dialogs.error(parent, SUMMARY_TITLE, f"The summary could not be saved to {path}: {e}")
        return None
    dialogs.open_file(path)
    return path
