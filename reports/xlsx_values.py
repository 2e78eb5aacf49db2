"""The values of a workbook's formulas, saved beside them. openpyxl writes a formula with no
value, and a viewer that does not calculate (a phone, Outlook's preview, a browser's) shows the
cell blank; Excel calculates on opening anyway (fullCalcOnLoad). So each formula the reports
write (SUM, COUNTA, IF, cell references across sheets, + - * / and comparisons) is worked out
here from the same cells, and its value is written into the saved file's <v> element: the
formula stays for the treasurer who changes a figure, and every viewer shows the number.

A formula this does not know, or one that divides by zero, keeps an empty value (as before)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterable
from datetime import date
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from openpyxl import Workbook
from openpyxl.formula.tokenizer import Token, Tokenizer
from openpyxl.utils.cell import get_column_letter, range_boundaries

Value = Decimal | str | bool | None


class Unsupported(Exception):
    """A formula outside what the reports write."""


def _flat(args: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for a in args:
        if isinstance(a, list):
            out.extend(a)
        else:
            out.append(a)
    return out


def _sum(*args: Any) -> Decimal:
    return sum(
        (v for v in _flat(args) if isinstance(v, Decimal)),
        Decimal(0),
    )


def _counta(*args: Any) -> Decimal:
    return Decimal(sum(1 for v in _flat(args) if v is not None and v != ""))


def _if(
    test: Callable[[], Any], yes: Callable[[], Any], no: Callable[[], Any] = lambda: False
) -> Any:
    return yes() if test() else no()


FUNCTIONS: dict[str, Callable[..., Any]] = {"SUM": _sum, "COUNTA": _counta}
_OPERATORS = {"=": "==", "<>": "!=", "^": "**"}
_KNOWN_INFIX = {"+", "-", "*", "/", "<", ">", "<=", ">="}


def python_of(formula: str) -> str:
    """The formula as a Python expression over _ref, _num, _F and _IF (lazy, as Excel's)."""
    out: list[str] = []
    stack: list[str] = []
    for token in Tokenizer(formula if formula.startswith("=") else f"={formula}").items:
        kind, sub, value = token.type, token.subtype, token.value
        if kind == Token.WSPACE:
            continue
        if kind == Token.OPERAND:
            if sub == Token.RANGE:
                sheet, _, ref = value.rpartition("!")
                sheet = sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet
                out.append(f"_ref({sheet!r}, {ref.replace('$', '')!r})")
            elif sub == Token.NUMBER:
                out.append(f"_num({value!r})")
            elif sub == Token.TEXT:
                out.append(repr(value[1:-1].replace('""', '"')))
            elif sub == Token.LOGICAL:
                out.append("True" if value.upper() == "TRUE" else "False")
            else:
                raise Unsupported(value)
        elif kind == Token.FUNC and sub == Token.OPEN:
            name = value[:-1].upper()
            if name == "IF":
                out.append("_IF(lambda: ")
            elif name in FUNCTIONS:
                out.append(f"_F[{name!r}](")
            else:
                raise Unsupported(name)
            stack.append(name)
        elif kind in (Token.FUNC, Token.PAREN) and sub == Token.CLOSE:
            out.append(")")
            stack.pop()
        elif kind == Token.PAREN and sub == Token.OPEN:
            out.append("(")
            stack.append("(")
        elif kind == Token.SEP and sub == Token.ARG:
            out.append(", lambda: " if stack and stack[-1] == "IF" else ", ")
        elif kind == Token.OP_PRE and value in "+-":
            out.append(value)
        elif kind == Token.OP_IN and (value in _OPERATORS or value in _KNOWN_INFIX):
            out.append(_OPERATORS.get(value, value))
        else:
            raise Unsupported(value)
    return "".join(out)


class Calculator:
    """The value of every formula cell of a workbook, each worked out once."""

    def __init__(self, wb: Workbook) -> None:
        self.wb = wb
        self.done: dict[tuple[str, str], Value] = {}
        self.busy: set[tuple[str, str]] = set()

    def cell(self, sheet: str, ref: str) -> Value:
        key = (sheet, ref)
        if key in self.done:
            return self.done[key]
        raw = self.wb[sheet][ref].value
        if isinstance(raw, str) and raw.startswith("="):
            if key in self.busy:
                raise Unsupported(f"circular reference at {sheet}!{ref}")
            self.busy.add(key)
            try:
                value = self.formula(sheet, raw)
            finally:
                self.busy.discard(key)
        else:
            value = _plain(raw)
        self.done[key] = value
        return value

    def formula(self, sheet: str, formula: str) -> Value:
        def ref(on: str, where: str) -> Any:
            on = on or sheet
            if ":" not in where:
                value = self.cell(on, where)
                return Decimal(0) if value is None else value
            low_col, low_row, high_col, high_row = range_boundaries(where)
            return [
                self.cell(on, f"{get_column_letter(c)}{r}")
                for r in range(low_row or 1, (high_row or 1) + 1)
                for c in range(low_col or 1, (high_col or 1) + 1)
            ]

        names = {"_ref": ref, "_num": Decimal, "_F": FUNCTIONS, "_IF": _if}
        # The expression is made only of the tokens python_of accepts (references, numbers and
        # text as Python literals, the operators above), never of the formula's raw text.
        value = eval(python_of(formula), {"__builtins__": {}, **names})  # globals: lambdas see them
        if isinstance(value, list):
            raise Unsupported("a range as a value")
        return value if isinstance(value, Decimal | str | bool) else _plain(value)


def _plain(raw: Any) -> Value:
    if raw is None or isinstance(raw, str | bool | Decimal):
        return raw
    if isinstance(raw, int | float):
        return Decimal(str(raw))
    if isinstance(raw, date):
        return None  # not summed: a date is not a figure of these reports
    return str(raw)


def formula_values(wb: Workbook) -> dict[tuple[str, str], Value]:
    """(sheet, 'B12') → the value of each formula cell that could be worked out."""
    calc = Calculator(wb)
    values: dict[tuple[str, str], Value] = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    try:
                        values[(ws.title, c.coordinate)] = calc.cell(ws.title, c.coordinate)
                    except Exception:  # a value not worked out never stops the workbook
                        continue
    return values


def _xml_value(value: Value) -> tuple[str, str] | None:
    """(the cell's type attribute, its <v> text)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return ' t="b"', "1" if value else "0"
    if isinstance(value, str):
        return ' t="str"', escape(value)
    if value == value.to_integral_value():
        return "", str(int(value))
    return "", repr(float(value))


_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f>(.*?)</f><v\s*/></c>', re.S)


def with_values(data: bytes, wb: Workbook) -> bytes:
    """The saved workbook `data` with each formula's value written beside it."""
    values = formula_values(wb)
    if not values:
        return data
    sheets = {f"xl/worksheets/sheet{n}.xml": ws.title for n, ws in enumerate(wb.worksheets, 1)}
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            title = sheets.get(item.filename)
            if title is not None:

                def fill(m: re.Match[bytes], title: str = title) -> bytes:
                    found = _xml_value(values.get((title, m.group(1).decode())))
                    if found is None:
                        return m.group(0)
                    kind, text = found
                    attrs = re.sub(rb'\s+t="[^"]*"', b"", m.group(2))
                    return (
                        b'<c r="'
                        + m.group(1)
                        + b'"'
                        + attrs
                        + kind.encode()
                        + b"><f>"
                        + m.group(3)
                        + b"</f><v>"
                        + text.encode()
                        + b"</v></c>"
                    )

                content = _FORMULA_CELL.sub(fill, content)
            target.writestr(item, content)
    return out.getvalue()
