"""Reports to the Common Council, the state and the Census: pure rules and read models.

- Period math: a month, a year, the year to date, the same month last year, a five-year trend.
- Due dates: the monthly reports by the 10th of the following month (Glendale 15.1.74(b); the
  plumbing inspector's monthly report of 15.1.34(b)(8) names no day, so the same day is used),
  the electrical inspector's annual report before March 1 (15.1.74(b)), the Act 211 filing of
  new one- and two-family dwelling permits by the 15th of the following month (s. 101.63(7m)
  Wis. Stats., SPS 320.09).
- Trade grouping (building, electrical, plumbing, HVAC, erosion, other: permit_kinds.toml).
- Census Bureau Form C-404: new privately owned housing only, rows 101/103/104/105/109,
  buildings, units and valuation in whole dollars; additions, alterations and publicly owned
  housing excluded; detail lines at or above a high-value threshold.
- The register of buildings erected and the aggregate cost by class (Glendale 15.1.6(c)).

db/report_queries.py fills the frozen read models below with SQL aggregates; the renderers in
reports/ and the Reports screen only read them, so every figure comes from one place.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Any

from desk.dates import short_date
from desk.domain.cashiering import AccountKind, AccountLine, AccountPurpose, act_211_deadline
from desk.domain.enums import PermitClass, PermitStatus, WorkClass
from desk.domain.kinds import TRADES, PermitKind
from desk.domain.licensing import LICENCE_TRADES, CondemnationLine, LicenceLine
from desk.enforcement.model import (
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    NoticeKind,
    OrderKind,
    ServiceMethod,
)
from desk.enforcement.rules import DEFAULT_HOUSING_CODE
from desk.errors import ValidationError

ZERO = Decimal("0.00")
DOLLAR = Decimal(1)

# --------------------------------------------------------------------------- periods


@dataclass(frozen=True, order=True)
class Period:
    """A closed range of days [start, end] with the words a report prints for it."""

    start: date
    end: date
    label: str = field(compare=False, default="")

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    @property
    def year(self) -> int:
        return self.start.year

    @property
    def is_month(self) -> bool:
        return (
            self.start.day == 1
            and self.start.year == self.end.year
            and self.start.month == self.end.month
            and self.end.day == calendar.monthrange(self.end.year, self.end.month)[1]
        )


def month_period(year: int, month: int) -> Period:
    if not 1 <= month <= 12:
        raise ValidationError("month", f"{month} is not a month (1 to 12)")
    last = calendar.monthrange(year, month)[1]
    return Period(
        date(year, month, 1), date(year, month, last), f"{calendar.month_name[month]} {year}"
    )


def year_period(year: int) -> Period:
    return Period(date(year, 1, 1), date(year, 12, 31), str(year))


def year_to_date(year: int, month: int) -> Period:
    """January 1 to the end of `month`."""
    end = month_period(year, month).end
    if month == 1:
        return Period(date(year, 1, 1), end, f"January {year}")
    return Period(date(year, 1, 1), end, f"January–{calendar.month_name[month]} {year}")


def same_month_last_year(year: int, month: int) -> Period:
    return month_period(year - 1, month)


def months_of(year: int) -> tuple[Period, ...]:
    return tuple(month_period(year, m) for m in range(1, 13))


def trend_years(year: int, span: int = 5) -> tuple[int, ...]:
    """The five-year trend: the report's year and the four before it, oldest first."""
    return tuple(range(year - span + 1, year + 1))


_MONTH = re.compile(r"^(\d{4})-(\d{2})$", re.ASCII)  # ASCII: not '２０２６-０３'
_YEAR = re.compile(r"^\d{4}$", re.ASCII)


def parse_month(text: str, field_name: str = "month") -> tuple[int, int]:
    """'2026-03' -> (2026, 3); a ValidationError naming the field otherwise."""
    m = _MONTH.match(text.strip())
    if not m or not 1 <= int(m.group(2)) <= 12 or not 1900 <= int(m.group(1)) <= 2100:
        raise ValidationError(field_name, f"'{text}' is not a month YYYY-MM, e.g. 2026-03")
    return int(m.group(1)), int(m.group(2))


def parse_year(text: str, field_name: str = "year") -> int:
    if not _YEAR.match(text.strip()) or not 1900 <= int(text) <= 2100:
        raise ValidationError(field_name, f"'{text}' is not a year YYYY, e.g. 2026")
    return int(text)


def _next_month(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


# --------------------------------------------------------------------------- due dates


@dataclass(frozen=True)
class DueDate:
    what: str
    due: date
    section: str

    def days_left(self, today: date) -> int:
        return (self.due - today).days

    def words(self, today: date) -> str:
        """'due Tuesday 04/10/2026 (in 8 days)', 'overdue since ...', 'due today'."""
        left = self.days_left(today)
        day = f"{self.due:%A} {short_date(self.due)}"
        if left == 0:
            return f"due today, {day}"
        if left > 0:
            return f"due {day} (in {left} day{'s' if left != 1 else ''})"
        late = -left
        return f"was due {day} ({late} day{'s' if late != 1 else ''} ago)"


MONTHLY_SECTION = "15.1.74(b), 15.1.34(b)(8)"
ELECTRICAL_ANNUAL_SECTION = "15.1.74(b)"
ACT_211_SECTION = "s. 101.63(7m) Wis. Stats., SPS 320.09"
COUNCIL_SECTION = "15.1.6(c)"


@dataclass(frozen=True)
class ReportCitations:
    """What a permit ordinance asks of the reports: the sections they cite and the trades with
    reports of their own. Empty for an ordinance that asks for none (New Lisbon ch. 435 sets no
    report and no day): its reports are the office's own, cite nothing and are due on no day."""

    monthly: str = ""  # the monthly reports, due on the 10th
    electrical_annual: str = ""  # the electrical inspector's, due before March 1st
    council: str = ""  # the annual report to the Council and its register of buildings
    licences: str = ""  # the monthly report's City licences granted
    licences_annual: str = ""  # the annual report's licences granted and revoked
    revoked: str = ""  # licences revoked upon the Council's finding
    deposits: str = ""  # street deposits held for the depositor
    trades: tuple[str, ...] = ()  # the inspectors with reports of their own


REPORT_CITATIONS: dict[str, ReportCitations] = {
    "glendale": ReportCitations(
        monthly=MONTHLY_SECTION,
        electrical_annual=ELECTRICAL_ANNUAL_SECTION,
        council=COUNCIL_SECTION,
        licences="15.1.74(b)",
        licences_annual="15.1.75, 15.1.78",
        revoked="15.1.78",
        deposits="15.1.43",
        trades=("electrical", "plumbing"),
    ),
}


def report_citations(ordinance: str) -> ReportCitations:
    """The report rules of a municipality's permit ordinance (Municipality.ordinance)."""
    return REPORT_CITATIONS.get(ordinance, ReportCitations())


def monthly_report_due(year: int, month: int, trade: str | None = None) -> DueDate:
    """15.1.74(b): 'on or before the tenth (10th) day of each month' for the month before."""
    y, m = _next_month(year, month)
    who = {
        "electrical": "Electrical inspector's monthly report to the City Clerk",
        "plumbing": "Plumbing inspector's monthly report to the City Administrator",
    }.get(trade or "", "Monthly permit report")
    return DueDate(who, date(y, m, 10), MONTHLY_SECTION)


def act211_due(year: int, month: int) -> DueDate:
    """The month's new one- and two-family dwelling permits go to the state by the 15th of the
    following month (SPS 320.09); the same rule as cashiering's refund (act_211_deadline)."""
    return DueDate(
        "Act 211 filing of new dwelling permits with the state",
        act_211_deadline(date(year, month, 1)),
        ACT_211_SECTION,
    )


def electrical_annual_due(year: int) -> DueDate:
    """15.1.74(b): 'prior to March 1st of each year' — the last day of February after the year."""
    y = year + 1
    return DueDate(
        "Electrical inspector's annual report to the City Clerk",
        date(y, 2, calendar.monthrange(y, 2)[1]),
        ELECTRICAL_ANNUAL_SECTION,
    )


# --------------------------------------------------------------------------- trades

TRADE_LABELS: dict[str, str] = {
    "building": "Building",
    "electrical": "Electrical",
    "plumbing": "Plumbing",
    "hvac": "HVAC",
    "erosion": "Erosion control",
    "other": "Other",
}
# Money received that is on no permit (a payer's overpayment kept as credit, and its refund).
UNALLOCATED = "unallocated"
UNALLOCATED_LABEL = "Payer credits (on no permit)"


def trade_label(trade: str) -> str:
    if trade == UNALLOCATED:
        return UNALLOCATED_LABEL
    return TRADE_LABELS.get(trade, trade.capitalize())


def check_trade(trade: str | None, field_name: str = "trade") -> str | None:
    if trade is None or trade == "":
        return None
    if trade not in TRADES:
        raise ValidationError(field_name, f"'{trade}' is not one of {', '.join(TRADES)}")
    return trade


def trade_of_kinds(kinds: Iterable[PermitKind]) -> dict[str, str]:
    return {k.code: k.trade for k in kinds}


# --------------------------------------------------------------------------- money


def whole_dollars(amount: Decimal) -> Decimal:
    """The Census asks for valuation in whole dollars: each permit rounded half up."""
    return amount.quantize(DOLLAR, rounding=ROUND_HALF_UP)


def money(amount: Decimal | None) -> Decimal:
    return (amount or ZERO).quantize(Decimal("0.01"))


# --------------------------------------------------------------------------- headings


@dataclass(frozen=True)
class Heading:
    """Who the report is from: the letterhead and the inspector who signs it."""

    municipality_id: int
    municipality_key: str  # the shipped ordinance it follows (Municipality.ordinance)
    municipality_name: str
    letterhead: tuple[str, ...]
    inspector_name: str
    inspector_title: str
    state: str = "WI"
    settings: tuple[tuple[str, str], ...] = ()  # the municipality's report settings, as text

    def setting(self, key: str, default: str = "") -> str:
        return dict(self.settings).get(key, default)

    @property
    def cites(self) -> ReportCitations:
        return report_citations(self.municipality_key)


# --------------------------------------------------------------------------- activity figures


@dataclass(frozen=True)
class Activity:
    """One period's figures for one trade (or the total): the monthly report's columns."""

    applications: int = 0
    granted: int = 0
    finaled: int = 0
    valuation: Decimal = ZERO  # of the permits granted
    fees_received: Decimal = ZERO
    fees_delivered: Decimal = ZERO

    def __add__(self, other: Activity) -> Activity:
        return Activity(
            self.applications + other.applications,
            self.granted + other.granted,
            self.finaled + other.finaled,
            money(self.valuation + other.valuation),
            money(self.fees_received + other.fees_received),
            money(self.fees_delivered + other.fees_delivered),
        )


def total_activity(items: Iterable[Activity]) -> Activity:
    out = Activity()
    for a in items:
        out = out + a
    return out


ACTIVITY_COLUMNS = (
    ("applications", "Applications received"),
    ("granted", "Permits granted"),
    ("finaled", "Permits finaled"),
    ("valuation", "Valuation of permits granted"),
    ("fees_received", "Fees received"),
    ("fees_delivered", "Fees delivered to the Treasurer"),
)


@dataclass(frozen=True)
class TradeActivity:
    trade: str
    month: Activity
    last_year: Activity  # the same month last year
    ytd: Activity
    ytd_last_year: Activity

    @property
    def label(self) -> str:
        return trade_label(self.trade)


@dataclass(frozen=True)
class PermitLine:
    permit_id: int
    number: str
    issued_on: date | None
    kind: str
    kind_label: str
    trade: str
    permit_class: PermitClass
    work_class: WorkClass
    status: PermitStatus
    address: str
    description: str
    valuation: Decimal
    owner: str = ""


@dataclass(frozen=True)
class TurnoverLine:
    id: int
    delivered_on: date
    amount: Decimal
    acknowledged_on: date | None
    deposit_ref: str


@dataclass(frozen=True)
class LicenceCount:
    """City licences granted in one trade in the four periods the monthly report compares
    (15.1.74(b): "licenses and permits granted"); the licences are desk.domain.licensing's."""

    trade: str
    month: int = 0
    last_year: int = 0  # the same month last year
    ytd: int = 0
    ytd_last_year: int = 0

    @property
    def label(self) -> str:
        return trade_label(self.trade)


def licence_trades(trade: str | None) -> tuple[str, ...]:
    """The licensed trades a report of `trade` (None: every trade) shows licences for."""
    return LICENCE_TRADES if trade is None else tuple(t for t in LICENCE_TRADES if t == trade)


@dataclass(frozen=True)
class LicensingSection:
    """The annual report's City licences granted and revoked (15.1.74(b), 15.1.78) and the
    dwellings condemned (15.1.6(c): "all removal and condemnation of buildings"), each with its
    outcome as of the year's last day. `recorded` is False on a database without the registers
    (revision 0011); the `show_` flags say which parts the report's trade includes."""

    recorded: bool
    condemnations: tuple[CondemnationLine, ...] = ()
    licences_granted: tuple[LicenceLine, ...] = ()
    licences_revoked: tuple[LicenceLine, ...] = ()
    show_condemnations: bool = True
    show_licences: bool = True


# --------------------------------------------------------------------------- code enforcement

# Words for the register's values (desk.enforcement.model), in the order the reports print them.
CHANNEL_WORDS = {
    Channel.COUNTER: "at the counter",
    Channel.PHONE: "by phone",
    Channel.EMAIL: "by e-mail",
    Channel.LETTER: "by letter",
    Channel.REFERRAL: "by referral",
}
CLOSURE_WORDS = {
    ClosureReason.CORRECTED: "every violation corrected",
    ClosureReason.WITHDRAWN: "withdrawn",
    ClosureReason.UNFOUNDED: "unfounded (no violation found)",
}
SERVICE_WORDS = {
    ServiceMethod.PERSONAL: "personally",
    ServiceMethod.REGISTERED_MAIL: "by registered mail",
    ServiceMethod.POSTING: "by posting",
}
ORDER_WORDS = {
    OrderKind.AUTOMATIC: "no timely petition (140-3D)",
    OrderKind.COUNCIL: "upon the Council's decision (140-3C)",
    OrderKind.EMERGENCY: "emergency orders (140-3H)",
}


def order_words(c: CodeCitations) -> dict[OrderKind, str]:
    """ORDER_WORDS citing the municipality's code (Hudson: as ORDER_WORDS)."""
    return {
        OrderKind.AUTOMATIC: cite(c.order_automatic_label, c.order_automatic),
        OrderKind.COUNCIL: cite(c.order_council_label, c.order_council),
        OrderKind.EMERGENCY: cite("emergency orders", c.order_emergency),
    }


DECISION_WORDS = {
    Decision.SUSTAIN: "sustained",
    Decision.MODIFY: "modified",
    Decision.WITHDRAW: "withdrawn",
}
ESCALATION_WORDS = {
    EscalationKind.REINSPECTION: "re-inspection",
    EscalationKind.CITATION: "citation to the municipal court",
    EscalationKind.CONDEMNATION: "condemnation",
    EscalationKind.ABATEMENT: "abatement by the city",
}


# Rooming-house licence events the reports count, with the section of each (Hudson 140-10).
LICENCE_EVENTS = {"issued": "140-10A", "suspended": "140-10C", "revoked": "140-10D"}


@dataclass(frozen=True)
class CodeCitations:
    """How the code-enforcement part cites the housing code the municipality enforces. Hudson
    ch. 140 numbers each step (140-3 notices, orders and hearings, 140-10 rooming-house
    licences, 140-11 condemnation); the Ch. 512 text on file numbers its standards only, so its
    report cites the chapter and no section. An empty section prints no parentheses."""

    key: str
    chapter: str  # "Hudson ch. 140": the report's title
    procedure: str  # "Hudson 140-3": the code-enforcement part's heading
    notices: str = ""
    service: str = ""
    petitions: str = ""
    hearings: str = ""
    hearings_list: str = ""
    order_automatic: str = ""
    order_council: str = ""
    order_emergency: str = ""
    condemnation: str = ""
    licences: Mapping[str, str] = field(default_factory=dict)  # LICENCE_EVENTS' keys
    # The words of its procedure: Hudson 140-3's petition and Council hearing, or Wis. Stat.
    # ch. 68's request for review, decision on review and appeal (Ch. 512).
    petitions_label: str = "Petitions for a hearing"
    petitions_timely_label: str = "filed within 10 days"
    hearings_label: str = "Hearings held and decided"
    order_automatic_label: str = "no timely petition"
    order_council_label: str = "upon the Council's decision"
    decided_by: str = "decided by the Common Council"  # the summary sentence's words
    decision_words: Mapping[Decision, str] = field(default_factory=lambda: dict(DECISION_WORDS))
    appeals: str = ""  # Wis. Stat. 68.10: appeals are counted where the procedure has them

    @property
    def title(self) -> str:
        return f"Code enforcement ({self.procedure})"

    @property
    def numbers_its_procedure(self) -> bool:
        """The steps of code enforcement (notice, service, petition, hearing, order) are
        Hudson 140-3's, 140-2's and 140-10's; only Hudson ch. 140 numbers them."""
        return self.key == DEFAULT_HOUSING_CODE

    def step(self, section: str) -> str:
        """A procedure step's citation, given by its Hudson section ('140-3B'): that section
        for Hudson ch. 140; for a code that numbers no procedure of its own, the code's
        procedure as a whole ('Ch. 512')."""
        return section if self.numbers_its_procedure else self.procedure

    def heading(self, label: str, section: str) -> str:
        """A heading citing a procedure step: 'Service (140-3A(4))' for Hudson ch. 140; the
        label alone for a code that numbers no procedure ('Service')."""
        return cite(label, section if self.numbers_its_procedure else "")

    def grounds(self, text: str) -> str:
        """A condemnation's grounds as the register keeps them ('B(1), B(3)'), cited in full
        ('140-11B(1), 140-11B(3)') where the code numbers its condemnation section."""
        if not self.condemnation or not text:
            return text
        return ", ".join(f"{self.condemnation}{g.strip()}" for g in text.split(","))


CODE_CITATIONS = {
    "hudson-140": CodeCitations(
        "hudson-140",
        chapter="Hudson ch. 140",
        procedure="Hudson 140-3",
        notices="140-3A, 140-3H",
        service="140-3A(4)",
        petitions="140-3B",
        hearings="140-3C",
        hearings_list="140-3B, 140-3C",
        order_automatic="140-3D",
        order_council="140-3C",
        order_emergency="140-3H",
        condemnation="140-11",
        licences=LICENCE_EVENTS,
    ),
    # Ch. 512 has standards and no procedure of its own: a determination is reviewed under
    # Wis. Stat. ch. 68 (resources/procedures/wis-stat-68.toml).
    "ch-512": CodeCitations(
        "ch-512",
        chapter="Ch. 512",
        procedure="Ch. 512",
        petitions="Wis. Stat. 68.08",
        hearings="Wis. Stat. 68.09",
        order_automatic="Wis. Stat. 68.08",
        order_council="Wis. Stat. 68.09(4)",
        petitions_label="Requests for review",
        petitions_timely_label="filed within 30 days",
        hearings_label="Decisions on review",
        order_automatic_label="no review requested",
        order_council_label="upon the decision on review",
        decided_by="decided on review",
        decision_words={
            Decision.SUSTAIN: "affirmed",
            Decision.MODIFY: "modified",
            Decision.WITHDRAW: "reversed",
        },
        appeals="Wis. Stat. 68.10",
    ),
}


def code_citations(key: str | None) -> CodeCitations:
    """The citations of a housing code by its key (desk/enforcement/rules.py housing_code_key);
    a code not shipped is cited by its key."""
    key = key or DEFAULT_HOUSING_CODE
    return CODE_CITATIONS.get(key) or CodeCitations(key, chapter=key, procedure=key)


def cite(label: str, section: str) -> str:
    return f"{label} ({section})" if section else label


def enforcement_only(has_permit_kinds: bool) -> bool:
    """A municipality with no permit kinds enforces its housing code only (the City of Hudson:
    ch. 140, no permit kinds, fee schedule or intake forms): its monthly and annual reports are
    the code-enforcement report, with no permit or fee tables and no Glendale citation."""
    return not has_permit_kinds


@dataclass(frozen=True)
class FigureLine:
    """One line of the code-enforcement figures: a total (level 0) or a part of it (level 1)."""

    key: str
    label: str
    value: int | Decimal
    level: int = 0

    @property
    def is_money(self) -> bool:
        return isinstance(self.value, Decimal)


@dataclass(frozen=True)
class EnforcementFigures:
    """The code-enforcement register's events in one period, each counted in the period of its
    own date (Hudson 140-3): a complaint on the day received, a case on the days opened and
    closed, a notice on the day issued, a service on the day served, an order on the day it took
    effect, a petition on the day filed, a Council decision on the day decided, an escalation on
    the day decided. Never the complainant (desk/enforcement/readmodels.py)."""

    period: Period
    complaints: Mapping[Channel, int] = field(default_factory=dict)
    cases_opened: int = 0
    cases_closed: Mapping[ClosureReason, int] = field(default_factory=dict)
    notices: Mapping[NoticeKind, int] = field(default_factory=dict)
    served: Mapping[ServiceMethod, int] = field(default_factory=dict)
    returned_unclaimed: int = 0  # registered mail returned: the addressee is served again
    orders: Mapping[OrderKind, int] = field(default_factory=dict)
    petitions_timely: int = 0
    petitions_late: int = 0
    decisions: Mapping[Decision, int] = field(default_factory=dict)
    escalations: Mapping[EscalationKind, int] = field(default_factory=dict)
    abatement_cost: Decimal = ZERO
    # Dwellings condemned (the condemnation register); None: no register in this database.
    condemnations: int | None = None
    # Rooming-house licences issued, suspended and revoked (Hudson 140-10), by the day of each;
    # None: no licence register in this database (before revision 0018).
    licences: Mapping[str, int] | None = None
    # The housing code the municipality enforces: the labels cite its sections.
    code: str = DEFAULT_HOUSING_CODE
    # Wis. Stat. ch. 68 (Ch. 512): appeals filed (68.10) and final determinations (68.12);
    # None: the code's procedure has no appeal (Hudson 140-3), nothing printed.
    appeals: int | None = None
    final_determinations: int | None = None

    @property
    def citations(self) -> CodeCitations:
        return code_citations(self.code)

    def lines(self) -> list[FigureLine]:
        """The figures as the reports print them: each total, then its parts."""
        c = self.citations

        def parts(
            key: str, label: str, counts: Mapping[Any, int], words: Mapping[Any, str]
        ) -> list[FigureLine]:
            out = [FigureLine(key, label, sum(counts.values()))]
            out += [
                FigureLine(f"{key}.{k.value}", w, counts.get(k, 0), 1) for k, w in words.items()
            ]
            return out

        out = parts("complaints", "Complaints received", self.complaints, CHANNEL_WORDS)
        out.append(FigureLine("cases_opened", "Cases opened", self.cases_opened))
        out += parts("cases_closed", "Cases closed", self.cases_closed, CLOSURE_WORDS)
        out += parts(
            "notices",
            cite("Notices issued", c.notices),
            self.notices,
            {NoticeKind.NOTICE: "notices of violation", NoticeKind.EMERGENCY: "emergency orders"},
        )
        out += parts("served", cite("Addressees served", c.service), self.served, SERVICE_WORDS)
        out.append(
            FigureLine(
                "returned_unclaimed", "Registered mail returned unclaimed", self.returned_unclaimed
            )
        )
        out += parts("orders", "Orders taking effect", self.orders, order_words(c))
        out += [
            FigureLine(
                "petitions",
                cite(c.petitions_label, c.petitions),
                self.petitions_timely + self.petitions_late,
            ),
            FigureLine("petitions.timely", c.petitions_timely_label, self.petitions_timely, 1),
            FigureLine("petitions.late", "filed late", self.petitions_late, 1),
        ]
        out += parts(
            "hearings",
            cite(c.hearings_label, c.hearings),
            self.decisions,
            c.decision_words,
        )
        if self.appeals is not None:
            out.append(FigureLine("appeals", cite("Appeals", c.appeals), self.appeals))
        if self.final_determinations is not None:
            out.append(
                FigureLine(
                    "final_determinations",
                    cite("Final determinations on appeal", "Wis. Stat. 68.12"),
                    self.final_determinations,
                )
            )
        out += parts("escalations", "Orders not complied with", self.escalations, ESCALATION_WORDS)
        out.append(
            FigureLine(
                "abatement_cost", "cost of abatement by the city", money(self.abatement_cost), 1
            )
        )
        if self.condemnations is not None:
            out.append(
                FigureLine(
                    "condemnations",
                    cite("Dwellings condemned", c.condemnation),
                    self.condemnations,
                )
            )
        if self.licences is not None:
            out += [
                FigureLine(
                    f"licences.{k}",
                    cite(f"Rooming-house licences {k}", c.licences.get(k, "")),
                    self.licences.get(k, 0),
                )
                for k in LICENCE_EVENTS
            ]
        return out

    def figure(self, key: str) -> int | Decimal:
        return next(line.value for line in self.lines() if line.key == key)


@dataclass(frozen=True)
class HearingLine:
    """A hearing before the Common Council decided in the period (140-3B, 140-3C): the case,
    the property as the notice named it, and the decision. No complainant, no petitioner."""

    hearing_on: date
    decided_on: date
    case_number: str
    address: str
    emergency: bool
    decision: Decision

    @property
    def decision_words(self) -> str:
        if self.emergency:
            words = {Decision.SUSTAIN: "continued", Decision.WITHDRAW: "revoked"}
            return f"Emergency order {words.get(self.decision, DECISION_WORDS[self.decision])}"
        return f"Notice {DECISION_WORDS[self.decision]}"


@dataclass(frozen=True)
class EnforcementSection:
    """The reports' code-enforcement part: the period's figures (the monthly report adds the
    year to date) and, in the annual report, the hearings decided."""

    figures: EnforcementFigures
    ytd: EnforcementFigures | None = None
    hearings: tuple[HearingLine, ...] = ()
    # The period's condemnations (the register), for the report of a municipality that
    # enforces its housing code only; the others list them with the razings (15.1.6(c)).
    condemned: tuple[CondemnationLine, ...] = ()

    @property
    def citations(self) -> CodeCitations:
        return self.figures.citations

    @property
    def title(self) -> str:
        """'Code enforcement (Hudson 140-3)', 'Code enforcement (Ch. 512)'."""
        return self.citations.title

    def summary_sentence(self, period_words: str) -> str:
        """The period's figures a council member reads first, in one sentence."""
        f = self.figures
        n = {k: int(f.figure(k)) for k in ("complaints", "cases_opened", "notices", "hearings")}
        closed = sum(f.cases_closed.values())
        orders = sum(f.orders.values())
        text = (
            f"In {period_words}: {_n(n['complaints'], 'complaint')} received, "
            f"{_n(n['cases_opened'], 'case')} opened and {closed:,} closed, "
            f"{_n(n['notices'], 'notice')} issued, {_n(orders, 'order')} taking effect, "
            f"{_n(n['hearings'], 'hearing' if f.appeals is None else 'request')} "
            f"{self.citations.decided_by}"
        )
        if f.condemnations is not None:
            text += f", {_n(f.condemnations, 'dwelling')} condemned"
        return text + "."


def _n(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' if n != 1 else ''}"


def enforcement_title(
    municipality_name: str, section: EnforcementSection | None, what: str, period_words: str
) -> str:
    """'Monthly report on code enforcement in the City of Hudson (Hudson ch. 140) — April
    2026': the report of a municipality that enforces its housing code only."""
    chapter = (section.citations if section is not None else code_citations(None)).chapter
    return f"{what} on code enforcement in the {municipality_name} ({chapter}) — {period_words}"


@dataclass(frozen=True)
class MonthlyReport:
    heading: Heading
    year: int
    month: int
    trade: str | None  # None: every trade
    period: Period
    due: DueDate | None  # None: the ordinance sets no day (New Lisbon ch. 435)
    rows: tuple[TradeActivity, ...]
    permits_granted: tuple[PermitLine, ...]
    turnovers: tuple[TurnoverLine, ...]
    # City licences granted (15.1.74(b)): a row per licensed trade the report covers (none for
    # a trade the City does not license), and the month's licences.
    licences: tuple[LicenceCount, ...] = ()
    licences_granted: tuple[LicenceLine, ...] = ()
    # The month's money by whose it is: "fees received" above are the city's revenue only; the
    # state seals and street deposits are collected for others and held (15.1.21(a)(1)a, 15.1.43).
    money: MoneySplit = field(default_factory=lambda: MoneySplit())
    # Code enforcement (Hudson 140-3) in the month and the year to date; None: the report of
    # one trade, or a municipality with no enforcement record.
    enforcement: EnforcementSection | None = None
    # No permit kinds (enforcement_only): the report is the code-enforcement report alone.
    enforcement_only: bool = False

    @property
    def total(self) -> TradeActivity:
        return TradeActivity(
            "total",
            total_activity(r.month for r in self.rows),
            total_activity(r.last_year for r in self.rows),
            total_activity(r.ytd for r in self.rows),
            total_activity(r.ytd_last_year for r in self.rows),
        )

    @property
    def title(self) -> str:
        if self.enforcement_only:
            return enforcement_title(
                self.heading.municipality_name,
                self.enforcement,
                "Monthly report",
                self.period.label,
            )
        if self.trade:
            return f"{trade_label(self.trade)} monthly report — {self.period.label}"
        return f"Monthly permit activity — {self.period.label}"


# --------------------------------------------------------------------------- annual report


@dataclass(frozen=True)
class Headline:
    """The figures a council member reads first, for one year."""

    year: int
    permits_issued: int = 0
    valuation: Decimal = ZERO
    fees_collected: Decimal = ZERO
    inspections_made: int = 0
    buildings_erected: int = 0
    new_dwelling_units: int = 0


HEADLINE_FIELDS = (
    ("permits_issued", "Permits issued"),
    ("valuation", "Valuation of permitted work"),
    ("fees_collected", "Fees collected"),
    ("inspections_made", "Inspections made"),
    ("buildings_erected", "New buildings"),
    ("new_dwelling_units", "New dwelling units"),
)


def change_words(now: Decimal | int, before: Decimal | int) -> str:
    """'+12.5 %', '−3.0 %', 'new' (nothing the year before), '—' (nothing either year)."""
    if before == 0:
        return "—" if now == 0 else "new"
    pct = (Decimal(now) - Decimal(before)) * 100 / Decimal(before)
    pct = pct.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    sign = "+" if pct > 0 else ("−" if pct < 0 else "±")
    return f"{sign}{abs(pct)} %"


def is_partial_year(year: int, register_starts: date | None) -> bool:
    """A year is partial when the register starts after its January 1 (or after the year)."""
    return register_starts is not None and register_starts > date(year, 1, 1)


def no_data_words(register_starts: date) -> str:
    return f"n/a (no data before {short_date(register_starts)})"


@dataclass(frozen=True)
class MonthFigures:
    month: int
    permits: int
    valuation: Decimal
    fees: Decimal

    @property
    def label(self) -> str:
        return calendar.month_abbr[self.month]


@dataclass(frozen=True)
class KindLine:
    permit_class: PermitClass
    kind: str
    kind_label: str
    trade: str
    count: int
    valuation: Decimal


@dataclass(frozen=True)
class ClassLine:
    permit_class: PermitClass
    count: int
    valuation: Decimal


@dataclass(frozen=True)
class BuildingLine:
    """One building erected (15.1.6(c)): number, description, size, materials, cost."""

    permit_id: int
    number: str
    issued_on: date
    permit_class: PermitClass
    kind_label: str
    description: str
    address: str
    floor_area_sqft: int
    stories: int | None
    materials: str
    cost: Decimal
    dwelling_units: int


@dataclass(frozen=True)
class InspectionCount:
    type_code: str
    type_label: str
    trade: str
    result: str  # desk.domain.inspections.Result value
    result_label: str
    count: int


@dataclass(frozen=True)
class OrderLine:
    kind: str  # stop_work, revocation, void
    number: str
    address: str
    issued_on: date
    section: str
    reasons: str
    lifted_on: date | None

    @property
    def kind_label(self) -> str:
        return ORDER_LABELS.get(self.kind, self.kind.replace("_", " ").capitalize())


ORDER_LABELS = {"stop_work": "Stop-work order", "revocation": "Revocation", "void": "Void"}


class MoneyClass(StrEnum):
    """Whose money a GL account holds, read from the account's kind and purpose (never from a
    fee code): only the city's revenue accounts are "fees collected"."""

    CITY_FEES = "city_fees"  # a revenue account: the city's own fees (15.1.6(c), 15.1.21)
    FOR_OTHERS = "for_others"  # the state seal (15.1.21(a)(1)a), other governments' fees
    DEPOSITS = "deposits"  # street deposits held for the depositor (15.1.43)
    CREDITS = "credits"  # overpayments held as the payer's credit

    @property
    def label(self) -> str:
        return MONEY_CLASS_LABELS[self]


MONEY_CLASS_LABELS = {
    MoneyClass.CITY_FEES: "Fees collected (city revenue)",
    MoneyClass.FOR_OTHERS: "Collected for others (state seal, other governments)",
    MoneyClass.DEPOSITS: "Street deposits",
    MoneyClass.CREDITS: "Payers' credits on account",
}


def money_class(kind: AccountKind | str, purpose: AccountPurpose | str | None) -> MoneyClass:
    """A revenue account is the city's; a liability holds someone else's money: the depositor's
    (15.1.43: returned on the City Engineer's order), the payer's credit, or, any other
    liability, money collected for others — the $35 state seal "Do not add 40%"
    (15.1.21(a)(1)a) and other governments' fees collected at cost (15.1.21(e))."""
    if AccountKind(kind) is AccountKind.REVENUE:
        return MoneyClass.CITY_FEES
    purpose = AccountPurpose(purpose or "")
    if purpose is AccountPurpose.DEPOSITS_HELD:
        return MoneyClass.DEPOSITS
    if purpose is AccountPurpose.CREDITS_HELD:
        return MoneyClass.CREDITS
    return MoneyClass.FOR_OTHERS


@dataclass(frozen=True)
class AccountFees:
    """Money by GL account for the period: each movement as the treasurer's reconciliation
    shows it; `net` adds them (transfers move credit between accounts and add up to zero).
    `money_class` says whose money the account holds: only CITY_FEES accounts are fees."""

    number: str
    name: str
    receipts: Decimal
    reversals: Decimal  # voided receipts and returned checks (negative)
    refunds: Decimal  # negative
    transfers: Decimal
    money_class: MoneyClass = MoneyClass.CITY_FEES

    @property
    def net(self) -> Decimal:
        return money(self.receipts + self.reversals + self.refunds + self.transfers)

    @property
    def is_fee(self) -> bool:
        return self.money_class is MoneyClass.CITY_FEES

    @classmethod
    def of_line(cls, line: AccountLine) -> AccountFees:
        """The reconciliation's account line over the same period."""
        return cls(
            number=line.number,
            name=line.name,
            receipts=line.receipts,
            reversals=money(line.voids + line.nsf),
            refunds=line.refunds,
            transfers=line.transfers,
            money_class=money_class(line.kind, line.purpose),
        )


@dataclass(frozen=True)
class MoneySplit:
    """The period's net money received, split by whose it is. Signed as the ledger: + received,
    − paid back or moved out. The lines add up to the net money received (receipts − voids −
    returned checks − refunds): the treasurer's reconciliation's "Net collections"."""

    fees_collected: Decimal = ZERO  # city revenue accounts, retained deposits included
    for_others: Decimal = ZERO  # state seals and other governments' fees, net of refunds
    deposits_received: Decimal = ZERO  # street deposits paid, net of voids and returned checks
    deposits_returned: Decimal = ZERO  # (negative) returned by the clerk's check (15.1.43)
    deposits_retained: Decimal = ZERO  # (negative) kept by the Council: now in fees_collected
    credits: Decimal = ZERO  # payers' credits: kept (+) less used or refunded (−)

    @property
    def deposits_net(self) -> Decimal:
        return money(self.deposits_received + self.deposits_returned + self.deposits_retained)

    @property
    def total(self) -> Decimal:
        return money(self.fees_collected + self.for_others + self.deposits_net + self.credits)

    def lines(self) -> list[tuple[str, Decimal, bool]]:
        """(label, signed amount, is a total), as the reports and the reconciliation print
        them."""
        out = [
            ("Fees collected (city revenue accounts)", self.fees_collected, True),
            ("Collected for others (state seal, other governments)", self.for_others, False),
            ("Street deposits received", self.deposits_received, False),
            ("Street deposits returned", self.deposits_returned, False),
            (
                "Street deposits retained by the Council (now city revenue)",
                self.deposits_retained,
                False,
            ),
        ]
        if self.credits:
            out.append(("Payers' credits on account (net)", self.credits, False))
        out.append(("Net money received", self.total, True))
        return out


def money_split(accounts: Iterable[AccountFees]) -> MoneySplit:
    fees = others = received = returned = retained = credits = ZERO
    for a in accounts:
        if a.money_class is MoneyClass.CITY_FEES:
            fees += a.net
        elif a.money_class is MoneyClass.FOR_OTHERS:
            others += a.net
        elif a.money_class is MoneyClass.CREDITS:
            credits += a.net
        else:
            # 15.1.43: received at the counter, returned by the clerk's check, or retained by
            # the Council — a transfer to the revenue account on the day of the retention.
            received += a.receipts + a.reversals
            returned += a.refunds
            retained += a.transfers
    return MoneySplit(
        money(fees),
        money(others),
        money(received),
        money(returned),
        money(retained),
        money(credits),
    )


def reconciliation_split(accounts: Iterable[AccountLine]) -> MoneySplit:
    """The treasurer's reconciliation's account lines split the same way as the reports."""
    return money_split(AccountFees.of_line(a) for a in accounts)


@dataclass(frozen=True)
class DayReceipts:
    day: date
    receipts: int
    amount: Decimal  # money received that day, net of voids, returned checks and refunds


@dataclass(frozen=True)
class CategoryFees:
    label: str
    amount: Decimal


@dataclass(frozen=True)
class DepositLine:
    """A street deposit (15.1.43) held at some time in the year."""

    permit_number: str
    depositor: str
    amount: Decimal
    received_on: date | None
    status: str  # as of the last day of the period
    returned_on: date | None
    returned: Decimal  # paid back to the depositor within the period
    retained: Decimal  # kept by the Common Council within the period


@dataclass(frozen=True)
class BondLine:
    """A bond on file at some time in the year."""

    number: str
    purpose: str
    principal: str
    kind: str
    amount: Decimal
    effective_on: date
    expires_on: date | None
    status: str  # as of the last day of the period


@dataclass(frozen=True)
class SuretySection:
    """Deposits held and refunded, bonds on file. The deposits-held account's movement comes
    from the ledger; the deposit and bond registers from revision 0010. `recorded` is False on
    a database without those registers (then the section says so)."""

    recorded: bool
    deposits_opening: Decimal = ZERO
    deposits_received: Decimal = ZERO
    deposits_returned: Decimal = ZERO  # (negative) by the clerk's check
    deposits_closing: Decimal = ZERO
    deposits_retained: Decimal = ZERO  # (negative) kept by the Council, now city revenue
    deposits: tuple[DepositLine, ...] = ()
    bonds: tuple[BondLine, ...] = ()
    note: str = ""


NOT_RECORDED = "not recorded in Permit Desk yet"


@dataclass(frozen=True)
class AnnualReport:
    heading: Heading
    year: int
    trade: str | None
    period: Period
    due: DueDate | None  # the electrical annual report's; the council report has no day
    headline: Headline
    previous: Headline
    trend: tuple[Headline, ...]  # five years, oldest first
    by_month: tuple[MonthFigures, ...]
    by_kind: tuple[KindLine, ...]
    buildings: tuple[BuildingLine, ...]
    inspections: tuple[InspectionCount, ...]
    razings: tuple[PermitLine, ...]  # razing and moving permits issued in the year
    orders: tuple[OrderLine, ...]
    fees_by_account: tuple[AccountFees, ...]
    fees_by_category: tuple[CategoryFees, ...]
    receipts_by_day: tuple[DayReceipts, ...]
    sureties: SuretySection
    register: tuple[PermitLine, ...]  # every permit issued in the year
    voided: int = 0  # permits issued in the year and voided since
    licensing: LicensingSection = field(default_factory=lambda: LicensingSection(False))
    # The first day the register holds (the earliest application or issue): a year that
    # starts before it is partial and is not compared (None: an empty register).
    register_starts: date | None = None
    # Code enforcement (Hudson 140-3) in the year, with the hearings decided; None as monthly.
    enforcement: EnforcementSection | None = None
    # No permit kinds (enforcement_only): the report is the code-enforcement report alone.
    enforcement_only: bool = False

    @property
    def money(self) -> MoneySplit:
        """The year's money by whose it is: fees, collected for others, deposits, credits."""
        return money_split(self.fees_by_account)

    def partial(self, year: int) -> bool:
        return is_partial_year(year, self.register_starts)

    def change(self, name: str, previous: Headline | None = None) -> str:
        """The change against `previous` (the year before) in one headline figure; 'n/a (no
        data before MM/DD/YYYY)' when that year is partial in the register."""
        before = previous or self.previous
        if self.register_starts is not None and self.partial(before.year):
            return no_data_words(self.register_starts)
        return change_words(getattr(self.headline, name), getattr(before, name))

    @property
    def full_trend(self) -> tuple[Headline, ...]:
        """The five-year trend without the years before the register starts."""
        return tuple(
            h
            for h in self.trend
            if self.register_starts is None or h.year >= self.register_starts.year
        )

    @property
    def title(self) -> str:
        if self.enforcement_only:
            return enforcement_title(
                self.heading.municipality_name, self.enforcement, "Annual report", str(self.year)
            )
        if self.trade:
            return f"{trade_label(self.trade)} annual report — {self.year}"
        return f"Annual report to the Common Council — {self.year}"

    @property
    def by_class(self) -> tuple[ClassLine, ...]:
        return classes_of((k.permit_class, k.count, k.valuation) for k in self.by_kind)

    @property
    def buildings_by_class(self) -> tuple[ClassLine, ...]:
        """15.1.6(c): 'the aggregate cost of all buildings in the various classes'."""
        return classes_of((b.permit_class, 1, b.cost) for b in self.buildings)

    @property
    def fees_total(self) -> Decimal:
        """Fees collected: the city's revenue accounts only (15.1.6(c)); the state seal and
        street deposits are not the city's fees (15.1.21(a)(1)a, 15.1.43)."""
        return money(sum((a.net for a in self.fees_by_account if a.is_fee), ZERO))

    def inspection_table(self) -> tuple[tuple[str, ...], list[tuple[str, list[int]]]]:
        """(result labels, [(type label, counts per result)]) for a type × result table."""
        results: dict[str, str] = {}
        rows: dict[str, dict[str, int]] = {}
        for c in self.inspections:
            results.setdefault(c.result, c.result_label)
            rows.setdefault(c.type_label, {})
            rows[c.type_label][c.result] = rows[c.type_label].get(c.result, 0) + c.count
        order = [r for r in RESULT_ORDER if r in results] + sorted(
            r for r in results if r not in RESULT_ORDER
        )
        return (
            tuple(results[r] for r in order),
            [(label, [rows[label].get(r, 0) for r in order]) for label in rows],
        )


RESULT_ORDER = ("passed", "ok_for_service", "partial", "rejected", "cancelled")


def classes_of(items: Iterable[tuple[PermitClass, int, Decimal]]) -> tuple[ClassLine, ...]:
    counts: dict[PermitClass, list[Decimal]] = {}
    for cls, n, value in items:
        c = counts.setdefault(cls, [Decimal(0), ZERO])
        c[0] += n
        c[1] += value
    return tuple(
        ClassLine(cls, int(counts[cls][0]), money(counts[cls][1]))
        for cls in PermitClass
        if cls in counts
    )


# --------------------------------------------------------------------------- buildings erected

# Kinds of new work that are not a building of their own: the footing-and-foundation early start
# is followed by the dwelling's own permit (counting both would count the house twice); pools and
# hot tubs, and the commercial special structures (towers, antennas, tents, pools), are
# structures, not buildings. Accessory structures (garages, sheds, and also decks and porches)
# are counted: the register tells them apart by their description.
NOT_A_BUILDING = frozenset({"RES-EARLY-START", "RES-POOL", "COM-SPECIAL"})


def is_building_erected(kind: PermitKind) -> bool:
    """15.1.6(c) 'buildings erected': new structures under a building permit."""
    return (
        kind.trade == "building"
        and kind.work_class is WorkClass.NEW
        and kind.code not in NOT_A_BUILDING
    )


# The building code's construction types in words (IBC ch. 6, adopted by SPS 361-366).
CONSTRUCTION_WORDS = {
    "I": "fire-resistive",
    "II": "noncombustible",
    "III": "masonry walls, wood inside",
    "IV": "heavy timber",
    "V": "wood frame",
}


def materials(construction_type: str, work_details: Mapping[str, str] | None) -> str:
    """'the kind of materials used' (15.1.6(c)): the construction type of the building code,
    and for dwellings the SBD-5823's walls and construction."""
    details = work_details or {}
    parts = []
    if construction_type:
        # The SBD-5823's walls say it better when the applicant answered them.
        words = (
            ""
            if details.get("sbd_walls")
            else CONSTRUCTION_WORDS.get(construction_type.split("-")[0])
        )
        parts.append(f"Type {construction_type}" + (f" ({words})" if words else ""))
    parts += [details[k] for k in ("sbd_walls", "sbd_construction") if details.get(k)]
    return ", ".join(parts)


# --------------------------------------------------------------------------- Census C-404


class C404Row(StrEnum):
    SINGLE = "101"
    TWO = "103"
    THREE_FOUR = "104"
    FIVE_PLUS = "105"
    TOTAL = "109"

    @property
    def label(self) -> str:
        return C404_LABELS[self]


C404_LABELS = {
    C404Row.SINGLE: "Single-family houses, detached and attached",
    C404Row.TWO: "Two-unit buildings",
    C404Row.THREE_FOUR: "Three- and four-unit buildings",
    C404Row.FIVE_PLUS: "Five-or-more-unit buildings",
    C404Row.TOTAL: "Total",
}
DEFAULT_HIGH_VALUE = Decimal(1_000_000)
HIGH_VALUE_SETTING = "c404_high_value"


def high_value_threshold(raw: object) -> Decimal:
    """The threshold a municipality set (stored as text), or the default when it set none or
    the stored text is not a positive amount."""
    try:
        value = Decimal(str(raw)) if raw not in (None, "") else DEFAULT_HIGH_VALUE
    except ArithmeticError:
        return DEFAULT_HIGH_VALUE
    return value if value.is_finite() and value > 0 else DEFAULT_HIGH_VALUE


# Who owns the building, as the intake form records it in the permit's work facts:
# work_details[OWNERSHIP] = PUBLIC ("Owner is a government body or public housing authority") or
# PRIVATE. Form C-404 counts new privately owned housing only; publicly owned housing is left
# off (the agency reports it).
OWNERSHIP = "ownership"
PUBLIC = "public"
PRIVATE = "private"

# Owners whose names say they are a government or a housing authority: without an answer on the
# permit, their housing is taken to be publicly owned.
_PUBLIC_OWNER = re.compile(
    r"^(city|village|town|county|state) of\b|\bhousing authority\b|\bschool district\b|"
    r"\bunited states\b|\bu\.s\. department\b",
    re.IGNORECASE,
)


def ownership_answer(work_details: Mapping[str, str] | None) -> str:
    """PUBLIC, PRIVATE, or "" when the permit does not say."""
    answer = (work_details or {}).get(OWNERSHIP, "").strip().lower()
    return answer if answer in (PUBLIC, PRIVATE) else ""


def name_looks_public(name: str) -> bool:
    """Whether an owner's name says it is a government or a housing authority."""
    return bool(_PUBLIC_OWNER.search(name or ""))


def publicly_owned(owner_names: Iterable[str], work_details: Mapping[str, str] | None) -> bool:
    """The permit's own answer wins either way (a 'private' answer overrides an owner name that
    looks public, a 'public' one an owner name that looks private); without one, the owners'
    names decide."""
    answer = ownership_answer(work_details)
    if answer:
        return answer == PUBLIC
    return any(name_looks_public(name) for name in owner_names)


def c404_row(units: int) -> C404Row:
    if units <= 0:
        raise ValueError("a building with no housing units is not on Form C-404")
    if units == 1:
        return C404Row.SINGLE
    if units == 2:
        return C404Row.TWO
    if units <= 4:
        return C404Row.THREE_FOUR
    return C404Row.FIVE_PLUS


@dataclass(frozen=True)
class HousingPermit:
    """What Form C-404 needs to know about one permit."""

    permit_id: int
    number: str
    issued_on: date
    kind: str
    permit_class: PermitClass
    work_class: WorkClass
    status: PermitStatus
    units: int
    valuation: Decimal
    address: str
    publicly_owned: bool = False


def counts_on_c404(p: HousingPermit) -> bool:
    """New privately owned housing: new buildings with housing units. Additions, alterations
    and conversions are not new buildings; publicly owned housing is reported by the agency;
    a voided permit authorized nothing; the early start's dwelling has a permit of its own."""
    return (
        p.work_class is WorkClass.NEW
        and p.units >= 1
        and not p.publicly_owned
        and p.status is not PermitStatus.VOID
        and p.kind not in NOT_A_BUILDING
    )


@dataclass(frozen=True)
class C404Line:
    row: C404Row
    buildings: int
    units: int
    valuation: Decimal  # whole dollars


@dataclass(frozen=True)
class C404Detail:
    """A permit at or above the high-value threshold, listed on its own."""

    number: str
    issued_on: date
    address: str
    building_type: str
    units: int
    valuation: Decimal  # whole dollars


@dataclass(frozen=True)
class C404Report:
    heading: Heading
    period: Period
    lines: tuple[C404Line, ...]  # 101, 103, 104, 105 and 109, always all five
    details: tuple[C404Detail, ...]
    threshold: Decimal
    permits: tuple[HousingPermit, ...]  # the permits counted, for the clerk's check
    excluded: int = 0  # new housing permits left out (publicly owned, voided)

    @property
    def total(self) -> C404Line:
        return next(line for line in self.lines if line.row is C404Row.TOTAL)

    @property
    def no_permits(self) -> bool:
        return self.total.buildings == 0

    @property
    def title(self) -> str:
        return f"Census Bureau Form C-404 — {self.period.label}"


def classify_c404(
    heading: Heading,
    period: Period,
    candidates: Iterable[HousingPermit],
    threshold: Decimal = DEFAULT_HIGH_VALUE,
) -> C404Report:
    counted: list[HousingPermit] = []
    excluded = 0
    for p in candidates:
        if p.issued_on not in period:
            continue
        if counts_on_c404(p):
            counted.append(p)
        elif p.work_class is WorkClass.NEW and p.units >= 1:
            excluded += 1
    buildings = dict.fromkeys(C404Row, 0)
    units = dict.fromkeys(C404Row, 0)
    value_of = dict.fromkeys(C404Row, Decimal(0))
    details = []
    for p in sorted(counted, key=lambda x: (x.issued_on, x.number)):
        row = c404_row(p.units)
        value = whole_dollars(p.valuation)
        for key in (row, C404Row.TOTAL):
            buildings[key] += 1
            units[key] += p.units
            value_of[key] += value
        if value >= threshold:
            details.append(C404Detail(p.number, p.issued_on, p.address, row.label, p.units, value))
    lines = tuple(C404Line(k, buildings[k], units[k], value_of[k]) for k in C404Row)
    return C404Report(heading, period, lines, tuple(details), threshold, tuple(counted), excluded)


# --------------------------------------------------------------------------- Act 211


def is_new_one_two_family(
    kind: str, permit_class: PermitClass, work_class: WorkClass, units: int
) -> bool:
    """A new one- or two-family dwelling (the state's Uniform Dwelling Code permit): the same
    rule as cashiering's Act 211 refund."""
    return kind == "RES-NEW-DWELLING" or (
        permit_class is PermitClass.RESIDENTIAL
        and work_class is WorkClass.NEW
        and 1 <= units <= 2
        and kind not in NOT_A_BUILDING
    )


class FilingState(StrEnum):
    FILED = "filed"  # filed by the deadline
    FILED_LATE = "filed_late"
    DUE = "due"  # not filed, deadline not passed
    OVERDUE = "overdue"  # not filed, deadline passed

    @property
    def label(self) -> str:
        return {
            "filed": "Filed",
            "filed_late": "Filed late",
            "due": "Due",
            "overdue": "Overdue",
        }[self.value]


def filing_state(issued_on: date, filed_on: date | None, today: date) -> FilingState:
    deadline = act_211_deadline(issued_on)
    if filed_on is not None:
        return FilingState.FILED if filed_on <= deadline else FilingState.FILED_LATE
    return FilingState.DUE if today <= deadline else FilingState.OVERDUE


def refund_required(state: FilingState) -> bool:
    """SPS 320.09: not filed by the deadline — the fees go back to the applicant, except the
    state seal (cashiering.refund with the Act 211 ground writes the check)."""
    return state in (FilingState.FILED_LATE, FilingState.OVERDUE)


@dataclass(frozen=True)
class Act211Line:
    permit_id: int
    number: str
    issued_on: date
    address: str
    owner: str
    units: int
    due_on: date
    filed_on: date | None
    reference: str
    state: FilingState
    fees_paid: Decimal
    seal_paid: Decimal
    refunded: Decimal  # already refunded on the Act 211 ground

    @property
    def refund_required(self) -> bool:
        return refund_required(self.state)

    @property
    def refund_due(self) -> Decimal:
        """What the applicant is owed and has not been paid back yet."""
        if not self.refund_required:
            return ZERO
        return money(max(ZERO, self.fees_paid - self.seal_paid - self.refunded))

    @property
    def flag(self) -> str:
        if not self.refund_required:
            return ""
        if self.refund_due == 0 and self.refunded > 0:
            return "Refunded"
        return "Refund fees (except the state seal)"


@dataclass(frozen=True)
class Act211Report:
    heading: Heading
    year: int
    month: int
    period: Period
    due: DueDate
    today: date
    lines: tuple[Act211Line, ...]  # the month's new dwelling permits
    earlier: tuple[Act211Line, ...]  # earlier months' permits still not filed

    @property
    def title(self) -> str:
        return f"Act 211 filings with the state — {self.period.label}"

    def count(self, *states: FilingState) -> int:
        return sum(1 for line in self.lines if line.state in states)

    @property
    def refunds(self) -> tuple[Act211Line, ...]:
        return tuple(x for x in (*self.lines, *self.earlier) if x.refund_required)


def act211_line(
    *,
    permit_id: int,
    number: str,
    issued_on: date,
    address: str,
    owner: str,
    units: int,
    filed_on: date | None,
    reference: str,
    fees_paid: Decimal,
    seal_paid: Decimal,
    refunded: Decimal,
    today: date,
) -> Act211Line:
    return Act211Line(
        permit_id=permit_id,
        number=number,
        issued_on=issued_on,
        address=address,
        owner=owner,
        units=units,
        due_on=act_211_deadline(issued_on),
        filed_on=filed_on,
        reference=reference,
        state=filing_state(issued_on, filed_on, today),
        fees_paid=money(fees_paid),
        seal_paid=money(seal_paid),
        refunded=money(refunded),
    )


def check_filed_on(issued_on: date | None, filed_on: date, today: date) -> None:
    """A filing date is on or after the day the permit was issued and not in the future."""
    if issued_on is None:
        raise ValidationError("filed on", "the permit has not been issued; nothing to file yet")
    if filed_on < issued_on:
        raise ValidationError(
            "filed on",
            f"{short_date(filed_on)} is before the permit was issued ({short_date(issued_on)})",
        )
    if filed_on > today:
        raise ValidationError("filed on", "must not be in the future")


# --------------------------------------------------------------------------- BLDS vocabularies

# The vocabularies are those of BLDS 1.2 (Building & Land Development Specification), read in its
# wiki (github.com/open-data-standards/permitdata.org/wiki: Core-Permits-Dataset-Requirements,
# Optional-Inspections-Dataset-Requirements, Optional-Contractor-Dataset-Requirements,
# Appendix-A) through the copy in cityofasheville/bedrock documentation/development/*.md.
# PermitClassMapped, WorkClassMapped and StatusCurrentMapped live with their enums
# (desk/domain/enums.py), InspTypeMapped and ResultMapped with the inspections
# (desk/domain/inspections.py, resources/inspection_types.toml).
#
# BLDS PermitTypeMapped, exactly: Building, Demolition, Electrical, Mechanical, Plumbing, Roof,
# Fence, Grading, Pool/Spa. By kind where the kind says more than its trade, else by trade.
# "Roofing, siding, fencing" (RES-OTHER) is one kind for three kinds of work: Building. Kinds no
# value fits (address numbers, sidewalks, curb and gutter, street privileges: trade "other") map
# to "" (the spec has no value for them).
BLDS_PERMIT_TYPE_BY_KIND = {
    "RAZE": "Demolition",
    "RES-POOL": "Pool/Spa",
    "SOLID-FILL": "Grading",
    "STREET-OPENING": "Grading",
    "EROSION": "Grading",
}
BLDS_PERMIT_TYPE_BY_TRADE = {
    "building": "Building",
    "electrical": "Electrical",
    "plumbing": "Plumbing",
    "hvac": "Mechanical",
    "erosion": "Grading",
}
# BLDS ContractorTradeMapped (core permits dataset), exactly: General, Electrical, Mechanical,
# Plumbing, Architecture, Engineering, Masonry, Sign, Tent. The contractor dataset's
# ContractorTradeMapped2 lists only General, Electrical, Mechanical, Plumbing, Architecture,
# Engineering. By the contractor's role on the permit, every role within both lists.
BLDS_CONTRACTOR_TRADE = {
    "contractor": "General",
    "electrician": "Electrical",
    "plumber": "Plumbing",
    "hvac_contractor": "Mechanical",
}
CONTRACTOR_ROLES = ("contractor", "electrician", "plumber", "hvac_contractor")
# The licence that goes with each role (desk.domain.enums.CredentialKind values), first found.
ROLE_CREDENTIALS = {
    "contractor": ("dwelling_contractor", "dwelling_contractor_qualifier"),
    "electrician": ("electrical_contractor", "master_electrician"),
    "plumber": ("master_plumber",),
    "hvac_contractor": ("hvac_contractor",),
}


def blds_permit_type(kind: str, trade: str) -> str:
    return BLDS_PERMIT_TYPE_BY_KIND.get(kind, BLDS_PERMIT_TYPE_BY_TRADE.get(trade, ""))


def blds_date(day: date | None) -> str:
    """BLDS dates are YYYY-MM-DD."""
    return "" if day is None else day.isoformat()


def yes_no(flag: bool) -> str:
    return "Yes" if flag else "No"


# --------------------------------------------------------------------------- report catalogue


class ReportKind(StrEnum):
    MONTHLY = "monthly"
    PLUMBING_MONTHLY = "plumbing_monthly"
    ELECTRICAL_MONTHLY = "electrical_monthly"
    ANNUAL = "annual"
    ELECTRICAL_ANNUAL = "electrical_annual"
    C404 = "c404"
    ACT211 = "act211"

    @property
    def label(self) -> str:
        return {
            "monthly": "Monthly permit activity",
            "plumbing_monthly": "Plumbing monthly report",
            "electrical_monthly": "Electrical monthly report",
            "annual": "Annual report to the Common Council",
            "electrical_annual": "Electrical annual report",
            "c404": "Census Form C-404",
            "act211": "Act 211 filings with the state",
        }[self.value]

    @property
    def trade(self) -> str | None:
        return {
            "plumbing_monthly": "plumbing",
            "electrical_monthly": "electrical",
            "electrical_annual": "electrical",
        }.get(self.value)

    @property
    def by_year(self) -> bool:
        """Reports for a whole year (C-404 takes either)."""
        return self in (ReportKind.ANNUAL, ReportKind.ELECTRICAL_ANNUAL)


# Reports of permits alone: a municipality with no permit kinds has nothing to put in them.
PERMIT_ONLY_REPORTS = frozenset(
    {
        ReportKind.PLUMBING_MONTHLY,
        ReportKind.ELECTRICAL_MONTHLY,
        ReportKind.ELECTRICAL_ANNUAL,
        ReportKind.C404,
        ReportKind.ACT211,
    }
)


def not_offered_reason(
    kind: ReportKind | None,
    has_permit_kinds: bool,
    who: str = "this municipality",
    *,
    cites: ReportCitations,
) -> str:
    """Why a report is not offered ('' when it is); kind None is the BLDS open-data export of
    permits. A municipality with no permit kinds gets the monthly and annual reports (its
    code-enforcement report) and nothing made of permits; an inspector's own report (the
    electrical and plumbing ones) only where the ordinance asks that inspector for one."""
    if not has_permit_kinds and (kind is None or kind in PERMIT_ONLY_REPORTS):
        what = "The BLDS export" if kind is None else f"The {kind.label}"
        return (
            f"{what} lists permits, and {who} has no permit kinds: it enforces its housing code "
            "only (its monthly and annual reports cover code enforcement)."
        )
    trade = kind.trade if kind is not None else None
    if kind is not None and trade is not None and trade not in cites.trades:
        return (
            f"The {kind.label} is the {trade_label(trade).lower()} inspector's report to the "
            f"city, and {who}'s ordinance asks for none (the monthly and annual reports cover "
            "every permit)."
        )
    return ""


def report_label(kind: ReportKind, has_permit_kinds: bool) -> str:
    """The report's name in the Reports list."""
    if kind is ReportKind.MONTHLY and enforcement_only(has_permit_kinds):
        return "Monthly code-enforcement report"
    return kind.label


def due_for(
    kind: ReportKind, year: int, month: int | None, cites: ReportCitations
) -> DueDate | None:
    """The day the report is due; None where no rule sets one: the monthly and electrical
    annual days are the permit ordinance's (Glendale 15.1.74(b)); a housing code and New Lisbon
    ch. 435 set none."""
    if kind in (ReportKind.MONTHLY, ReportKind.PLUMBING_MONTHLY, ReportKind.ELECTRICAL_MONTHLY):
        assert month is not None
        return monthly_report_due(year, month, kind.trade) if cites.monthly else None
    if kind is ReportKind.ELECTRICAL_ANNUAL:
        return electrical_annual_due(year) if cites.electrical_annual else None
    if kind is ReportKind.ACT211:
        assert month is not None
        return act211_due(year, month)
    return None


def previous_month(today: date) -> tuple[int, int]:
    """The month a report is usually made for: the one before today's."""
    return (today.year - 1, 12) if today.month == 1 else (today.year, today.month - 1)
