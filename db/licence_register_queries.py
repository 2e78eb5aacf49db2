"""Read side of the rooming house licence register (Hudson 140-10, revision 0018): the register
filtered in SQL (in force, expiring within N days, suspended, revoked, expired, pending) and the
renewal-letter rows of the licences expiring soon. Frozen rows, never live ORM objects."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, select, true

from db import schema
from desk.enforcement.licences import (
    RENEWAL_DAYS,
    LicenceRow,
    LicenceState,
    RegisterFilter,
    RenewalLetterRow,
    status_on,
)


def _where(which: RegisterFilter, today: date, days: int) -> ColumnElement[bool]:
    lic = schema.rooming_licence.c
    issued = lic.state == LicenceState.ISSUED.value
    # 140-10A: valid through expires_on; expired from the day after.
    in_force = issued & (lic.expires_on >= today)
    if which is RegisterFilter.IN_FORCE:
        return in_force
    if which is RegisterFilter.EXPIRING:
        return in_force & (lic.expires_on <= today + timedelta(days=days))
    if which is RegisterFilter.EXPIRED:
        return issued & (lic.expires_on < today)
    if which is RegisterFilter.SUSPENDED:
        return lic.state == LicenceState.SUSPENDED.value
    if which is RegisterFilter.REVOKED:
        return lic.state == LicenceState.REVOKED.value
    if which is RegisterFilter.PENDING:
        return lic.state == LicenceState.APPLIED.value
    return true()


def _base(municipality_id: int) -> Select[Any]:
    lic, p = schema.rooming_licence, schema.parcel
    return (
        select(
            lic.c.id,
            lic.c.number,
            lic.c.operator_name,
            lic.c.operator_address,
            lic.c.dwelling_unit,
            lic.c.persons,
            lic.c.applied_on,
            lic.c.issued_on,
            lic.c.expires_on,
            lic.c.state,
            lic.c.suspended_on,
            lic.c.revoked_on,
            p.c.pin,
            p.c.house_number,
            p.c.street,
        )
        .join(p, p.c.id == lic.c.parcel_id)
        .where(lic.c.municipality_id == municipality_id)
    )


def _dwelling(house_number: str | None, street: str | None, unit: str | None) -> str:
    text = " ".join(x for x in (house_number, street) if x)
    return f"{text}, Unit {unit}" if unit else text


def register(
    conn: Connection,
    municipality_id: int,
    today: date,
    which: RegisterFilter = RegisterFilter.ALL,
    days: int = RENEWAL_DAYS,
) -> list[LicenceRow]:
    """The register's rows, by expiry for the expiring, else by number then application."""
    lic = schema.rooming_licence.c
    order = (
        (lic.expires_on, lic.id)
        if which is RegisterFilter.EXPIRING
        else (lic.number.is_(None), lic.number, lic.id)
    )
    rows = conn.execute(_base(municipality_id).where(_where(which, today, days)).order_by(*order))
    return [
        LicenceRow(
            licence_id=r.id,
            number=r.number or "",
            operator=r.operator_name,
            address=_dwelling(r.house_number, r.street, r.dwelling_unit),
            pin=r.pin,
            persons=r.persons,
            applied_on=r.applied_on,
            issued_on=r.issued_on,
            expires_on=r.expires_on,
            status=status_on(LicenceState(r.state), r.expires_on, today),
            suspended_on=r.suspended_on,
            revoked_on=r.revoked_on,
        )
        for r in rows
    ]


def renewal_letters(
    conn: Connection, municipality_id: int, today: date, days: int = RENEWAL_DAYS
) -> list[RenewalLetterRow]:
    """A letter to each operator whose licence is in force and expires within `days`."""
    lic = schema.rooming_licence.c
    rows = conn.execute(
        _base(municipality_id)
        .where(_where(RegisterFilter.EXPIRING, today, days))
        .order_by(lic.expires_on, lic.id)
    )
    return [
        RenewalLetterRow(
            licence_id=r.id,
            number=r.number,
            operator=r.operator_name,
            operator_address=r.operator_address,
            dwelling=_dwelling(r.house_number, r.street, r.dwelling_unit),
            expires_on=r.expires_on,
        )
        for r in rows
    ]
