"""The tabs of the permit window, in order. Later issues append theirs (fees, inspections...)."""

from __future__ import annotations

from ui.permit.base import PermitTab
from ui.permit.checklist import ChecklistTab
from ui.permit.history import HistoryTab
from ui.permit.summary import SummaryTab

PERMIT_TABS: list[type[PermitTab]] = [SummaryTab, ChecklistTab, HistoryTab]
