"""The tabs of the permit window, in order: Summary, Parties, Work, Checklist, Fees, Sureties,
Inspections, History."""

from __future__ import annotations

from ui.permit.base import PermitTab
from ui.permit.checklist import ChecklistTab
from ui.permit.fees import FeesTab
from ui.permit.history import HistoryTab
from ui.permit.inspections import InspectionsTab
from ui.permit.parties import PartiesTab
from ui.permit.summary import SummaryTab
from ui.permit.sureties import SuretiesTab
from ui.permit.work import WorkTab

PERMIT_TABS: list[type[PermitTab]] = [
    SummaryTab,
    PartiesTab,
    WorkTab,
    ChecklistTab,
    FeesTab,
    SuretiesTab,
    InspectionsTab,
    HistoryTab,
]
