"""The --view argument of screenshot mode: 'permits', 'permit:NUMBER', 'permit:NUMBER:TAB',
'deadlines', 'fees' (Administration → Fee schedules), 'calculator' (the fee calculator),
'intake' or 'inspections[:PAGE]'. An application with no number yet is named by its id:
'permit:#12'. 'permit:#12:issue' shows its issue dialog."""

from __future__ import annotations

from dataclasses import dataclass

PERMIT_TABS = ("summary", "parties", "work", "checklist", "fees", "history", "inspections")
ISSUE = "issue"  # not a tab: the issue dialog over the permit window
VIEW_HELP = (
    "permits, permit:NUMBER[:TAB] (TAB: summary, parties, work, checklist, fees, history, "
    "inspections), permit:#ID[:TAB] for an application not issued yet, permit:#ID:issue (the "
    "issue dialog), deadlines, fees, calculator, intake, or "
    "inspections[:requests|day|week|orders]"
)
SECTIONS = ("permits", "deadlines", "fees", "calculator", "intake")
# The Inspections section and its pages: inspections[:requests|day|week|orders].
INSPECTION_PAGES = ("requests", "day", "week", "orders")


@dataclass(frozen=True)
class ViewSpec:
    section: str  # 'permits', 'permit', 'fees' or 'calculator'
    permit_number: str = ""
    tab: str = "summary"  # or ISSUE
    permit_id: int | None = None  # 'permit:#12'


def parse_view(text: str) -> ViewSpec:
    """Raise ValueError with a one-line message for a view that does not exist."""
    raw = text.strip()
    if raw.lower() in SECTIONS:
        return ViewSpec(raw.lower())
    if raw.lower().split(":")[0] == "inspections":
        page = raw.lower().split(":", 1)[1].strip() if ":" in raw else "requests"
        if page not in INSPECTION_PAGES:
            raise ValueError(
                f"unknown page '{page}' in view '{text}'; pages: {', '.join(INSPECTION_PAGES)}"
            )
        return ViewSpec("inspections", tab=page)
    parts = raw.split(":")
    if parts[0].lower() == "permit" and len(parts) in (2, 3) and parts[1].strip():
        tab = parts[2].strip().lower() if len(parts) == 3 else "summary"
        if tab not in (*PERMIT_TABS, ISSUE):
            raise ValueError(
                f"unknown tab '{parts[2]}' in view '{text}'; tabs: {', '.join(PERMIT_TABS)}, "
                f"or {ISSUE} for the issue dialog"
            )
        which = parts[1].strip()
        if which.startswith("#"):
            if not which[1:].isdigit():
                raise ValueError(f"'{which}' in view '{text}' is not an id; use permit:#12")
            return ViewSpec("permit", "", tab, int(which[1:]))
        return ViewSpec("permit", which, tab)
    raise ValueError(f"unknown view '{text}'; use {VIEW_HELP}")
