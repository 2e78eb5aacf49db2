"""Argument types for the `permitdesk` parser: each value is checked, and bounded, here.

A bad value raises argparse.ArgumentTypeError, which the parser turns into one line naming the
option ("--days must be between 0 and 3,660 (a whole number), not '-1'"), exit 2. Digits are ASCII
only: Python's int() and \\d also accept full-width and other Unicode digits.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from datetime import date

MAX_DAYS = 3660  # ten years ahead is as far as any deadline or expiry list looks
FIRST_YEAR, LAST_YEAR = 1900, 2100
MAX_PER_YEAR = 100_000
MIN_SIZE, MAX_SIZE = (320, 240), (7680, 4320)

_INT = re.compile(r"[+-]?[0-9]{1,12}", re.ASCII)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
_SIZE = re.compile(r"([0-9]{1,5})[xX]([0-9]{1,5})", re.ASCII)


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """A whole number from low to high, written in ASCII digits."""

    def parse(text: str) -> int:
        value = int(text.strip()) if _INT.fullmatch(text.strip()) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be between {low:,} and {high:,} (a whole number), not '{text}'"
            )
        return value

    return parse


days = bounded_int(0, MAX_DAYS)
per_year = bounded_int(1, MAX_PER_YEAR)
demo_years = bounded_int(1, 50)
seed = bounded_int(0, 999_999_999_999)


def iso_date(text: str) -> str:
    """YYYY-MM-DD, a real day from 1900 to 2100; the text itself, stripped (never empty)."""
    try:
        ok = bool(_DATE.fullmatch(text.strip()))
        day = date.fromisoformat(text.strip()) if ok else None
    except ValueError:
        day = None
    if day is None or not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date YYYY-MM-DD, e.g. 2026-03-01")
    return text.strip()


def size(text: str) -> tuple[int, int]:
    """WIDTHxHEIGHT within 320x240 .. 7680x4320."""
    m = _SIZE.fullmatch(text.strip())
    (w0, h0), (w1, h1) = MIN_SIZE, MAX_SIZE
    if not m or not (w0 <= int(m.group(1)) <= w1 and h0 <= int(m.group(2)) <= h1):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not WIDTHxHEIGHT from {w0}x{h0} to {w1}x{h1}, e.g. 1280x800"
        )
    return int(m.group(1)), int(m.group(2))
