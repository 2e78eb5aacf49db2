"""The rooming house printouts (Hudson 140-10): the register as the section shows it, the
renewal letters of the licences expiring soon, a licence's certificate and its notices
(warning, suspension, denial). Each is filed in the document folder and shown or sent to the
print dialog (ui/exports.py), with the letterhead in force on the document's date, as the case
window prints its notice of violation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QWidget

from db import licence_register_queries as lq
from db.database import Database
from db.letterheads import letterhead_as_of
from desk.domain.reports import Heading
from desk.enforcement.licences import RegisterFilter
from ui.exports import CERTIFICATES, LETTERS, NOTICES, REPORTS, printout
from ui.presenters import rooming as p
from ui.presenters.registers import Line
from ui.presenters.session import Session


def render_register(
    heading: Heading, title: str, rows: Sequence[Line], empty: str, out: Path
) -> None:
    """The register's rows as the section shows them, one line each."""
    from reports.report_pdf import Col, Pdf

    pdf = Pdf(heading, "Rooming house licences")
    pdf.letterhead()
    pdf.h1(title)
    # Dates as figures (right-aligned): never cut, they take room from the words.
    cols = (
        Col("Licence", 0.95),
        Col("Operator", 1.3),
        Col("Dwelling", 1.3),
        Col("Persons", 0.6, "RIGHT"),
        Col("Applied", 0.7, "RIGHT"),
        Col("Issued", 0.7, "RIGHT"),
        Col("Last valid day", 0.75, "RIGHT"),
        Col("Status", 0.7),
    )
    pdf.table(cols, [line.cells for line in rows], empty=empty)
    pdf.build(out, subject="Hudson 140-10")


def print_register(
    parent: QWidget,
    database: Database,
    session: Session,
    today: date,
    which: RegisterFilter,
    text: str,
    rows: Sequence[Line],
    empty: str,
    *,
    direct: bool = False,
) -> Path | None:
    title = p.register_title(which, text, today)

    def write(out: Path) -> None:
        with database.read() as conn:
            head = letterhead_as_of(conn, session.municipality_id, today)
        heading = Heading(
            session.municipality_id,
            session.municipality_key,
            session.municipality_name,
            tuple(head),
            head.inspector_name,
            head.inspector_title,
        )
        render_register(heading, title, rows, empty, out)

    return printout(
        parent,
        "Rooming house register",
        f"rooming-houses-{today.isoformat()}.pdf",
        write,
        REPORTS,
        "The register",
        direct=direct,
    )


def print_renewal_letters(
    parent: QWidget, database: Database, session: Session, today: date, *, direct: bool = False
) -> tuple[int, Path | None]:
    """A letter to each operator whose licence expires within 60 days (140-10A)."""
    from reports.enforcement import licence as renderers

    mid = session.municipality_id
    with database.read() as conn:
        rows = lq.renewal_letters(conn, mid, today)
    if not rows:
        return 0, None

    def write(out: Path) -> None:
        with database.read() as conn:
            letterhead = letterhead_as_of(conn, mid, today)
        renderers.render_renewal_letters(rows, letterhead, today, out)

    path = printout(
        parent,
        "Renewal letters",
        f"rooming-renewals-{today.isoformat()}.pdf",
        write,
        LETTERS,
        "The renewal letters",
        direct=direct,
    )
    return len(rows), path


def print_certificate(
    parent: QWidget,
    database: Database,
    session: Session,
    licence_id: int,
    number: str,
    today: date,
    *,
    direct: bool = False,
) -> Path | None:
    from reports.enforcement import licence as renderers

    def write(out: Path) -> None:
        with database.read() as conn:
            cert = lq.certificate(conn, licence_id, today)
            if cert is None:
                raise OSError(f"licence {number} has no certificate")
            letterhead = letterhead_as_of(conn, session.municipality_id, cert.issued_on)
        renderers.render_licence_certificate(cert, letterhead, out)

    return printout(
        parent,
        f"Licence {number}",
        f"{number}.pdf",
        write,
        CERTIFICATES,
        "The licence",
        direct=direct,
    )


def print_notice(
    parent: QWidget,
    database: Database,
    session: Session,
    licence_id: int,
    name: str,
    kind: str,
    on: date | None,
    *,
    direct: bool = False,
) -> Path | None:
    """The licence's notice of `kind`: "warning" (140-10C), "suspension" (140-10C) or
    "denial" (140-10B)."""
    from reports.enforcement import licence as renderers

    def write(out: Path) -> None:
        with database.read() as conn:
            doc = lq.licence_notice(conn, licence_id, kind)
            letterhead = letterhead_as_of(conn, session.municipality_id, on)
        renderers.render_licence_notice(doc, letterhead, out)

    return printout(
        parent,
        f"Notice — {name}",
        f"rooming-{kind}-{name.replace(' ', '-').replace('#', '')}.pdf",
        write,
        NOTICES,
        "The notice",
        direct=direct,
    )
