"""Gapless numbers. Glendale 15.1.6(c), 15.1.74(a): "regularly numbered in the order of their
issue".

A counter row per (municipality, series, year) is incremented with UPDATE ... RETURNING inside
the issuing transaction. On PostgreSQL the UPDATE takes the row lock, so concurrent issuers wait
and each gets the next value; on SQLite the writing transaction began with BEGIN IMMEDIATE and
holds the database's write lock. A rollback undoes the increment: no number is burnt.
"""

from __future__ import annotations

from sqlalchemy import Connection, select, update
from sqlalchemy.dialects import postgresql, sqlite

from db.schema import number_counter


def next_number(conn: Connection, municipality_id: int, series: str, year: int) -> int:
    c = number_counter.c
    key = (c.municipality_id == municipality_id) & (c.series == series) & (c.year == year)
    value = conn.execute(
        update(number_counter).where(key).values(value=c.value + 1).returning(c.value)
    ).scalar_one_or_none()
    if value is not None:
        return int(value)
    # First number of the year: create the row, tolerating a concurrent creator, then increment.
    row = {"municipality_id": municipality_id, "series": series, "year": year, "value": 0}
    if conn.dialect.name == "postgresql":
        conn.execute(postgresql.insert(number_counter).values(row).on_conflict_do_nothing())
    else:
        conn.execute(sqlite.insert(number_counter).values(row).on_conflict_do_nothing())
    return int(
        conn.execute(
            update(number_counter).where(key).values(value=c.value + 1).returning(c.value)
        ).scalar_one()
    )


def current_number(conn: Connection, municipality_id: int, series: str, year: int) -> int:
    c = number_counter.c
    value = conn.execute(
        select(c.value).where(
            (c.municipality_id == municipality_id) & (c.series == series) & (c.year == year)
        )
    ).scalar_one_or_none()
    return int(value or 0)


def set_at_least(
    conn: Connection, municipality_id: int, series: str, year: int, value: int
) -> None:
    """For bulk loads (demo data) that assign numbers themselves: move the counter past them."""
    if current_number(conn, municipality_id, series, year) >= value:
        return
    next_number(conn, municipality_id, series, year)  # creates and locks the row
    c = number_counter.c
    conn.execute(
        update(number_counter)
        .where(
            (c.municipality_id == municipality_id)
            & (c.series == series)
            & (c.year == year)
            & (c.value < value)
        )
        .values(value=value)
    )
