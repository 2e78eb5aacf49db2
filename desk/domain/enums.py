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
        """BLDS PermitClassMapped. The specification (BLDS 1.2, Core Permits Dataset
        Requirements, github.com/open-data-standards/permitdata.org/wiki; copy read in
        cityofasheville/bedrock documentation/development/Core-Permits-Dataset-Requirements.md)
        lists exactly two values:
            Residential       "(Single Family/Duplex)"
            Non-Residential   "(Commercial, Industrial, Institutional)"
        (the words in parentheses explain the value; published BLDS data such as Seattle's
        carries "Residential" and "Non-Residential"). Our residential class is the one- and
        two-family class; commercial and agricultural buildings are non-residential."""
        return "Residential" if self is PermitClass.RESIDENTIAL else "Non-Residential"


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
        """BLDS WorkClassMapped. The specification (BLDS 1.2, Core Permits Dataset
        Requirements; source as for PermitClass.blds) lists exactly two values:
            New, Existing
        Additions, alterations, repairs, razing and moving all work on an existing building.
        "other" (occupancy permits, erosion control, solid fill, street openings) says nothing
        about whether the property is new or existing: "" (the spec has no value for it)."""
        return {
            "new": "New",
            "addition": "Existing",
            "alteration": "Existing",
            "repair": "Existing",
            "raze": "Existing",
            "move": "Existing",
            "other": "",
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

# BLDS StatusCurrentMapped. The specification (BLDS 1.2, Core Permits Dataset Requirements,
# github.com/open-data-standards/permitdata.org/wiki/Core-Permits-Dataset-Requirements; copy read
# in cityofasheville/bedrock documentation/development/Core-Permits-Dataset-Requirements.md)
# lists exactly these values:
#   Application Accepted, Fees/Payment, In Review, Permit Issued, Inspection Phase,
#   Permit Finaled, Permit Finaled with Conditions, Occupancy, Appeal, Permit Cancelled
# It has none for a draft (never exported), an expired permit (ExpiresDate says so) or a denied
# application: those map to "". An approved application waits for its fees to be paid before it
# is issued (desk/services/issuance.py): Fees/Payment. A permit held by a stop-work order is still
# in its inspection phase (HoldDate gives the day it was held). A withdrawn application, a
# revoked and a voided permit are cancelled (VoidDate gives the void's day).
_STATUS_BLDS = {
    PermitStatus.DRAFT: "",
    PermitStatus.APPLIED: "Application Accepted",
    PermitStatus.IN_REVIEW: "In Review",
    PermitStatus.APPROVED: "Fees/Payment",
    PermitStatus.ISSUED: "Permit Issued",
    PermitStatus.WORK_STARTED: "Inspection Phase",
    PermitStatus.ON_HOLD: "Inspection Phase",
    PermitStatus.COMPLETED: "Permit Finaled",
    PermitStatus.EXPIRED: "",
    PermitStatus.REVOKED: "Permit Cancelled",
    PermitStatus.WITHDRAWN: "Permit Cancelled",
    PermitStatus.DENIED: "",
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
