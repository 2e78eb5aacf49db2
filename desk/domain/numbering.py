"""Permit and receipt numbers.

Glendale 15.1.6(c) and 15.1.74(a): permits are "regularly numbered in the order of their issue".
Numbers are gapless per municipality, series and year of issue, allocated in the issuing
transaction (db/numbering.py), and never reused: a voided permit keeps its number.
"""

from __future__ import annotations

import re

PERMIT_SERIES = "P"
RECEIPT_SERIES = "R"
CASE_SERIES = "CE"  # code enforcement cases, CE-YYYY-NNNN (desk/enforcement/rules.py)

_NUMBER = re.compile(r"^(\d{4})-(\d{4,})$")


def format_number(year: int, seq: int) -> str:
    """'YYYY-NNNN', widening past 9999 (2026-10000) rather than wrapping."""
    if seq < 1:
        raise ValueError("sequence numbers start at 1")
    return f"{year}-{seq:04d}"


def parse_number(number: str) -> tuple[int, int]:
    m = _NUMBER.match(number.strip())
    if not m:
        raise ValueError(f"'{number}' is not a number of the form YYYY-NNNN")
    return int(m.group(1)), int(m.group(2))
