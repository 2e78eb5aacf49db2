"""The --view argument of screenshot mode: 'permits', 'permit:NUMBER', 'permit:NUMBER:TAB',
'deadlines', 'fees' (Administration → Fee schedules), 'gl' (GL accounts), 'calculator' (the
fee calculator), 'intake' or 'inspections[:PAGE]'. An application with no number yet is named
by its id: 'permit:#12'. 'permit:#12:issue' shows its issue dialog."""

from __future__ import annotations

from dataclasses import dataclass

PERMIT_TABS = (
    "summary",
    "parties",
    "work",
    "checklist",
    "fees",
    "history",
    "inspections",
    "sureties",  # ui.permit.sureties.SuretiesTab
)
# A person's window: person:NAME[:TAB] (ui.person.window.TABS).
PERSON_TABS = ("summary", "credentials", "permits", "bonds", "payments", "history")
ISSUE = "issue"  # not a tab: the issue dialog over the permit window
VIEW_HELP = (
    f"home (Needs attention), permits, permit:NUMBER[:TAB] (TAB: {', '.join(PERMIT_TABS)}), "
    "permit:#ID[:TAB] for an application not issued yet, permit:#ID:issue (the "
    "issue dialog), deadlines, fees, gl, users, municipality, calculator, occupancy (the "
    "occupancy calculator), intake, cashier, "
    "reports[:REPORT], "
    "treasurer[:PAGE] (PAGE: close, turnovers, reconciliation, refunds, returned), "
    "bonds[:bonds|certificates|watch], deposits[:all|eligible|soon|ordered|retained], "
    "licences[:in_force|expired|revoked|any], condemnations[:open|overdue|lifted|closed|all], "
    "enforcement (Code enforcement), case:NUMBER (a case's window, e.g. case:CE-2026-0001), "
    "rooming-houses (the rooming house licences), licence:NUMBER (a licence's window, e.g. "
    "licence:RH-2026-0001), parcels (the parcel register), parcel:PIN (a parcel's window, "
    "e.g. parcel:047-9991-002), people (people and organizations), person:NAME or "
    "person:#ID (a person's window, e.g. person:Dahl Plumbing LLC; person:NAME:TAB with TAB "
    f"one of {', '.join(PERSON_TABS)}), or "
    "inspections[:requests|day|week|orders]"
)
SECTIONS = (
    "home",
    "permits",
    "deadlines",
    "fees",
    "calculator",
    "occupancy",
    "enforcement",
    "rooming-houses",
    "parcels",
    "people",
    "intake",
    "cashier",
    "gl",
    "users",
    "municipality",
)
# The Treasurer section and its pages: treasurer[:close|turnovers|reconciliation|...].
TREASURER_PAGES = ("close", "turnovers", "reconciliation", "refunds", "returned")
# The Reports section and the report it shows: reports[:monthly|annual|...].
REPORT_PAGES = (
    "monthly",
    "plumbing_monthly",
    "electrical_monthly",
    "annual",
    "electrical_annual",
    "c404",
    "act211",
    "blds",
)
# The Bonds & Insurance pages and the Deposits section's lists (its refund queue).
BOND_PAGES = ("bonds", "certificates", "watch")
DEPOSIT_QUEUES = ("all", "eligible", "soon", "ordered", "retained")
# The Licences & condemnations section's two pages and their lists.
LICENCE_FILTERS = ("in_force", "expired", "revoked", "any")
CONDEMNATION_STATES = ("open", "overdue", "lifted", "closed", "all")
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
    if raw.lower().split(":")[0] == "reports":  # reports[:monthly|annual|c404|...]
        report = raw.lower().split(":", 1)[1].strip() if ":" in raw else "annual"
        if report not in REPORT_PAGES:
            raise ValueError(
                f"unknown report '{report}' in view '{text}'; reports: {', '.join(REPORT_PAGES)}"
            )
        return ViewSpec("reports", tab=report)
    if raw.lower().split(":")[0] == "treasurer":
        page = raw.lower().split(":", 1)[1].strip() if ":" in raw else "close"
        if page not in TREASURER_PAGES:
            raise ValueError(
                f"unknown page '{page}' in view '{text}'; pages: {', '.join(TREASURER_PAGES)}"
            )
        return ViewSpec("treasurer", tab=page)
    if raw.lower().split(":")[0] == "inspections":
        page = raw.lower().split(":", 1)[1].strip() if ":" in raw else "requests"
        if page not in INSPECTION_PAGES:
            raise ValueError(
                f"unknown page '{page}' in view '{text}'; pages: {', '.join(INSPECTION_PAGES)}"
            )
        return ViewSpec("inspections", tab=page)
    for name, pages in (
        ("bonds", BOND_PAGES),
        ("deposits", DEPOSIT_QUEUES),
        ("licences", LICENCE_FILTERS),
        ("condemnations", CONDEMNATION_STATES),
    ):
        if raw.lower().split(":")[0] == name:
            page = raw.lower().split(":", 1)[1].strip() if ":" in raw else pages[0]
            if page not in pages:
                raise ValueError(
                    f"unknown page '{page}' in view '{text}'; pages: {', '.join(pages)}"
                )
            return ViewSpec(name, tab=page)
    if raw.lower().startswith("case:"):  # a code enforcement case's window, by its number
        number = raw.split(":", 1)[1].strip().upper()
        if not number:
            raise ValueError(f"no case number in view '{text}'; use case:CE-2026-0001")
        return ViewSpec("case", number)
    if raw.lower().startswith("licence:"):  # a rooming house licence's window, by its number
        number = raw.split(":", 1)[1].strip().upper()
        if not number:
            raise ValueError(f"no licence number in view '{text}'; use licence:RH-2026-0001")
        return ViewSpec("licence", number)
    if raw.lower().startswith("person:"):  # a person's window, by exact name or #id
        name, _, tab = raw.split(":", 1)[1].strip().partition(":")
        tab = tab.strip().lower() or "summary"
        if not name.strip():
            raise ValueError(f"no name in view '{text}'; use person:NAME or person:#ID")
        if tab not in PERSON_TABS:
            raise ValueError(
                f"unknown tab '{tab}' in view '{text}'; tabs: {', '.join(PERSON_TABS)}"
            )
        return ViewSpec("person", name.strip(), tab)
    if raw.lower().startswith("parcel:"):  # a parcel's window, by its PIN as the register has it
        pin = raw.split(":", 1)[1].strip()
        if not pin:
            raise ValueError(f"no PIN in view '{text}'; use parcel:047-9991-002")
        return ViewSpec("parcel", pin)
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
