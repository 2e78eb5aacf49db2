"""What points at a parcel or a person, and moving it all to another record (a merge).

The lists below name every column that refers to a parcel or a party (a test compares them
with the schema's foreign keys, so a new table cannot be forgotten). Rows are moved through the
ORM, so each move is an audited update (db/tracking.py) in the merge's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from desk.dates import short_date
from desk.domain.credentials import noun
from desk.domain.model import (
    AssociationMember,
    BondRecord,
    CityLicence,
    Condemnation,
    InsuranceCertificateRecord,
    Parcel,
    Party,
    Payment,
    Permit,
    PermitParty,
    Refund,
    StreetDeposit,
)
from desk.domain.records import Reference
from desk.enforcement import licences as rooming
from desk.enforcement import model as enforcement


def _permit(p: Permit | None) -> str:
    if p is None:
        return "a permit"
    if p.number:
        return p.number
    when = f" of {short_date(p.applied_on)}" if p.applied_on else ""
    return f"application{when} ({p.kind})"


def _session_of(row: Any) -> Session:
    session = object_session(row)
    assert session is not None
    return session


def _payment(p: Payment) -> str:
    return f"receipt {p.receipt_number}, {p.payer_name}"


# (class, attribute, what it is, how it reads). The attribute is the relationship where the
# class has one to the record (so the ORM writes the new key), else the key column.
Labeller = Callable[[Any], str]
PARCEL_REFERENCES: tuple[tuple[type, str, str, Labeller], ...] = (
    (Permit, "parcel", "Permit", _permit),
    (enforcement.EnforcementCase, "parcel_id", "Code enforcement case", lambda c: c.number),
    (
        enforcement.Complaint,
        "parcel_id",
        "Complaint",
        lambda c: f"received {short_date(c.received_on)}",
    ),
    (
        Condemnation,
        "parcel_id",
        "Condemnation",
        lambda c: f"condemned {short_date(c.condemned_on)}",
    ),
    (
        rooming.RoomingLicence,
        "parcel_id",
        "Rooming-house licence",
        lambda r: r.number or "application",
    ),
    (Parcel, "merged_into_id", "Parcel merged into it earlier", lambda p: f"PIN {p.pin}"),
)
PARTY_REFERENCES: tuple[tuple[type, str, str, Labeller], ...] = (
    (
        PermitParty,
        "party",
        "Role on a permit",
        lambda pp: f"{pp.role.label} on {_permit(_session_of(pp).get(Permit, pp.permit_id))}",
    ),
    (BondRecord, "principal_party_id", "Bond", lambda b: b.number or b.principal),
    (
        InsuranceCertificateRecord,
        "insured_party_id",
        "Insurance certificate",
        lambda c: f"{c.insurer} {c.policy}",
    ),
    (AssociationMember, "party_id", "Member of an association's certificate", lambda m: m.name),
    (CityLicence, "party_id", "City licence", lambda c: c.number),
    (Payment, "payer_party_id", "Payment", _payment),
    (Refund, "payer_party_id", "Refund", lambda r: f"check {r.check_number}, {r.payer_name}"),
    (StreetDeposit, "depositor_party_id", "Street deposit", lambda d: d.depositor),
    (
        rooming.RoomingLicence,
        "operator_party_id",
        "Operator of a rooming house",
        lambda r: r.number or "application",
    ),
    (
        enforcement.NoticeAddressee,
        "party_id",
        "Addressee of a notice of violation",
        lambda a: a.name,
    ),
    (Party, "merged_into_id", "Person merged into it earlier", lambda p: p.name),
)
# Not moved by a merge, handled by the service: a person's state credentials (moved through
# the person's list of them, which owns them), and payer credits (money rows are never
# rewritten; the balance is transferred with two new rows).
PARTY_OWNED = (("credential", "party_id"), ("payer_credit", "party_id"))

_REFERENCES = {"parcel": PARCEL_REFERENCES, "party": PARTY_REFERENCES}
_TARGET: dict[str, type] = {"parcel": Parcel, "party": Party}


def _column(cls: type, attribute: str) -> str:
    """The key column behind `attribute` (a relationship's is <name>_id)."""
    return attribute if attribute.endswith("_id") else f"{attribute}_id"


def _rows(session: Session, cls: type, attribute: str, record_id: int) -> list[Any]:
    column = getattr(cls, _column(cls, attribute))
    return list(session.scalars(select(cls).where(column == record_id).order_by(cls.id)))  # type: ignore[attr-defined]


def references(session: Session, entity: str, record_id: int) -> list[Reference]:
    out: list[Reference] = []
    for cls, attribute, kind, label in _REFERENCES[entity]:
        for row in _rows(session, cls, attribute, record_id):
            if cls is _TARGET[entity] and row.id == record_id:
                continue
            out.append(Reference(kind, label(row)))
    if entity == "party":
        person = session.get(Party, record_id)
        for c in person.credentials if person is not None else []:
            if c.superseded_by_id is None:
                out.append(Reference("State credential", f"{noun(c.kind)} {c.number}"))
    return out


def move(session: Session, entity: str, from_id: int, to_id: int) -> int:
    """Point every reference to `from_id` at `to_id`; how many rows moved."""
    target = session.get(_TARGET[entity], to_id)
    moved = 0
    for cls, attribute, _kind, _label in _REFERENCES[entity]:
        for row in _rows(session, cls, attribute, from_id):
            if cls is _TARGET[entity] and row.id in (from_id, to_id):
                continue
            setattr(row, attribute, target if not attribute.endswith("_id") else to_id)
            moved += 1
    if entity == "party":
        source = session.get(Party, from_id)
        kept = session.get(Party, to_id)
        assert source is not None and kept is not None
        for credential in list(source.credentials):
            source.credentials.remove(credential)
            kept.credentials.append(credential)
            moved += 1
    session.flush()
    return moved
