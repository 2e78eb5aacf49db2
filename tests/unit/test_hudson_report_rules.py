"""The reports of a municipality with no permit kinds (the City of Hudson, its housing code
only), without a database: which reports are offered and why not, the citations of the
code-enforcement part by housing code (Hudson 140-3, 140-10, 140-11; Ch. 512), the due words,
and the Reports presenter."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desk.domain import reports as r
from desk.enforcement.model import Channel, OrderKind
from desk.errors import ValidationError
from ui.presenters import reports as pr

TODAY = date(2026, 5, 4)


def _figures(code: str) -> r.EnforcementFigures:
    return r.EnforcementFigures(
        r.month_period(2026, 4),
        complaints={Channel.PHONE: 2},
        orders={OrderKind.AUTOMATIC: 1},
        abatement_cost=Decimal("10.00"),
        condemnations=1,
        licences={"issued": 1},
        code=code,
    )


def test_no_permit_kinds_makes_the_reports_code_enforcement_only() -> None:
    assert r.enforcement_only(False) and not r.enforcement_only(True)
    none = r.report_citations("")
    offered = [k for k in r.ReportKind if not r.not_offered_reason(k, False, cites=none)]
    assert offered == [r.ReportKind.MONTHLY, r.ReportKind.ANNUAL]
    assert r.not_offered_reason(r.ReportKind.C404, False, "the City of Hudson", cites=none) == (
        "The Census Form C-404 lists permits, and the City of Hudson has no permit kinds: it "
        "enforces its housing code only (its monthly and annual reports cover code enforcement)."
    )
    assert r.not_offered_reason(None, False, cites=none).startswith("The BLDS export lists")
    glendale = r.report_citations("glendale")
    assert all(not r.not_offered_reason(k, True, cites=glendale) for k in [*r.ReportKind, None])
    assert r.report_label(r.ReportKind.MONTHLY, False) == "Monthly code-enforcement report"
    assert r.report_label(r.ReportKind.MONTHLY, True) == "Monthly permit activity"
    # Glendale's 15.1.74(b) days are for permit reports; the housing code sets none.
    hudson = r.report_citations("")  # no permit ordinance
    assert r.due_for(r.ReportKind.MONTHLY, 2026, 4, hudson) is None
    glendale = r.report_citations("glendale")
    assert r.due_for(r.ReportKind.MONTHLY, 2026, 4, glendale) == r.DueDate(
        "Monthly permit report", date(2026, 5, 10), "15.1.74(b), 15.1.34(b)(8)"
    )


def test_the_figures_cite_hudson_140_sections_and_ch_512_by_its_chapter() -> None:
    hudson = [x.label for x in _figures("hudson-140").lines()]
    for label in (
        "Notices issued (140-3A, 140-3H)",
        "Addressees served (140-3A(4))",
        "no timely petition (140-3D)",
        "Petitions for a hearing (140-3B)",
        "Hearings held and decided (140-3C)",
        "Dwellings condemned (140-11)",
        "Rooming-house licences issued (140-10A)",
        "Rooming-house licences suspended (140-10C)",
        "Rooming-house licences revoked (140-10D)",
    ):
        assert label in hudson
    ch512 = _figures("ch-512")
    labels = [x.label for x in ch512.lines()]
    # Ch. 512 cites its chapter, and Wis. Stat. ch. 68 for review and appeal, never Hudson 140.
    assert not [x for x in labels if "140" in x]
    cited = [x for x in labels if "(" in x and not x.startswith("unfounded")]
    assert cited and all("Wis. Stat. 68." in x for x in cited), cited
    assert "Requests for review (Wis. Stat. 68.08)" in labels
    assert "Notices issued" in labels and "Dwellings condemned" in labels
    # The same figures whatever the code: only the words differ.
    assert [x.value for x in ch512.lines()] == [x.value for x in _figures("hudson-140").lines()]
    assert r.EnforcementSection(ch512).title == "Code enforcement (Ch. 512)"
    assert r.EnforcementSection(_figures("hudson-140")).title == "Code enforcement (Hudson 140-3)"
    assert r.code_citations(None).chapter == "Hudson ch. 140"
    assert r.code_citations("other-9").title == "Code enforcement (other-9)"


def test_condemnation_grounds_are_cited_in_full_where_the_code_numbers_the_section() -> None:
    assert r.code_citations("hudson-140").grounds("B(1), B(3)") == "140-11B(1), 140-11B(3)"
    assert r.code_citations("ch-512").grounds("B(1)") == "B(1)"
    assert r.code_citations("hudson-140").grounds("") == ""


def test_the_summary_sentence_and_title_name_the_city_and_its_code() -> None:
    section = r.EnforcementSection(_figures("hudson-140"))
    assert section.summary_sentence("April 2026") == (
        "In April 2026: 2 complaints received, 0 cases opened and 0 closed, 0 notices issued, "
        "1 order taking effect, 0 hearings decided by the Common Council, 1 dwelling condemned."
    )
    assert r.enforcement_title("City of Hudson", section, "Monthly report", "April 2026") == (
        "Monthly report on code enforcement in the City of Hudson (Hudson ch. 140) — April 2026"
    )


def test_the_presenter_offers_hudson_its_two_reports_only() -> None:
    p = pr.ReportsPresenter(lambda: TODAY, False, "the City of Hudson", r.report_citations(""))
    assert dict(p.choices)["monthly"] == "Monthly code-enforcement report"
    assert [k for k, _ in p.choices if not p.not_offered(k)] == ["monthly", "annual"]
    assert p.not_offered("blds").startswith("The BLDS export lists permits")
    assert p.due_line("monthly") == "Monthly, code enforcement"
    assert p.due_line("annual") == "Yearly, to the Council"
    assert p.due_line("act211") == "Not offered: no permit kinds"
    assert "15.1" not in p.due_text and "sets no day" in p.due_text
    with pytest.raises(ValidationError, match="report: The Census Form C-404 lists permits"):
        p.choose("c404")
    assert p.key == "monthly"
    p.choose("annual")
    assert p.uses_year and not p.uses_month and not p.offers_register
    assert "15.1" not in p.due_text
    # Glendale: every report, as before.
    g = pr.ReportsPresenter(
        lambda: TODAY, True, "the City of Glendale", r.report_citations("glendale")
    )
    assert g.choices == pr.CHOICES and g.due_line("monthly") == "April 2026: due 05/10/2026"
    g.choose("c404")
    g.choose("annual")
    assert g.offers_register


def test_new_lisbon_reports_are_its_own_with_no_glendale_day_or_section() -> None:
    """Ch. 435 asks for no report: the monthly and annual reports are the office's own, due on
    no day and citing nothing; the plumbing and electrical inspectors' reports (Glendale
    15.1.34(b)(8), 15.1.74(b)) are not offered."""
    p = pr.ReportsPresenter(
        lambda: TODAY, True, "the City of New Lisbon", r.report_citations("new_lisbon")
    )
    offered = [k for k, _ in p.choices if not p.not_offered(k)]
    assert offered == ["monthly", "annual", "c404", "act211", "blds"]
    assert p.not_offered("electrical_annual") == (
        "The Electrical annual report is the electrical inspector's report to the city, and "
        "the City of New Lisbon's ordinance asks for none (the monthly and annual reports "
        "cover every permit)."
    )
    assert p.due_line("monthly") == "April 2026: the office's own"
    assert p.due_line("annual") == "Yearly, to the Council"
    assert p.due_text == "The month's permit activity; the ordinance sets no day for this report."
    p.choose("annual")
    assert p.due_text == "The annual report goes to the Common Council; the ordinance sets no day."
    with pytest.raises(ValidationError, match="report: The Plumbing monthly report is the"):
        p.choose("plumbing_monthly")
