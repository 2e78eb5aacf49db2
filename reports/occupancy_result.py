"""An occupancy calculation as a one-page PDF (letter): the unit's rooms as measured, the
limits under the housing code (Hudson 140-5/140-7, Ch. 512-11) and every shortfall.

A pure renderer: it takes the desk.housing.occupancy Unit and its result, and queries nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.enforcement.readmodels import OccupancyCheckRow
from desk.housing.codes import HousingCodeError, load_housing_code
from desk.housing.jsonio import unit_from_json
from desk.housing.occupancy import (
    DEFAULT_CEILING_FT,
    OccupancyResult,
    Problem,
    Room,
    RoomResult,
    Unit,
    Use,
    fmt,
)
from reports.common import INK, RED, RULE, SHADE, TEXT_WIDTH, build_pdf, facts_table
from reports.common import day as _day
from reports.common import header as _header
from reports.common import para as _p
from reports.common import styles as _styles
from reports.fonts import register_fonts

EMPTY = "—"


def _opt(d: Decimal | None) -> str:
    return EMPTY if d is None else fmt(d)


def _ceiling(room: Room) -> str:
    """'20 sq ft at 4.5 ft' for the parts under a ceiling lower than the default 8 ft."""
    low = [p for p in room.ceiling if p.height_ft != DEFAULT_CEILING_FT and p.area]
    if not low:
        return f"{fmt(DEFAULT_CEILING_FT)} ft"
    return "; ".join(f"{fmt(p.area)} at {fmt(p.height_ft)} ft" for p in low)


def _sleepers(room: Room) -> str:
    if not room.sleepers:
        return ""
    parts = []
    if room.occupants_over_12:
        parts.append(f"{room.occupants_over_12} over 12")
    if room.occupants_under_12:
        parts.append(f"{room.occupants_under_12} under 12")
    return ", ".join(parts)


def _rooms_table(unit: Unit, result: OccupancyResult, st: dict[str, ParagraphStyle]) -> Table:
    heads = (
        "Room",
        "Use",
        "Floor",
        "Ceiling",
        "Counted",
        "Window (min)",
        "Opens (min)",
        "Mech. vent.",
        "Sleepers",
    )
    right = {2, 4, 5, 6}
    data: list[list[Any]] = [
        [_p(h, st["head_right"] if i in right else st["head"]) for i, h in enumerate(heads)]
    ]
    for room, r in zip(unit.rooms, result.rooms, strict=True):
        window = _opt(room.window_area)
        if r.required_window_area is not None:
            window += f" ({fmt(r.required_window_area)})"
        opens = _opt(room.openable_area)
        if r.required_openable_area is not None:
            opens += f" ({fmt(r.required_openable_area)})"
        use = room.use.value + ("" if r.habitable else " *")
        cells = (
            room.name,
            use,
            fmt(room.floor_area),
            _ceiling(room),
            fmt(r.counted_area) if r.habitable else EMPTY,
            window,
            opens,
            "yes" if room.mechanical_ventilation else "",
            _sleepers(room),
        )
        data.append([_p(c, st["money"] if i in right else st["cell"]) for i, c in enumerate(cells)])
    widths = [1.05, 0.85, 0.5, 0.9, 0.7, 0.8, 0.75, 0.7]
    widths = [w * inch for w in widths]
    widths.append(TEXT_WIDTH - sum(widths))
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["cell"].fontName),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
            ]
        )
    )
    return table


def _result_facts(result: OccupancyResult, st: dict[str, ParagraphStyle]) -> Table:
    stated = "none stated" if result.occupants is None else str(result.occupants)
    if result.occupants is not None and result.required_area is not None:
        stated += f" (need {fmt(result.required_area)} sq ft)"
    n = len(result.problems)
    verdict = (
        "Complies"
        if result.complies
        else f"Does not comply: {n} shortfall" + ("s" if n != 1 else "")
    )
    rows = [
        ("Habitable floor area", f"{fmt(result.habitable_area)} sq ft"),
        ("Maximum occupants", str(result.max_occupants)),
        ("Stated occupants", stated),
        ("Result", verdict),
    ]
    table = Table(
        [[_p(a, st["label"]), _p(b, st["total"])] for a, b in rows],
        colWidths=[1.6 * inch, TEXT_WIDTH - 1.6 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["base"].fontName),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("BACKGROUND", (0, 0), (-1, -1), SHADE),
                ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
                ("TEXTCOLOR", (1, -1), (1, -1), INK if result.complies else RED),
            ]
        )
    )
    return table


def _shortfalls(result: OccupancyResult, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    out: list[Flowable] = [Spacer(1, 12), _p("Shortfalls", st["head"]), Spacer(1, 3)]
    if not result.problems:
        out.append(_p("None: the unit meets every standard checked.", st["cell"]))
        return out
    for p in result.problems:
        out.append(_p(f"{p.section} {p.room or 'The unit'}: {p.text}", st["cell"]))
        out.append(Spacer(1, 2))
    return out


def render_occupancy_pdf(
    code_name: str,
    unit: Unit,
    result: OccupancyResult,
    municipality_name: str,
    letterhead: Sequence[str],
    out: Path,
    prepared_by: str,
    on: date,
    attached: Sequence[tuple[str, str]] = (),
) -> None:
    """Write the calculation to `out` as a PDF (letter size, DejaVu embedded). `attached`: more
    facts of a calculation attached to a case or licence (label, value)."""
    regular, bold = register_fonts()
    st = _styles(regular, bold)
    story: list[Flowable] = []
    story += _header(municipality_name, letterhead, st)
    story.append(_p("Occupancy calculation", st["title"]))
    story.append(Spacer(1, 6))
    story.append(
        facts_table(
            [
                ("Date", _day(on)),
                ("Housing code", f"{code_name} ({result.code})"),
                ("Prepared by", prepared_by or EMPTY),
                *attached,
            ],
            st["label"],
            st["base"],
            1.15 * inch,
            padding=1,
        )
    )
    story.append(Spacer(1, 10))
    story.append(_rooms_table(unit, result, st))
    story.append(Spacer(1, 4))
    story.append(
        _p(
            "Areas in square feet. Counted: the floor under a ceiling of 5 ft or more, which "
            "sets occupancy. Minimums in brackets. * not a habitable room (not counted).",
            st["note"],
        )
    )
    story.append(Spacer(1, 12))
    story.append(_result_facts(result, st))
    story += _shortfalls(result, st)
    story.append(Spacer(1, 14))
    story.append(
        _p(
            "Figures worked from the measurements above; they are not a certificate of occupancy.",
            st["footnote"],
        )
    )
    build_pdf(
        Path(out),
        story,
        font=regular,
        title=f"Occupancy calculation — {municipality_name}",
        author=prepared_by,
        subject=f"{code_name}, {_day(on)}",
        footer=f"{municipality_name} — occupancy calculation of {_day(on)}",
        page_label="Page {page} · Permit Desk",
    )


def _dec(value: Any) -> Decimal:
    return Decimal(str(value))


def _opt_dec(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def result_from_dict(raw: dict[str, Any]) -> OccupancyResult:
    """The result as `permitdesk housing occupancy` printed it (desk.housing.jsonio), read
    back as it was: nothing is computed again."""
    return OccupancyResult(
        code=raw["code"],
        habitable_area=_dec(raw["habitable_area"]),
        max_occupants=int(raw["max_occupants"]),
        occupants=raw.get("occupants"),
        required_area=_opt_dec(raw.get("required_area")),
        problems=tuple(Problem(p["section"], p.get("room"), p["text"]) for p in raw["problems"]),
        rooms=tuple(
            RoomResult(
                name=r["name"],
                use=Use(r["use"]),
                habitable=bool(r["habitable"]),
                floor_area=_dec(r["floor_area"]),
                counted_area=_dec(r["counted_area"]),
                full_ceiling_ft=_dec(r["full_ceiling_ft"]),
                full_ceiling_area=_dec(r["full_ceiling_area"]),
                min_full_ceiling_area=_opt_dec(r.get("min_full_ceiling_area")),
                sleepers=int(r["sleepers"]),
                required_sleeping_area=_opt_dec(r.get("required_sleeping_area")),
                max_sleepers_over_12=r.get("max_sleepers_over_12"),
                max_sleepers_under_12=r.get("max_sleepers_under_12"),
                window_area=_opt_dec(r.get("window_area")),
                required_window_area=_opt_dec(r.get("required_window_area")),
                openable_area=_opt_dec(r.get("openable_area")),
                required_openable_area=_opt_dec(r.get("required_openable_area")),
            )
            for r in raw["rooms"]
        ),
    )


def render_attached_pdf(
    row: OccupancyCheckRow,
    municipality_name: str,
    letterhead: Sequence[str],
    out: Path,
) -> None:
    """A reprint of a calculation attached to a case or licence: the rooms as entered and the
    result as computed on the day it was attached (its frozen JSON), whatever the rules now."""
    try:
        code_name = load_housing_code(row.code).name
    except HousingCodeError:
        code_name = row.code
    unit = unit_from_json(row.rooms_json)
    result = result_from_dict(json.loads(row.result_json))
    attached = [("Attached to", row.attached_to)]
    if row.unit:
        attached.append(("Dwelling unit", f"Unit {row.unit}"))
    render_occupancy_pdf(
        code_name,
        unit,
        result,
        municipality_name,
        letterhead,
        out,
        row.by,
        row.checked_on,
        attached,
    )
