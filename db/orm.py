"""Imperative mapping of the domain classes in desk/domain/model.py onto db/schema.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy.orm import registry, relationship

from db import schema
from desk.domain.backups import BackupMade
from desk.domain.checklists import ChecklistItem, ChecklistReopening
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
from desk.enforcement import licences as rooming
from desk.enforcement import model as enforcement
from desk.enforcement.appeal import Appeal
from desk.fees.model import AssessedLine, StoredVersion

mapper_registry = registry()
_started = False


def _versioned(table: Table) -> dict[str, Any]:
    """A record edited from forms: each UPDATE checks and bumps its version (version_column)."""
    return {"version_id_col": table.c.version}


def start_mappers() -> None:
    """Idempotent: called by every engine factory."""
    global _started
    if _started:
        return
    _started = True
    mapper_registry.map_imperatively(
        Municipality, schema.municipality, **_versioned(schema.municipality)
    )
    # Revision 0012: the municipality's images and letterhead versions, plain rows.
    mapper_registry.map_imperatively(MunicipalityImage, schema.municipality_image)
    mapper_registry.map_imperatively(LetterheadVersion, schema.letterhead_version)
    mapper_registry.map_imperatively(
        User,
        schema.app_user,
        # Versioned by desk.services.users when an administrator changes the person, not by
        # every UPDATE: signing in writes the row too, and must not make a Users form stale.
        properties={"roles_text": schema.app_user.c.roles},
    )
    mapper_registry.map_imperatively(Parcel, schema.parcel, **_versioned(schema.parcel))
    mapper_registry.map_imperatively(Credential, schema.credential)
    mapper_registry.map_imperatively(DataImport, schema.data_import)  # revision 0020
    mapper_registry.map_imperatively(BackupMade, schema.backup_made)  # revision 0024
    mapper_registry.map_imperatively(
        Party,
        schema.party,
        **_versioned(schema.party),
        properties={
            "credentials": relationship(
                Credential, order_by=schema.credential.c.id, cascade="all, delete-orphan"
            )
        },
    )
    mapper_registry.map_imperatively(
        PermitParty,
        schema.permit_party,
        properties={"party": relationship(Party, lazy="joined")},
    )
    mapper_registry.map_imperatively(StoredVersion, schema.fee_schedule_version)
    mapper_registry.map_imperatively(AssessedLine, schema.permit_fee_line)
    mapper_registry.map_imperatively(ChecklistItem, schema.permit_checklist_item)
    mapper_registry.map_imperatively(ChecklistReopening, schema.permit_checklist_reopening)
    mapper_registry.map_imperatively(PermitExtension, schema.permit_extension)
    mapper_registry.map_imperatively(PermitOrder, schema.permit_order)
    mapper_registry.map_imperatively(
        Permit,
        schema.permit,
        **_versioned(schema.permit),
        properties={
            "parcel": relationship(Parcel, lazy="joined"),
            "parties": relationship(
                PermitParty, order_by=schema.permit_party.c.id, cascade="all, delete-orphan"
            ),
            # Loaded with the permit: deadline rules read them while it is being changed, and a
            # lazy load would flush half a change into the audit trail as its own event.
            "extensions": relationship(
                PermitExtension,
                order_by=schema.permit_extension.c.id,
                cascade="all, delete-orphan",
                lazy="selectin",
            ),
            "orders": relationship(
                PermitOrder, order_by=schema.permit_order.c.id, cascade="all, delete-orphan"
            ),
        },
    )
    # Cashiering: plain rows, no relationships; services query what they need.
    cashiering: tuple[tuple[type, Table], ...] = (
        (GlAccount, schema.gl_account),
        (FeeAccountMap, schema.fee_account_map),
        (Turnover, schema.turnover),
        (DailyClose, schema.daily_close),
        (Payment, schema.payment),
        (PaymentAllocation, schema.payment_allocation),
        (PaymentReversal, schema.payment_reversal),
        (Refund, schema.refund),
        (GlEntry, schema.gl_entry),
        (FeeAdjustment, schema.fee_adjustment),
        (PayerCredit, schema.payer_credit),
    )
    for cls, table in cashiering:
        mapper_registry.map_imperatively(cls, table)
    # Inspections: plain rows as well; desk.services.inspections reads what it needs.
    for cls, table in (
        (Inspection, schema.inspection),
        (InspectionException, schema.inspection_exception),
        (CorrectionOrderRecord, schema.correction_order),
        (OccupancyCertificate, schema.occupancy_certificate),
    ):
        mapper_registry.map_imperatively(cls, table)
    # Reports: the Act 211 filing date of a permit, a plain row.
    mapper_registry.map_imperatively(StateFiling, schema.state_filing)
    # Bonds, insurance and street deposits: a bond with its personal sureties and the
    # permits it covers, a certificate with its coverages and members, loaded with their parent.
    for cls, table in (
        (BondSurety, schema.bond_surety),
        (BondPermit, schema.bond_permit),
        (CoverageRecord, schema.insurance_coverage),
        (AssociationMember, schema.association_member),
        (SuretyFacts, schema.surety_facts),
    ):
        mapper_registry.map_imperatively(cls, table)
    mapper_registry.map_imperatively(StreetDeposit, schema.deposit, **_versioned(schema.deposit))
    mapper_registry.map_imperatively(
        BondRecord,
        schema.bond,
        **_versioned(schema.bond),
        properties={
            "sureties": relationship(
                BondSurety,
                order_by=schema.bond_surety.c.id,
                cascade="all, delete-orphan",
                lazy="selectin",
            ),
            "permits": relationship(
                BondPermit,
                order_by=schema.bond_permit.c.id,
                cascade="all, delete-orphan",
                lazy="selectin",
            ),
        },
    )
    # City licences and condemnations (revision 0011): plain rows; desk.services.licensing.
    mapper_registry.map_imperatively(
        CityLicence, schema.city_licence, **_versioned(schema.city_licence)
    )
    mapper_registry.map_imperatively(
        Condemnation, schema.condemnation, **_versioned(schema.condemnation)
    )
    # The street register's repavings (revision 0015): plain rows; desk.services.street_register.
    mapper_registry.map_imperatively(StreetRepaving, schema.street_repaving)
    mapper_registry.map_imperatively(
        InsuranceCertificateRecord,
        schema.insurance_certificate,
        **_versioned(schema.insurance_certificate),
        properties={
            "coverages": relationship(
                CoverageRecord,
                order_by=schema.insurance_coverage.c.id,
                cascade="all, delete-orphan",
                lazy="selectin",
            ),
            "members": relationship(
                AssociationMember,
                order_by=schema.association_member.c.id,
                cascade="all, delete-orphan",
                lazy="selectin",
            ),
        },
    )
    # Code enforcement (revision 0017): plain rows; desk.services.enforcement.
    for cls, table in (
        (enforcement.Complaint, schema.enforcement_complaint),
        (enforcement.CaseInspection, schema.enforcement_inspection),
        (enforcement.ViolationCheck, schema.enforcement_violation_check),
        (enforcement.NoticeItem, schema.enforcement_notice_item),
        (enforcement.NoticeAddressee, schema.enforcement_addressee),
        (enforcement.Petition, schema.enforcement_petition),
        (enforcement.Escalation, schema.enforcement_escalation),
    ):
        mapper_registry.map_imperatively(cls, table)
    for cls, table in (
        (enforcement.EnforcementCase, schema.enforcement_case),
        (enforcement.Violation, schema.enforcement_violation),
        (enforcement.Notice, schema.enforcement_notice),
        (enforcement.NoticeService, schema.enforcement_service),
        (enforcement.EnforcementOrder, schema.enforcement_order),
        (enforcement.CaseVisit, schema.enforcement_visit),
        (Appeal, schema.enforcement_appeal),  # Wis. Stat. 68.10-68.12 (revision 0022)
    ):
        mapper_registry.map_imperatively(cls, table, **_versioned(table))
    # Rooming house licences (revision 0018): plain rows; desk.services.enforcement.licences.
    mapper_registry.map_imperatively(rooming.LicenceRoom, schema.rooming_licence_room)
    # Occupancy calculations attached to a case or licence (revision 0019): plain rows.
    mapper_registry.map_imperatively(enforcement.OccupancyCheck, schema.occupancy_check)
    mapper_registry.map_imperatively(
        rooming.RoomingLicence, schema.rooming_licence, **_versioned(schema.rooming_licence)
    )
