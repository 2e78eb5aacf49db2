"""The permit card (15.1.8(a)) and the application summary: reopened with pypdf."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pypdf
import pytest

from db import queries
from db.database import open_database
from db.engine import sqlite_url
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees
from reports.application_summary import render_application_summary
from reports.permit_card import POSTING, render_permit_card
from tests.ui.sample import ISSUED_NUMBER, Sample, build_sample


@pytest.fixture
def sample(tmp_path: Path) -> Iterator[Sample]:
    database = open_database(sqlite_url(tmp_path / "docs.db"))
    try:
        yield build_sample(database)
    finally:
        database.close()


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def test_the_permit_card_shows_the_number_the_address_the_parties_and_the_inspector(
    sample: Sample, tmp_path: Path
) -> None:
    with sample.database.read() as conn:
        card = queries.permit_card_data(conn, sample.issued_id)
    assert card is not None
    out = tmp_path / "card.pdf"
    render_permit_card(card, out)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 1
    text = pdf_text(out)
    for expected in (
        ISSUED_NUMBER,
        "6120 N Port Washington Rd",
        "New one- or two-family dwelling",
        "New 2-story single-family dwelling",
        "Anna Schmidt",
        "Badger State Builders LLC",
        "03/02/2026",
        "Building Inspector",
        "City of Glendale",
        "protected from the weather (15.1.8(a))",
    ):
        assert expected in text, expected
    assert POSTING.startswith("This card must be posted on the job site")


def test_an_application_without_a_number_has_no_card_yet(sample: Sample) -> None:
    with sample.database.read() as conn:
        assert queries.permit_card_data(conn, sample.permit_ids["garcia"]) is None


def test_the_application_summary_lists_parties_work_and_assessed_fees(
    sample: Sample, tmp_path: Path
) -> None:
    request = QuoteRequest(
        items=(QuoteItem("RES-NEW", quantity=Decimal(2450)), QuoteItem("RES-STATE-SEAL"))
    )
    fees.assess_fees(sample.database.uow(), sample.clock, sample.clerk, sample.issued_id, request)
    with sample.database.read() as conn:
        data = queries.application_summary_data(conn, sample.issued_id)
    assert data is not None
    out = tmp_path / "summary.pdf"
    render_application_summary(data, out, date(2026, 3, 2))
    text = pdf_text(out)
    for expected in (
        "Application summary",
        ISSUED_NUMBER,
        "6120 N Port Washington Rd",
        "047-9991-002",
        "Owner of the building",
        "Anna Schmidt",
        "Contractor",
        "Badger State Builders LLC",
        "$412,500.00",
        "2,450 sq ft",
        "RES-NEW",
        "$412.00",  # 2,450 × $0.12 = $294.00 + 40 % = $411.60, rounded up
        "RES-STATE-SEAL",
        "$35.00",
        "$447.00",
        "Glendale 15.1.21 (shipped)",
    ):
        assert expected in text, expected
