"""Printing a permit's documents from its window: the permit card (15.1.8(a)), the
application summary, stop-work orders (15.1.12) and revocation notices (15.1.7(g)). The data is
read here (db.queries); the renderers query nothing. Each is filed in the document folder, then
shown (the buttons) or sent straight to the print dialog (`now`: Ctrl+P, print_main)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QWidget

from db import queries
from ui import dialogs
from ui.exports import APPLICATIONS, NOTICES, PERMIT_CARDS, print_now, save_and_open
from ui.permit.base import PermitContext
from ui.presenters.permit_actions import order_file_name

CARD_TITLE = "Print permit card"
SUMMARY_TITLE = "Print application"


def _deliver(
    parent: QWidget,
    title: str,
    name: str,
    write: Callable[[Path], object],
    subfolder: str,
    what: str,
    now: bool,
) -> Path | None:
    if now:
        return print_now(parent, title, name, write, subfolder, what)
    return save_and_open(parent, title, "", name, write, what=what, subfolder=subfolder)


def print_permit_card(parent: QWidget, context: PermitContext, now: bool = False) -> Path | None:
    """File the card as a PDF and show it (`now`: print it); None when it could not be written
    or there is no number yet."""
    with context.database.read() as conn:
        card = queries.permit_card_data(conn, context.permit_id)
    if card is None:
        dialogs.warn(parent, CARD_TITLE, "A permit card is printed once the permit is issued.")
        return None

    def write(path: Path) -> None:
        from reports.permit_card import render_permit_card  # reportlab: load on first print

        render_permit_card(card, path)

    name = f"permit-card-{card.number}.pdf"
    title = f"Permit card {card.number}"
    return _deliver(parent, title, name, write, PERMIT_CARDS, "The card", now)


def print_application(
    parent: QWidget, context: PermitContext, today: date, now: bool = False
) -> Path | None:
    with context.database.read() as conn:
        data = queries.application_summary_data(conn, context.permit_id)
    if data is None:
        return None
    name = data.number or f"application-{data.permit_id}"

    def write(path: Path) -> None:
        from reports.application_summary import render_application_summary

        render_application_summary(data, path, today)

    title = f"Application {name}"
    return _deliver(parent, title, f"{name}-summary.pdf", write, APPLICATIONS, "The summary", now)


def print_main(parent: QWidget, context: PermitContext, today: date) -> Path | None:
    """Ctrl+P in the permit window: the permit card once issued, else the application summary,
    straight to the print dialog."""
    with context.database.read() as conn:
        issued = queries.permit_card_data(conn, context.permit_id) is not None
    if issued:
        return print_permit_card(parent, context, now=True)
    return print_application(parent, context, today, now=True)


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

    def write(path: Path) -> None:
        from reports.notices import render_order_notice  # reportlab: load on first print

        render_order_notice(notice, path)

    shown = title.removeprefix("Print ").capitalize()
    return _deliver(parent, shown, name, write, NOTICES, "The notice", False)
