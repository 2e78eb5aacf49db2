"""The contractors' template workbook: a "Contractors" sheet with the headings the import reads
(bold, frozen, nothing under them: a row there would be imported) and a "How to fill it in"
sheet that explains each column, gives an example and lists the credential kinds."""

from __future__ import annotations

from pathlib import Path

from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from desk.domain.enums import CredentialKind
from desk.imports.contractors import HEADINGS
from reports.xlsx import (
    DATE_FORMAT,
    add_sheet,
    first_sheet,
    fit_columns,
    new_workbook,
    save,
    setup_page,
    write_table,
    write_title,
)

SHEET = "Contractors"
HELP_SHEET = "How to fill it in"
ROWS_FORMATTED = 1000  # rows below the headings given text and date formats and the lists

# What each column holds, and an example: (heading, what to enter, example).
EXPLAINED: tuple[tuple[str, str, str], ...] = (
    (
        "Name",
        "Required. The person's or the company's name, as the register should show it.",
        "Badger State Plumbing LLC",
    ),
    (
        "Kind",
        "person or organization. Blank: Permit Desk guesses from the name (LLC, Inc, Co "
        "and the like make an organization).",
        "organization",
    ),
    ("Address", "The street address (the first line of the mailing address).", "1200 W Layton Ave"),
    ("Address line 2", "Suite, unit or PO box, when there is one.", "Suite 4"),
    ("City", "The city of the mailing address.", "Milwaukee"),
    ("State", "The two-letter state. Blank with an address: WI.", "WI"),
    ("ZIP", "5 digits, or ZIP+4.", "53221"),
    ("Phone", "As you want it shown.", "(414) 555-0142"),
    ("Email", "One e-mail address.", "office@badgerplumbing.example"),
    (
        "Credential",
        "The kind of state credential the row records (see the list below). "
        "Blank: the row records the person only.",
        "Master plumber",
    ),
    (
        "Credential number",
        "The licence or registration number; required with a credential.",
        "MP-222145",
    ),
    ("Expires", "The expiry date, e.g. 12/31/2027. Blank: none recorded.", "12/31/2027"),
)

RULES = (
    "One row per credential: a contractor with two credentials is on two rows with the same "
    "name (and the same address, or the address on one of them only).",
    "Someone already on the register is found by their credential's kind and number, or by "
    "the same name and ZIP. What a row leaves blank is never erased; what it changes is shown "
    "old → new in the dry run before anything is imported.",
    "A credential with a new number or expiry renews the one on the register; the old one is "
    "kept as history.",
    "The same credential on two rows: both rows are rejected, for you to say which is right.",
    "Keep the headings in row 1 and the rows under them; other columns are left alone.",
)


def write_contractor_template(path: Path) -> None:
    wb = new_workbook("Contractors", subject="Permit Desk contractors' import template")
    ws = first_sheet(wb, SHEET)
    write_table(ws, HEADINGS, [], total_row=False)  # the headings bold and frozen
    for c, heading in enumerate(HEADINGS, start=1):
        letter = get_column_letter(c)
        if heading in ("ZIP", "Phone", "Credential number"):
            fmt = "@"  # text: Excel keeps the leading zero of 02134 and the dashes as typed
        elif heading == "Expires":
            fmt = DATE_FORMAT
        else:
            continue
        for row in range(2, ROWS_FORMATTED + 2):
            ws[f"{letter}{row}"].number_format = fmt
    last = ROWS_FORMATTED + 1
    kinds = DataValidation(type="list", formula1='"person,organization"', allow_blank=True)
    kinds.error = "Kind is person or organization (or blank: guessed from the name)."
    labels = ",".join(k.label for k in CredentialKind)
    credentials = DataValidation(type="list", formula1=f'"{labels}"', allow_blank=True)
    credentials.showErrorMessage = False  # 'master_plumber' is read too: the list only helps
    for validation, heading in ((kinds, "Kind"), (credentials, "Credential")):
        letter = get_column_letter(HEADINGS.index(heading) + 1)
        validation.add(f"{letter}2:{letter}{last}")
        ws.add_data_validation(validation)
    fit_columns(ws)
    for c, heading in enumerate(HEADINGS, start=1):  # room for what is typed under them
        dim = ws.column_dimensions[get_column_letter(c)]
        dim.width = max(dim.width or 0, 30 if heading in ("Name", "Address", "Email") else 14)
    setup_page(ws)

    help_ws = add_sheet(wb, HELP_SHEET)
    row = write_title(
        help_ws,
        "Contractors for Permit Desk",
        [
            f"Fill in the sheet '{SHEET}', one row per contractor and credential, under the "
            "headings in row 1.",
            "Then, in Permit Desk: People → Import contractors…, choose this file, read the dry "
            "run, and import.",
        ],
    )
    table = write_table(
        help_ws,
        ("Column", "What to enter", "Example"),
        list(EXPLAINED),
        total_row=False,
        start_row=row,
        freeze=False,
    )
    row = table.next_row
    help_ws.cell(row=row, column=1, value="Credential kinds").font = Font(bold=True)
    row += 1
    kinds_table = write_table(
        help_ws,
        ("Credential", "Also written as"),
        [(k.label, k.value) for k in CredentialKind],
        total_row=False,
        start_row=row,
        freeze=False,
    )
    row = kinds_table.next_row
    help_ws.cell(row=row, column=1, value="How the import works").font = Font(bold=True)
    for i, text in enumerate(RULES, start=row + 1):
        help_ws.cell(row=i, column=1, value=f"• {text}")
        help_ws.merge_cells(start_row=i, start_column=1, end_row=i, end_column=3)
        help_ws.cell(row=i, column=1).alignment = Alignment(wrap_text=True, vertical="top")
        help_ws.row_dimensions[i].height = 30
    help_ws.column_dimensions["A"].width = 22
    help_ws.column_dimensions["B"].width = 70
    help_ws.column_dimensions["C"].width = 32
    for r in range(table.first_row, table.last_row + 1):
        help_ws.cell(row=r, column=2).alignment = Alignment(wrap_text=True, vertical="top")
        help_ws.cell(row=r, column=1).alignment = Alignment(vertical="top")
        help_ws.cell(row=r, column=3).alignment = Alignment(vertical="top")
    setup_page(help_ws, landscape=False)
    save(wb, Path(path))
