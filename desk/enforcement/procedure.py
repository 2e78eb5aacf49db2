"""The procedure a housing code's notices follow, as data: resources/procedures/<key>.toml.

Hudson ch. 140 has its own (140-3: a petition for a hearing before the Common Council within 10
days after service). A code with no procedure of its own (Ch. 512) is reviewed under Wis. Stat.
ch. 68: a request for review within 30 days of notice (68.08), a decision on review (68.09), an
appeal (68.10), a hearing on it (68.11) and a final determination (68.12). Every error names the
file and the field, as the housing code loader does.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from desk.enforcement.model import Decision

FOLDER = "procedures"
DAYS_SETTING = "procedure_days"  # municipality.settings: period key -> the office's own days
HUDSON = "hudson-140-3"
CH68 = "wis-stat-68"
MOST_DAYS = 365


class ProcedureError(ValueError):
    """A procedure file, or an office's own periods, that cannot be used: says where and why."""


@dataclass(frozen=True)
class Period:
    """A period of days of the procedure, counted by Wis. Stat. 990.001(4)."""

    key: str  # "request", "review", "appeal", "hearing", "hearing_notice", "final", "judicial"
    days: int
    section: str  # "Wis. Stat. 68.08"
    what: str  # "request for review"
    counted_from: str
    filing: bool  # an act at the office: 990.001(4)(c)'s Saturday applies
    office_may_change: bool = False
    bound: str = ""  # "at_least": the office may give more days; "at_most": fewer

    def cite(self) -> str:
        """'30 days (Wis. Stat. 68.08)'."""
        return f"{self.days} days ({self.section})"


@dataclass(frozen=True)
class Procedure:
    key: str
    name: str  # "Wis. Stat. ch. 68"
    filing: str  # "request for review"
    filings: str  # "requests for review"
    filing_short: str  # "petition", "request for review"
    filed_with: str
    decided_by: str
    no_filing_words: str  # "no review requested within {days} days"
    no_filing_section: str
    decision_section: str
    review: bool  # decision on review, appeal, hearing, final determination (ch. 68)
    decision_words: Mapping[Decision, str]
    periods: Mapping[str, Period] = field(default_factory=dict)

    def period(self, key: str) -> Period:
        try:
            return self.periods[key]
        except KeyError:
            raise ProcedureError(f"{self.key}: it has no period '{key}'") from None

    def days(self, key: str) -> int:
        return self.period(key).days

    @property
    def request(self) -> Period:
        return self.period("request")

    @property
    def no_filing(self) -> str:
        """'no review requested within 30 days (Wis. Stat. 68.08)'."""
        words = self.no_filing_words.format(days=self.request.days)
        return f"{words} ({self.no_filing_section})"

    def decided(self, decision: Decision) -> str:
        return self.decision_words[decision]

    @property
    def decider(self) -> str:
        """'The Common Council', 'The municipal authority (the Building Inspector)'."""
        return self.decided_by[:1].upper() + self.decided_by[1:]

    def with_days(self, days: Mapping[str, Any] | None) -> Procedure:
        """The procedure with the office's own periods (municipality settings), checked."""
        if not days:
            return self
        where = f"municipality settings '{DAYS_SETTING}'"
        if not isinstance(days, Mapping):
            raise ProcedureError(f"{where}: must be a table of period -> days")
        changed = dict(self.periods)
        for key, value in days.items():
            p = self.periods.get(key)
            if p is None or not p.office_may_change:
                allowed = ", ".join(k for k, x in self.periods.items() if x.office_may_change)
                raise ProcedureError(
                    f"{where}: {self.name} has no period '{key}' the office may set"
                    + (f" (it may set: {allowed})" if allowed else " (it may set none)")
                )
            n = _days(f"{where}, period '{key}'", value)
            if n < 1:
                raise ProcedureError(f"{where}, period '{key}': must be at least 1 day")
            if p.bound == "at_least" and n < p.days:
                raise ProcedureError(
                    f"{where}, period '{key}': {n} days is shorter than the {p.days} days "
                    f"{p.section} gives"
                )
            if p.bound == "at_most" and n > p.days:
                raise ProcedureError(
                    f"{where}, period '{key}': {n} days is longer than the {p.days} days "
                    f"{p.section} allows"
                )
            changed[key] = replace(p, days=n)
        return replace(self, periods=changed)


_FIELDS = {
    "key",
    "name",
    "filing",
    "filings",
    "filing_short",
    "filed_with",
    "decided_by",
    "no_filing",
    "no_filing_section",
    "decision_section",
    "review",
    "decision_words",
    "periods",
}
_PERIOD_FIELDS = {
    "key",
    "days",
    "section",
    "what",
    "counted_from",
    "filing",
    "office_may_change",
    "bound",
}
_REQUIRED_PERIODS = {
    False: ("request",),
    True: ("request", "review", "appeal", "hearing", "hearing_notice", "final"),
}


def _text(where: str, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ProcedureError(f"{where}: field '{name}' is missing or not text")
    return " ".join(value.split())


def _bool(where: str, name: str, value: Any, default: bool | None = None) -> bool:
    if value is None and default is not None:
        return default
    if not isinstance(value, bool):
        raise ProcedureError(f"{where}: field '{name}' must be true or false")
    return value


def _days(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProcedureError(f"{where}: field 'days' must be a whole number of days")
    if value < 0 or value > MOST_DAYS:
        raise ProcedureError(f"{where}: field 'days' must be 0 to {MOST_DAYS} ({value})")
    return value


def _period(name: str, index: int, raw: Any) -> Period:
    if not isinstance(raw, dict):
        raise ProcedureError(f"{name}, period #{index + 1}: not a table of fields")
    key = raw.get("key")
    where = f"{name}, period {key if isinstance(key, str) and key else f'#{index + 1}'}"
    unknown = set(raw) - _PERIOD_FIELDS
    if unknown:
        raise ProcedureError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    bound = raw.get("bound", "")
    if bound not in ("", "at_least", "at_most"):
        raise ProcedureError(f"{where}: field 'bound' must be at_least or at_most ({bound!r})")
    return Period(
        key=_text(where, "key", key),
        days=_days(where, raw.get("days")),
        section=_text(where, "section", raw.get("section")),
        what=_text(where, "what", raw.get("what")),
        counted_from=_text(where, "counted_from", raw.get("counted_from")),
        filing=_bool(where, "filing", raw.get("filing")),
        office_may_change=_bool(where, "office_may_change", raw.get("office_may_change"), False),
        bound=bound,
    )


def procedure_from_toml(name: str, text: str) -> Procedure:
    """Parse and check a procedure file; `name` is the file name errors cite."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ProcedureError(f"{name}: not valid TOML: {e}") from None
    unknown = set(data) - _FIELDS
    if unknown:
        raise ProcedureError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
    review = _bool(name, "review", data.get("review"))
    words = data.get("decision_words")
    if not isinstance(words, dict):
        raise ProcedureError(f"{name}: field 'decision_words' is missing")
    decision_words = {
        d: _text(f"{name}, decision_words", d.value, words.get(d.value)) for d in Decision
    }
    extra = set(words) - {d.value for d in Decision}
    if extra:
        raise ProcedureError(f"{name}, decision_words: unknown field(s) {', '.join(sorted(extra))}")
    raw = data.get("periods")
    if not isinstance(raw, list) or not raw:
        raise ProcedureError(f"{name}: it has no [[periods]]")
    periods: dict[str, Period] = {}
    for i, r in enumerate(raw):
        p = _period(name, i, r)
        if p.key in periods:
            raise ProcedureError(f"{name}, period {p.key}: field 'key' appears twice")
        periods[p.key] = p
    missing = [k for k in _REQUIRED_PERIODS[review] if k not in periods]
    if missing:
        raise ProcedureError(f"{name}: period(s) {', '.join(missing)} missing")
    no_filing = _text(name, "no_filing", data.get("no_filing"))
    try:
        no_filing.format(days=0)
    except (KeyError, IndexError, ValueError):
        raise ProcedureError(f"{name}: field 'no_filing' may name only {{days}}") from None
    return Procedure(
        key=_text(name, "key", data.get("key")),
        name=_text(name, "name", data.get("name")),
        filing=_text(name, "filing", data.get("filing")),
        filings=_text(name, "filings", data.get("filings")),
        filing_short=_text(name, "filing_short", data.get("filing_short")),
        filed_with=_text(name, "filed_with", data.get("filed_with")),
        decided_by=_text(name, "decided_by", data.get("decided_by")),
        no_filing_words=no_filing,
        no_filing_section=_text(name, "no_filing_section", data.get("no_filing_section")),
        decision_section=_text(name, "decision_section", data.get("decision_section")),
        review=review,
        decision_words=decision_words,
        periods=periods,
    )


def procedure_keys() -> tuple[str, ...]:
    folder = resources.files("resources").joinpath(FOLDER)
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


_cache: dict[str, Procedure] = {}


def load_procedure(key: str) -> Procedure:
    """The procedure shipped as resources/procedures/<key>.toml, checked (read once)."""
    if key in _cache:
        return _cache[key]
    keys = procedure_keys()
    if key not in keys:
        raise ProcedureError(f"no procedure '{key}' is shipped (shipped: {', '.join(keys)})")
    name = f"{key}.toml"
    path = resources.files("resources").joinpath(FOLDER).joinpath(name)
    proc = procedure_from_toml(name, path.read_text("utf-8"))
    if proc.key != key:
        raise ProcedureError(f"{name}: field 'key' says '{proc.key}', not '{key}'")
    _cache[key] = proc
    return proc


def procedure_of_code(housing_code: str | None) -> Procedure:
    """The procedure a housing code names (resources/housing_codes/<key>.toml `procedure`);
    Hudson 140-3 for a code not shipped."""
    from desk.housing.codes import HousingCodeError, load_housing_code

    try:
        key = load_housing_code(housing_code or "hudson-140").procedure
    except HousingCodeError:
        key = HUDSON
    return load_procedure(key or HUDSON)


def office_procedure(
    housing_code: str | None, municipality_code: str | None, settings: Mapping[str, Any] | None
) -> Procedure:
    """The procedure of a case opened under `housing_code`, with the office's own periods when
    the municipality still enforces that code (the settings were set for its current code; a
    case keeps the code, and so the procedure, it was opened under)."""
    proc = procedure_of_code(housing_code)
    if housing_code and housing_code == municipality_code:
        return proc.with_days((settings or {}).get(DAYS_SETTING))
    return proc
