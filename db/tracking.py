"""Writes that every change carries with it, in the same transaction:

- the audit trail: who, when, entity, id, action, each changed field old -> new;
- the permits list's sort keys and search terms.

Both hang on the session's flush, so no service can forget them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import Connection, delete, event, insert, inspect, select
from sqlalchemy.orm import Session, UOWTransaction

from db import audit_chain, schema
from desk.domain.backups import BackupMade
from desk.domain.checklists import ChecklistItem, ChecklistReopening
from desk.domain.enums import PartyRole
from desk.domain.model import (
    AssociationMember,
    BondPermit,
    BondRecord,
    BondSurety,
    CityLicence,
    Condemnation,
    CorrectionOrderRecord,
    CoverageRecord,
    Credential,
    DailyClose,
    DataImport,
    FeeAccountMap,
    FeeAdjustment,
    GlAccount,
    GlEntry,
    Inspection,
    InspectionException,
    InsuranceCertificateRecord,
    Municipality,
    OccupancyCertificate,
    Parcel,
    Party,
    PayerCredit,
    Payment,
    PaymentAllocation,
    PaymentReversal,
    Permit,
    PermitExtension,
    PermitOrder,
    PermitParty,
    Refund,
    StateFiling,
    StreetDeposit,
    StreetRepaving,
    SuretyFacts,
    Turnover,
    User,
)
from desk.domain.municipality import LetterheadVersion, MunicipalityImage
from desk.domain.search import number_sort_key, permit_terms
from desk.enforcement import licences as rooming
from desk.enforcement import model as enforcement
from desk.enforcement.appeal import Appeal
from desk.fees.model import AssessedLine, StoredVersion

ENTITY_NAMES: dict[type, str] = {
    Municipality: "municipality",
    MunicipalityImage: "municipality_image",
    LetterheadVersion: "letterhead_version",
    User: "user",
    Parcel: "parcel",
    Party: "party",
    Credential: "credential",
    DataImport: "data_import",
    BackupMade: "backup_made",
    Permit: "permit",
    PermitParty: "permit_party",
    PermitExtension: "permit_extension",
    PermitOrder: "permit_order",
    StoredVersion: "fee_schedule_version",
    AssessedLine: "permit_fee_line",
    ChecklistItem: "permit_checklist_item",
    ChecklistReopening: "permit_checklist_reopening",
    GlAccount: "gl_account",
    FeeAccountMap: "fee_account_map",
    Turnover: "turnover",
    DailyClose: "daily_close",
    Payment: "payment",
    PaymentAllocation: "payment_allocation",
    PaymentReversal: "payment_reversal",
    Refund: "refund",
    GlEntry: "gl_entry",
    FeeAdjustment: "fee_adjustment",
    PayerCredit: "payer_credit",
    Inspection: "inspection",
    InspectionException: "inspection_exception",
    CorrectionOrderRecord: "correction_order",
    OccupancyCertificate: "occupancy_certificate",
    StateFiling: "state_filing",
    BondRecord: "bond",
    BondSurety: "bond_surety",
    BondPermit: "bond_permit",
    InsuranceCertificateRecord: "insurance_certificate",
    CoverageRecord: "insurance_coverage",
    AssociationMember: "association_member",
    StreetDeposit: "deposit",
    SuretyFacts: "surety_facts",
    CityLicence: "city_licence",
    Condemnation: "condemnation",
    StreetRepaving: "street_repaving",
}
# Code enforcement (revision 0017).
ENTITY_NAMES.update(
    {
        enforcement.EnforcementCase: "enforcement_case",
        enforcement.Complaint: "enforcement_complaint",
        enforcement.CaseInspection: "enforcement_inspection",
        enforcement.Violation: "enforcement_violation",
        enforcement.ViolationCheck: "enforcement_violation_check",
        enforcement.Notice: "enforcement_notice",
        enforcement.NoticeItem: "enforcement_notice_item",
        enforcement.NoticeAddressee: "enforcement_addressee",
        enforcement.NoticeService: "enforcement_service",
        enforcement.Petition: "enforcement_petition",
        enforcement.EnforcementOrder: "enforcement_order",
        enforcement.Escalation: "enforcement_escalation",
        enforcement.CaseVisit: "enforcement_visit",
    }
)
# Wis. Stat. ch. 68 appeals (revision 0022).
ENTITY_NAMES[Appeal] = "enforcement_appeal"
# Rooming house licences (revision 0018).
ENTITY_NAMES.update(
    {
        rooming.RoomingLicence: "rooming_licence",
        rooming.LicenceRoom: "rooming_licence_room",
        enforcement.OccupancyCheck: "occupancy_check",
    }
)
# The complainant is confidential (code enforcement): the audit trail says only that it was set.
REDACTED = {"password_hash", "complainant_name", "complainant_contact"}
ACTOR_KEY = "audit_actor"
AT_KEY = "audit_at"


def audit_text(value: Any) -> str | None:
    """A value as the audit trail writes it (money with its cents, dates ISO, lists as JSON)."""
    if value is None:
        return None
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, Decimal):
        # Money with its cents; a finer quantity (acres, degrees, thousandths) exactly.
        exponent = value.as_tuple().exponent
        return f"{value:f}" if isinstance(exponent, int) and exponent < -2 else f"{value:.2f}"
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        # A logo or a signature: its size, never its bytes, in the audit trail's JSON.
        return f"<image {len(bytes(value)):,} bytes>"
    if isinstance(value, list | dict):
        import json

        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


def _column_attrs(obj: Any) -> list[str]:
    # The version is bookkeeping for stale forms, not a fact of the record.
    return [a.key for a in inspect(obj).mapper.column_attrs if a.key != "version"]


def _permit_id_of(obj: Any) -> int | None:
    if isinstance(obj, Permit):
        return obj.id
    return getattr(obj, "permit_id", None)


def _audit_rows(session: Session) -> list[dict[str, Any]]:
    at = session.info.get(AT_KEY)
    if at is None:
        raise RuntimeError("write without uow.act_as(): every change needs who and when")
    user_id = session.info.get(ACTOR_KEY)
    rows: list[dict[str, Any]] = []

    def add(obj: Any, action: str, changes: list[dict[str, str | None]]) -> None:
        rows.append(
            {
                "at": at,
                "user_id": user_id,
                "entity": ENTITY_NAMES[type(obj)],
                "entity_id": obj.id,
                "permit_id": _permit_id_of(obj),
                "action": action,
                "changes": changes,
            }
        )

    for obj in session.new:
        if type(obj) not in ENTITY_NAMES:
            continue
        changes = []
        for key in _column_attrs(obj):
            if key == "id":
                continue
            value = getattr(obj, key)
            if value in (None, "", [], {}):
                continue
            new = "(set)" if key in REDACTED else audit_text(value)
            changes.append({"field": key, "old": None, "new": new})
        add(obj, "create", changes)
    for obj in session.dirty:
        if type(obj) not in ENTITY_NAMES or not session.is_modified(obj):
            continue
        state = inspect(obj)
        changes = []
        for key in _column_attrs(obj):
            hist = state.attrs[key].history
            if not hist.has_changes():
                continue
            old = hist.deleted[0] if hist.deleted else None
            new = hist.added[0] if hist.added else None
            if audit_text(old) == audit_text(new):
                continue
            if key in REDACTED:
                changes.append({"field": key, "old": "(hidden)", "new": "(changed)"})
            else:
                changes.append({"field": key, "old": audit_text(old), "new": audit_text(new)})
        if changes:
            add(obj, "update", changes)
    for obj in session.deleted:
        if type(obj) not in ENTITY_NAMES:
            continue
        changes = [
            {"field": k, "old": audit_text(getattr(obj, k)), "new": None}
            for k in _column_attrs(obj)
            if k != "id" and k not in REDACTED
        ]
        add(obj, "delete", changes)
    return rows


def _affected_permits(session: Session, conn: Connection) -> set[int]:
    ids: set[int] = set()
    party_ids: set[int] = set()
    parcel_ids: set[int] = set()
    for obj in list(session.new) + list(session.dirty) + list(session.deleted):
        if isinstance(obj, Permit) and obj.id is not None:
            ids.add(obj.id)
        elif isinstance(obj, PermitParty) and obj.permit_id is not None:
            ids.add(obj.permit_id)
        elif isinstance(obj, Party) and obj in session.dirty and obj.id is not None:
            party_ids.add(obj.id)
        elif isinstance(obj, Parcel) and obj in session.dirty and obj.id is not None:
            parcel_ids.add(obj.id)
    if party_ids:
        pp = schema.permit_party
        ids.update(conn.scalars(select(pp.c.permit_id).where(pp.c.party_id.in_(party_ids))))
    if parcel_ids:
        p = schema.permit
        ids.update(conn.scalars(select(p.c.id).where(p.c.parcel_id.in_(parcel_ids))))
    return ids


def refresh_listing(conn: Connection, permit_ids: Iterable[int]) -> None:
    """Rebuild the listing row and search terms of these permits from the tables."""
    ids = sorted(set(permit_ids))
    if not ids:
        return
    p, pc, pp, pa = schema.permit, schema.parcel, schema.permit_party, schema.party
    listing, terms = schema.permit_listing, schema.permit_search_term
    for chunk_start in range(0, len(ids), 500):
        chunk = ids[chunk_start : chunk_start + 500]
        base = conn.execute(
            select(p.c.id, p.c.number, pc.c.pin, pc.c.house_number, pc.c.street, pc.c.unit)
            .select_from(p.outerjoin(pc, pc.c.id == p.c.parcel_id))
            .where(p.c.id.in_(chunk))
        ).all()
        names: dict[int, list[tuple[PartyRole, str]]] = {i: [] for i in chunk}
        for permit_id, role, name in conn.execute(
            select(pp.c.permit_id, pp.c.role, pa.c.name)
            .join(pa, pa.c.id == pp.c.party_id)
            .where(pp.c.permit_id.in_(chunk))
            .order_by(pp.c.id)
        ):
            names[permit_id].append((role, name))
        conn.execute(delete(listing).where(listing.c.permit_id.in_(chunk)))
        conn.execute(delete(terms).where(terms.c.permit_id.in_(chunk)))
        listing_rows, term_rows = [], []
        for row in base:
            row_listing, row_terms = listing_row(
                row.id, row.number, row.pin, row.house_number, row.street, row.unit, names[row.id]
            )
            listing_rows.append(row_listing)
            term_rows.extend(row_terms)
        if listing_rows:
            conn.execute(insert(listing), listing_rows)
        if term_rows:
            conn.execute(insert(terms), term_rows)


def listing_row(
    permit_id: int,
    number: str | None,
    pin: str | None,
    house_number: str | None,
    street: str | None,
    unit: str | None,
    names: list[tuple[PartyRole, str]],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The listing row and search-term rows of one permit (also used by the bulk demo loader)."""
    address = " ".join(x for x in (house_number, street) if x)
    if unit:
        address += f", Unit {unit}"
    owner = next(
        (n for r, n in names if r == PartyRole.BUILDING_OWNER),
        next((n for r, n in names if r == PartyRole.LAND_OWNER), ""),
    )
    contractor = next(
        (
            n
            for r, n in names
            if r
            in (
                PartyRole.CONTRACTOR,
                PartyRole.PLUMBER,
                PartyRole.ELECTRICIAN,
                PartyRole.HVAC_CONTRACTOR,
            )
        ),
        "",
    )
    row = {
        "permit_id": permit_id,
        "number_sort": number_sort_key(number),
        "address": address,
        "owner": owner,
        "contractor": contractor,
    }
    term_rows = [
        {"term": t, "permit_id": permit_id}
        for t in sorted(permit_terms(number, pin, address, [n for _, n in names]))
    ]
    return row, term_rows


def _after_flush(session: Session, _flush_context: UOWTransaction) -> None:
    conn = session.connection()
    rows = _audit_rows(session)
    if rows:
        audit_chain.append(conn, rows)
    refresh_listing(conn, _affected_permits(session, conn))


def install(session_factory: Any) -> None:
    event.listen(session_factory, "after_flush", _after_flush)
