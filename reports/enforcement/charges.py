"""The special-charge list for the clerk: the costs of abatement by the city, each to go on the
parcel's tax roll as a special charge (Wis. s. 66.0627; razing, s. 66.0413)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from desk.enforcement.readmodels import SpecialChargeRow
from reports import xlsx

COLUMNS = ("Parcel number", "Address", "Case", "Decided on", "Cost", "Notes")


def special_charges_title(year: int) -> str:
    return f"Special charges for the {year} tax roll (Wis. s. 66.0627)"


def export_special_charges_xlsx(
    municipalities: Sequence[tuple[str, Sequence[SpecialChargeRow]]], year: int, out: Path
) -> None:
    """One sheet per municipality: its charges by parcel, the decision's date a date cell, the
    cost a money cell, and their total."""
    title = special_charges_title(year)
    wb = xlsx.new_workbook(title, subject=str(year), author=", ".join(n for n, _ in municipalities))
    for i, (name, rows) in enumerate(municipalities):
        ws = xlsx.first_sheet(wb, name) if i == 0 else xlsx.add_sheet(wb, name)
        row = xlsx.write_title(ws, title, [name])
        xlsx.write_table(
            ws,
            COLUMNS,
            [(r.pin, r.address, r.case_number, r.decided_on, r.cost, r.notes) for r in rows],
            money_cols={4},
            date_cols={3},
            start_row=row,
        )
        xlsx.finish_sheet(ws, title_rows=set(range(1, row)), header_text=name)
    xlsx.save(wb, out)
