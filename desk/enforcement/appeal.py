"""An administrative appeal from a decision on review (Wis. Stat. 68.10), its hearing (68.11)
and the final determination (68.12), as a plain dataclass mapped by db/orm.py (revision 0022).
The request for review (68.08) is a Petition row and the decision on review (68.09) the
notice's decision, read in the words of the case's procedure (desk/enforcement/procedure.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from desk.enforcement.model import Decision


@dataclass(eq=False, kw_only=True)
class Appeal:
    case_id: int
    notice_id: int
    appellant: str
    filed_on: date  # received by the office (68.10(3): filed with or mailed to it)
    grounds: str
    timely: bool  # within 30 days of notice of the decision on review (68.10(2))
    hearing_on: date | None = None  # 68.11(1)
    hearing_place: str = ""
    hearing_notice_on: date | None = None  # notice of the hearing served on the appellant
    decision: Decision | None = None  # 68.12: affirm (sustain), modify, reverse (withdraw)
    decided_on: date | None = None
    findings: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0
