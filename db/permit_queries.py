"""Read queries of the permit window's Parties and Fees tabs. They return frozen rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, select

from db import schema
from desk.domain.credentials import HeldCredential


@dataclass(frozen=True)
class AssessedFeeLine:
    """A fee line stored on the permit when its fees were assessed, with the schedule version it
    was priced with (a fee change is a new adjusting line, never an edit)."""

    code: str
    description: str
    section: str
    quantity: Decimal | None  # what the clerk entered (sq ft, units, ...), when the item has one
    entered_amount: Decimal | None  # an entered amount (e.g. the valuation), when it has one
    amount: Decimal
    deposit: bool
    note: str
    assessed_on: date
    version_label: str
    version_from: date


def _decimal(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


def permit_fee_lines(conn: Connection, permit_id: int) -> list[AssessedFeeLine]:
    fl, v = schema.permit_fee_line, schema.fee_schedule_version
    rows = conn.execute(
        select(
            fl.c.code,
            fl.c.description,
            fl.c.section,
            fl.c.request,
            fl.c.amount,
            fl.c.deposit,
            fl.c.note,
            fl.c.assessed_on,
            v.c.label,
            v.c.effective_from,
        )
        .join(v, v.c.id == fl.c.version_id)
        .where(fl.c.permit_id == permit_id)
        .order_by(fl.c.id)
    )
    out = []
    for r in rows:
        request = r.request if isinstance(r.request, dict) else {}
        out.append(
            AssessedFeeLine(
                code=r.code,
                description=r.description,
                section=r.section,
                quantity=_decimal(request.get("quantity")),
                entered_amount=_decimal(request.get("amount")),
                amount=r.amount,
                deposit=bool(r.deposit),
                note=r.note or "",
                assessed_on=r.assessed_on,
                version_label=r.label,
                version_from=r.effective_from,
            )
        )
    return out


def permit_party_credentials(conn: Connection, permit_id: int) -> dict[int, list[HeldCredential]]:
    """The credentials on record for each party of the permit, by party id (one query)."""
    c, pp = schema.credential, schema.permit_party
    parties = select(pp.c.party_id).where(pp.c.permit_id == permit_id)
    out: dict[int, list[HeldCredential]] = {}
    for r in conn.execute(
        select(c.c.party_id, c.c.kind, c.c.number, c.c.expires_on)
        .where(c.c.party_id.in_(parties) & c.c.superseded_by_id.is_(None))
        .order_by(c.c.party_id, c.c.id)
    ):
        out.setdefault(int(r.party_id), []).append(HeldCredential(r.kind, r.number, r.expires_on))
    return out
