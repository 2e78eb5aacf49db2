"""The records of code enforcement, as plain dataclasses mapped by db/orm.py.

Issued documents are never changed: a notice's addressees and items are the words and dates as
issued (Hudson 140-3A), so a reprint is the same document; later facts (service, petitions,
the Council's decision, orders) are rows of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum


class Channel(StrEnum):
    """How a complaint came in."""

    COUNTER = "counter"
    PHONE = "phone"
    EMAIL = "email"
    LETTER = "letter"
    REFERRAL = "referral"


class Origin(StrEnum):
    """Why a case was opened."""

    COMPLAINT = "complaint"
    OBSERVATION = "observation"  # the inspector's own (140-2)


class ViolationState(StrEnum):
    OPEN = "open"
    CORRECTED = "corrected"
    WITHDRAWN = "withdrawn"  # by the Common Council (140-3C) or the inspector


class NoticeKind(StrEnum):
    NOTICE = "notice"  # notice of violation, 140-3A
    EMERGENCY = "emergency"  # emergency order, 140-3H


class AddresseeRole(StrEnum):
    """The persons responsible and any known agent (140-3A)."""

    OWNER = "owner"
    OPERATOR = "operator"
    OCCUPANT = "occupant"
    AGENT = "agent"


class ServiceMethod(StrEnum):
    """140-3A(4): personally, by registered mail to the last known address, or by posting in a
    conspicuous place in or about the dwelling."""

    PERSONAL = "personal"
    REGISTERED_MAIL = "registered mail"
    POSTING = "posting"


class Decision(StrEnum):
    """140-3C: the Council sustains, modifies or withdraws the notice (140-3H: an emergency
    order is continued, modified or revoked: sustain, modify, withdraw)."""

    SUSTAIN = "sustain"
    MODIFY = "modify"
    WITHDRAW = "withdraw"


class OrderKind(StrEnum):
    AUTOMATIC = "automatic"  # 140-3D: no timely petition
    COUNCIL = "council"  # 140-3C: sustained or modified after hearing
    EMERGENCY = "emergency"  # 140-3H: effective immediately


class EscalationKind(StrEnum):
    REINSPECTION = "reinspection"
    CITATION = "citation"  # referred to the municipal court
    CONDEMNATION = "condemnation"  # Hudson 140 "Requirements to condemn"; the register's row
    ABATEMENT = "abatement"  # by the city, cost charged to the tax roll (Wis. s. 66.0627)


class ClosureReason(StrEnum):
    CORRECTED = "corrected"  # every violation corrected
    WITHDRAWN = "withdrawn"
    UNFOUNDED = "unfounded"  # inspected, no violation found


@dataclass(eq=False, kw_only=True)
class EnforcementCase:
    municipality_id: int
    number: str  # CE-YYYY-NNNN
    parcel_id: int
    opened_on: date
    origin: Origin
    housing_code: str  # the municipality's code when the case was opened
    summary: str = ""
    closed_on: date | None = None
    closed_reason: ClosureReason | None = None
    close_note: str = ""
    closed_by_id: int | None = None
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class Complaint:
    """The complainant's name and how to reach them are confidential: no list, notice or
    report reads them (db/enforcement_queries.py); only the inspector's own read does."""

    municipality_id: int
    case_id: int
    parcel_id: int
    received_on: date
    channel: Channel
    description: str
    complainant_name: str = ""
    complainant_contact: str = ""  # phone, e-mail or address
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class CaseInspection:
    case_id: int
    inspected_on: date
    inspector_id: int
    notes: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Violation:
    case_id: int
    inspection_id: int  # where it was found
    section: str  # an item of the case's housing code
    title: str
    unit: str = ""
    room: str = ""
    notes: str = ""
    correct_by: date
    state: ViolationState = ViolationState.OPEN
    closed_on: date | None = None  # corrected or withdrawn
    closed_inspection_id: int | None = None
    # Recorded by mistake: withdrawn (state WITHDRAWN, closed_on the day) with the reason.
    withdrawn_reason: str = ""
    withdrawn_by_id: int | None = None
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class ViolationCheck:
    """A re-inspection's finding on one open violation: corrected or not."""

    violation_id: int
    inspection_id: int
    checked_on: date
    corrected: bool
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Notice:
    """A notice of violation (140-3A) or an emergency order (140-3H), frozen once issued."""

    case_id: int
    kind: NoticeKind
    issued_on: date
    issued_by_id: int
    property_address: str  # as issued
    statement: str  # 140-3A(2): the reasons why it is issued
    housing_code: str
    # The Common Council's hearing (140-3B) and decision (140-3C), one per notice.
    hearing_on: date | None = None
    hearing_place: str = ""
    hearing_notice_on: date | None = None  # written notice to the petitioner(s)
    decision: Decision | None = None
    decided_on: date | None = None
    findings: str = ""  # 140-3F: summary of the proceedings, findings and decision
    at: datetime | None = None
    request_days: int | None = None  # the days to file the notice stated (None: older ones)
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class NoticeItem:
    notice_id: int
    violation_id: int
    section: str
    title: str
    code_text: str  # the code's words as issued
    location: str
    correct_by: date
    remedial_action: str  # 140-3A(5)
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class NoticeAddressee:
    notice_id: int
    role: AddresseeRole
    name: str  # name and address as issued
    address: str
    party_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class NoticeService:
    """One service of a notice on one addressee (140-3A(4)). Registered mail returned unclaimed
    is recorded on the row (returned_on); the addressee must then be served again."""

    addressee_id: int
    method: ServiceMethod
    served_on: date
    served_by: str
    returned_on: date | None = None
    returned_how: str = ""  # "unclaimed" or "refused": recorded, the service stands (140-3A(4))
    # 140-1 "owner": an agent served must notify the owner by registered letter.
    agent_must_notify_owner: bool = False
    by_user_id: int | None = None
    at: datetime | None = None
    withdrawn_on: date | None = None  # entered by mistake: withdrawn, never deleted
    withdrawn_reason: str = ""
    withdrawn_by_id: int | None = None
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class Petition:
    """A written petition for a hearing (140-3B), filed by or for an addressee."""

    notice_id: int
    addressee_id: int
    petitioner: str
    filed_on: date
    grounds: str
    timely: bool  # filed within 10 days after that addressee's service
    by_user_id: int | None = None
    at: datetime | None = None
    withdrawn_on: date | None = None  # entered by mistake: withdrawn, never deleted
    withdrawn_reason: str = ""
    withdrawn_by_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class EnforcementOrder:
    notice_id: int
    case_id: int
    kind: OrderKind
    effective_on: date
    revoked_on: date | None = None  # 140-3H: revoked after hearing
    superseded_on: date | None = None  # 140-3H: modified after hearing (a new order)
    at: datetime | None = None
    # 140-3B/D: a timely petition recorded after the sweep made this automatic order
    set_aside_on: date | None = None
    set_aside_reason: str = ""
    set_aside_by_id: int | None = None
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class Escalation:
    """What the inspector decided for an order not complied with by its correction date."""

    case_id: int
    order_id: int
    kind: EscalationKind
    decided_on: date
    notes: str = ""
    reinspect_on: date | None = None
    court_reference: str = ""  # the citation's number at the municipal court
    condemnation_id: int | None = None  # the condemnation register's row
    cost: Decimal | None = None  # abatement by the city
    tax_roll_year: int | None = None  # the special charge's tax roll (Wis. s. 66.0627)
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


class VisitPurpose(StrEnum):
    INSPECTION = "inspection"  # the first inspection of the case
    REINSPECTION = "reinspection"  # on or after a correction date
    LICENCE = "licence"  # a rooming-house licence inspection (140-10A)


class VisitStatus(StrEnum):
    SCHEDULED = "scheduled"
    DONE = "done"  # the inspection it led to is recorded
    CANCELLED = "cancelled"


@dataclass(eq=False, kw_only=True)
class CaseVisit:
    """A case inspection on the inspector's day, beside the permit inspections."""

    case_id: int
    purpose: VisitPurpose
    scheduled_on: date
    scheduled_time: str = ""  # "09:30", or "" for any time that day
    inspector_id: int | None = None
    route_position: int | None = None
    status: VisitStatus = VisitStatus.SCHEDULED
    inspection_id: int | None = None
    notes: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class OccupancyCheck:
    """An occupancy calculation (Hudson 140-7, Ch. 512-11) attached to a case or a rooming-house
    licence: the rooms as entered (the JSON `permitdesk housing occupancy` reads) and the result
    as computed that day (the JSON it prints), both kept as they were."""

    municipality_id: int
    case_id: int | None = None
    licence_id: int | None = None
    code: str  # the housing code key: hudson-140 or ch-512
    unit: str  # the dwelling unit or licence the rooms describe
    checked_on: date
    max_occupants: int
    complies: bool
    rooms_json: str
    result_json: str
    inspection_id: int | None = None  # the case inspection recording over-occupancy found
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
