"""Column types that keep the domain's values exact across SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, DateTime, Dialect, String
from sqlalchemy.types import TypeDecorator

from desk.money import from_cents, to_cents


class Cents(TypeDecorator[Decimal]):
    """Money as integer cents in the database, Decimal in Python (ARCHITECTURE.md)."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> int | None:
        return None if value is None else to_cents(Decimal(value))

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else from_cents(int(value))


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps are stored in UTC; SQLite drops the zone, so it is put back on load."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass a timezone-aware UTC time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class StrEnumType(TypeDecorator[StrEnum]):
    """A StrEnum stored as its value in a VARCHAR (no native ENUM: migrations stay simple)."""

    impl = String(40)
    cache_ok = True

    def __init__(self, enum_cls: type[StrEnum]) -> None:
        super().__init__()
        self.enum_cls = enum_cls

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else self.enum_cls(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> StrEnum | None:
        return None if value is None else self.enum_cls(value)
