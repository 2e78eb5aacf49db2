"""Printing a permit's documents from its window: the permit card (15.1.8(a)), the
application summary, stop-work orders (15.1.12) and revocation notices (15.1.7(g)). The data is
read here (db.queries); the renderers query nothing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QWidget

from db import queries
from ui import dialogs
from ui.permit.base import PermitContext
from ui.presenters.permit_actions import order_file_name

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
    dialogs.show_file(parent, path, f"Permit card {card.number}")
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
    dialogs.show_file(parent, path, f"Application {name}")
    return path


ORDER_TITLE = {"stop_work": "Print stop-work order", "revocation": "Print revocation notice"}


def print_order_notice(parent: QWidget, context: PermitContext, order_id: int) -> Path | None:
    """The written order served on the owner and the placard for the site, as one PDF (page 1
    the notice, page 2 the placard): a stop-work order (15.1.12), with its lift notice once
    lifted, or a notice of revocation (15.1.7(g))."""
    with context.database.read() as conn:
        notice = queries.order_notice(conn, order_id)
    if notice is None:
        return None
    title = ORDER_TITLE.get(notice.kind, "Print order")
    name = order_file_name(
        notice.kind, notice.permit_number, notice.permit_id, notice.lifted_on is not None
    )
    path = _choose(parent, f"Save the {title.removeprefix('Print ')} as PDF", name)
    if path is None:
        return None
    from reports.notices import render_order_notice  # reportlab: load on first print

    try:
        render_order_notice(notice, path)
    except OSError as e:
        dialogs.error(parent, title, f"The notice could not be saved to {path}: {e}")
        return None
    dialogs.show_file(parent, path, title.removeprefix("Print ").capitalize())
    return path
