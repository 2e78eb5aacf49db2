"""Money is Decimal, never float; stored as integer cents (ARCHITECTURE.md)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from desk.errors import ValidationError

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> int:
    """Exact conversion for storage; refuses fractions of a cent rather than rounding silently."""
    q = amount.quantize(CENT)
    if q != amount:
        raise ValueError(f"{amount} has fractions of a cent; round it explicitly first")
    return int(q * 100)


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


def round_half_up_to_cent(amount: Decimal) -> Decimal:
    """Commercial rounding to the cent, for amounts the ordinance does not round to the dollar."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def parse_money(text: str, field: str = "amount") -> Decimal:
    """Parse what a clerk typed ('1,250.50', '$300') to Decimal; errors name the field."""
    cleaned = text.strip().replace(",", "").replace("$", "").strip()
    if not cleaned:
        raise ValidationError(field, "enter an amount")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValidationError(field, f"'{text}' is not an amount of money") from None
    if not value.is_finite():
        raise ValidationError(field, f"'{text}' is not an amount of money")
    if value < 0:
        raise ValidationError(field, "must not be negative")
    if value != value.quantize(CENT):
        raise ValidationError(field, "has more than two decimals")
    return value.quantize(CENT)


def format_money(amount: Decimal | None) -> str:
    """'$1,250.50'; a negative amount '−$161.00' with the minus sign (U+2212) before the dollar
    sign, as the office writes it (not '$-161.00'). Spreadsheets keep numbers instead."""
    if amount is None:
        return ""
    text = f"${abs(amount):,.2f}"
    return f"\N{MINUS SIGN}{text}" if amount < 0 and text != "$0.00" else text
