"""The quote contract of `permitdesk fees quote`: request JSON in, response JSON out.

Errors name the item and the field, e.g. "items[2] (FAIL-TO-CALL).occurrence: must be 1 or more".
"""

from __future__ import annotations

import json
import math
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from desk.errors import ValidationError
from desk.fees.engine import Quote, QuoteItem, QuoteRequest

_ITEM_KEYS = {"code", "quantity", "amount", "occurrence", "rate", "pavement_age_years"}
_REQUEST_KEYS = {"work_began_before_permit", "emergency", "items", "excavated_on", "applied_on"}
MAX_DIGITS = 15  # what a float holds exactly; no fee, quantity or rate needs more
MAX_NUMBER = Decimal(10) ** 12
MAX_PLACES = 6
MAX_OCCURRENCE = 10_000
MAX_DEPTH = 20
_NESTED: Any = object()


def _digits(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    return sum(ch.isdigit() for ch in mantissa.lstrip("+-").lstrip("0."))


def _json_int(text: str) -> int:
    if _digits(text) > MAX_DIGITS:
        raise ValidationError("request", f"a number has more than {MAX_DIGITS} digits")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text) if _digits(text) <= MAX_DIGITS else None
    if value is None or not math.isfinite(value):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise ValidationError("request", f"{shown} is not a usable number")
    return value


def _json_constant(text: str) -> Any:
    raise ValidationError("request", f"{text} is not a number")


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH or not isinstance(value, dict | list):
        return level
    children = value.values() if isinstance(value, dict) else value
    return max((_depth(v, level + 1) for v in children), default=level)


def _number(where: str, name: str, value: Any) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValidationError(f"{where}.{name}", f"{value!r} is not a number")
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValidationError(f"{where}.{name}", f"{value!r} is not a number") from None
    if not d.is_finite():
        raise ValidationError(f"{where}.{name}", f"{value!r} is not a number")
    if d < 0:
        raise ValidationError(f"{where}.{name}", "must not be negative")
    if d >= MAX_NUMBER:
        raise ValidationError(f"{where}.{name}", f"must be less than {MAX_NUMBER:,.0f}")
    if d and int(d.normalize().as_tuple().exponent) < -MAX_PLACES:
        raise ValidationError(f"{where}.{name}", f"has more than {MAX_PLACES} decimal places")
    return d


def _date(name: str, value: Any) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValidationError(name, f"{value!r} is not a date YYYY-MM-DD") from None


def request_from_json(text: str) -> QuoteRequest:
    try:
        data = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except json.JSONDecodeError as e:
        raise ValidationError("request", f"malformed JSON: {e.msg} at line {e.lineno}") from None
    except RecursionError:
        data = _NESTED  # nested far deeper than MAX_DEPTH
    if data is _NESTED or _depth(data) > MAX_DEPTH:
        raise ValidationError("request", f"nested more than {MAX_DEPTH} levels deep")
    if not isinstance(data, dict):
        raise ValidationError("request", "must be a JSON object with an 'items' list")
    unknown = set(data) - _REQUEST_KEYS
    if unknown:
        raise ValidationError("request", f"unknown field(s): {', '.join(sorted(unknown))}")
    items_raw = data.get("items")
    if not isinstance(items_raw, list) or not items_raw:
        raise ValidationError("items", "must be a non-empty list")
    items = []
    for i, raw in enumerate(items_raw):
        if not isinstance(raw, dict):
            raise ValidationError(f"items[{i}]", "must be an object with a 'code'")
        code = raw.get("code")
        if not isinstance(code, str) or not code.strip():
            raise ValidationError(f"items[{i}].code", "is missing")
        where = f"items[{i}] ({code})"
        unknown = set(raw) - _ITEM_KEYS
        if unknown:
            raise ValidationError(where, f"unknown field(s): {', '.join(sorted(unknown))}")
        occurrence = raw.get("occurrence")
        if occurrence is not None and (
            isinstance(occurrence, bool) or not isinstance(occurrence, int)
        ):
            raise ValidationError(f"{where}.occurrence", "must be a whole number (1, 2, 3, ...)")
        if occurrence is not None and occurrence > MAX_OCCURRENCE:
            raise ValidationError(f"{where}.occurrence", f"must be at most {MAX_OCCURRENCE:,}")
        items.append(
            QuoteItem(
                code=code.strip(),
                quantity=_number(where, "quantity", raw.get("quantity")),
                amount=_number(where, "amount", raw.get("amount")),
                occurrence=occurrence,
                rate=_number(where, "rate", raw.get("rate")),
                pavement_age_years=_number(
                    where, "pavement_age_years", raw.get("pavement_age_years")
                ),
            )
        )
    for flag in ("work_began_before_permit", "emergency"):
        if not isinstance(data.get(flag, False), bool):
            raise ValidationError(flag, "must be true or false")
    return QuoteRequest(
        items=tuple(items),
        work_began_before_permit=data.get("work_began_before_permit", False),
        emergency=data.get("emergency", False),
        excavated_on=_date("excavated_on", data.get("excavated_on")),
        applied_on=_date("applied_on", data.get("applied_on")),
    )


def _money(d: Decimal) -> str:
    return f"{d:.2f}"


def quote_to_json(quote: Quote) -> dict[str, Any]:
    return {
        "municipality": quote.municipality,
        "schedule_version": quote.schedule_version,
        "effective_from": quote.effective_from.isoformat(),
        "lines": [
            {
                "code": line.code,
                "description": line.description,
                "section": line.section,
                "base": _money(line.base),
                "admin": _money(line.admin),
                "amount": _money(line.amount),
            }
            | ({"deposit": True} if line.deposit else {})
            | ({"note": line.note} if line.note else {})
            for line in quote.lines
        ],
        "total": _money(quote.total),
    }
