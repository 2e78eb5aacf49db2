"""What the permits search finds a permit by: its number, address, parcel number and names.

The same functions build the index for a single permit (db/tracking.py), for bulk demo data, and
split what the clerk types, so the three can never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

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


# --- forgiving search: street words both ways, and close matches for typos -------------------

# USPS Publication 28, appendix C1 (street suffixes) and C2 (directionals): the word and its
# standard abbreviation find each other, whichever the register or the clerk wrote.
STREET_ABBREVIATIONS: dict[str, str] = {
    "alley": "aly",
    "avenue": "ave",
    "boulevard": "blvd",
    "center": "ctr",
    "circle": "cir",
    "commons": "cmns",
    "court": "ct",
    "cove": "cv",
    "creek": "crk",
    "crescent": "cres",
    "crossing": "xing",
    "drive": "dr",
    "expressway": "expy",
    "freeway": "fwy",
    "glen": "gln",
    "green": "grn",
    "grove": "grv",
    "heights": "hts",
    "highway": "hwy",
    "hill": "hl",
    "hollow": "holw",
    "junction": "jct",
    "lake": "lk",
    "landing": "lndg",
    "lane": "ln",
    "meadow": "mdw",
    "meadows": "mdws",
    "mount": "mt",
    "parkway": "pkwy",
    "place": "pl",
    "plaza": "plz",
    "point": "pt",
    "ridge": "rdg",
    "road": "rd",
    "route": "rte",
    "square": "sq",
    "station": "sta",
    "street": "st",
    "terrace": "ter",
    "trail": "trl",
    "turnpike": "tpke",
    "valley": "vly",
    "view": "vw",
    "village": "vlg",
    "way": "way",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
}
_WORDS_OF: dict[str, tuple[str, ...]] = {}
for _word, _abbr in STREET_ABBREVIATIONS.items():
    _WORDS_OF[_abbr] = (*_WORDS_OF.get(_abbr, ()), _word)


def street_equivalents(token: str) -> tuple[str, ...]:
    """Whole terms that also match `token` besides the terms it is a prefix of: 'road' finds
    'rd' and 'rd' finds 'road'; a word being typed finds the abbreviation too ('pla' finds 'pl',
    'blv' finds 'boulevard'), so the list does not empty and refill while the clerk types."""
    out: set[str] = set()
    if token in STREET_ABBREVIATIONS:
        out.add(STREET_ABBREVIATIONS[token])
    out.update(_WORDS_OF.get(token, ()))
    if len(token) >= 3:  # shorter beginnings of words would match half the register
        out.update(a for w, a in STREET_ABBREVIATIONS.items() if w.startswith(token))
    if len(token) >= 2:
        for abbr, full in _WORDS_OF.items():
            if abbr.startswith(token):
                out.update(full)
    # Terms the prefix finds anyway need no second look-up.
    return tuple(sorted(t for t in out if not t.startswith(token)))


@dataclass(frozen=True)
class TokenMatch:
    """How one typed word matches the index: terms starting with `prefix` (None for a corrected
    word) or equal to one of `exact`; `distances` are the edits from the typed word to each
    exact term when it was corrected (empty otherwise)."""

    typed: str
    prefix: str | None
    exact: tuple[str, ...] = ()
    distances: tuple[int, ...] = ()

    @property
    def corrected(self) -> bool:
        return self.prefix is None


@dataclass(frozen=True)
class SearchPlan:
    """What the list filters by: every token must match (AND)."""

    tokens: tuple[TokenMatch, ...] = ()

    @property
    def close_matches(self) -> tuple[str, ...]:
        """The closest term of each corrected word, as the clerk is told ('teutonia')."""
        return tuple(t.exact[0] for t in self.tokens if t.corrected and t.exact)


def token_matches(typed: str) -> tuple[TokenMatch, ...]:
    return tuple(TokenMatch(t, t, street_equivalents(t)) for t in query_tokens(typed))


def correctable(token: str) -> bool:
    """Words long enough to tell a typo from another word; numbers and parcel numbers must be
    typed right (a near house number is a different house)."""
    return len(token) >= 4 and not any(c.isdigit() for c in token)


def max_edits(token: str) -> int:
    return 1 if len(token) <= 5 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (an adjacent swap counts once: 'teutonai'/'teutonia');
    anything above `limit` comes back as limit + 1, early."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, previous2[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)


def closest_terms(token: str, candidates: Iterable[str], limit: int = 5) -> list[tuple[str, int]]:
    """Indexed terms within a few edits of a typed word, closest first: whole terms before
    terms whose beginning is close ('tuetoni' is on its way to 'teutonia')."""
    k = max_edits(token)
    scored: list[tuple[int, int, int, str]] = []
    for term in candidates:
        if term == token or any(c.isdigit() for c in term):
            continue
        d = edit_distance(token, term, k)
        whole = 0
        if d > 0 and len(token) >= 5 and len(term) > len(token):
            begins = min(edit_distance(token, term[:n], k) for n in (len(token) - 1, len(token)))
            if begins < d:
                d, whole = begins, 1
        if d <= k:
            scored.append((d, whole, abs(len(term) - len(token)), term))
    scored.sort()
    return [(term, d) for d, _, _, term in scored[:limit]]


def min_candidate_length(token: str) -> int:
    return max(1, len(token) - max_edits(token))
