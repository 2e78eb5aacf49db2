"""The --view argument of screenshot mode: 'permits', 'permit:NUMBER', 'permit:NUMBER:TAB',
'fees' (Administration → Fee schedules) or 'calculator' (the fee calculator)."""

from __future__ import annotations

from dataclasses import dataclass

PERMIT_TABS = ("summary", "checklist", "history")
VIEW_HELP = (
    "permits, permit:NUMBER, permit:NUMBER:history, permit:NUMBER:checklist, fees, calculator "
    "or intake"
)
SECTIONS = ("permits", "fees", "calculator", "intake")


@dataclass(frozen=True)
class ViewSpec:
    section: str  # 'permits', 'permit', 'fees' or 'calculator'
    permit_number: str = ""
    tab: str = "summary"


def parse_view(text: str) -> ViewSpec:
    """Raise ValueError with a one-line message for a view that does not exist."""
    raw = text.strip()
    if raw.lower() in SECTIONS:
        return ViewSpec(raw.lower())
    parts = raw.split(":")
    if parts[0].lower() == "permit" and len(parts) in (2, 3) and parts[1].strip():
        tab = parts[2].strip().lower() if len(parts) == 3 else "summary"
        if tab not in PERMIT_TABS:
            raise ValueError(
                f"unknown tab '{parts[2]}' in view '{text}'; tabs: {', '.join(PERMIT_TABS)}"
            )
        return ViewSpec("permit", parts[1].strip(), tab)
    raise ValueError(f"unknown view '{text}'; use {VIEW_HELP}")
