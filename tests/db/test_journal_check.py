"""The register agrees with its journal (db/journal_check.py): a money row or a user's powers
changed with plain SQL, past the application and its audit rows, is named by `db check`; a
register written through the services, or built by the demo loader, gives no problem."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import Engine, func, select

from db import schema
from db.database import Database
from db.demo import DemoSpec, build_demo
from db.journal_check import KEYS, NOT_MONEY, journal_problems, money_columns
from db.migrate import check
from db.types import Cents
from desk.clock import FixedClock
from desk.services import users
from tests.cashbook import CashDay, turned_over
from tests.db.tampering import tamper

D = Decimal


def _problems(database: Database) -> list[str]:
    with database.read() as conn:
        return journal_problems(conn)


def _user_id(database: Database, username: str) -> int:
    u = schema.app_user.c
    with database.read() as conn:
        return int(conn.execute(select(u.id).where(u.username == username)).scalar_one())


@pytest.fixture
def day(database: Database, clock: FixedClock) -> CashDay:
    """A day at the counter through the services: fees, three receipts (one voided), the close,
    the turnover and its acknowledgment (tests/cashbook.py)."""
    return turned_over(database, clock)


def test_a_register_written_through_the_services_agrees_with_its_journal(
    database: Database, day: CashDay
) -> None:
    assert _problems(database) == []
    assert check(database.engine) == []


def test_a_fee_line_set_to_one_cent_with_plain_sql_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    f = schema.permit_fee_line.c
    with database.read() as conn:
        line_id, amount = conn.execute(
            select(f.id, f.amount).where(f.permit_id == day.house, f.code == "RES-NEW")
        ).one()
    assert amount == D("404.00")
    tamper(owner_engine, ("UPDATE permit_fee_line SET amount = 1 WHERE id = :id", {"id": line_id}))
    expected = (
        f"fee line #{line_id} of application #{day.house}: amount is $0.01 but the audit trail "
        "recorded $404.00"
    )
    assert _problems(database) == [expected]
    assert expected in check(database.engine)


def test_a_receipt_changed_together_with_its_gl_entries_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    """The receipt's GL entries still add up to its amount, so the cashiering check is content:
    the audit trail is not."""
    g = schema.gl_entry.c
    with database.read() as conn:
        entry_id, amount = conn.execute(
            select(g.id, g.amount)
            .where(g.payment_id == day.check_receipt, g.permit_id == day.reroof)
            .order_by(g.id)
            .limit(1)
        ).one()
    assert amount == D("140.00")
    tamper(
        owner_engine,
        ("UPDATE payment SET amount = amount - 10000 WHERE id = :id", {"id": day.check_receipt}),
        ("UPDATE gl_entry SET amount = amount - 10000 WHERE id = :id", {"id": entry_id}),
    )
    assert _problems(database) == [
        "receipt 2026-0001: amount is $479.00 but the audit trail recorded $579.00",
        f"GL entry #{entry_id} of receipt 2026-0001: amount is $40.00 but the audit trail "
        "recorded $140.00",
    ]
    assert not any("do not add up" in p for p in check(database.engine))


def test_a_clerk_given_the_administrator_role_with_plain_sql_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    tamper(
        owner_engine, "UPDATE app_user SET roles = 'administrator,clerk' WHERE username = 'carol'"
    )
    assert _problems(database) == [
        "user carol: roles are administrator,clerk but the audit trail recorded clerk"
    ]


def test_a_disabled_user_enabled_again_with_plain_sql_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    carol = _user_id(database, "carol")
    users.set_active(database.uow(), day.clock, day.reg.admin, carol, False)
    assert _problems(database) == []
    tamper(
        owner_engine, ("UPDATE app_user SET active = :t WHERE id = :id", {"t": True, "id": carol})
    )
    assert _problems(database) == ["user carol: is enabled but the audit trail recorded disabled"]


def test_a_locked_user_unlocked_with_plain_sql_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    terry = _user_id(database, "terry")
    users.lock(database.uow(), day.clock, day.reg.admin, terry)
    assert _problems(database) == []
    tamper(owner_engine, ("UPDATE app_user SET locked_at = NULL WHERE id = :id", {"id": terry}))
    assert _problems(database) == ["user terry: is unlocked but the audit trail recorded locked"]


def test_a_gl_entry_written_or_deleted_with_plain_sql_is_named(
    database: Database, owner_engine: Engine, day: CashDay
) -> None:
    g = schema.gl_entry.c
    with database.read() as conn:
        first, last = conn.execute(select(func.min(g.id), func.max(g.id))).one()
    columns = (
        "municipality_id, day, at, source, account_id, amount, code, portion, permit_id, "
        "payment_id, reversal_id, refund_id"
    )
    tamper(
        owner_engine,
        (
            f"INSERT INTO gl_entry (id, {columns}) SELECT :new, {columns} FROM gl_entry "
            "WHERE id = :id",
            {"new": last + 1, "id": last},
        ),
        ("DELETE FROM gl_entry WHERE id = :id", {"id": first}),
    )
    problems = _problems(database)
    assert (
        problems[0] == f"GL entry #{first} is missing: the audit trail recorded it and no deletion"
    )
    assert problems[1].startswith(f"GL entry #{last + 1} ") and problems[1].endswith(
        " has no audit row"
    )
    assert len(problems) == 2


def test_every_table_with_money_is_checked_or_left_out_on_purpose() -> None:
    with_money = {t.name for t in schema.metadata.sorted_tables if money_columns(t)}
    assert with_money - NOT_MONEY <= set(KEYS)
    assert not set(KEYS) & NOT_MONEY
    for name, keys in KEYS.items():
        table = schema.metadata.tables[name]
        assert set(keys) <= set(table.c.keys()), name
    assert any(isinstance(c.type, Cents) for c in schema.permit.columns)  # left out on purpose


def test_a_demo_register_agrees_with_its_journal(database: Database) -> None:
    """The demo loader writes its money in bulk, each row with the audit row a service writes;
    bonds, certificates and street deposits come through the services after it."""
    build_demo(database, DemoSpec(years=1, per_year=120, seed=5, today=date(2026, 11, 30)))
    with database.read() as conn:
        paid = conn.execute(select(func.count()).select_from(schema.payment)).scalar_one()
    assert paid > 50
    assert _problems(database) == []
