"""`required_when` expressions of the checklist templates: a tiny, safe language over permit facts.

Grammar (no eval(); names are checked against the known facts when a template loads):

    expr       := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | atom
    atom       := "(" expr ")" | comparison
    comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand)?
    operand    := NAME | NUMBER | STRING | "true" | "false"

Logic is three-valued (Kleene): a fact that is not recorded is *unknown*, a comparison with an
unknown fact is unknown, `false and unknown` is false, `true or unknown` is true. A checklist item
whose condition is unknown is shown as required: the inspector records the fact or decides.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

Value = bool | int | float | Decimal | str | None
Facts = Mapping[str, Value]


class ConditionError(ValueError):
    """A `required_when` text that does not parse or names an unknown fact."""


_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>-?\d+(?:\.\d+)?)
      | (?P<string>"[^"]*"|'[^']*')
      | (?P<op>==|!=|<=|>=|<|>|\(|\))
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    )""",
    re.VERBOSE,
)
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_KEYWORDS = {"and", "or", "not", "true", "false"}


@dataclass(frozen=True)
class _Tok:
    kind: str  # number, string, op, name, keyword
    text: str


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ConditionError(f"cannot read '{text[pos:].strip()}' in '{text}'")
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        if kind == "name" and value in _KEYWORDS:
            kind = "keyword"
        out.append(_Tok(kind, value))
        pos = m.end()
    return out


# --- the parsed tree -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Const:
    value: Value


@dataclass(frozen=True)
class _Name:
    name: str


_Operand = _Const | _Name


@dataclass(frozen=True)
class _Compare:
    left: _Operand
    op: str | None  # None: a bare operand, true when the fact is truthy
    right: _Operand | None


@dataclass(frozen=True)
class _Not:
    inner: _Node


@dataclass(frozen=True)
class _And:
    parts: tuple[_Node, ...]


@dataclass(frozen=True)
class _Or:
    parts: tuple[_Node, ...]


_Node = _Compare | _Not | _And | _Or


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise ConditionError(f"'{self.text}' ends too early")
        self.i += 1
        return tok

    def is_kw(self, word: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == "keyword" and tok.text == word

    def parse(self) -> _Node:
        if not self.toks:
            raise ConditionError("the condition is empty")
        node = self.expr()
        if self.peek() is not None:
            raise ConditionError(f"unexpected '{self.peek().text}' in '{self.text}'")  # type: ignore[union-attr]
        return node

    def expr(self) -> _Node:
        parts = [self.and_expr()]
        while self.is_kw("or"):
            self.take()
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else _Or(tuple(parts))

    def and_expr(self) -> _Node:
        parts = [self.not_expr()]
        while self.is_kw("and"):
            self.take()
            parts.append(self.not_expr())
        return parts[0] if len(parts) == 1 else _And(tuple(parts))

    def not_expr(self) -> _Node:
        if self.is_kw("not"):
            self.take()
            return _Not(self.not_expr())
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text == "(":
            self.take()
            node = self.expr()
            close = self.take()
            if close.text != ")":
                raise ConditionError(f"missing ')' in '{self.text}'")
            return node
        left = self.operand()
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text in _COMPARE:
            self.take()
            return _Compare(left, tok.text, self.operand())
        return _Compare(left, None, None)

    def operand(self) -> _Operand:
        tok = self.take()
        if tok.kind == "number":
            return _Const(Decimal(tok.text))
        if tok.kind == "string":
            return _Const(tok.text[1:-1])
        if tok.kind == "keyword" and tok.text in ("true", "false"):
            return _Const(tok.text == "true")
        if tok.kind == "name":
            return _Name(tok.text)
        raise ConditionError(f"expected a fact, a number or a text, not '{tok.text}'")


def _names(node: _Node) -> set[str]:
    if isinstance(node, _Compare):
        return {o.name for o in (node.left, node.right) if isinstance(o, _Name)}
    if isinstance(node, _Not):
        return _names(node.inner)
    return set().union(*(_names(p) for p in node.parts))


def _value(operand: _Operand, facts: Facts) -> Value:
    if isinstance(operand, _Const):
        return operand.value
    value = facts.get(operand.name)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    return value


def _eval(node: _Node, facts: Facts) -> bool | None:
    if isinstance(node, _Compare):
        left = _value(node.left, facts)
        if node.op is None:
            return None if left is None else bool(left)
        assert node.right is not None
        right = _value(node.right, facts)
        if left is None or right is None:
            return None
        if isinstance(left, str) != isinstance(right, str):
            raise ConditionError(f"cannot compare {left!r} with {right!r}")
        return bool(_COMPARE[node.op](left, right))
    if isinstance(node, _Not):
        inner = _eval(node.inner, facts)
        return None if inner is None else not inner
    values = [_eval(p, facts) for p in node.parts]
    if isinstance(node, _And):
        if any(v is False for v in values):
            return False
        return None if any(v is None for v in values) else True
    if any(v is True for v in values):
        return True
    return None if any(v is None for v in values) else False


@dataclass(frozen=True)
class Condition:
    """A parsed `required_when`: `holds(facts)` is True, False or None (a fact is unknown)."""

    text: str
    _tree: _Node

    @property
    def names(self) -> frozenset[str]:
        return frozenset(_names(self._tree))

    def holds(self, facts: Facts) -> bool | None:
        return _eval(self._tree, facts)


def parse_condition(text: str, known: frozenset[str] | None = None) -> Condition:
    """Parse; with `known`, every fact named must be one of them."""
    tree = _Parser(text).parse()
    condition = Condition(text.strip(), tree)
    if known is not None:
        unknown = sorted(condition.names - known)
        if unknown:
            raise ConditionError(
                f"unknown fact {', '.join(repr(u) for u in unknown)} in '{text.strip()}' "
                f"(known: {', '.join(sorted(known))})"
            )
    return condition


# --- in words --------------------------------------------------------------------------------

# A clause for one comparison, (fact, operator, constant) -> words, e.g. ("valuation", ">=",
# Decimal(5000)) -> "the valuation is $5,000 or more"; a bare fact comes as (fact, "==", True).
# None: no words for it.
Phrase = Callable[[str, str, Value], str | None]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _clause(node: _Compare, phrase: Phrase, negate: bool) -> str | None:
    left, op, right = node.left, node.op, node.right
    if op is None or right is None:
        if not isinstance(left, _Name):
            return None
        return phrase(left.name, "!=" if negate else "==", True)
    if isinstance(left, _Const) and isinstance(right, _Name):
        left, right, op = right, left, _FLIP[op]  # 5000 <= valuation: valuation >= 5000
    if not isinstance(left, _Name) or not isinstance(right, _Const):
        return None  # two facts or two constants: no plain sentence for that
    if negate:
        op = _NEGATE[op]
    value = right.value
    if value is False and op in ("==", "!="):
        op, value = ("!=" if op == "==" else "=="), True
    return phrase(left.name, op, value)


def _words(node: _Node, phrase: Phrase, inside_and: bool = False) -> str | None:
    if isinstance(node, _Compare):
        return _clause(node, phrase, False)
    if isinstance(node, _Not):
        return _clause(node.inner, phrase, True) if isinstance(node.inner, _Compare) else None
    if isinstance(node, _And):
        parts = [_words(p, phrase, inside_and=True) for p in node.parts]
        return None if None in parts else " and ".join(p for p in parts if p)
    # An "or" inside an "and" reads "either A or B"; deeper nesting would be ambiguous in prose.
    if inside_and and any(isinstance(p, _And) for p in node.parts):
        return None
    parts = [_words(p, phrase) for p in node.parts]
    if None in parts:
        return None
    joiner = ", or " if any(isinstance(p, _And) for p in node.parts) else " or "
    text = joiner.join(p for p in parts if p)
    return f"either {text}" if inside_and else text


def describe(condition: Condition, phrase: Phrase) -> str | None:
    """The condition as one clause in words, or None when some part has none: the caller then
    says something general, never the expression itself."""
    return _words(condition._tree, phrase)
