"""`permitdesk housing ...`: the housing codes' occupancy limits from the command line.
Needs no database: `housing occupancy --code hudson-140 < unit.json` prints the limits as JSON."""

from __future__ import annotations

import argparse
import sys

OCCUPANCY_HELP = (
    "the occupancy limits of a dwelling unit (Hudson 140-5/140-7, Ch. 512-11), read as JSON "
    'from standard input: {"rooms": [{"name", "use", "floor_area", "ceiling": [{"height_ft", '
    '"area"}], "window_area", "openable_area", "mechanical_ventilation", "occupants_over_12", '
    '"occupants_under_12", "artificial_light" (512-11G kitchens), "attic_half_story" '
    '(512-11A)}], "occupants_over_12", "occupants_under_12"}; areas in square feet as decimal '
    "strings. Children under one year are no occupants (Hudson 140-1)."
)


def add_commands(
    sub: argparse._SubParsersAction, parser_class: type[argparse.ArgumentParser]
) -> None:
    housing = sub.add_parser("housing", help="housing codes: occupancy limits of a dwelling unit")
    housingsub = housing.add_subparsers(
        dest="housing_command", required=True, parser_class=parser_class
    )
    occ = housingsub.add_parser("occupancy", help=OCCUPANCY_HELP, description=OCCUPANCY_HELP)
    occ.add_argument(
        "--code", required=True, metavar="KEY", help="the housing code: hudson-140 or ch-512"
    )


def run(args: argparse.Namespace, usage_error: type[Exception]) -> int:
    from desk.housing.jsonio import result_to_json, unit_from_json
    from desk.housing.occupancy import CODES, occupancy

    if args.code not in CODES:
        raise usage_error(f"--code '{args.code}' is not a housing code (known: {', '.join(CODES)})")
    unit = unit_from_json(sys.stdin.read())  # a ValidationError: exit 2 naming room and field
    print(result_to_json(occupancy(args.code, unit)))
    return 0
