"""The street deposits report, the expiring report and the reminder letters (issue 6): the
figures and words a clerk, the City Engineer or the Council would check, read back from the
.xlsx (openpyxl) and the .pdf (pypdf)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from openpyxl import load_workbook
from pypdf import PdfReader

from desk.domain.sureties import DepositStatus
from desk.services.sureties import (
    DepositLine,
    DepositsReport,
    ExpiringReport,
    ExpiryRow,
    Letterhead,
    reminder_letters,
)
from reports.surety_letters import letter_paragraphs, render_reminder_letters
from reports.surety_reports import (
    export_deposits_xlsx,
    export_expiring_xlsx,
    render_deposits_pdf,
    render_expiring_pdf,
)

D = Decimal
AS_OF = date(2026, 10, 15)
HEAD = Letterhead(
    municipality="City of Glendale",
    lines=("City of Glendale", "Department of Building Inspection", "5909 N Milwaukee River Pkwy"),
    inspector_name="Dale Kowalski",
    inspector_title="Building Inspector",
)


def _line(number: str, status: DepositStatus, **kw: object) -> DepositLine:
    values: dict[str, object] = dict(
        deposit_id=1,
        permit_id=1,
        permit_number=number,
        address="1322 E Lexington Blvd",
        depositor="Fischer Plumbing Co.",
        payee="Anna Schmidt",
        payee_address="6120 N Port Washington Rd",
        amount=D("500.00"),
        received_on=date(2026, 3, 30),
        receipt_number="2026-0004",
        completed_on=date(2026, 4, 1),
        eligible_from=date(2026, 9, 28),
        status=status,
        status_text=status.label,
        ordered_on=None,
        ordered_by="",
        check_number="",
        check_date=None,
        refund_amount=D("500.00"),
        retained=D("0.00"),
        resolution="",
        resolved_on=None,
        retention_reason="",
    )
    values.update(kw)
    return DepositLine(**values)  # type: ignore[arg-type]


def report() -> DepositsReport:
    eligible = _line("2026-0036", DepositStatus.ELIGIBLE)
    retained = _line(
        "2026-0015",
        DepositStatus.HELD,
        amount=D("750.00"),
        retained=D("212.50"),
        refund_amount=D("537.50"),
        resolution="R-2026-68",
        resolved_on=date(2026, 6, 3),
        retention_reason="Trench settled",
        status_text="Held ($212.50 retained)",
    )
    return DepositsReport(
        letterhead=HEAD,
        as_of=AS_OF,
        sections=(
            ("Eligible now", (eligible,)),
            ("Eligible in the next 30 days", ()),
            ("Ordered, awaiting the check", ()),
            ("Retained by the Council", (retained,)),
            ("Held, not yet eligible", ()),
        ),
        held=D("1037.50"),
        count=2,
    )


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(path).pages).split())


def test_the_deposits_pdf_carries_the_queue_the_engineers_order_and_the_councils_resolution(
    tmp_path: Path,
) -> None:
    out = tmp_path / "deposits.pdf"
    render_deposits_pdf(report(), out)
    text = pdf_text(out)
    assert "Street deposits as of 10/15/2026" in text
    assert "Street deposits held (liability account) on 10/15/2026: $1,037.50" in text
    assert "Eligible now — 1, $500.00" in text
    assert "2026-0036" in text and "Fischer Plumbing Co. (to Anna Schmidt)" in text
    assert "Order of the City Engineer (15.1.43)" in text
    assert "Retained by the Council — 1, $750.00" in text
    assert "2026-0015: resolution R-2026-68 of 06/03/2026 — $212.50: Trench settled" in text


def test_the_deposits_workbook_totals_by_formula_and_keeps_dates_and_money_typed(
    tmp_path: Path,
) -> None:
    out = tmp_path / "deposits.xlsx"
    export_deposits_xlsx(report(), out)
    ws = load_workbook(out).active
    assert ws is not None
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    assert rows[0][0] == "Street deposits as of 10/15/2026"
    eligible = next(r for r in rows if r[0] == "2026-0036")
    assert eligible[2:5] == ["Fischer Plumbing Co.", "Anna Schmidt", 500]
    assert eligible[7].date() == date(2026, 9, 28)  # eligible from
    retained = next(r for r in rows if r[0] == "2026-0015")
    assert retained[11:13] == [212.5, 537.5]
    totals = [r for r in rows if r[0] == "Total"]
    assert totals and all(str(r[4]).startswith("=SUM(") or r[4] == 0 for r in totals)


def expiry_rows() -> tuple[ExpiryRow, ...]:
    return (
        ExpiryRow(
            what="Insurance certificate",
            item_id=3,
            reference="WB-771204",
            holder="Garcia Plumbing & Drain Inc",
            holder_address="N86 W11917 Washington Ave\nSussex, WI 53089",
            issuer="West Bend Mutual",
            ends_on=date(2026, 10, 3),
            days_left=-12,
            permits=("2026-0274", "2026-0336"),
            message="",
            title="Certificate WB-771204",
            covers="Public liability insurance",
        ),
        ExpiryRow(
            what="Bond",
            item_id=1,
            reference="MB-2026-05",
            holder="Lakeshore House Movers Inc",
            holder_address="400 W Silver Spring Dr\nGlendale, WI 53217",
            issuer="Western Surety Company",
            ends_on=date(2026, 11, 24),
            days_left=40,
            permits=(),
            message="",
            title="Bond MB-2026-05",
            covers="Moving a building",
        ),
    )


def test_the_expiring_report_lists_each_with_the_permits_relying_on_it(tmp_path: Path) -> None:
    r = ExpiringReport(HEAD, AS_OF, 60, expiry_rows())
    pdf, xlsx = tmp_path / "expiring.pdf", tmp_path / "expiring.xlsx"
    render_expiring_pdf(r, pdf)
    export_expiring_xlsx(r, xlsx)
    text = pdf_text(pdf)
    assert "Bonds and insurance expiring in the next 60 days" in text
    assert "2 bonds and certificates end within 60 days; 1 already ended while a permit relies" in (
        text
    )
    assert "2026-0274, 2026-0336" in text
    ws = load_workbook(xlsx).active
    assert ws is not None
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    data = [row for row in rows if row[4] in ("WB-771204", "MB-2026-05")]
    assert [(row[1], row[2], row[3], row[7]) for row in data] == [
        (-12, "Insurance certificate", "Public liability insurance", "2026-0274, 2026-0336"),
        (40, "Bond", "Moving a building", None),
    ]
    assert data[0][8] == "N86 W11917 Washington Ave, Sussex, WI 53089"


def test_a_reminder_letter_goes_to_each_contractor_with_the_date_to_renew_by(
    tmp_path: Path,
) -> None:
    letters = reminder_letters(HEAD, AS_OF, expiry_rows())
    assert [x.reply_by for x in letters] == [date(2026, 10, 25), date(2026, 11, 23)]
    assert letter_paragraphs(letters[0])[:2] == [
        "Our records show that your certificate of insurance WB-771204 issued by West Bend "
        "Mutual ended on 10/03/2026.",
        "Permits 2026-0274, 2026-0336 rely on it. The ordinance requires the insurance to stay "
        "in force while the permitted work goes on; work without it may be stopped.",
    ]
    out = tmp_path / "letters.pdf"
    render_reminder_letters(letters, out)
    pages = PdfReader(out).pages
    assert len(pages) == 2
    second = " ".join(pages[1].extract_text().split())
    assert "Lakeshore House Movers Inc 400 W Silver Spring Dr Glendale, WI 53217" in second
    assert "Re: Bond MB-2026-05 — Moving a building" in second
    assert "with this office by 11/23/2026" in second
    # The letter's date line is the one place a date is written out in words.
    assert "River Pkwy October 15, 2026 Lakeshore House Movers" in second
    assert "Dale Kowalski Building Inspector" in second
