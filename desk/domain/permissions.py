"""Who may do what. Services check these themselves; a hidden button is not a permission."""

from __future__ import annotations

from enum import StrEnum

from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.errors import PermissionDenied


class Permission(StrEnum):
    MANAGE_USERS = "manage users"
    MANAGE_MUNICIPALITY = "change municipality settings"
    TAKE_APPLICATION = "take permit applications"
    EDIT_PERMIT = "edit permits"
    ISSUE_PERMIT = "issue permits"
    VOID_PERMIT = "void permits"
    MANAGE_PARTIES = "edit parties, parcels and credentials"
    # Parcels from the county's parcel file and contractors from a spreadsheet: one action
    # changes thousands of records, so the clerk who keeps the register and the administrator.
    IMPORT_DATA = "import parcels and contractors from files"
    MANAGE_FEES = "change fee schedules"
    WAIVE_CHECKLIST_ITEM = "waive checklist items"  # 15.1.7(c): at the Building Inspector's option
    # The checklist of an issued permit is the record of what was filed (15.1.7(b)): reopening
    # it is the Building Inspector's decision, as issuing is (15.1.6).
    REOPEN_CHECKLIST = "reopen the checklist of an issued permit"
    # 15.1.36: the treasury knows which premises owe sewer taxes or assessments; only the
    # Plumbing Inspector may grant special permission to connect anyway.
    RECORD_SEWER_DELINQUENCY = "record delinquent sewer taxes or assessments"
    GRANT_SEWER_PERMISSION = "record the Plumbing Inspector's special permission (15.1.36)"
    # 15.1.9(b), 15.1.3(d)(3): how far a building has deteriorated is the inspector's finding.
    RECORD_DAMAGE = "record a building's damage"
    # New Lisbon §435-8.I: the street register's repavings (the City Engineer's record), and the
    # Common Council's approval of an opening within five years of repaving.
    RECORD_STREET_REPAVING = "record a street's repaving"
    RECORD_COUNCIL_APPROVAL = "record the Common Council's approval of a street opening"
    # Cashiering. 15.1.34(b)(4): the office collects the fees and turns them over to
    # the City Treasurer, who alone gives money back.
    TAKE_PAYMENT = "take payments"
    VOID_RECEIPT = "void receipts"
    RECORD_RETURNED_CHECK = "record returned checks"
    ADD_FEE_LINE = "add fees to a permit"
    ADJUST_FEES = "correct a permit's fees"
    REFUND = "issue refunds"
    CLOSE_DRAWER = "close a cash drawer"
    DELIVER_TURNOVER = "turn collections over to the treasurer"
    ACKNOWLEDGE_TURNOVER = "acknowledge turnovers"
    MANAGE_GL_ACCOUNTS = "change GL accounts"
    # Code enforcement (Hudson 140-3): the clerk takes complaints and records petitions; the
    # Building Inspector opens cases, inspects, issues notices and orders (140-3A, 140-3H),
    # arranges the Council's hearing (140-3B) and records its decision and the escalations.
    TAKE_COMPLAINT = "take housing complaints"
    RECORD_PETITION = "record petitions for a hearing (Hudson 140-3B)"
    RECORD_SERVICE = "record the service of a notice (Hudson 140-3A(4))"
    OPEN_CASE = "open code enforcement cases"
    INSPECT_HOUSING = "record housing inspections and violations"
    ISSUE_HOUSING_NOTICE = "issue notices of violation and orders (Hudson 140-3)"
    SCHEDULE_HEARING = "schedule the Common Council's hearing (Hudson 140-3B)"
    RECORD_COUNCIL_DECISION = "record the Common Council's decision (Hudson 140-3C)"
    RECORD_ESCALATION = "record the enforcement of an order"
    CLOSE_CASE = "close code enforcement cases"
    VIEW_COMPLAINANT = "see who complained"
    # Rooming house licences (Hudson 140-10A): the operator applies to the Building Inspector's
    # office (the clerk records it), the City Clerk issues once the inspector is satisfied; the
    # inspector denies, warns and suspends (140-10B, C).
    RECORD_ROOMING_APPLICATION = "record rooming house licence applications and changes"
    ISSUE_ROOMING_LICENCE = "issue rooming house licences (Hudson 140-10A)"
    SUSPEND_ROOMING_LICENCE = "deny, warn and suspend rooming house licences (Hudson 140-10)"


# 15.1.6: the Building Inspector issues permits; the clerk takes applications at the counter.
ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.CLERK: frozenset(
        {
            Permission.TAKE_APPLICATION,
            Permission.EDIT_PERMIT,
            Permission.MANAGE_PARTIES,
            Permission.IMPORT_DATA,
            Permission.RECORD_SEWER_DELINQUENCY,
            Permission.RECORD_COUNCIL_APPROVAL,
            Permission.TAKE_PAYMENT,
            Permission.VOID_RECEIPT,
            Permission.ADD_FEE_LINE,
            Permission.CLOSE_DRAWER,
            Permission.DELIVER_TURNOVER,
            Permission.TAKE_COMPLAINT,
            Permission.RECORD_PETITION,
            Permission.RECORD_SERVICE,
            Permission.RECORD_ROOMING_APPLICATION,
            Permission.ISSUE_ROOMING_LICENCE,
        }
    ),
    Role.INSPECTOR: frozenset(
        {
            Permission.TAKE_APPLICATION,
            Permission.EDIT_PERMIT,
            Permission.ISSUE_PERMIT,
            Permission.VOID_PERMIT,
            Permission.WAIVE_CHECKLIST_ITEM,
            Permission.REOPEN_CHECKLIST,
            Permission.MANAGE_PARTIES,
            Permission.GRANT_SEWER_PERMISSION,
            Permission.RECORD_DAMAGE,
            Permission.RECORD_STREET_REPAVING,
            Permission.RECORD_COUNCIL_APPROVAL,
            Permission.ADD_FEE_LINE,  # re-inspection and failure-to-call fees
            Permission.ADJUST_FEES,
            Permission.TAKE_COMPLAINT,
            Permission.RECORD_SERVICE,
            Permission.OPEN_CASE,
            Permission.INSPECT_HOUSING,
            Permission.ISSUE_HOUSING_NOTICE,
            Permission.SCHEDULE_HEARING,
            Permission.RECORD_COUNCIL_DECISION,
            Permission.RECORD_ESCALATION,
            Permission.CLOSE_CASE,
            Permission.VIEW_COMPLAINANT,
            Permission.SUSPEND_ROOMING_LICENCE,
        }
    ),
    Role.ENGINEER: frozenset({Permission.MANAGE_PARTIES, Permission.RECORD_STREET_REPAVING}),
    Role.TREASURER: frozenset(
        {
            Permission.RECORD_SEWER_DELINQUENCY,
            Permission.TAKE_PAYMENT,
            Permission.VOID_RECEIPT,
            Permission.RECORD_RETURNED_CHECK,
            Permission.REFUND,
            Permission.CLOSE_DRAWER,
            Permission.DELIVER_TURNOVER,
            Permission.ACKNOWLEDGE_TURNOVER,
        }
    ),
    Role.ADMINISTRATOR: frozenset(Permission),
}


def allowed(actor: Actor, permission: Permission) -> bool:
    return any(permission in ROLE_PERMISSIONS[r] for r in actor.roles)


def require(actor: Actor, permission: Permission) -> None:
    if not allowed(actor, permission):
        who = ", ".join(sorted(r.label.lower() for r in actor.roles)) or "no role"
        able = sorted(r.label.lower() for r, ps in ROLE_PERMISSIONS.items() if permission in ps)
        raise PermissionDenied(
            f"You are signed in as {actor.username} ({who}); only a user with the role "
            f"{' or '.join(able)} may {permission.value}."
        )
