"""Vocabularies of the permit register. Values are stored in the database; never rename one."""

from __future__ import annotations

from enum import StrEnum


class PermitClass(StrEnum):
    RESIDENTIAL = "residential"
    COMMERCIAL = "commercial"
    AGRICULTURAL = "agricultural"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def blds(self) -> str:
        """BLDS PermitClassMapped: Residential or Commercial (agricultural is non-residential)."""
        return "Residential" if self is PermitClass.RESIDENTIAL else "Commercial"


class WorkClass(StrEnum):
    NEW = "new"
    ADDITION = "addition"
    ALTERATION = "alteration"
    REPAIR = "repair"
    RAZE = "raze"
    MOVE = "move"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def blds(self) -> str:
        """BLDS WorkClassMapped."""
        return {
            "new": "New",
            "addition": "Addition",
            "alteration": "Alteration",
            "repair": "Repair",
            "raze": "Demolition",
            "move": "Other",
            "other": "Other",
        }[self.value]


class PermitStatus(StrEnum):
    DRAFT = "draft"
    APPLIED = "applied"
    IN_REVIEW = "in_review"
    APPROVED = "approved"
    ISSUED = "issued"
    WORK_STARTED = "work_started"
    ON_HOLD = "on_hold"
    COMPLETED = "completed"
    EXPIRED = "expired"
    REVOKED = "revoked"
    WITHDRAWN = "withdrawn"
    DENIED = "denied"
    VOID = "void"

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]

    @property
    def blds(self) -> str:
        """BLDS StatusCurrentMapped."""
        return _STATUS_BLDS[self]


_STATUS_LABELS = {
    PermitStatus.DRAFT: "Draft",
    PermitStatus.APPLIED: "Applied",
    PermitStatus.IN_REVIEW: "In review",
    PermitStatus.APPROVED: "Approved",
    PermitStatus.ISSUED: "Issued",
    PermitStatus.WORK_STARTED: "Work started",
    PermitStatus.ON_HOLD: "On hold",
    PermitStatus.COMPLETED: "Completed",
    PermitStatus.EXPIRED: "Expired",
    PermitStatus.REVOKED: "Revoked",
    PermitStatus.WITHDRAWN: "Withdrawn",
    PermitStatus.DENIED: "Denied",
    PermitStatus.VOID: "Void",
}

_STATUS_BLDS = {
    PermitStatus.DRAFT: "Application Accepted",
    PermitStatus.APPLIED: "Application Accepted",
    PermitStatus.IN_REVIEW: "In Review",
    PermitStatus.APPROVED: "Application Accepted",
    PermitStatus.ISSUED: "Permit Issued",
    PermitStatus.WORK_STARTED: "Inspection Phase",
    PermitStatus.ON_HOLD: "On Hold",
    PermitStatus.COMPLETED: "Permit Finaled",
    PermitStatus.EXPIRED: "Permit Expired",
    PermitStatus.REVOKED: "Permit Cancelled",
    PermitStatus.WITHDRAWN: "Application Withdrawn",
    PermitStatus.DENIED: "Application Denied",
    PermitStatus.VOID: "Permit Cancelled",
}

# Statuses in which the permit carries a number (it was issued at some point).
NUMBERED_STATUSES = frozenset(
    {
        PermitStatus.ISSUED,
        PermitStatus.WORK_STARTED,
        PermitStatus.ON_HOLD,
        PermitStatus.COMPLETED,
        PermitStatus.EXPIRED,
        PermitStatus.REVOKED,
        PermitStatus.VOID,
    }
)


class PartyKind(StrEnum):
    PERSON = "person"
    ORGANIZATION = "organization"


class PartyRole(StrEnum):
    """Roles on a permit. 15.1.7(b)(1): owner of the building, owner of the land, designer."""

    APPLICANT = "applicant"
    BUILDING_OWNER = "building_owner"
    LAND_OWNER = "land_owner"
    DESIGNER = "designer"
    CONTRACTOR = "contractor"
    PLUMBER = "plumber"
    ELECTRICIAN = "electrician"
    HVAC_CONTRACTOR = "hvac_contractor"

    @property
    def label(self) -> str:
        return {
            "applicant": "Applicant",
            "building_owner": "Owner of the building",
            "land_owner": "Owner of the land",
            "designer": "Designer",
            "contractor": "Contractor",
            "plumber": "Master plumber",
            "electrician": "Electrician",
            "hvac_contractor": "HVAC contractor",
        }[self.value]


class CredentialKind(StrEnum):
    DWELLING_CONTRACTOR = "dwelling_contractor"
    DWELLING_CONTRACTOR_QUALIFIER = "dwelling_contractor_qualifier"
    MASTER_PLUMBER = "master_plumber"
    ELECTRICAL_CONTRACTOR = "electrical_contractor"
    MASTER_ELECTRICIAN = "master_electrician"
    HVAC_CONTRACTOR = "hvac_contractor"
    LAND_SURVEYOR = "land_surveyor"
    ARCHITECT = "architect"
    ENGINEER = "engineer"

    @property
    def label(self) -> str:
        return {
            "dwelling_contractor": "Dwelling contractor",
            "dwelling_contractor_qualifier": "Dwelling contractor qualifier",
            "master_plumber": "Master plumber",
            "electrical_contractor": "Electrical contractor",
            "master_electrician": "Master electrician",
            "hvac_contractor": "HVAC contractor",
            "land_surveyor": "Registered land surveyor",
            "architect": "Architect",
            "engineer": "Professional engineer",
        }[self.value]


class Role(StrEnum):
    CLERK = "clerk"
    INSPECTOR = "inspector"
    ENGINEER = "engineer"
    TREASURER = "treasurer"
    ADMINISTRATOR = "administrator"

    @property
    def label(self) -> str:
        return self.value.capitalize()
