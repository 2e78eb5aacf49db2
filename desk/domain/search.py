"""What the permits search finds a permit by: its number, address, parcel number and names.

The same functions build the index for a single permit (db/tracking.py), for bulk demo data, and
split what the clerk types, so the three can never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from desk.domain.numbering import parse_number

_WORD = re.compile(r"[0-9a-z]+(?:[-'][0-9a-z]+)*")
MAX_TERM = 120


def normalize(text: str) -> str:
    return text.lower().strip()


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def index_words(text: str) -> set[str]:
    """Words and the parts of hyphenated ones: 'Schmidt-Vang' is found by 'schmidt-v' and 'vang'."""
    out: set[str] = set()
    for w in words(text):
        out.add(w)
        out.update(p for p in re.split(r"[-']", w) if p)
    return out


def query_tokens(typed: str) -> list[str]:
    """What the clerk typed, as prefixes that must all match (AND), longest first."""
    seen: list[str] = []
    for w in words(typed):
        if w not in seen:
            seen.append(w)
    # Drop a token that is a prefix of another: it adds no filtering.
    kept = [t for t in seen if not any(o != t and o.startswith(t) for o in seen)]
    return sorted(kept, key=len, reverse=True)


def permit_terms(
    number: str | None,
    pin: str | None,
    address: str | None,
    names: Iterable[str],
) -> set[str]:
    terms: set[str] = set()
    if number:
        terms.add(normalize(number))
        try:
            _, seq = parse_number(number)
            terms.add(str(seq))  # '17' finds 2025-0017
            terms.add(f"{seq:04d}")
        except ValueError:
            pass
    if pin:
        terms.add(normalize(pin))
        terms.update(index_words(pin))
    if address:
        terms.update(index_words(address))
    for name in names:
        terms.update(index_words(name))
    return {t[:MAX_TERM] for t in terms if t}


def number_sort_key(number: str | None) -> int | None:
    """An integer that sorts 2026-9999 before 2026-10000."""
    if not number:
        return None
    try:
        year, seq = parse_number(number)
    except ValueError:
        return None
    return year * 10_000_000 + seq


def prefix_upper_bound(prefix: str) -> str:
    """The smallest string greater than every string starting with `prefix` (range scan)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)
