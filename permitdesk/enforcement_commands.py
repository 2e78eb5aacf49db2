"""`permitdesk enforcement ...`: code enforcement from the command line (Hudson 140-3).

- `sweep`: notices served and not petitioned within 10 days become orders (140-3D).
- `serve-again`: addressees whose registered mail came back unclaimed (140-3A(4)).
- `charges --year Y`: the city's abatement costs for the tax roll, by parcel (Wis. s. 66.0627).
- `licences [--expiring N] [--letters OUT.pdf]`: the rooming house licence register (Hudson
  140-10A), or those in force expiring within N days (60 by default with --letters) with their
  renewal letters, written to OUT.pdf. `sweep` also revokes the licences suspended with no
  petition within 10 days (140-10D).
- `certificate RH-YYYY-NNNN OUT.pdf`: the licence certificate to display within the rooming
  house (140-10A).
- `docket --date YYYY-MM-DD OUT.pdf`: the Common Council's hearing docket of that meeting date
  (140-3B).

Each signs a user in (--user U with the password on standard input, or PERMITDESK_TOKEN): the
sweep's orders and revocations are recorded as theirs in the audit trail.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from desk.money import format_money
from permitdesk import signing


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    def signed_db_options(p: argparse.ArgumentParser) -> None:
        add_db_options(p)
        signing.add_sign_in_options(p)

    enf = sub.add_parser("enforcement", help="code enforcement: orders, service, special charges")
    enfsub = enf.add_subparsers(
        dest="enforcement_command", required=True, parser_class=parser_class
    )
    text = "make orders of the notices not petitioned within 10 days after service (140-3D)"
    signed_db_options(enfsub.add_parser("sweep", help=text, description=text))
    text = "addressees to be served again: registered mail returned unclaimed (140-3A(4))"
    signed_db_options(enfsub.add_parser("serve-again", help=text, description=text))
    text = "abatement costs to go on a year's tax roll, by parcel (Wis. s. 66.0627)"
    charges = enfsub.add_parser("charges", help=text, description=text)
    charges.add_argument("--year", type=int, required=True, metavar="YYYY")
    charges.add_argument("--xlsx", type=Path, metavar="FILE", help="also write the list for Excel")
    signed_db_options(charges)
    text = "the rooming house licence register (Hudson 140-10A)"
    lic = enfsub.add_parser("licences", help=text, description=text)
    lic.add_argument("--expiring", type=int, metavar="DAYS", help="in force, expiring within DAYS")
    lic.add_argument(
        "--letters",
        type=Path,
        metavar="OUT.pdf",
        help="write the renewal letters of the licences expiring (within 60 days by default)",
    )
    signed_db_options(lic)
    text = "write a rooming house licence's certificate to display in the house (140-10A)"
    cert = enfsub.add_parser("certificate", help=text, description=text)
    cert.add_argument("number", metavar="RH-YYYY-NNNN")
    cert.add_argument("out", type=Path, metavar="OUT.pdf")
    signed_db_options(cert)
    text = "the Common Council's hearing docket of a meeting date, as PDF (Hudson 140-3B)"
    docket = enfsub.add_parser("docket", help=text, description=text)
    docket.add_argument("--date", required=True, metavar="YYYY-MM-DD", help="the meeting date")
    docket.add_argument("--municipality", metavar="KEY", help="e.g. hudson (default: the first)")
    docket.add_argument("out", type=Path, metavar="OUT.pdf")
    signed_db_options(docket)


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db import enforcement_queries as q
    from db import queries
    from db.database import open_database
    from db.integrity import refuse_damaged
    from desk.clock import SystemClock
    from desk.services.enforcement.licences import sweep_licences
    from desk.services.enforcement.sweep import sweep_notices

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    try:
        # A list or a document made from a damaged file would leave rows out without a word.
        if args.enforcement_command != "sweep":
            refuse_damaged(database.engine)
        actor = signing.signed_in(args, database, SystemClock())
    except BaseException:
        database.close()
        raise
    if args.enforcement_command == "docket":
        try:
            return _docket(database, args, usage_error)
        finally:
            database.close()
    if args.enforcement_command == "certificate":
        try:
            return _certificate(database, args.number, args.out, usage_error)
        finally:
            database.close()
    sheets: list[tuple[str, Any]] = []
    try:
        with database.read() as conn:
            munis = queries.municipality_ids(conn)
        for muni_id, name in munis:
            if args.enforcement_command == "sweep":
                made = sweep_notices(database.uow(), SystemClock(), muni_id, actor)
                for m in made:
                    print(f"{m.case_number}\tnotice #{m.notice_id}\torder from {m.effective_on}")
                print(f"{name}: {len(made)} notice(s) became orders (140-3D)")
                revoked = sweep_licences(database.uow(), SystemClock(), muni_id, actor)
                for gone in revoked:
                    print(f"{gone.number}\trevoked {gone.revoked_on}")
                print(f"{name}: {len(revoked)} rooming house licence(s) revoked (140-10D)")
            elif args.enforcement_command == "licences":
                letters = args.letters
                if letters is not None and len(munis) > 1:  # one file per municipality
                    letters = letters.with_name(f"{letters.stem}-{muni_id}{letters.suffix}")
                _licences(database, muni_id, name, args.expiring, letters)
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


def _licences(
    database: Any, muni_id: int, name: str, expiring: int | None, out: Path | None = None
) -> None:
    from db import licence_register_queries as lq
    from db.letterheads import letterhead_as_of
    from desk.clock import SystemClock
    from desk.enforcement.licences import RENEWAL_DAYS, RegisterFilter

    today = SystemClock().today()
    if expiring is None and out is not None:
        expiring = RENEWAL_DAYS
    which = RegisterFilter.ALL if expiring is None else RegisterFilter.EXPIRING
    with database.read() as conn:
        rows = lq.register(conn, muni_id, today, which, expiring or RENEWAL_DAYS)
        letters = [] if expiring is None else lq.renewal_letters(conn, muni_id, today, expiring)
        letterhead = letterhead_as_of(conn, muni_id, today) if out is not None else None
    for r in rows:
        number = r.number or "(applied)"
        print(f"{number}\t{r.operator}\t{r.address}\t{r.status}\t{r.expires_on or ''}")
    for letter in letters:
        print(f"letter to {letter.operator}, {letter.operator_address}: {letter.text}")
    print(f"{name}: {len(rows)} rooming house licence(s)")
    if out is not None and letterhead is not None:
        from reports.enforcement.licence import render_renewal_letters

        render_renewal_letters(letters, letterhead, today, out)
        print(f"{len(letters)} renewal letter(s) written to {out}")


def _certificate(database: Any, number: str, out: Path, usage_error: type[Exception]) -> int:
    """`certificate RH-YYYY-NNNN OUT.pdf`: the licence to display in the house (140-10A)."""
    from sqlalchemy import select

    from db import licence_register_queries as lq
    from db import schema
    from db.letterheads import letterhead_as_of
    from desk.clock import SystemClock
    from reports.enforcement.licence import render_licence_certificate

    lic = schema.rooming_licence.c
    wanted = number.strip().upper()
    with database.read() as conn:
        found = conn.execute(
            select(lic.id, lic.municipality_id).where(lic.number == wanted).order_by(lic.id)
        ).first()
        if found is None:
            raise usage_error(f"no rooming house licence {wanted} was issued")
        cert = lq.certificate(conn, found.id, SystemClock().today())
        if cert is None:  # a number is given on issue only
            raise usage_error(f"rooming house licence {wanted} was not issued")
        letterhead = letterhead_as_of(conn, found.municipality_id, cert.issued_on)
    render_licence_certificate(cert, letterhead, out)
    note = "" if cert.status == "in force" else f" ({cert.status})"
    print(f"Licence {cert.number}{note} written to {out}")
    return 0


def _docket(database: Any, args: argparse.Namespace, usage_error: type[Exception]) -> int:
    """`docket --date D OUT.pdf`: the hearings before the Council on D (140-3B)."""
    from datetime import date

    from db import enforcement_queries as q
    from db.letterheads import letterhead_as_of
    from db.report_queries import municipality_id_for
    from desk.errors import NotFound
    from reports.enforcement.hearing import render_hearing_docket

    try:
        on = date.fromisoformat(args.date)
    except ValueError:
        raise usage_error(f"--date {args.date}: give the meeting date as YYYY-MM-DD") from None
    with database.read() as conn:
        try:
            mid = municipality_id_for(conn, args.municipality)
        except NotFound as e:
            raise usage_error(str(e)) from None
        rows = q.hearing_docket(conn, mid, on)
        letterhead = letterhead_as_of(conn, mid, on)
    render_hearing_docket(on, rows, letterhead, args.out)
    for r in rows:
        print(f"{r.case_number}\t{r.property_address}\t{r.place}")
    print(f"{len(rows)} hearing(s) on {on.isoformat()}; written to {args.out}")
    return 0
