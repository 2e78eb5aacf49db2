"""The one query layer of the reports: SQLAlchemy Core aggregates (no ORM loading) that
fill the frozen read models of desk/domain/reports.py. The Reports screen, the CLI, the PDF and
Excel renderers and the BLDS export all read these functions, so their figures agree.

Money follows the cashiering ledger (gl_entry), and fees are the city's revenue accounts only
(_city_fees): the state seal and other governments' fees are collected for others, a street
deposit is held for the depositor (15.1.21(a)(1)a, 15.1.21(e), 15.1.43); a deposit the Council
retains becomes revenue by the ledger's transfer on the day of the retention. What was received
in a period is the sum of its
GL entries dated in the period (receipts, voids, returned checks, refunds and the transfers that
move a payer's credit onto a permit), which equals the treasurer's reconciliation; what was
delivered to the Treasurer is the sum of the entries that went out with a turnover delivered in
the period (a receipt with its day's close, a returned check or a refund with its own turnover).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Date,
    String,
    and_,
    case,
    extract,
    func,
    inspect,
    literal,
    or_,
    select,
    type_coerce,
)
from sqlalchemy.types import TypeDecorator

from db import licence_queries, schema
from db.letterheads import letterhead_as_of
from db.ordinance_queries import municipality_provides
from desk.domain import reports as r
from desk.domain.cashiering import AccountKind, AccountPurpose, EntrySource, ReversalKind
from desk.domain.enums import PartyRole, PermitClass, PermitStatus, WorkClass
from desk.domain.inspections import Result
from desk.domain.kinds import PermitKind, kinds_for
from desk.domain.model import InspectionStatus
from desk.domain.ordinances import Part
from desk.enforcement.model import (
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    NoticeKind,
    OrderKind,
    ServiceMethod,
)
from desk.enforcement.procedure import procedure_of_code
from desk.enforcement.rules import housing_code_key
from desk.errors import NotFound, RuleViolation, ValidationError

p = schema.permit
pc = schema.parcel
lst = schema.permit_listing
m = schema.municipality
e = schema.gl_entry
acct = schema.gl_account
i = schema.inspection
u = schema.app_user
ZERO = Decimal("0.00")


def _money(value: Any) -> Decimal:
    """SUM over a Cents column keeps the type (Decimal dollars); None when no rows."""
    return r.money(Decimal(value) if value is not None else None)


# --------------------------------------------------------------------------- municipality


def municipality_id_for(conn: Connection, key: str | None) -> int:
    """The municipality by key; the first (usually only) one when no key is given."""
    stmt = select(m.c.id, m.c.key).order_by(m.c.id)
    rows = conn.execute(stmt).all()
    if not rows:
        raise NotFound("the database has no municipality yet")
    if key is None:
        return int(rows[0].id)
    for row in rows:
        if row.key == key:
            return int(row.id)
    known = ", ".join(row.key for row in rows)
    raise NotFound(f"the database has no municipality '{key}' (it has: {known})")


def heading(conn: Connection, municipality_id: int) -> r.Heading:
    row = conn.execute(select(m).where(m.c.id == municipality_id)).first()
    if row is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    settings = row.settings if isinstance(row.settings, dict) else {}
    report_settings = settings.get("reports") if isinstance(settings.get("reports"), dict) else {}
    head = letterhead_as_of(conn, municipality_id, None)  # a report is dated the day it prints
    return r.Heading(
        municipality_id=row.id,
        municipality_key=row.ordinance,
        municipality_name=head.name or row.name,
        letterhead=head,  # empty: the renderers print the municipality's name instead
        inspector_name=head.inspector_name,
        inspector_title=head.inspector_title,
        state=row.state,
        settings=tuple((str(k), str(v)) for k, v in sorted((report_settings or {}).items())),
    )


def _kinds(key: str) -> dict[str, PermitKind]:
    return {k.code: k for k in kinds_for(key)}


def has_permit_kinds(key: str) -> bool:
    """Whether the municipality issues permits (the City of Hudson has no permit kinds)."""
    return bool(kinds_for(key))


def check_report_offered(conn: Connection, municipality_id: int, kind: r.ReportKind) -> None:
    """RuleViolation when the municipality is not offered the report (one made of permits, for
    a municipality with no permit kinds): for a caller about to make it (the CLI)."""
    _permit_report_check(heading(conn, municipality_id), kind)


def _permit_report_check(head: r.Heading, kind: r.ReportKind) -> None:
    """A report made of permits alone is refused for a municipality with no permit kinds."""
    why = r.not_offered_reason(
        kind,
        has_permit_kinds(head.municipality_key),
        f"the {head.municipality_name}",
        cites=head.cites,
    )
    if why:
        raise RuleViolation(why)


def _monthly_kind(trade: str | None) -> r.ReportKind:
    """The monthly report of a trade (every trade: the permit report)."""
    return {
        "electrical": r.ReportKind.ELECTRICAL_MONTHLY,
        "plumbing": r.ReportKind.PLUMBING_MONTHLY,
    }.get(trade or "", r.ReportKind.MONTHLY)


def _enforcement_only(head: r.Heading, trade: str | None) -> bool:
    """r.enforcement_only for the report's municipality; a trade is refused there (it has no
    permits of any trade)."""
    only = r.enforcement_only(has_permit_kinds(head.municipality_key))
    if only and trade is not None:
        raise ValidationError(
            "trade",
            f"the {head.municipality_name} has no permit kinds: its report covers code "
            "enforcement only; leave the trade out",
        )
    return only


def _trade_of(key: str, kind: str | None) -> str:
    if kind is None:
        return r.UNALLOCATED
    found = _kinds(key).get(kind)
    return found.trade if found is not None else "other"


def _trade_filter(key: str, trade: str | None) -> ColumnElement[bool]:
    """Permits of the trade's kinds (all permits without a trade)."""
    if trade is None:
        return literal(True)
    codes = [k.code for k in kinds_for(key) if k.trade == trade]
    return p.c.kind.in_(codes)


def _between(column: Any, period: r.Period) -> ColumnElement[bool]:
    return and_(column >= period.start, column <= period.end)


def _city_fees() -> ColumnElement[bool]:
    """The entry's account is one of the city's revenue accounts (by the account's kind, not by
    fee code): the fees collected of 15.1.6(c). Needs `acct` joined on e.account_id."""
    return acct.c.kind == AccountKind.REVENUE.value


# --------------------------------------------------------------------------- activity


def _delivered_turnover() -> Any:
    """The turnover an entry's money went out with (see the module docstring)."""
    ref, rev, pay, close = (
        schema.refund,
        schema.payment_reversal,
        schema.payment,
        schema.daily_close,
    )
    turnover_id = case(
        (e.c.refund_id.is_not(None), ref.c.turnover_id),
        (rev.c.kind == ReversalKind.NSF.value, rev.c.turnover_id),
        else_=close.c.turnover_id,
    )
    joined = (
        e.outerjoin(p, p.c.id == e.c.permit_id)
        .outerjoin(ref, ref.c.id == e.c.refund_id)
        .outerjoin(rev, rev.c.id == e.c.reversal_id)
        .outerjoin(pay, pay.c.id == e.c.payment_id)
        .outerjoin(close, close.c.id == pay.c.close_id)
        .join(schema.turnover, schema.turnover.c.id == turnover_id)
    )
    return joined


def activity(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> dict[str, r.Activity]:
    """Per trade (and UNALLOCATED for money on no permit): applications received, permits
    granted and their valuation, permits finaled, fees received and delivered."""
    where_trade = _trade_filter(key, trade)
    mine = p.c.municipality_id == municipality_id
    figures: dict[str, dict[str, Any]] = defaultdict(dict)

    def add(kind: str | None, name: str, value: Any) -> None:
        t = _trade_of(key, kind)
        figures[t][name] = figures[t].get(name, 0) + value

    for kind, n in conn.execute(
        select(p.c.kind, func.count())
        .where(mine, where_trade, _between(p.c.applied_on, period))
        .group_by(p.c.kind)
    ):
        add(kind, "applications", int(n))
    for kind, n, value in conn.execute(
        select(p.c.kind, func.count(), func.sum(p.c.valuation))
        .where(mine, where_trade, _between(p.c.issued_on, period))
        .group_by(p.c.kind)
    ):
        add(kind, "granted", int(n))
        add(kind, "valuation", _money(value))
    for kind, n in conn.execute(
        select(p.c.kind, func.count())
        .where(
            mine,
            where_trade,
            p.c.status == PermitStatus.COMPLETED.value,
            _between(p.c.completed_on, period),
        )
        .group_by(p.c.kind)
    ):
        add(kind, "finaled", int(n))
    # With a trade, money on no permit (payer credits) is left out: NULL is in no kind list.
    money_trade = where_trade
    for kind, value in conn.execute(
        select(p.c.kind, func.sum(e.c.amount))
        .select_from(
            e.join(acct, acct.c.id == e.c.account_id).outerjoin(p, p.c.id == e.c.permit_id)
        )
        .where(
            e.c.municipality_id == municipality_id,
            money_trade,
            _city_fees(),
            _between(e.c.day, period),
        )
        .group_by(p.c.kind)
    ):
        add(kind, "fees_received", _money(value))
    t = schema.turnover
    for kind, value in conn.execute(
        select(p.c.kind, func.sum(e.c.amount))
        .select_from(_delivered_turnover().join(acct, acct.c.id == e.c.account_id))
        .where(
            e.c.municipality_id == municipality_id,
            e.c.source != EntrySource.TRANSFER.value,
            _city_fees(),
            money_trade,
            _between(t.c.delivered_on, period),
        )
        .group_by(p.c.kind)
    ):
        add(kind, "fees_delivered", _money(value))
    out: dict[str, r.Activity] = {}
    for name, f in figures.items():
        out[name] = r.Activity(
            applications=f.get("applications", 0),
            granted=f.get("granted", 0),
            finaled=f.get("finaled", 0),
            valuation=r.money(f.get("valuation", ZERO)),
            fees_received=r.money(f.get("fees_received", ZERO)),
            fees_delivered=r.money(f.get("fees_delivered", ZERO)),
        )
    return out


def _permit_lines(conn: Connection, key: str, where: Any, order: Any = None) -> list[r.PermitLine]:
    kinds = _kinds(key)
    stmt = (
        select(
            p.c.id,
            p.c.number,
            p.c.issued_on,
            p.c.kind,
            p.c.permit_class,
            p.c.work_class,
            p.c.status,
            lst.c.address,
            p.c.description,
            p.c.valuation,
            lst.c.owner,
        )
        .select_from(p.outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(where)
        .order_by(*(order if order is not None else (p.c.issued_on, lst.c.number_sort, p.c.id)))
    )
    out = []
    for row in conn.execute(stmt):
        k = kinds.get(row.kind)
        out.append(
            r.PermitLine(
                permit_id=row.id,
                number=row.number or f"#{row.id}",
                issued_on=row.issued_on,
                kind=row.kind,
                kind_label=k.label if k else row.kind,
                trade=k.trade if k else "other",
                permit_class=row.permit_class,
                work_class=row.work_class,
                status=row.status,
                address=row.address or "",
                description=row.description,
                valuation=_money(row.valuation),
                owner=row.owner or "",
            )
        )
    return out


def turnovers(conn: Connection, municipality_id: int, period: r.Period) -> list[r.TurnoverLine]:
    t = schema.turnover
    return [
        r.TurnoverLine(
            row.id, row.delivered_on, _money(row.amount), row.acknowledged_on, row.deposit_ref
        )
        for row in conn.execute(
            select(t.c.id, t.c.delivered_on, t.c.amount, t.c.acknowledged_on, t.c.deposit_ref)
            .where(t.c.municipality_id == municipality_id, _between(t.c.delivered_on, period))
            .order_by(t.c.delivered_on, t.c.id)
        )
    ]


def monthly_report(
    conn: Connection, municipality_id: int, year: int, month: int, trade: str | None = None
) -> r.MonthlyReport:
    trade = r.check_trade(trade)
    head = heading(conn, municipality_id)
    key = head.municipality_key
    only = _enforcement_only(head, trade)
    periods = (
        r.month_period(year, month),
        r.same_month_last_year(year, month),
        r.year_to_date(year, month),
        r.year_to_date(year - 1, month),
    )
    figures = [activity(conn, municipality_id, key, period, trade) for period in periods]
    licensing = municipality_provides(conn, municipality_id).has(Part.LICENCES)
    # A row per trade the municipality has permit kinds of (New Lisbon's street permits are
    # one row, not five rows of zeros), and any other that has figures.
    kept = {k.trade for k in kinds_for(key)} | {t for f in figures for t in f}
    trades = [trade] if trade else [t for t in r.TRADE_LABELS if t in kept]
    if trade is None and any(r.UNALLOCATED in f for f in figures):
        trades.append(r.UNALLOCATED)
    rows = tuple(r.TradeActivity(t, *(f.get(t, r.Activity()) for f in figures)) for t in trades)
    period = periods[0]
    granted = _permit_lines(
        conn,
        key,
        and_(
            p.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            _between(p.c.issued_on, period),
        ),
    )
    return r.MonthlyReport(
        heading=head,
        year=year,
        month=month,
        trade=trade,
        period=period,
        due=r.due_for(_monthly_kind(trade), year, month, head.cites),
        rows=rows,
        permits_granted=tuple(granted),
        turnovers=tuple(turnovers(conn, municipality_id, period)) if trade is None else (),
        # 15.1.74(b): "licenses and permits granted", where the city licenses trades.
        licences=licence_queries.licence_counts_for(conn, municipality_id, periods, trade)
        if licensing
        else (),
        licences_granted=licence_queries.month_licences(conn, municipality_id, period, trade)
        if licensing
        else (),
        money=r.money_split(fees_by_account(conn, municipality_id, key, period, trade)),
        # Code enforcement (Hudson 140-3): the report of every trade only.
        enforcement=enforcement_section(conn, municipality_id, period, periods[2], always=only)
        if trade is None
        else None,
        enforcement_only=only,
    )


# --------------------------------------------------------------------------- annual report


def _year_of(column: Any) -> Any:
    return extract("year", column)


def _month_of(column: Any) -> Any:
    return extract("month", column)


def _permit_year_groups(
    conn: Connection, municipality_id: int, key: str, first: int, last: int, trade: str | None
) -> list[Any]:
    """(year, month, kind, class, count, valuation, new units, voided) of the permits issued in
    [first, last], one row per group: the annual tables, the charts and the trend."""
    new_units = case(
        (
            and_(
                p.c.work_class == WorkClass.NEW.value,
                p.c.status != PermitStatus.VOID.value,
                p.c.kind.not_in(sorted(r.NOT_A_BUILDING)),
            ),
            p.c.dwelling_units,
        ),
        else_=0,
    )
    voided = case((p.c.status == PermitStatus.VOID.value, 1), else_=0)
    y, mo = _year_of(p.c.issued_on), _month_of(p.c.issued_on)
    return list(
        conn.execute(
            select(
                y.label("y"),
                mo.label("m"),
                p.c.kind,
                p.c.permit_class,
                func.count().label("n"),
                func.sum(p.c.valuation).label("valuation"),
                func.sum(new_units).label("units"),
                func.sum(voided).label("voided"),
            )
            .where(
                p.c.municipality_id == municipality_id,
                _trade_filter(key, trade),
                _between(p.c.issued_on, r.Period(date(first, 1, 1), date(last, 12, 31))),
            )
            .group_by(y, mo, p.c.kind, p.c.permit_class)
        )
    )


def _fee_year_groups(
    conn: Connection, municipality_id: int, key: str, first: int, last: int, trade: str | None
) -> list[Any]:
    """Fees collected (city revenue accounts only) by year and month."""
    y, mo = _year_of(e.c.day), _month_of(e.c.day)
    joined = e.join(acct, acct.c.id == e.c.account_id).outerjoin(p, p.c.id == e.c.permit_id)
    where_trade = _trade_filter(key, trade)
    return list(
        conn.execute(
            select(y.label("y"), mo.label("m"), func.sum(e.c.amount).label("amount"))
            .select_from(joined)
            .where(
                e.c.municipality_id == municipality_id,
                where_trade,
                _city_fees(),
                _between(e.c.day, r.Period(date(first, 1, 1), date(last, 12, 31))),
            )
            .group_by(y, mo)
        )
    )


def _inspections_made(
    conn: Connection, municipality_id: int, key: str, first: int, last: int, trade: str | None
) -> dict[int, int]:
    y = _year_of(i.c.scheduled_on)
    rows = conn.execute(
        select(y, func.count())
        .select_from(i.join(p, p.c.id == i.c.permit_id))
        .where(
            p.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            i.c.status == InspectionStatus.DONE.value,
            _between(i.c.scheduled_on, r.Period(date(first, 1, 1), date(last, 12, 31))),
        )
        .group_by(y)
    )
    return {int(year): int(n) for year, n in rows}


def inspection_counts(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> list[r.InspectionCount]:
    from desk.services.inspections import inspection_type

    rows = conn.execute(
        select(i.c.type_code, i.c.result, func.count())
        .select_from(i.join(p, p.c.id == i.c.permit_id))
        .where(
            p.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            i.c.status == InspectionStatus.DONE.value,
            _between(i.c.scheduled_on, period),
        )
        .group_by(i.c.type_code, i.c.result)
        .order_by(i.c.type_code)
    )
    out = []
    for code, result, n in rows:
        itype = inspection_type(key, code)
        res = Result(result) if result is not None else None
        out.append(
            r.InspectionCount(
                type_code=code,
                type_label=itype.label if itype else code,
                trade=itype.trade if itype else "other",
                result=res.value if res else "",
                result_label=res.label if res else "No result",
                count=int(n),
            )
        )
    return out


def buildings_erected(
    conn: Connection, municipality_id: int, key: str, period: r.Period
) -> list[r.BuildingLine]:
    kinds = _kinds(key)
    codes = [c for c, k in kinds.items() if r.is_building_erected(k)]
    rows = conn.execute(
        select(
            p.c.id,
            p.c.number,
            p.c.issued_on,
            p.c.permit_class,
            p.c.kind,
            p.c.description,
            lst.c.address,
            p.c.floor_area_sqft,
            p.c.stories,
            p.c.construction_type,
            p.c.work_details,
            p.c.valuation,
            p.c.dwelling_units,
        )
        .select_from(p.outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            p.c.municipality_id == municipality_id,
            p.c.kind.in_(codes),
            p.c.status != PermitStatus.VOID.value,
            _between(p.c.issued_on, period),
        )
        .order_by(p.c.issued_on, lst.c.number_sort, p.c.id)
    )
    return [
        r.BuildingLine(
            permit_id=row.id,
            number=row.number or f"#{row.id}",
            issued_on=row.issued_on,
            permit_class=row.permit_class,
            kind_label=kinds[row.kind].label,
            description=row.description,
            address=row.address or "",
            floor_area_sqft=int(row.floor_area_sqft or 0),
            stories=row.stories,
            materials=r.materials(row.construction_type or "", row.work_details or {}),
            cost=_money(row.valuation),
            dwelling_units=int(row.dwelling_units or 0),
        )
        for row in rows
    ]


def orders(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> list[r.OrderLine]:
    o = schema.permit_order
    rows = conn.execute(
        select(
            o.c.kind,
            p.c.number,
            p.c.id,
            lst.c.address,
            o.c.issued_on,
            o.c.section,
            o.c.reasons,
            o.c.lifted_on,
        )
        .select_from(o.join(p, p.c.id == o.c.permit_id).outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            p.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            _between(o.c.issued_on, period),
        )
        .order_by(o.c.issued_on, o.c.id)
    )
    return [
        r.OrderLine(
            row.kind,
            row.number or f"#{row.id}",
            row.address or "",
            row.issued_on,
            row.section,
            row.reasons,
            row.lifted_on,
        )
        for row in rows
    ]


def fees_by_account(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> list[r.AccountFees]:
    where_trade = _trade_filter(key, trade)
    rows = conn.execute(
        select(
            acct.c.number,
            acct.c.name,
            acct.c.kind,
            acct.c.purpose,
            e.c.source,
            func.sum(e.c.amount),
        )
        .select_from(
            e.join(acct, acct.c.id == e.c.account_id).outerjoin(p, p.c.id == e.c.permit_id)
        )
        .where(e.c.municipality_id == municipality_id, where_trade, _between(e.c.day, period))
        .group_by(acct.c.number, acct.c.name, acct.c.kind, acct.c.purpose, e.c.source)
    )
    sums: dict[tuple[str, str, r.MoneyClass], dict[EntrySource, Decimal]] = defaultdict(dict)
    for number, name, kind, purpose, source, amount in rows:
        whose = r.money_class(kind, purpose)
        sums[(number, name, whose)][EntrySource(source)] = _money(amount)
    out = []
    for (number, name, whose), s in sorted(sums.items()):
        out.append(
            r.AccountFees(
                number=number,
                name=name,
                receipts=s.get(EntrySource.RECEIPT, ZERO),
                reversals=r.money(s.get(EntrySource.VOID, ZERO) + s.get(EntrySource.NSF, ZERO)),
                refunds=s.get(EntrySource.REFUND, ZERO),
                transfers=s.get(EntrySource.TRANSFER, ZERO),
                money_class=whose,
            )
        )
    return out


def receipts_by_day(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> list[r.DayReceipts]:
    """15.1.6(c): 'a record of all fees collected showing the date of their receipt': the city's
    revenue accounts only, and the receipts that paid some fee."""
    where_trade = _trade_filter(key, trade)
    receipt_ids = case((e.c.source == EntrySource.RECEIPT.value, e.c.payment_id))
    rows = conn.execute(
        select(e.c.day, func.count(func.distinct(receipt_ids)), func.sum(e.c.amount))
        .select_from(
            e.join(acct, acct.c.id == e.c.account_id).outerjoin(p, p.c.id == e.c.permit_id)
        )
        .where(
            e.c.municipality_id == municipality_id,
            where_trade,
            _city_fees(),
            _between(e.c.day, period),
        )
        .group_by(e.c.day)
        .order_by(e.c.day)
    )
    return [r.DayReceipts(day, int(n), _money(amount)) for day, n, amount in rows]


def sureties(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> r.SuretySection:
    """The deposits-held account's movement in the period, and the street deposits and bonds
    on file at some time in it (revision 0010's registers)."""
    held = (
        conn.execute(
            select(acct.c.id).where(
                acct.c.municipality_id == municipality_id,
                acct.c.purpose == AccountPurpose.DEPOSITS_HELD.value,
            )
        )
        .scalars()
        .all()
    )
    opening = received = returned = retained = ZERO
    if held:
        base = (
            select(func.sum(e.c.amount))
            .select_from(e.outerjoin(p, p.c.id == e.c.permit_id))
            .where(
                e.c.municipality_id == municipality_id,
                e.c.account_id.in_(held),
                _trade_filter(key, trade),
            )
        )
        opening = _money(conn.execute(base.where(e.c.day < period.start)).scalar())
        in_period = base.where(_between(e.c.day, period))
        # 15.1.43: received at the counter (less voids and returned checks), returned by the
        # clerk's check (a refund), retained by the Council (a transfer to revenue).
        received = _money(
            conn.execute(
                in_period.where(
                    e.c.source.in_(
                        [EntrySource.RECEIPT.value, EntrySource.VOID.value, EntrySource.NSF.value]
                    )
                )
            ).scalar()
        )
        returned = _money(
            conn.execute(in_period.where(e.c.source == EntrySource.REFUND.value)).scalar()
        )
        retained = _money(
            conn.execute(in_period.where(e.c.source == EntrySource.TRANSFER.value)).scalar()
        )
    names = set(inspect(conn).get_table_names())
    recorded = {"deposit", "bond"} <= names
    return r.SuretySection(
        recorded=recorded,
        deposits_opening=opening,
        deposits_received=received,
        deposits_returned=returned,
        deposits_retained=retained,
        deposits_closing=r.money(opening + received + returned + retained),
        deposits=tuple(_deposits(conn, municipality_id, key, period, trade)) if recorded else (),
        bonds=tuple(_bonds(conn, municipality_id, period)) if recorded and not trade else (),
        note="" if recorded else f"Deposits and bonds: {r.NOT_RECORDED}.",
    )


def _deposits(
    conn: Connection, municipality_id: int, key: str, period: r.Period, trade: str | None
) -> list[r.DepositLine]:
    """Street deposits (15.1.43) received by the period's end and not closed before it."""
    from desk.domain.model import DepositState

    d, ref = schema.deposit, schema.refund
    closed_on = func.coalesce(ref.c.day, d.c.retention_resolved_on)
    rows = conn.execute(
        select(
            p.c.number,
            p.c.id.label("permit_id"),
            d.c.depositor,
            d.c.amount,
            d.c.received_on,
            d.c.status,
            ref.c.day.label("returned_on"),
            ref.c.amount.label("returned"),
            d.c.retention_resolved_on,
            d.c.retention_amount,
        )
        .select_from(d.join(p, p.c.id == d.c.permit_id).outerjoin(ref, ref.c.id == d.c.refund_id))
        .where(
            d.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            d.c.received_on.is_not(None),
            d.c.received_on <= period.end,
            or_(closed_on.is_(None), closed_on >= period.start),
        )
        .order_by(d.c.received_on, d.c.id)
    )
    out = []
    for row in rows:
        returned_in = row.returned_on is not None and row.returned_on in period
        retained_in = row.retention_resolved_on is not None and row.retention_resolved_on in period
        state = DepositState(row.status)
        if row.returned_on is not None and row.returned_on <= period.end:
            status = "Refunded"
        elif row.retention_resolved_on is not None and row.retention_resolved_on <= period.end:
            status = "Retained by the Council" if state is DepositState.RETAINED else "Refunded"
        elif state is DepositState.ORDERED:
            status = "Refund ordered"
        else:
            status = "Held"
        out.append(
            r.DepositLine(
                permit_number=row.number or f"#{row.permit_id}",
                depositor=row.depositor,
                amount=_money(row.amount),
                received_on=row.received_on,
                status=status,
                returned_on=row.returned_on if returned_in else None,
                returned=_money(row.returned) if returned_in else ZERO,
                retained=_money(row.retention_amount) if retained_in else ZERO,
            )
        )
    return out


def _bonds(conn: Connection, municipality_id: int, period: r.Period) -> list[r.BondLine]:
    """Bonds in force at some time in the period, with their standing at its end."""
    from desk.domain.sureties import BondKind, BondPurpose, BondStatus

    b = schema.bond
    rows = conn.execute(
        select(b)
        .where(
            b.c.municipality_id == municipality_id,
            b.c.effective_on <= period.end,
            or_(b.c.released_on.is_(None), b.c.released_on >= period.start),
            or_(b.c.expires_on.is_(None), b.c.expires_on >= period.start),
        )
        .order_by(b.c.effective_on, b.c.id)
    )
    out = []
    for row in rows:
        status = BondStatus(row.status)
        if row.released_on is not None and row.released_on <= period.end:
            words = BondStatus.RELEASED.label
        elif row.claimed_on is not None and row.claimed_on <= period.end:
            words = BondStatus.CLAIMED.label
        elif row.expires_on is not None and row.expires_on < period.end:
            words = BondStatus.EXPIRED.label
        else:
            words = BondStatus.IN_FORCE.label if status is not BondStatus.EXPIRED else status.label
        out.append(
            r.BondLine(
                number=row.number,
                purpose=BondPurpose(row.purpose).label,
                principal=row.principal,
                kind=BondKind(row.kind).label,
                amount=_money(row.amount),
                effective_on=row.effective_on,
                expires_on=row.expires_on,
                status=words,
            )
        )
    return out


def _headlines(
    conn: Connection, municipality_id: int, key: str, year: int, trade: str | None
) -> tuple[list[r.Headline], list[Any], list[Any]]:
    years = r.trend_years(year)
    first, last = years[0], years[-1]
    kinds = _kinds(key)
    building_codes = {c for c, k in kinds.items() if r.is_building_erected(k)}
    groups = _permit_year_groups(conn, municipality_id, key, first, last, trade)
    fees = _fee_year_groups(conn, municipality_id, key, first, last, trade)
    made = _inspections_made(conn, municipality_id, key, first, last, trade)
    by_year: dict[int, dict[str, Any]] = {
        y: {"n": 0, "v": ZERO, "fees": ZERO, "b": 0, "u": 0} for y in years
    }
    for g in groups:
        d = by_year[int(g.y)]
        d["n"] += int(g.n)
        d["v"] += _money(g.valuation)
        d["u"] += int(g.units or 0)
        if g.kind in building_codes:
            d["b"] += int(g.n) - int(g.voided or 0)
    for f in fees:
        by_year[int(f.y)]["fees"] += _money(f.amount)
    heads = [
        r.Headline(
            year=y,
            permits_issued=d["n"],
            valuation=r.money(d["v"]),
            fees_collected=r.money(d["fees"]),
            inspections_made=made.get(y, 0),
            buildings_erected=d["b"],
            new_dwelling_units=d["u"],
        )
        for y, d in by_year.items()
    ]
    return heads, groups, fees


def annual_report(
    conn: Connection,
    municipality_id: int,
    year: int,
    trade: str | None = None,
    *,
    include_register: bool = True,
) -> r.AnnualReport:
    trade = r.check_trade(trade)
    head = heading(conn, municipality_id)
    key = head.municipality_key
    only = _enforcement_only(head, trade)
    period = r.year_period(year)
    heads, groups, fees = _headlines(conn, municipality_id, key, year, trade)
    kinds = _kinds(key)
    month_n: dict[int, list[Any]] = {mo: [0, ZERO, ZERO] for mo in range(1, 13)}
    kind_sums: dict[tuple[str, PermitClass], list[Any]] = {}
    voided = 0
    for g in groups:
        if int(g.y) != year:
            continue
        mo = month_n[int(g.m)]
        mo[0] += int(g.n)
        mo[1] += _money(g.valuation)
        k = kind_sums.setdefault((g.kind, g.permit_class), [0, ZERO])
        k[0] += int(g.n)
        k[1] += _money(g.valuation)
        voided += int(g.voided or 0)
    for f in fees:
        if int(f.y) == year:
            month_n[int(f.m)][2] += _money(f.amount)
    by_month = tuple(
        r.MonthFigures(mo, v[0], r.money(v[1]), r.money(v[2])) for mo, v in month_n.items()
    )
    order = {c: n for n, c in enumerate(kinds)}
    by_kind = tuple(
        r.KindLine(
            permit_class=cls,
            kind=code,
            kind_label=kinds[code].label if code in kinds else code,
            trade=kinds[code].trade if code in kinds else "other",
            count=v[0],
            valuation=r.money(v[1]),
        )
        for (code, cls), v in sorted(
            kind_sums.items(),
            key=lambda kv: (list(PermitClass).index(kv[0][1]), order.get(kv[0][0], 999)),
        )
    )
    accounts = fees_by_account(conn, municipality_id, key, period, trade)
    categories = tuple(
        r.CategoryFees(a.name, a.net)
        for a in sorted(accounts, key=lambda a: -a.net)
        if a.net > 0 and a.is_fee
    )
    razed = _permit_lines(
        conn,
        key,
        and_(
            p.c.municipality_id == municipality_id,
            _trade_filter(key, trade),
            p.c.work_class.in_([WorkClass.RAZE.value, WorkClass.MOVE.value]),
            _between(p.c.issued_on, period),
        ),
    )
    register = (
        _permit_lines(
            conn,
            key,
            and_(
                p.c.municipality_id == municipality_id,
                _trade_filter(key, trade),
                _between(p.c.issued_on, period),
            ),
            order=(lst.c.number_sort, p.c.id),
        )
        if include_register
        else []
    )
    headline = heads[-1]
    return r.AnnualReport(
        heading=head,
        year=year,
        trade=trade,
        period=period,
        due=r.due_for(r.ReportKind.ELECTRICAL_ANNUAL, year, None, head.cites)
        if trade == "electrical"
        else None,
        headline=headline,
        previous=heads[-2],
        trend=tuple(heads),
        by_month=by_month,
        by_kind=by_kind,
        buildings=tuple(buildings_erected(conn, municipality_id, key, period))
        if trade in (None, "building")
        else (),
        inspections=tuple(inspection_counts(conn, municipality_id, key, period, trade)),
        razings=tuple(razed),
        orders=tuple(orders(conn, municipality_id, key, period, trade)),
        fees_by_account=tuple(accounts),
        fees_by_category=categories,
        receipts_by_day=tuple(receipts_by_day(conn, municipality_id, key, period, trade)),
        sureties=sureties(conn, municipality_id, key, period, trade),
        register=tuple(register),
        voided=voided,
        # 15.1.6(c) condemnations; City licences granted and revoked (revision 0011).
        licensing=licence_queries.licensing_section(
            conn, municipality_id, period, trade, municipality_provides(conn, municipality_id)
        ),
        register_starts=register_starts(conn, municipality_id),
        enforcement=enforcement_section(conn, municipality_id, period, hearings=True, always=only)
        if trade is None
        else None,
        enforcement_only=only,
    )


def register_starts(conn: Connection, municipality_id: int) -> date | None:
    """The first day the register holds: the earliest application or issue date of the
    municipality's permits (None when it has none). A year that starts before it is partial."""
    found = conn.execute(
        select(func.min(p.c.applied_on), func.min(p.c.issued_on)).where(
            p.c.municipality_id == municipality_id
        )
    ).first()
    days = [d for d in (found or ()) if d is not None]
    return min(days) if days else None


# --------------------------------------------------------------------------- Census C-404


def c404_report(
    conn: Connection, municipality_id: int, period: r.Period, threshold: Decimal | None = None
) -> r.C404Report:
    head = heading(conn, municipality_id)
    _permit_report_check(head, r.ReportKind.C404)
    if threshold is None:
        threshold = r.high_value_threshold(head.setting(r.HIGH_VALUE_SETTING, ""))
    rows = conn.execute(
        select(
            p.c.id,
            p.c.number,
            p.c.issued_on,
            p.c.kind,
            p.c.permit_class,
            p.c.work_class,
            p.c.status,
            p.c.dwelling_units,
            p.c.valuation,
            p.c.work_details,
            lst.c.address,
            lst.c.owner,
        )
        .select_from(p.outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            p.c.municipality_id == municipality_id,
            p.c.work_class == WorkClass.NEW.value,
            p.c.dwelling_units > 0,
            _between(p.c.issued_on, period),
        )
    )
    candidates = [
        r.HousingPermit(
            permit_id=row.id,
            number=row.number or f"#{row.id}",
            issued_on=row.issued_on,
            kind=row.kind,
            permit_class=row.permit_class,
            work_class=row.work_class,
            status=row.status,
            units=int(row.dwelling_units),
            valuation=_money(row.valuation),
            address=row.address or "",
            publicly_owned=r.publicly_owned([row.owner or ""], row.work_details or {}),
        )
        for row in rows
    ]
    return r.classify_c404(head, period, candidates, threshold)


# --------------------------------------------------------------------------- Act 211


def _new_dwelling_where(municipality_id: int) -> ColumnElement[bool]:
    return and_(
        p.c.municipality_id == municipality_id,
        p.c.status != PermitStatus.VOID.value,
        or_(
            p.c.kind == "RES-NEW-DWELLING",
            and_(
                p.c.permit_class == PermitClass.RESIDENTIAL.value,
                p.c.work_class == WorkClass.NEW.value,
                p.c.dwelling_units.between(1, 2),
                p.c.kind.not_in(sorted(r.NOT_A_BUILDING)),
            ),
        ),
    )


def _act211_lines(
    conn: Connection, municipality_id: int, where: Any, today: date
) -> list[r.Act211Line]:
    sf = schema.state_filing
    rows = conn.execute(
        select(
            p.c.id,
            p.c.number,
            p.c.issued_on,
            p.c.dwelling_units,
            lst.c.address,
            lst.c.owner,
            sf.c.filed_on,
            sf.c.reference,
        )
        .select_from(
            p.outerjoin(lst, lst.c.permit_id == p.c.id).outerjoin(sf, sf.c.permit_id == p.c.id)
        )
        .where(_new_dwelling_where(municipality_id), p.c.issued_on.is_not(None), where)
        .order_by(p.c.issued_on, lst.c.number_sort, p.c.id)
    ).all()
    ids = [row.id for row in rows]
    paid: dict[int, Decimal] = defaultdict(lambda: ZERO)
    seal: dict[int, Decimal] = defaultdict(lambda: ZERO)
    refunded: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for pid, purpose, amount in conn.execute(
            select(e.c.permit_id, acct.c.purpose, func.sum(e.c.amount))
            .select_from(e.join(acct, acct.c.id == e.c.account_id))
            .where(
                e.c.permit_id.in_(chunk),
                e.c.source != EntrySource.REFUND.value,
                acct.c.purpose != AccountPurpose.DEPOSITS_HELD.value,
            )
            .group_by(e.c.permit_id, acct.c.purpose)
        ):
            paid[pid] += _money(amount)
            if AccountPurpose(purpose) is AccountPurpose.STATE_SEAL:
                seal[pid] += _money(amount)
        ref = schema.refund
        for pid, amount in conn.execute(
            select(ref.c.permit_id, func.sum(ref.c.amount))
            .where(ref.c.permit_id.in_(chunk))
            .group_by(ref.c.permit_id)
        ):
            refunded[pid] += _money(amount)
    return [
        r.act211_line(
            permit_id=row.id,
            number=row.number or f"#{row.id}",
            issued_on=row.issued_on,
            address=row.address or "",
            owner=row.owner or "",
            units=int(row.dwelling_units or 0),
            filed_on=row.filed_on,
            reference=row.reference or "",
            fees_paid=paid[row.id],
            seal_paid=seal[row.id],
            refunded=refunded[row.id],
            today=today,
        )
        for row in rows
    ]


def act211_report(
    conn: Connection, municipality_id: int, year: int, month: int, today: date
) -> r.Act211Report:
    # No refusal here for a municipality with no permit kinds: Needs attention reads the month's
    # filings of every municipality (db/attention/counter.py); the report is then empty.
    head = heading(conn, municipality_id)
    period = r.month_period(year, month)
    lines = _act211_lines(conn, municipality_id, _between(p.c.issued_on, period), today)
    # Earlier permits (the year before the month) still not filed with the state.
    earlier_period = r.Period(period.start - timedelta(days=366), period.start - timedelta(days=1))
    sf = schema.state_filing
    earlier = _act211_lines(
        conn,
        municipality_id,
        and_(_between(p.c.issued_on, earlier_period), sf.c.id.is_(None)),
        today,
    )
    return r.Act211Report(
        heading=head,
        year=year,
        month=month,
        period=period,
        due=r.act211_due(year, month),
        today=today,
        lines=tuple(lines),
        earlier=tuple(x for x in earlier if x.state is r.FilingState.OVERDUE),
    )


def permit_act211(conn: Connection, permit_id: int, today: date) -> r.Act211Line | None:
    """One permit's Act 211 line (None when it is not a new one- or two-family dwelling)."""
    mid = conn.execute(select(p.c.municipality_id).where(p.c.id == permit_id)).scalar()
    if mid is None:
        return None
    found = _act211_lines(conn, int(mid), p.c.id == permit_id, today)
    return found[0] if found else None


# --------------------------------------------------------------------------- BLDS export

# Field names exactly as BLDS 1.2 spells them (github.com/open-data-standards/permitdata.org/wiki;
# copy read in cityofasheville/bedrock documentation/development/*.md): the core permits
# dataset's required fields, then the recommended ones we hold, then optional ones, each group in
# the specification's order. Dates are YYYY-MM-DD.
BLDS_PERMIT_FIELDS = (
    "PermitNum",
    "Description",
    "AppliedDate",
    "IssuedDate",
    "CompletedDate",
    "StatusCurrent",
    "OriginalAddress1",
    "OriginalAddress2",
    "OriginalCity",
    "OriginalState",
    "OriginalZip",
    "Jurisdiction",
    "PermitClass",
    "PermitClassMapped",
    "StatusCurrentMapped",
    "WorkClass",
    "WorkClassMapped",
    "PermitType",
    "PermitTypeMapped",
    "PermitTypeDesc",
    "StatusDate",
    "TotalSqFt",
    "EstProjectCost",
    "HousingUnits",
    "PIN",
    "ContractorCompanyName",
    "ContractorTrade",
    "ContractorTradeMapped",
    "ContractorLicNum",
    "ContractorStateLic",
    "ExpiresDate",
    "COIssuedDate",
    "HoldDate",
    "VoidDate",
    "Fee",
)
# The optional inspections dataset: its required fields, then optional Inspector, ReInspection
# ("whether a reinspection is needed", Yes or No) and Final (Yes or No).
BLDS_INSPECTION_FIELDS = (
    "PermitNum",
    "InspType",
    "InspTypeMapped",
    "Result",
    "ResultMapped",
    "ScheduledDate",
    "InspectedDate",
    "Inspector",
    "ReInspection",
    "Final",
)
# The optional contractor dataset: "The contractor information included in the core dataset
# should be for the primary contractor. If additional contractors need to be associated,
# additional datasets for each contractor may be submitted" -- one row per additional contractor,
# its fields named with the specification's "2" (ContractorStateLicense2, ContractorAddress1_2).
BLDS_CONTRACTOR_FIELDS = (
    "PermitNum",
    "ContractorCompanyName2",
    "ContractorTrade2",
    "ContractorTradeMapped2",
    "ContractorLicNum2",
    "ContractorStateLicense2",
    "ContractorFullName2",
    "ContractorPhone2",
    "ContractorAddress1_2",
    "ContractorAddress2_2",
    "ContractorCity2",
    "ContractorState2",
    "ContractorZip2",
    "ContractorEmail2",
)
CHUNK = 5000


def _blds_exported() -> ColumnElement[bool]:
    """Every permit and application except drafts (not yet submitted)."""
    return p.c.status != PermitStatus.DRAFT.value


def _permit_num(number: str | None, permit_id: int) -> str:
    return number or f"APP-{permit_id}"


def _raw(column: Any) -> Any:
    """The column's value as the driver returns it (no per-row type processing: the BLDS export
    converts 100,000 rows, and the vocabularies below map the stored strings directly)."""
    kind = column.type
    if isinstance(kind, TypeDecorator):
        return type_coerce(column, kind.impl)
    if isinstance(kind, Date):
        return type_coerce(column, String())  # SQLite's ISO text as it is
    return column


def _iso(value: Any) -> str:
    """A stored date as YYYY-MM-DD (SQLite returns the ISO text itself, PostgreSQL a date)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else value.isoformat()


def _cents_text(cents: Any) -> str:
    """Integer cents as dollars with two decimals, exactly."""
    if cents is None:
        return ""
    c = int(cents)
    sign, c = ("-", -c) if c < 0 else ("", c)
    return f"{sign}{c // 100}.{c % 100:02d}"


def _party_name(name: str, first: str, last: str) -> str:
    if name:
        return name
    return " ".join(x for x in (first, last) if x)


def _licences(conn: Connection) -> dict[tuple[int, str], tuple[str, str]]:
    """(party id, role) -> (licence number, issuing state): the first licence of the kinds that
    go with the role (desk.domain.reports.ROLE_CREDENTIALS)."""
    cr = schema.credential
    held: dict[int, dict[str, tuple[str, str]]] = defaultdict(dict)
    for party_id, kind, number, state in conn.execute(
        select(cr.c.party_id, _raw(cr.c.kind), cr.c.number, cr.c.issuing_state)
        .where(cr.c.superseded_by_id.is_(None))
        .order_by(cr.c.id)
    ):
        held[party_id].setdefault(str(kind), (number, state))
    out: dict[tuple[int, str], tuple[str, str]] = {}
    for party_id, kinds in held.items():
        for role, wanted in r.ROLE_CREDENTIALS.items():
            found = next((kinds[k] for k in wanted if k in kinds), None)
            if found is not None:
                out[(party_id, role)] = found
    return out


_ROLE_RANK = {role: n for n, role in enumerate(r.CONTRACTOR_ROLES)}


def _contractor_rank(role: str, link_id: int) -> tuple[int, int]:
    """A permit's primary contractor is the first by role (contractor, electrician, plumber,
    HVAC), then the earliest linked: the lowest rank."""
    return _ROLE_RANK[role], link_id


def _first_contractors(
    conn: Connection, municipality_id: int
) -> dict[int, tuple[str, str, int, int]]:
    """permit id -> (company name, role, party id, permit_party id) of its first (primary)
    contractor: contractor, electrician, plumber, HVAC, in that order; the earliest linked within
    a role. The core permits row carries it; contractors.csv the others."""
    pp, pa = schema.permit_party, schema.party
    best: dict[int, tuple[int, int]] = {}
    first: dict[int, tuple[str, str, int, int]] = {}
    for link_id, permit_id, role, party_id, name, first_name, last_name in conn.execute(
        select(
            pp.c.id,
            pp.c.permit_id,
            _raw(pp.c.role),
            pa.c.id,
            pa.c.name,
            pa.c.first_name,
            pa.c.last_name,
        )
        .select_from(pp.join(p, p.c.id == pp.c.permit_id).join(pa, pa.c.id == pp.c.party_id))
        .where(
            p.c.municipality_id == municipality_id,
            pp.c.role.in_(r.CONTRACTOR_ROLES),
            _blds_exported(),
        )
    ):
        order = _contractor_rank(role, link_id)
        if permit_id not in best or order < best[permit_id]:
            best[permit_id] = order
            first[permit_id] = (
                _party_name(name, first_name, last_name),
                role,
                party_id,
                link_id,
            )
    return first


def blds_permit_rows(conn: Connection, municipality_id: int) -> Iterator[list[str]]:
    """permits.csv rows in BLDS field order (BLDS_PERMIT_FIELDS)."""
    head = heading(conn, municipality_id)
    key = head.municipality_key
    jurisdiction = head.setting("jurisdiction", head.municipality_name)
    kinds = _kinds(key)
    kind_words = {code: (k.label, r.blds_permit_type(code, k.trade)) for code, k in kinds.items()}
    statuses = {s.value: (s.label, s.blds) for s in PermitStatus}
    classes = {c.value: (c.label, c.blds) for c in PermitClass}
    works = {w.value: (w.label, w.blds) for w in WorkClass}
    role_words = {
        role: (PartyRole(role).label, r.BLDS_CONTRACTOR_TRADE[role]) for role in r.CONTRACTOR_ROLES
    }
    first = _first_contractors(conn, municipality_id)
    licences = _licences(conn)
    co = schema.occupancy_certificate
    coissued: dict[int, str] = {
        pid: _iso(day)
        for pid, day in conn.execute(
            select(co.c.permit_id, func.min(_raw(co.c.issued_on)))
            .where(co.c.municipality_id == municipality_id)
            .group_by(co.c.permit_id)
        )
    }
    o = schema.permit_order
    voided: dict[int, str] = {
        pid: _iso(day)
        for pid, day in conn.execute(
            select(o.c.permit_id, func.max(_raw(o.c.issued_on)))
            .where(o.c.kind == "void")
            .group_by(o.c.permit_id)
        )
    }
    # HoldDate: "the date on which the permit was last put on hold" -- its latest stop-work order.
    held: dict[int, str] = {
        pid: _iso(day)
        for pid, day in conn.execute(
            select(o.c.permit_id, func.max(_raw(o.c.issued_on)))
            .where(o.c.kind == "stop_work")
            .group_by(o.c.permit_id)
        )
    }
    fee: dict[int, int] = defaultdict(int)
    for table in (schema.permit_fee_line, schema.fee_adjustment):
        for pid, cents in conn.execute(
            select(table.c.permit_id, func.sum(_raw(table.c.amount)))
            .select_from(table.join(p, p.c.id == table.c.permit_id))
            .where(p.c.municipality_id == municipality_id)
            .group_by(table.c.permit_id)
        ):
            fee[pid] += int(cents or 0)
    stmt = (
        select(
            p.c.id,
            p.c.number,
            p.c.description,
            _raw(p.c.applied_on),
            _raw(p.c.issued_on),
            _raw(p.c.completed_on),
            _raw(p.c.status),
            _raw(p.c.status_date),
            p.c.kind,
            _raw(p.c.permit_class),
            _raw(p.c.work_class),
            p.c.floor_area_sqft,
            _raw(p.c.valuation),
            p.c.dwelling_units,
            _raw(p.c.expires_on),
            pc.c.house_number,
            pc.c.street,
            pc.c.unit,
            pc.c.city,
            pc.c.zip,
            pc.c.pin,
        )
        .select_from(p.outerjoin(pc, pc.c.id == p.c.parcel_id))
        .where(p.c.municipality_id == municipality_id, _blds_exported())
        .order_by(p.c.id)
    )
    state = head.state
    no_contractor = ("", "", "", "", "")
    for (
        pid,
        number,
        description,
        applied,
        issued,
        completed,
        status,
        status_date,
        kind,
        cls,
        work,
        sqft,
        cents,
        units,
        expires,
        house,
        street,
        unit,
        city,
        zip_code,
        pin,
    ) in conn.execution_options(yield_per=CHUNK).execute(stmt):
        kind_label, permit_type = kind_words.get(kind, (kind, ""))
        status_label, status_blds = statuses[status]
        contractor = first.get(pid)
        if contractor is None:
            c_cells = no_contractor
        else:
            company, role, party_id, _link = contractor
            lic, lic_state = licences.get((party_id, role), ("", ""))
            c_cells = (company, *role_words[role], lic, lic_state)
        void_on = voided.get(pid, "")
        if not void_on and status == "void":
            void_on = _iso(status_date)
        yield [
            number or f"APP-{pid}",
            description,
            _iso(applied),
            _iso(issued),
            _iso(completed),
            status_label,
            f"{house} {street}" if house and street else (house or street or ""),
            f"Unit {unit}" if unit else "",
            city or "",
            state,
            zip_code or "",
            jurisdiction,
            *classes[cls],
            status_blds,
            *works[work],
            kind,
            permit_type,
            kind_label,
            _iso(status_date),
            str(sqft) if sqft else "",
            _cents_text(cents),
            str(units or 0),
            pin or "",
            *c_cells,
            _iso(expires),
            coissued.get(pid, ""),
            held.get(pid, ""),
            void_on,
            _cents_text(fee[pid]) if pid in fee else "",
        ]


def blds_inspection_rows(conn: Connection, municipality_id: int) -> Iterator[list[str]]:
    """inspections.csv rows: made, scheduled and cancelled inspections (not bare requests)."""
    from desk.services.inspections import inspection_type

    key = heading(conn, municipality_id).municipality_key
    stmt = (
        select(
            i.c.id,
            i.c.permit_id,
            p.c.number,
            i.c.type_code,
            i.c.status,
            i.c.result,
            i.c.scheduled_on,
            i.c.result_at,
            u.c.full_name,
        )
        .select_from(i.join(p, p.c.id == i.c.permit_id).outerjoin(u, u.c.id == i.c.inspector_id))
        .where(
            p.c.municipality_id == municipality_id,
            i.c.status != InspectionStatus.REQUESTED.value,
        )
        .order_by(i.c.permit_id, i.c.type_code, i.c.id)
    )
    types: dict[str, Any] = {}
    for row in conn.execution_options(yield_per=CHUNK).execute(stmt):
        if row.type_code not in types:
            types[row.type_code] = inspection_type(key, row.type_code)
        itype = types[row.type_code]
        result: Result | None = row.result
        status: InspectionStatus = row.status
        if result is None and status is InspectionStatus.CANCELLED:
            result = Result.CANCELLED
        made = status is InspectionStatus.DONE
        # ReInspection: "whether a reinspection is needed" -- a rejected inspection must be made
        # again once the defects are corrected (15.1.90(b)(1)), a partial one for the rest.
        again = made and result in (Result.REJECTED, Result.PARTIAL)
        inspected = row.scheduled_on if made else None
        if made and inspected is None and row.result_at is not None:
            inspected = row.result_at.date()
        yield [
            _permit_num(row.number, row.permit_id),
            itype.label if itype else row.type_code,
            itype.blds if itype else "",
            result.label if result else "",
            result.blds if result else "",
            r.blds_date(row.scheduled_on),
            r.blds_date(inspected),
            row.full_name or "",
            r.yes_no(again),
            r.yes_no(bool(itype and itype.final)),
        ]


def blds_contractor_rows(conn: Connection, municipality_id: int) -> Iterator[list[str]]:
    """contractors.csv (BLDS_CONTRACTOR_FIELDS): each additional contractor on each exported
    permit -- every one but the primary contractor permits.csv carries -- with the licence for
    the role."""
    pp, pa = schema.permit_party, schema.party
    licences = _licences(conn)
    role_words = {
        role: (PartyRole(role).label, r.BLDS_CONTRACTOR_TRADE[role]) for role in r.CONTRACTOR_ROLES
    }
    stmt = (
        select(
            p.c.id,
            p.c.number,
            pp.c.id,
            _raw(pp.c.role),
            pa.c.id,
            _raw(pa.c.kind),
            pa.c.name,
            pa.c.first_name,
            pa.c.last_name,
            pa.c.phone,
            pa.c.address_line1,
            pa.c.address_line2,
            pa.c.city,
            pa.c.state,
            pa.c.zip,
            pa.c.email,
        )
        .select_from(pp.join(p, p.c.id == pp.c.permit_id).join(pa, pa.c.id == pp.c.party_id))
        .where(
            p.c.municipality_id == municipality_id,
            pp.c.role.in_(r.CONTRACTOR_ROLES),
            _blds_exported(),
        )
        .order_by(p.c.id, pp.c.id)
    )
    rows = conn.execution_options(yield_per=CHUNK).execute(stmt)
    for _, links in groupby(rows, key=itemgetter(0)):
        permit_links = list(links)
        # The primary contractor is on permits.csv (_first_contractors, the same rank), found
        # here in the same pass rather than by a second query.
        primary = min(permit_links, key=lambda x: _contractor_rank(x[3], x[2]))
        yield from (
            _contractor_row(x, licences, role_words) for x in permit_links if x is not primary
        )


def _contractor_row(
    x: Any,
    licences: dict[tuple[int, str], tuple[str, str]],
    role_words: dict[str, tuple[str, str]],
) -> list[str]:
    """One contractors.csv row from a row of blds_contractor_rows' query."""
    (
        pid,
        number,
        _link_id,
        role,
        party_id,
        party_kind,
        name,
        first_name,
        last_name,
        phone,
        line1,
        line2,
        city,
        state,
        zip_code,
        email,
    ) = x
    organization = party_kind == "organization"
    person = _party_name("", first_name, last_name) or name
    lic, lic_state = licences.get((party_id, role), ("", ""))
    return [
        number or f"APP-{pid}",
        name if organization else "",
        *role_words[role],
        lic,
        lic_state,
        name if organization else person,
        phone,
        line1,
        line2,
        city,
        state,
        zip_code,
        email,
    ]


# --------------------------------------------------------------------------- small counts


def permits_issued(conn: Connection, municipality_id: int, period: r.Period) -> int:
    return int(
        conn.execute(
            select(func.count()).where(
                p.c.municipality_id == municipality_id, _between(p.c.issued_on, period)
            )
        ).scalar_one()
    )


def new_residential_units(conn: Connection, municipality_id: int, period: r.Period) -> int:
    """Dwelling units on the new residential buildings permitted in the period (voids aside)."""
    return int(
        conn.execute(
            select(func.coalesce(func.sum(p.c.dwelling_units), 0)).where(
                p.c.municipality_id == municipality_id,
                p.c.work_class == WorkClass.NEW.value,
                p.c.status != PermitStatus.VOID.value,
                p.c.kind.not_in(sorted(r.NOT_A_BUILDING)),
                _between(p.c.issued_on, period),
            )
        ).scalar_one()
    )


# --------------------------------------------------------------------------- code enforcement

ec = schema.enforcement_case
ecp = schema.enforcement_complaint
en = schema.enforcement_notice
ead = schema.enforcement_addressee
esv = schema.enforcement_service
epe = schema.enforcement_petition
eod = schema.enforcement_order
ees = schema.enforcement_escalation
ENFORCEMENT_TABLES = (
    "enforcement_case",
    "enforcement_complaint",
    "enforcement_notice",
    "enforcement_addressee",
    "enforcement_service",
    "enforcement_petition",
    "enforcement_order",
    "enforcement_escalation",
)


def has_enforcement(conn: Connection, municipality_id: int) -> bool:
    """Whether the municipality keeps a code-enforcement register (revision 0017) with at least
    one case: the reports show their code-enforcement part only then."""
    if not set(ENFORCEMENT_TABLES) <= set(inspect(conn).get_table_names()):
        return False
    found = conn.execute(
        select(ec.c.id).where(ec.c.municipality_id == municipality_id).limit(1)
    ).first()
    return found is not None


def _tally(conn: Connection, stmt: Any, kind: type[Any]) -> dict[Any, int]:
    """{enum member: count} from a (value, count) grouped select."""
    return {kind(value): int(n) for value, n in conn.execute(stmt) if value is not None}


def enforcement_figures(
    conn: Connection, municipality_id: int, period: r.Period
) -> r.EnforcementFigures:
    """The register's events in the period, each by its own date (EnforcementFigures). Reads no
    complainant column."""
    mine = ec.c.municipality_id == municipality_id
    complaints = _tally(
        conn,
        select(ecp.c.channel, func.count())
        .where(ecp.c.municipality_id == municipality_id, _between(ecp.c.received_on, period))
        .group_by(ecp.c.channel),
        Channel,
    )
    opened = int(
        conn.execute(
            select(func.count()).where(mine, _between(ec.c.opened_on, period))
        ).scalar_one()
    )
    closed = _tally(
        conn,
        select(ec.c.closed_reason, func.count())
        .where(mine, _between(ec.c.closed_on, period))
        .group_by(ec.c.closed_reason),
        ClosureReason,
    )
    notice_case = en.join(ec, ec.c.id == en.c.case_id)
    notices = _tally(
        conn,
        select(en.c.kind, func.count())
        .select_from(notice_case)
        .where(mine, _between(en.c.issued_on, period))
        .group_by(en.c.kind),
        NoticeKind,
    )
    service_case = esv.join(ead, ead.c.id == esv.c.addressee_id).join(
        notice_case, en.c.id == ead.c.notice_id
    )
    served = _tally(
        conn,
        select(esv.c.method, func.count())
        .select_from(service_case)
        .where(mine, _between(esv.c.served_on, period), esv.c.withdrawn_on.is_(None))
        .group_by(esv.c.method),
        ServiceMethod,
    )
    returned = int(
        conn.execute(
            select(func.count())
            .select_from(service_case)
            .where(mine, _between(esv.c.returned_on, period), esv.c.withdrawn_on.is_(None))
        ).scalar_one()
    )
    orders = _tally(
        conn,
        select(eod.c.kind, func.count())
        .select_from(eod.join(ec, ec.c.id == eod.c.case_id))
        # an order set aside for a timely petition recorded late never arose (140-3B)
        .where(mine, _between(eod.c.effective_on, period), eod.c.set_aside_on.is_(None))
        .group_by(eod.c.kind),
        OrderKind,
    )
    petitions = {
        bool(timely): int(count)
        for timely, count in conn.execute(
            select(epe.c.timely, func.count())
            .select_from(epe.join(notice_case, en.c.id == epe.c.notice_id))
            .where(mine, _between(epe.c.filed_on, period), epe.c.withdrawn_on.is_(None))
            .group_by(epe.c.timely)
        )
    }
    decisions = _tally(
        conn,
        select(en.c.decision, func.count())
        .select_from(notice_case)
        .where(mine, _between(en.c.decided_on, period))
        .group_by(en.c.decision),
        Decision,
    )
    escalations: dict[EscalationKind, int] = {}
    cost = ZERO
    for kind, n, spent in conn.execute(
        select(ees.c.kind, func.count(), func.sum(ees.c.cost))
        .select_from(ees.join(ec, ec.c.id == ees.c.case_id))
        .where(mine, _between(ees.c.decided_on, period))
        .group_by(ees.c.kind)
    ):
        escalations[EscalationKind(kind)] = int(n)
        if EscalationKind(kind) is EscalationKind.ABATEMENT:
            cost = _money(spent)
    # Dwellings condemned: the condemnation register's rows (an escalation to condemnation
    # points to one of them, so the two are never added together).
    condemned = (
        len(licence_queries.condemnations_in(conn, municipality_id, period.start, period.end))
        if licence_queries.recorded(conn)
        else None
    )
    # Rooming-house licences (revision 0018), each event by its own date.
    rl = schema.rooming_licence
    licences = (
        {
            event: int(
                conn.execute(
                    select(func.count()).where(
                        rl.c.municipality_id == municipality_id,
                        _between(rl.c[f"{event}_on"], period),
                    )
                ).scalar_one()
            )
            for event in r.LICENCE_EVENTS
        }
        if rl.name in inspect(conn).get_table_names()
        else None
    )
    return r.EnforcementFigures(
        period=period,
        complaints=complaints,
        cases_opened=opened,
        cases_closed=closed,
        notices=notices,
        served=served,
        returned_unclaimed=returned,
        orders=orders,
        petitions_timely=petitions.get(True, 0),
        petitions_late=petitions.get(False, 0),
        decisions=decisions,
        escalations=escalations,
        abatement_cost=cost,
        condemnations=condemned,
        licences=licences,
    )


def _with_appeals(
    conn: Connection, municipality_id: int, period: r.Period, figures: r.EnforcementFigures
) -> r.EnforcementFigures:
    """Under Wis. Stat. ch. 68 (Ch. 512): the appeals filed in the period (68.10) and the final
    determinations made (68.12), each by its own date; a Hudson report has no such line."""
    if not procedure_of_code(figures.code).review:
        return figures
    ap = schema.enforcement_appeal
    mine = ec.c.municipality_id == municipality_id
    cases = ap.join(ec, ec.c.id == ap.c.case_id)

    def count(day: Any) -> int:
        return int(
            conn.execute(
                select(func.count()).select_from(cases).where(mine, _between(day, period))
            ).scalar_one()
        )

    return replace(
        figures, appeals=count(ap.c.filed_on), final_determinations=count(ap.c.decided_on)
    )


def enforcement_hearings(
    conn: Connection, municipality_id: int, period: r.Period
) -> tuple[r.HearingLine, ...]:
    """The Council's hearings decided in the period (140-3C), by the day decided: the figure
    "Hearings held and decided" counts the same rows. No complainant, no petitioner."""
    rows = conn.execute(
        select(
            en.c.hearing_on,
            en.c.decided_on,
            ec.c.number,
            en.c.property_address,
            en.c.kind,
            en.c.decision,
        )
        .select_from(en.join(ec, ec.c.id == en.c.case_id))
        .where(
            ec.c.municipality_id == municipality_id,
            en.c.decision.is_not(None),
            # the Council's: a decision on review (Wis. Stat. 68.09) is made with no hearing
            en.c.hearing_on.is_not(None),
            _between(en.c.decided_on, period),
        )
        .order_by(en.c.decided_on, ec.c.number, en.c.id)
    )
    return tuple(
        r.HearingLine(
            hearing_on=row.hearing_on or row.decided_on,
            decided_on=row.decided_on,
            case_number=row.number,
            address=row.property_address,
            emergency=NoticeKind(row.kind) is NoticeKind.EMERGENCY,
            decision=Decision(row.decision),
        )
        for row in rows
    )


def enforcement_section(
    conn: Connection,
    municipality_id: int,
    period: r.Period,
    ytd: r.Period | None = None,
    *,
    hearings: bool = False,
    always: bool = False,
) -> r.EnforcementSection | None:
    """The reports' code-enforcement part, or None when the municipality has no case (`always`:
    the figures even then, for a municipality whose report is this part alone; None still
    when the database has no enforcement register). The labels cite the municipality's
    housing code (municipality.settings housing_code)."""
    if not has_enforcement(conn, municipality_id) and not (
        always and set(ENFORCEMENT_TABLES) <= set(inspect(conn).get_table_names())
    ):
        return None
    settings = conn.execute(select(m.c.settings).where(m.c.id == municipality_id)).scalar()
    code = housing_code_key(settings if isinstance(settings, dict) else None)

    def figures(when: r.Period) -> r.EnforcementFigures:
        figures = replace(enforcement_figures(conn, municipality_id, when), code=code)
        return _with_appeals(conn, municipality_id, when, figures)

    return r.EnforcementSection(
        figures=figures(period),
        ytd=figures(ytd) if ytd is not None else None,
        hearings=enforcement_hearings(conn, municipality_id, period) if hearings else (),
        condemned=tuple(
            licence_queries.condemnations_in(conn, municipality_id, period.start, period.end)
        )
        if always and licence_queries.recorded(conn)
        else (),
    )
