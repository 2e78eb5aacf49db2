"""The monthly and annual reports' code-enforcement part (Hudson 140-3) on both backends: cases
built through the services over March and April, each figure checked against a count made
from the registers' own reads (case_rows, timeline, special_charges, the condemnation
register), the hearings listed, and the complainant on no page and in no cell."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import openpyxl
from pypdf import PdfReader

from db import enforcement_queries as eq
from db import licence_queries
from db import licence_register_queries as lq
from db import report_queries as q
from db.database import Database
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.enforcement.licences import RegisterFilter
from desk.enforcement.model import (
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    ServiceMethod,
)
from desk.enforcement.readmodels import CaseFilter
from desk.services import licensing
from desk.services.enforcement import (
    cases,
    complaints,
    inspections,
    notices,
    orders,
    petitions,
    sweep,
)
from desk.services.enforcement import licences as rooming
from reports.council import export_annual_xlsx, render_annual_pdf
from reports.monthly import export_monthly_xlsx, render_monthly_pdf
from tests.db.enforcement_setup import OCCUPANT, OWNER, Office, case_with_notice, office
from tests.db.licence_fee import RECEIPT, set_licence_fee

COMPLAINANT = "Nellie Neighbour"
CONTACT = "(715) 555-0199"
MARCH = r.month_period(2026, 3)
APRIL = r.month_period(2026, 4)


@dataclass
class Built:
    o: Office
    notice_ids: list[int]  # every notice issued, for the hearing list


def _to(o: Office, day: date) -> None:
    o.clock.set(day)


def _parcel(o: Office, pin: str, number: str) -> int:
    o.parcel_id = o.parcel(pin, number)
    return o.parcel_id


def _licence(o: Office, pin: str, number: str, found: tuple[str, ...] = ()) -> tuple[int, int]:
    """(licence id, violation id or 0): a rooming-house licence applied for, inspected and
    issued on the clock's day (Hudson 140-10A); `found` on a second inspection that day."""
    licence_id = rooming.record_application(
        o.db.uow(),
        o.clock,
        o.clerk,
        rooming.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel(pin, number),
            operator_name="Rita Roomer",
            operator_address="5 Oak St, Hudson WI 54016",
            persons=5,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=(rooming.RoomInput("Room 1", Decimal(80), True, 1),),
        ),
    )
    case_id = rooming.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    inspections.record_inspection(o.db.uow(), o.clock, o.inspector, case_id, o.clock.today())
    set_licence_fee(o)  # 140-10A: the Council's fee, set before any licence is issued
    rooming.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    if not found:
        return licence_id, 0
    rec = inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        o.clock.today(),
        found=[inspections.FoundViolation(x) for x in found],
    )
    return licence_id, rec.violation_ids[0]


def _build(database: Database, clock: FixedClock) -> Built:
    """Five cases over March and April 2026 through the services (see each step)."""
    o = office(database, clock)
    uow = database.uow
    a_parcel = o.parcel_id
    # March 2: A, a notice to the owner and the occupant; B, an emergency order.
    _to(o, date(2026, 3, 2))
    a_case, _a_v, a = case_with_notice(o, (OWNER, OCCUPANT))
    _parcel(o, "047-0001-002", "414")
    b_case, _b_v, b = case_with_notice(o, (OWNER,), emergency=True)
    notices.record_service(
        uow(), clock, o.inspector, a.addressee_ids[0], ServiceMethod.PERSONAL, clock.today(), "Ivan"
    )
    mailed = notices.record_service(
        uow(),
        clock,
        o.inspector,
        a.addressee_ids[1],
        ServiceMethod.REGISTERED_MAIL,
        clock.today(),
        "Carol",
    )
    # A rooming-house licence issued, found short of fixtures (140-10E), warned.
    lic, lic_v = _licence(o, "047-0001-006", "422", ("140-10E",))
    rooming.give_warning(uow(), clock, o.inspector, lic, date(2026, 3, 16))
    _to(o, date(2026, 3, 3))
    notices.record_service(
        uow(), clock, o.inspector, b.addressee_ids[0], ServiceMethod.PERSONAL, clock.today(), "Ivan"
    )
    _to(o, date(2026, 3, 5))
    petitions.record_petition(
        uow(), clock, o.clerk, b.addressee_ids[0], clock.today(), "Otto Owner", "Not unsafe"
    )
    petitions.schedule_hearing(
        uow(), clock, o.inspector, b.notice_id, date(2026, 3, 16), "City Hall", clock.today()
    )
    _to(o, date(2026, 3, 9))  # the occupant's letter comes back: posted the next day
    notices.record_returned_unclaimed(uow(), clock, o.clerk, mailed.service_id, clock.today())
    _to(o, date(2026, 3, 10))
    notices.record_service(
        uow(), clock, o.inspector, a.addressee_ids[1], ServiceMethod.POSTING, clock.today(), "Ivan"
    )
    # March 12: C, an e-mailed complaint; nothing found.
    _to(o, date(2026, 3, 12))
    c_parcel = _parcel(o, "047-0001-003", "416")
    c = complaints.take_complaint(
        uow(),
        clock,
        o.clerk,
        o.mid,
        c_parcel,
        Channel.EMAIL,
        "Tall grass",
        complainant_name=COMPLAINANT,
        complainant_contact=CONTACT,
    )
    inspections.record_inspection(uow(), clock, o.inspector, c.case.case_id, clock.today())
    # Filed on 03/12, the last day after the mailing of 03/02 (the letter's return did not undo
    # that service, 140-3A(4)), typed in on 03/15.
    _to(o, date(2026, 3, 15))
    petitions.record_petition(
        uow(), clock, o.clerk, a.addressee_ids[1], date(2026, 3, 12), "Olga Occupant", "Repaired"
    )
    _to(o, date(2026, 3, 16))
    petitions.record_council_decision(
        uow(), clock, o.inspector, b.notice_id, Decision.WITHDRAW, clock.today(), "Safe"
    )
    # Not corrected: the licence is suspended (140-10C), revoked on the 11th day (140-10D).
    lic_case = rooming.open_licence_case(uow(), clock, o.inspector, lic)
    inspections.record_inspection(
        uow(), clock, o.inspector, lic_case, clock.today(), checks={lic_v: False}
    )
    rooming.suspend_licence(uow(), clock, o.inspector, lic)
    _to(o, date(2026, 3, 20))
    petitions.schedule_hearing(
        uow(), clock, o.inspector, a.notice_id, date(2026, 4, 6), "City Hall", clock.today()
    )
    cases.close_case(uow(), clock, o.inspector, b_case, ClosureReason.WITHDRAWN, "Order revoked")
    _to(o, date(2026, 3, 25))
    cases.close_case(uow(), clock, o.inspector, c.case.case_id, ClosureReason.UNFOUNDED)
    _to(o, date(2026, 3, 27))
    assert len(rooming.sweep_licences(uow(), clock, o.mid)) == 1
    # April 1: D, served by mail, not petitioned in time: an order (140-3D), then a late petition.
    _to(o, date(2026, 4, 1))
    _parcel(o, "047-0001-004", "418")
    _d_case, _d_v, d = case_with_notice(o)
    notices.record_service(
        uow(),
        clock,
        o.inspector,
        d.addressee_ids[0],
        ServiceMethod.REGISTERED_MAIL,
        clock.today(),
        "Carol",
    )
    # April 2: E, petitioned and modified by the Council.
    _to(o, date(2026, 4, 2))
    _parcel(o, "047-0001-005", "420")
    _e_case, e_v, e = case_with_notice(o)
    notices.record_service(
        uow(), clock, o.inspector, e.addressee_ids[0], ServiceMethod.PERSONAL, clock.today(), "Ivan"
    )
    _licence(o, "047-0001-007", "424")  # a second licence
    _to(o, date(2026, 4, 3))  # a second complaint on A's parcel joins case A
    joined = complaints.take_complaint(
        uow(),
        clock,
        o.clerk,
        o.mid,
        a_parcel,
        Channel.LETTER,
        "Stairs still broken",
        complainant_name=COMPLAINANT,
    )
    assert joined.case.case_id == a_case and not joined.case.opened
    petitions.record_petition(
        uow(), clock, o.clerk, e.addressee_ids[0], clock.today(), "Otto Owner", "More time"
    )
    petitions.schedule_hearing(
        uow(), clock, o.inspector, e.notice_id, date(2026, 4, 8), "City Hall", clock.today()
    )
    _to(o, date(2026, 4, 6))
    sustained = petitions.record_council_decision(
        uow(), clock, o.inspector, a.notice_id, Decision.SUSTAIN, clock.today(), "Not repaired"
    )
    assert sustained.order_id is not None
    _to(o, date(2026, 4, 8))
    petitions.record_council_decision(
        uow(),
        clock,
        o.inspector,
        e.notice_id,
        Decision.MODIFY,
        clock.today(),
        "More time",
        {e_v: date(2026, 6, 1)},
    )
    # D's window: 04/11 is a Saturday, the office closed: through Monday 04/13.
    _to(o, date(2026, 4, 13))
    assert sweep.sweep_notices(uow(), clock, o.mid) == []
    _to(o, date(2026, 4, 14))
    assert len(sweep.sweep_notices(uow(), clock, o.mid)) == 1  # D
    late = petitions.record_petition(
        uow(), clock, o.clerk, d.addressee_ids[0], clock.today(), "Otto Owner", "Too late"
    )
    assert not late.timely
    # April 20: A's order not complied with: citation, abatement, condemnation.
    _to(o, date(2026, 4, 20))
    for e_input in (
        orders.EscalationInput(
            sustained.order_id, EscalationKind.CITATION, clock.today(), court_reference="26-M-14"
        ),
        orders.EscalationInput(
            sustained.order_id, EscalationKind.ABATEMENT, clock.today(), cost=Decimal("1875.40")
        ),
    ):
        orders.record_escalation(uow(), clock, o.inspector, e_input)
    condemned = licensing.record_condemnation(
        uow(),
        clock,
        o.inspector,
        licensing.CondemnationInput(
            municipality_id=o.mid,
            address="412 Vine St",
            grounds=("B(1)",),
            reasons="Unsafe stairs",
            condemned_on=clock.today(),
            parcel_id=a_parcel,
        ),
    )
    orders.record_escalation(
        uow(),
        clock,
        o.inspector,
        orders.EscalationInput(
            sustained.order_id,
            EscalationKind.CONDEMNATION,
            clock.today(),
            condemnation_id=condemned,
        ),
    )
    _to(o, date(2026, 5, 4))
    return Built(o, [a.notice_id, b.notice_id, d.notice_id, e.notice_id])


# --- the count made from the registers' own reads -------------------------------------------------

_METHODS = {
    "personally": ServiceMethod.PERSONAL,
    "by registered mail": ServiceMethod.REGISTERED_MAIL,
    "by posting": ServiceMethod.POSTING,
}
_ORDERS = {
    "The notice became an order": "automatic",
    "The notice is an order upon": "council",
    "Emergency order in effect": "emergency",
}
_ESCALATIONS = {
    "re-inspection on": "reinspection",
    "citation referred": "citation",
    "condemnation #": "condemnation",
    "abatement by the city": "abatement",
}


def _from_registers(database: Database, mid: int, period: r.Period) -> dict[str, object]:
    """Every figure counted from case_rows and each case's timeline (the words the case file
    shows), the special charges and the condemnation register, bucketed here by date."""
    n: Counter[str] = Counter()
    cost = Decimal("0.00")
    with database.read() as conn:
        rows = eq.case_rows(conn, mid, date(2026, 12, 31), CaseFilter.ALL)
        for row in rows:
            if row.opened_on in period:
                n["cases_opened"] += 1
            if row.closed_on is not None and row.closed_on in period:
                n["cases_closed"] += 1
                n[f"cases_closed.{row.closed_reason}"] += 1
            for e in eq.timeline(conn, row.case_id):
                if e.on not in period:
                    continue
                text = e.text
                if e.kind == "complaint":
                    channel = re.match(r"Complaint by (\w+)", text)
                    assert channel is not None
                    n["complaints"] += 1
                    n[f"complaints.{channel.group(1)}"] += 1
                elif e.kind == "notice":
                    kind = "emergency" if text.startswith("Emergency") else "notice"
                    n["notices"] += 1
                    n[f"notices.{kind}"] += 1
                elif e.kind == "service" and "returned unclaimed" in text:
                    n["returned_unclaimed"] += 1
                elif e.kind == "service":
                    how = next(m for w, m in _METHODS.items() if f") {w}" in text)
                    n["served"] += 1
                    n[f"served.{how.value}"] += 1
                elif e.kind == "petition":
                    n["petitions"] += 1
                    n["petitions.timely" if "(timely)" in text else "petitions.late"] += 1
                elif e.kind == "decision":
                    words = re.search(r"notice (sustained|modified|withdrawn)", text)
                    assert words is not None
                    value = {"sustained": "sustain", "modified": "modify", "withdrawn": "withdraw"}
                    n["hearings"] += 1
                    n[f"hearings.{value[words.group(1)]}"] += 1
                elif e.kind == "order":
                    made = next((k for w, k in _ORDERS.items() if text.startswith(w)), None)
                    if made is not None:  # not "revoked/modified after hearing"
                        n["orders"] += 1
                        n[f"orders.{made}"] += 1
                elif e.kind == "escalation":
                    kind = next(k for w, k in _ESCALATIONS.items() if w in text)
                    n["escalations"] += 1
                    n[f"escalations.{kind}"] += 1
        for charge in eq.special_charges(conn, mid, 2026):
            if charge.decided_on in period:
                cost += charge.cost
        condemned = [
            x
            for x in licence_queries.condemnation_rows(conn, mid, period.end, state="all")
            if x.condemned_on in period
        ]
        for lic in lq.register(conn, mid, date(2026, 12, 31), RegisterFilter.ALL):
            for event, on in (
                ("issued", lic.issued_on),
                ("suspended", lic.suspended_on),
                ("revoked", lic.revoked_on),
            ):
                if on is not None and on in period:
                    n[f"licences.{event}"] += 1
    out: dict[str, object] = dict(n)
    out["abatement_cost"] = cost
    out["condemnations"] = len(condemned)
    return out


def _check(figures: r.EnforcementFigures, expected: dict[str, object]) -> None:
    for line in figures.lines():
        want = expected.get(line.key, Decimal("0.00") if line.is_money else 0)
        assert line.value == want, f"{line.key}: report {line.value}, registers {want}"


# --- the tests ------------------------------------------------------------------------------------


def test_each_monthly_figure_equals_the_count_from_the_registers(
    database: Database, clock: FixedClock
) -> None:
    built = _build(database, clock)
    mid = built.o.mid
    with database.read() as conn:
        march = q.monthly_report(conn, mid, 2026, 3)
        april = q.monthly_report(conn, mid, 2026, 4)
    assert march.enforcement is not None and april.enforcement is not None
    _check(march.enforcement.figures, _from_registers(database, mid, MARCH))
    _check(april.enforcement.figures, _from_registers(database, mid, APRIL))
    # The year to date of April is March and April.
    assert april.enforcement.ytd is not None
    _check(april.enforcement.ytd, _from_registers(database, mid, r.year_to_date(2026, 4)))
    # The figures a clerk would check by hand against the case files.
    m, a = march.enforcement.figures, april.enforcement.figures
    assert (m.figure("complaints"), a.figure("complaints")) == (3, 3)  # 3 opened, 2 + 1 joined
    # A, B, C and the licence's inspection case; D, E and the second licence's.
    assert (m.figure("cases_opened"), a.figure("cases_opened")) == (4, 3)
    assert m.cases_closed == {ClosureReason.WITHDRAWN: 1, ClosureReason.UNFOUNDED: 1}
    assert m.figure("served") == 4 and m.returned_unclaimed == 1
    assert m.figure("orders.emergency") == 1 and a.figure("orders.automatic") == 1
    assert (m.petitions_timely, m.petitions_late, a.petitions_timely, a.petitions_late) == (
        2,
        0,
        1,
        1,
    )
    assert m.decisions == {Decision.WITHDRAW: 1}
    assert a.decisions == {Decision.SUSTAIN: 1, Decision.MODIFY: 1}
    assert a.figure("escalations") == 3 and a.abatement_cost == Decimal("1875.40")
    assert (m.condemnations, a.condemnations) == (0, 1)
    assert m.licences == {"issued": 1, "suspended": 1, "revoked": 1}
    assert a.licences == {"issued": 1, "suspended": 0, "revoked": 0}


def test_the_annual_report_counts_the_year_and_lists_the_hearings_decided(
    database: Database, clock: FixedClock
) -> None:
    built = _build(database, clock)
    mid = built.o.mid
    with database.read() as conn:
        rep = q.annual_report(conn, mid, 2026)
        heard = [eq.hearing(conn, nid) for nid in built.notice_ids]
    assert rep.enforcement is not None
    _check(rep.enforcement.figures, _from_registers(database, mid, r.year_period(2026)))
    # The year is the sum of its months, figure by figure.
    with database.read() as conn:
        months = [q.enforcement_figures(conn, mid, p) for p in r.months_of(2026)]
    for k, line in enumerate(rep.enforcement.figures.lines()):
        total = sum((m.lines()[k].value for m in months), type(line.value)(0))
        assert line.value == total, line.key
    expected = sorted(
        (h.decided_on, h.hearing_on, h.case_number, h.property_address, h.decision)
        for h in heard
        if h is not None and h.decided_on is not None
    )
    assert [
        (h.decided_on, h.hearing_on, h.case_number, h.address, h.decision.value)
        for h in rep.enforcement.hearings
    ] == expected
    assert len(rep.enforcement.hearings) == rep.enforcement.figures.figure("hearings") == 3
    assert [h.decision_words for h in rep.enforcement.hearings] == [
        "Emergency order revoked",
        "Notice sustained",
        "Notice modified",
    ]
    # The condemnation is counted once: the register's row, also listed with the razings.
    assert rep.enforcement.figures.condemnations == len(rep.licensing.condemnations) == 1


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def _cells(path: Path) -> list[object]:
    wb = openpyxl.load_workbook(path)
    return [c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row]


def test_the_reports_show_the_figures_and_never_the_complainant(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    built = _build(database, clock)
    mid = built.o.mid
    with database.read() as conn:
        april = q.monthly_report(conn, mid, 2026, 4)
        annual = q.annual_report(conn, mid, 2026)
    assert april.enforcement is not None and annual.enforcement is not None
    files = {
        "monthly.pdf": lambda p: render_monthly_pdf(april, p),
        "monthly.xlsx": lambda p: export_monthly_xlsx(april, p),
        "annual.pdf": lambda p: render_annual_pdf(annual, p),
        "annual.xlsx": lambda p: export_annual_xlsx(annual, p),
    }
    for name, make in files.items():
        make(tmp_path / name)
    for name in ("monthly.pdf", "annual.pdf"):
        text = _pdf_text(tmp_path / name)
        assert "Code enforcement (Hudson 140-3)" in text
        assert "Complaints received" in text and "Hearings held and decided" in text
        assert COMPLAINANT not in text and CONTACT not in text and "Nellie" not in text
    assert "Emergency order revoked" in _pdf_text(tmp_path / "annual.pdf")
    for name in ("monthly.xlsx", "annual.xlsx"):
        cells = [str(v) for v in _cells(tmp_path / name) if v is not None]
        assert not [v for v in cells if "Nellie" in v or CONTACT in v]

    # The workbook's sheet: each figure in its row, the month and the year to date.
    ws = openpyxl.load_workbook(tmp_path / "monthly.xlsx")["Code enforcement"]
    values = list(ws.iter_rows(values_only=True))
    header = next(k for k, row in enumerate(values) if row[0] == "Figure")
    assert values[header][:3] == ("Figure", "April 2026", "Year to date 2026")
    month, ytd = april.enforcement.figures, april.enforcement.ytd
    assert ytd is not None
    lines = list(zip(month.lines(), ytd.lines(), strict=True))
    shown = [
        tuple(Decimal(str(v)).quantize(Decimal("0.01")) if isinstance(v, float) else v for v in row)
        for row in (row[:3] for row in values[header + 1 : header + 1 + len(lines)])
    ]
    assert shown == [(m.label, m.value, y.value) for m, y in lines]
    assert shown[0] == ("Complaints received", 3, 6)
    sheet = openpyxl.load_workbook(tmp_path / "annual.xlsx")["Code enforcement"]
    listed = [
        row[2]
        for row in sheet.iter_rows(values_only=True)
        if isinstance(row[2], str) and row[2].startswith("CE-")
    ]
    assert listed == [h.case_number for h in annual.enforcement.hearings]


def test_a_municipality_without_a_case_gets_no_enforcement_part(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    with database.read() as conn:
        assert q.monthly_report(conn, o.mid, 2026, 3).enforcement is None
        assert q.annual_report(conn, o.mid, 2026).enforcement is None
    case_with_notice(o)
    with database.read() as conn:
        assert q.monthly_report(conn, o.mid, 2026, 3).enforcement is not None
        # A report of one trade is the inspector's of that trade: no enforcement part.
        assert q.monthly_report(conn, o.mid, 2026, 3, "plumbing").enforcement is None
