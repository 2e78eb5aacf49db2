"""What lists, timelines and documents of code enforcement show: frozen rows, no complainant.

The complainant's name and contact are read only through `Complainant`, by the inspector or an
administrator (desk.services.enforcement.complaints.complainant)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum


class CaseFilter(StrEnum):
    ALL = "all"
    OPEN = "open"
    NOT_SERVED = "notice not yet served"
    SERVE_AGAIN = "serve again"  # registered mail returned unclaimed (140-3A(4))
    WINDOW_OPEN = "petition window open"
    ORDER_PAST_DUE = "order past its correction date"
    HEARING_SCHEDULED = "hearing scheduled"
    CLOSED_THIS_YEAR = "closed this year"


@dataclass(frozen=True)
class CaseRow:
    case_id: int
    number: str
    opened_on: date
    address: str
    pin: str
    owner: str  # the owner addressed by the latest notice, if any
    open_violations: int
    closed_on: date | None
    closed_reason: str


@dataclass(frozen=True)
class TimelineEntry:
    on: date
    kind: str  # complaint, inspection, notice, service, petition, hearing, decision, order, ...
    text: str
    section: str = ""  # the ordinance section it rests on


@dataclass(frozen=True)
class ServeAgainRow:
    """An addressee whose registered mail came back unclaimed, not served since."""

    case_number: str
    notice_id: int
    addressee_id: int
    name: str
    address: str
    returned_on: date


@dataclass(frozen=True)
class AgentDutyRow:
    """An agent served: the agent owes the owner a registered letter (140-1 "owner")."""

    case_number: str
    notice_id: int
    agent: str
    served_on: date


@dataclass(frozen=True)
class SpecialChargeRow:
    """A city abatement's cost, a special charge on the parcel's tax roll (Wis. s. 66.0627)."""

    pin: str
    address: str
    case_number: str
    decided_on: date
    cost: Decimal
    notes: str


@dataclass(frozen=True)
class Complainant:
    complaint_id: int
    name: str
    contact: str


@dataclass(frozen=True)
class NoticeDocumentItem:
    section: str
    title: str
    code_text: str
    location: str
    correct_by: date
    remedial_action: str


@dataclass(frozen=True)
class NoticeDocument:
    """A notice or emergency order as issued (140-3A): a reprint is the same document."""

    notice_id: int
    case_number: str
    kind: str  # "notice" or "emergency"
    issued_on: date
    issued_by: str
    property_address: str
    statement: str
    housing_code: str
    addressees: tuple[tuple[str, str, str], ...]  # (role, name, address) as issued
    items: tuple[NoticeDocumentItem, ...]
    # The procedure the case follows (resources/procedures) and its days to file: the right to
    # a hearing (140-3B) or to request review (Wis. Stat. 68.08) the notice states.
    procedure: str = "hudson-140-3"
    request_days: int = 10


@dataclass(frozen=True)
class OccupancyCheckRow:
    """An occupancy calculation attached to a case or a licence, as computed that day: the rooms
    and the result are the JSON of `permitdesk housing occupancy`, kept as they were."""

    check_id: int
    case_id: int | None
    licence_id: int | None
    attached_to: str  # "CE-2026-0008", "RH-2026-0001" or "application #3"
    code: str  # hudson-140, ch-512
    unit: str
    checked_on: date
    max_occupants: int
    complies: bool
    problems: tuple[tuple[str, str, str], ...]  # (section, room or "", text) as computed
    rooms_json: str
    result_json: str
    inspection_id: int | None  # the case inspection recording the violations found
    by: str  # who attached it
