"""`permitdesk enforcement ...`: code enforcement from the command line (Hudson 140-3).

- `sweep`: notices served and not petitioned within 10 days become orders (140-3D).
- `serve-again`: addressees whose registered mail came back unclaimed (140-3A(4)).
- `charges --year Y`: the city's abatement costs for the tax roll, by parcel (Wis. s. 66.0627).
- `licences [--expiring N]`: the rooming house licence register (Hudson 140-10A), or those in
  force expiring within N days with their renewal letters. `sweep` also revokes the licences
  suspended with no petition within 10 days (140-10D).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from desk.money import format_money


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    enf = sub.add_parser("enforcement", help="code enforcement: orders, service, special charges")
    enfsub = enf.add_subparsers(
        dest="enforcement_command", required=True, parser_class=parser_class
    )
    text = "make orders of the notices not petitioned within 10 days after service (140-3D)"
    add_db_options(enfsub.add_parser("sweep", help=text, description=text))
    text = "addressees to be served again: registered mail returned unclaimed (140-3A(4))"
    add_db_options(enfsub.add_parser("serve-again", help=text, description=text))
    text = "abatement costs to go on a year's tax roll, by parcel (Wis. s. 66.0627)"
    charges = enfsub.add_parser("charges", help=text, description=text)
    charges.add_argument("--year", type=int, required=True, metavar="YYYY")
    charges.add_argument("--xlsx", type=Path, metavar="FILE", help="also write the list for Excel")
    add_db_options(charges)
    text = "the rooming house licence register (Hudson 140-10A)"
    lic = enfsub.add_parser("licences", help=text, description=text)
    lic.add_argument("--expiring", type=int, metavar="DAYS", help="in force, expiring within DAYS")
    add_db_options(lic)


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db import enforcement_queries as q
    from db import queries
    from db.database import open_database
    from desk.clock import SystemClock
    from desk.services.enforcement.licences import sweep_licences
    from desk.services.enforcement.sweep import sweep_notices

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    sheets: list[tuple[str, Any]] = []
    try:
        with database.read() as conn:
            munis = queries.municipality_ids(conn)
        for muni_id, name in munis:
            if args.enforcement_command == "sweep":
                made = sweep_notices(database.uow(), SystemClock(), muni_id)
                for m in made:
                    print(f"{m.case_number}\tnotice #{m.notice_id}\torder from {m.effective_on}")
                print(f"{name}: {len(made)} notice(s) became orders (140-3D)")
                revoked = sweep_licences(database.uow(), SystemClock(), muni_id)
                for gone in revoked:
                    print(f"{gone.number}\trevoked {gone.revoked_on}")
                print(f"{name}: {len(revoked)} rooming house licence(s) revoked (140-10D)")
            elif args.enforcement_command == "licences":
                _licences(database, muni_id, name, args.expiring)
            elif args.enforcement_command == "serve-again":
                with database.read() as conn:
                    rows = q.serve_again(conn, muni_id)
                for r in rows:
                    print(f"{r.case_number}\t{r.name}\t{r.address}\treturned {r.returned_on}")
                print(f"{name}: {len(rows)} to serve again")
            else:
                with database.read() as conn:
                    charges = q.special_charges(conn, muni_id, args.year)
                for c in charges:
                    print(f"{c.pin}\t{c.address}\t{c.case_number}\t{c.cost:.2f}")
                total = sum((c.cost for c in charges), start=Decimal(0))
                money = format_money(total)
                print(f"{name}: {len(charges)} special charge(s), {money} for {args.year}")
                sheets.append((name, charges))
        if sheets and args.xlsx is not None:
            from reports.enforcement.charges import export_special_charges_xlsx

            export_special_charges_xlsx(sheets, args.year, args.xlsx)
            print(f"Written to {args.xlsx}")
    finally:
        database.close()
    return 0


def _licences(database: Any, muni_id: int, name: str, expiring: int | None) -> None:
    from db import licence_register_queries as lq
    from desk.clock import SystemClock
    from desk.enforcement.licences import RegisterFilter

    today = SystemClock().today()
    which = RegisterFilter.ALL if expiring is None else RegisterFilter.EXPIRING
    with database.read() as conn:
        rows = lq.register(conn, muni_id, today, which, expiring or 60)
        letters = [] if expiring is None else lq.renewal_letters(conn, muni_id, today, expiring)
    for r in rows:
        number = r.number or "(applied)"
        print(f"{number}\t{r.operator}\t{r.address}\t{r.status}\t{r.expires_on or ''}")
    for letter in letters:
        print(f"letter to {letter.operator}, {letter.operator_address}: {letter.text}")
    print(f"{name}: {len(rows)} rooming house licence(s)")
