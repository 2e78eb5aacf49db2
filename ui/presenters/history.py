"""A permit's History tab: the audit trail as a clerk reads it, one row per changed field.

Money moves are many audit rows (a receipt's allocation, its ledger postings; a refund's check,
its postings and adjusting lines): the clerk sees one summary row per move; a user who may
refund can show the accounting rows under it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from db.audit_queries import HistoryLookup, is_party_field, is_user_field
from desk.domain.cashiering import EntrySource, PaymentMethod, RefundGround
from desk.domain.checklists import ItemState
from desk.domain.enums import PartyRole, PermitClass, PermitStatus, WorkClass
from desk.domain.kinds import kind_label
from desk.domain.model import Actor, AuditEntry, FieldChange
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import HistoryReferences as References
from desk.domain.sureties import DepositStatus
from ui.presenters.formatting import (
    format_amount,
    format_date,
    format_timestamp,
    humanise_field,
    parse_iso_date,
)

COLUMNS: tuple[str, ...] = ("When", "Who", "What", "Field", "Old", "New")
ACCOUNTING_TOGGLE = "Show accounting entries"
# 15.1.34(b)(4): the treasurer gives money back and reconciles; the ledger rows are theirs.
ACCOUNTING_PERMISSION = Permission.REFUND

# What a status change means, in the words of the register.
_STATUS_EVENTS = {
    PermitStatus.ISSUED: "Permit issued",
    PermitStatus.VOID: "Permit voided",
    PermitStatus.REVOKED: "Permit revoked",
    PermitStatus.COMPLETED: "Permit completed",
    PermitStatus.EXPIRED: "Permit expired",
    PermitStatus.WORK_STARTED: "Work started",
    PermitStatus.ON_HOLD: "Permit put on hold",
    PermitStatus.WITHDRAWN: "Application withdrawn",
    PermitStatus.DENIED: "Application denied",
    PermitStatus.APPROVED: "Application approved",
    PermitStatus.IN_REVIEW: "Application in review",
}
_ACTIONS = {"create": "created", "update": "changed", "delete": "deleted"}
_PARTY_ACTIONS = {"create": "added", "update": "changed", "delete": "removed"}
_RECORD_ACTIONS = {"create": "recorded", "update": "changed", "delete": "removed"}
# Rows that belong to a permit, by the name the office gives them.
_ENTITY_LABELS = {
    "deposit": "Street deposit",
    "surety_facts": "Bond and deposit facts",
    "bond_permit": "Bond",
    "inspection": "Inspection",
    "inspection_exception": "Inspection exception",
    "correction_order": "Correction order",
    "occupancy_certificate": "Certificate of occupancy",
    "state_filing": "State filing",
    "permit_extension": "Extension",
    "permit_order": "Order",
    "condemnation": "Condemnation",
}
# Enum-valued fields and the enum that gives their label (by entity where the name is shared).
_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "state": ItemState,
    "permit_class": PermitClass,
    "work_class": WorkClass,
    "role": PartyRole,
    "method": PaymentMethod,
    "ground": RefundGround,
}
_STATUS_ENUMS: dict[str, type[StrEnum]] = {"permit": PermitStatus, "deposit": DepositStatus}
# Stored codes shown in words when no enum gives a label: 'awaiting_payment' -> 'Awaiting payment'.
_CODE_FIELDS = frozenset({"status", "source", "ground", "portion", "kind", "result", "outcome"})
_CODE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
_MONEY_FIELDS = frozenset({"valuation", "amount", "fee", "kept", "credited", "base", "admin"})
# Bookkeeping a clerk does not read: the When and Who columns already say when and by whom; the
# permit and municipality are this one; the rest are internal (schedule version, raw request).
_HIDDEN_FIELDS = frozenset(
    {"at", "day", "by_user_id", "permit_id", "municipality_id", "version_id", "request"}
)
# Accounting rows: summarised for the clerk, listed for the treasurer.
_LEDGER_ENTITIES = frozenset({"gl_entry", "payer_credit"})
_RECEIPT_ENTITIES = frozenset({"payment_allocation", "payment"})


@dataclass(frozen=True)
class HistoryRow:
    when: str
    who: str
    what: str
    field: str
    old: str
    new: str
    first_of_event: bool  # the first row of an audit event; later rows leave When/Who/What blank
    event: int = 0  # which audit event (0 = newest), for shading events alternately
    accounting: bool = False  # an accounting row under a money summary: shows its own What

    def cells(self) -> tuple[str, ...]:
        if self.first_of_event:
            return (self.when, self.who, self.what, self.field, self.old, self.new)
        if self.accounting:
            return ("", "", self.what, self.field, self.old, self.new)
        return ("", "", "", self.field, self.old, self.new)


def _areas_text(value: str) -> str:
    """'{"porch": 120}' -> 'porch 120 sq ft' (areas by level, as the audit stores them)."""
    try:
        areas = json.loads(value)
    except ValueError:
        return value
    if not isinstance(areas, dict):
        return value
    return ", ".join(
        f"{level} {area:,} sq ft" if isinstance(area, int) else f"{level} {area}"
        for level, area in areas.items()
    )


def _change_of(entry: AuditEntry, name: str) -> FieldChange | None:
    return next((c for c in entry.changes if c.field == name), None)


def _value(entry: AuditEntry, name: str) -> str:
    change = _change_of(entry, name)
    return (change.new or change.old or "") if change else ""


def _int(entry: AuditEntry, name: str) -> int | None:
    text = _value(entry, name)
    return int(text) if text.isdigit() else None


def _money(entry: AuditEntry, name: str = "amount") -> Decimal:
    try:
        return Decimal(_value(entry, name) or "0")
    except InvalidOperation:
        return Decimal(0)


def _code_text(value: str) -> str:
    return value.replace("_", " ").capitalize() if _CODE.fullmatch(value) else value


def describe_event(entry: AuditEntry, references: References | None = None) -> str:
    """'Permit created', 'Permit issued', 'Contractor added', 'Parcel changed',
    'Checklist: three complete sets of plans…', 'Fee assessed: Electrical'."""
    if entry.entity == "permit_checklist_item":
        item = (references or References()).checklist_items.get(entry.entity_id)
        return f"Checklist: {item}" if item else "Checklist item changed"
    if entry.entity == "permit_checklist_reopening":
        return "Checklist reopened" if entry.action == "create" else "Checklist locked"
    if entry.entity == "permit":
        if entry.action == "update":
            status = _change_of(entry, "status")
            if status is not None and status.new:
                try:
                    new = PermitStatus(status.new)
                except ValueError:
                    return "Permit changed"
                return _STATUS_EVENTS.get(new, f"Status changed to {new.label.lower()}")
            return "Permit changed"
        return f"Permit {_ACTIONS.get(entry.action, entry.action)}"
    if entry.entity == "permit_party":
        role = _change_of(entry, "role")
        value = (role.new or role.old) if role else None
        try:
            who = PartyRole(value).label if value else "Party"
        except ValueError:
            who = "Party"
        return f"{who} {_PARTY_ACTIONS.get(entry.action, entry.action)}"
    description = _value(entry, "description")
    if entry.entity == "permit_fee_line":
        verb = {"create": "assessed", "delete": "removed"}.get(entry.action, "changed")
        return f"Fee {verb}: {description}" if description else f"Fee {verb}"
    if entry.entity == "fee_adjustment":
        source = _value(entry, "source")
        if source == "nsf_charge":
            return "Returned check charge added"
        verb = "added" if source == "added" else "corrected"
        return f"Fee {verb}: {description}" if description else f"Fee {verb}"
    label = _ENTITY_LABELS.get(entry.entity)
    if label:
        return f"{label} {_RECORD_ACTIONS.get(entry.action, entry.action)}"
    return f"{humanise_field(entry.entity)} {_ACTIONS.get(entry.action, entry.action)}"


def _money_key(entry: AuditEntry) -> tuple[str, int] | None:
    """Which money move an accounting row belongs to: ('payment', payment id), ('reversal',
    reversal id), ('refund', refund id), ('ledger', 0) for a posting of none of them; None
    for a row that is not accounting."""
    if entry.entity == "refund":
        return ("refund", entry.entity_id)
    if entry.entity == "payment_reversal":
        return ("reversal", entry.entity_id)
    if entry.entity == "payment":
        return ("payment", entry.entity_id)
    if entry.entity == "fee_adjustment":
        # The fees a refund gives back stop being charged: part of the refund, not a new fee.
        refund = _int(entry, "refund_id")
        return ("refund", refund) if refund is not None else None
    if entry.entity in _LEDGER_ENTITIES or entry.entity in _RECEIPT_ENTITIES:
        for kind, name in (("reversal", "reversal_id"), ("refund", "refund_id")):
            found = _int(entry, name)
            if found is not None:
                return (kind, found)
        payment = _int(entry, "payment_id")
        return ("payment", payment) if payment is not None else ("ledger", 0)
    return None


@dataclass
class _Event:
    entries: list[AuditEntry]
    money: tuple[str, int] | None = None


def _events(entries: Sequence[AuditEntry]) -> list[_Event]:
    """Entries newest first, the accounting rows of one money move (written together) gathered
    into one event where its newest row stands."""
    ordered = sorted(entries, key=lambda e: e.at, reverse=True)  # stable: ties keep id order
    events: list[_Event] = []
    open_moves: dict[tuple[str, int, datetime], _Event] = {}
    for entry in ordered:
        key = _money_key(entry)
        if key is None:
            events.append(_Event([entry]))
            continue
        move = open_moves.get((*key, entry.at))
        if move is None:
            move = open_moves[(*key, entry.at)] = _Event([], key)
            events.append(move)
        move.entries.append(entry)
    return events


class HistoryPresenter:
    def __init__(
        self,
        entries: Sequence[AuditEntry],
        municipality_key: str,
        *,
        references: References | None = None,
        lookup: HistoryLookup | None = None,
        tz: tzinfo | None = None,
        can_show_accounting: bool = False,
        show_accounting: bool = False,
    ) -> None:
        self.entries = list(entries)
        self.municipality_key = municipality_key
        self.lookup = lookup or HistoryLookup(references=references or References())
        self.references = references or self.lookup.references
        self.tz = tz
        self.columns = COLUMNS
        self.can_show_accounting = can_show_accounting
        self.show_accounting = can_show_accounting and show_accounting
        self.rows = self._rows()

    @staticmethod
    def accounting_allowed(actor: Actor) -> bool:
        return allowed(actor, ACCOUNTING_PERMISSION)

    def set_show_accounting(self, on: bool) -> None:
        """Show or hide the accounting rows; only for a user who may see them."""
        self.show_accounting = self.can_show_accounting and on
        self.rows = self._rows()

    def who(self, entry: AuditEntry) -> str:
        return self.lookup.full_names.get(entry.username) or entry.username

    def _hidden(self, entry: AuditEntry, change: FieldChange) -> bool:
        if change.field in _HIDDEN_FIELDS:
            return True
        # 'ordered_by' (a name) next to 'ordered_by_id', 'depositor' next to
        # 'depositor_party_id': the name says it.
        stem = change.field.removesuffix("_id").removesuffix("_party")
        if change.field.endswith("_id") and (
            _change_of(entry, stem) or _change_of(entry, f"{stem}_name")
        ):
            return True
        # 'Refunded at' the moment the When column shows says nothing more.
        if change.field.endswith("_at") and change.new and change.old is None:
            try:
                return datetime.fromisoformat(change.new) == entry.at
            except ValueError:
                return False
        # A checklist item's text and code are in What; its who and when in Who and When.
        if entry.entity == "permit_checklist_item":
            return change.field in ("text", "code")
        # A checklist reopened: its reason shows; who and when are in Who and When.
        if entry.entity == "permit_checklist_reopening":
            return change.field != "reason"
        # A fee line reads by its description (in What); its code and booking are accounting.
        if entry.entity in ("permit_fee_line", "fee_adjustment"):
            return change.field in ("code", "description", "portion", "gl_account", "source")
        return False

    @staticmethod
    def _opened_checklist(entries: Sequence[AuditEntry], i: int) -> int:
        """How many checklist items were created with entries[i], in one save (opening the
        checklist writes every item at once): they show as one row."""
        first = entries[i]
        n = 0
        while (
            i + n < len(entries)
            and entries[i + n].entity == "permit_checklist_item"
            and entries[i + n].action == "create"
            and entries[i + n].at == first.at
        ):
            n += 1
        return n

    def _id_text(self, field_name: str, value: str) -> str:
        """A referenced row by its name; '' when it has none (an id is never shown)."""
        if not value.isdigit():
            return value
        key = int(value)
        refs, lk = self.references, self.lookup
        if is_user_field(field_name):
            return refs.users.get(key, "")
        if is_party_field(field_name):
            return refs.parties.get(key, "")
        if field_name == "payment_id":
            receipt = lk.receipts.get(key)
            return f"Receipt {receipt.number}" if receipt else ""
        if field_name == "refund_id":
            refund = lk.refunds.get(key)
            return f"Check {refund.check_number}" if refund else ""
        if field_name == "reversal_id":
            reversal = lk.reversals.get(key)
            return f"Receipt {reversal.receipt} reversed" if reversal else ""
        if field_name == "account_id":
            return lk.accounts.get(key, "")
        table = {
            "parcel_id": refs.parcels,
            "permit_id": refs.permits,
            "municipality_id": refs.municipalities,
        }.get(field_name, {})
        return table.get(key, "")

    def value_text(self, field_name: str, value: str | None, entity: str = "") -> str:
        if value is None or value == "":
            return ""
        enum = _STATUS_ENUMS.get(entity) if field_name == "status" else None
        enum = enum or _ENUM_FIELDS.get(field_name)
        if field_name == "status" and entity in ("", "permit"):
            enum = PermitStatus
        if enum is not None:
            try:
                return str(enum(value).label)  # type: ignore[attr-defined]
            except ValueError:
                return _code_text(value)
        if field_name == "kind" and entity in ("", "permit"):
            return kind_label(self.municipality_key, value)
        if field_name in _CODE_FIELDS:
            return _code_text(value)
        if field_name.endswith("_id"):
            return self._id_text(field_name, value)
        if field_name == "at" or field_name.endswith("_at"):
            try:
                return format_timestamp(datetime.fromisoformat(value), self.tz)
            except ValueError:
                return value
        if field_name == "day" or field_name.endswith(("_on", "_date")):
            day = parse_iso_date(value)
            return format_date(day) if day else value
        if field_name in _MONEY_FIELDS or field_name.endswith("_amount"):
            try:
                return format_amount(Decimal(value))
            except InvalidOperation:
                return value
        if field_name == "areas":
            return _areas_text(value)
        if field_name.endswith("_sqft") or field_name == "dwelling_units":
            return f"{int(value):,}" if value.lstrip("-").isdigit() else value
        if value in ("True", "False"):
            return "Yes" if value == "True" else "No"
        # An address kept on several lines reads on one.
        return ", ".join(line.strip() for line in value.splitlines() if line.strip())

    # --- money moves -------------------------------------------------------------------------

    def _method_text(self, method: str, check_number: str) -> str:
        if method == PaymentMethod.CHECK.value:
            return f"check {check_number}" if check_number else "check"
        try:
            return PaymentMethod(method).label.lower()
        except ValueError:
            return _code_text(method).lower()

    def _summary(self, move: _Event) -> tuple[str, str, str]:
        """(What, Field, New) of a money move's one row."""
        assert move.money is not None
        kind, key = move.money
        lk = self.lookup
        ledger = sum((_money(e) for e in move.entries if e.entity == "gl_entry"), Decimal(0))
        if kind == "payment":
            allocations = [e for e in move.entries if e.entity == "payment_allocation"]
            amount = sum((_money(e) for e in allocations), Decimal(0)) if allocations else ledger
            receipt = lk.receipts.get(key)
            if receipt is None:
                return (f"Payment, {format_amount(amount)}", "", "")
            paid_by = f"{receipt.payer}, {self._method_text(receipt.method, receipt.check_number)}"
            if receipt.amount != amount:  # one receipt paid several permits
                paid_by += f" (receipt total {format_amount(receipt.amount)})"
            return (
                f"Payment, receipt {receipt.number}, {format_amount(amount)}",
                "Paid by",
                paid_by,
            )
        if kind == "reversal":
            reversal = lk.reversals.get(key)
            if reversal is None:
                return ("Receipt reversed", "Amount", format_amount(ledger))
            if reversal.kind == "void":
                what = f"Receipt {reversal.receipt} voided: {reversal.reason}"
            else:
                what = f"Receipt {reversal.receipt}: {reversal.reason}"
            return (what, "Amount", format_amount(ledger))
        if kind == "refund":
            refund = lk.refunds.get(key)
            row = next((e for e in move.entries if e.entity == "refund"), None)
            check = refund.check_number if refund else (_value(row, "check_number") if row else "")
            amount = refund.amount if refund else (_money(row) if row else -ledger)
            payee = refund.payee if refund else (_value(row, "payer_name") if row else "")
            what = f"Refund, check {check}, {format_amount(amount)}" if check else "Refund"
            return (what, "Paid to" if payee else "", payee)
        return (f"Ledger entries, {format_amount(ledger)}", "", "")

    def _accounting_rows(self, move: _Event) -> list[tuple[str, str, str]]:
        """(What, Field, New) of each accounting row of a money move, readable."""
        order = {"refund": 0, "payment_allocation": 1, "gl_entry": 2, "payer_credit": 3}
        out: list[tuple[str, str, str]] = []
        for e in sorted(move.entries, key=lambda e: order.get(e.entity, 4)):
            amount = format_amount(_money(e))
            if e.entity == "payment_allocation":
                receipt = self.lookup.receipts.get(_int(e, "payment_id") or 0)
                field = f"Receipt {receipt.number}" if receipt else "Receipt"
                out.append(("Allocated to this permit", field, amount))
            elif e.entity == "gl_entry":
                try:
                    source = EntrySource(_value(e, "source")).value.replace("nsf", "returned check")
                except ValueError:
                    source = _value(e, "source")
                account = self.value_text("account_id", _value(e, "account_id")) or "Account"
                if _value(e, "portion") == "admin":
                    account += " (administrative cost)"
                out.append((f"Ledger entry, {source}", account, amount))
            elif e.entity == "fee_adjustment":
                out.append(("Fee no longer charged", _value(e, "description"), amount))
            elif e.entity == "refund":
                out.append(("Refund", "Reason", _value(e, "reason")))
            elif e.entity == "payer_credit":
                out.append(("Payer credit", _value(e, "memo"), amount))
        return out

    # --- rows --------------------------------------------------------------------------------

    def _rows(self) -> list[HistoryRow]:
        rows: list[HistoryRow] = []
        events = _events(self.entries)
        plain = [ev.entries[0] for ev in events]  # for grouping an opened checklist
        skip_to = 0
        shade = 0
        for i, ev in enumerate(events):
            if i < skip_to:
                continue
            entry = ev.entries[0]
            when, who = format_timestamp(entry.at, self.tz), self.who(entry)
            if ev.money is not None:
                if ev.money[0] == "ledger" and not self.show_accounting:
                    continue  # a posting with no receipt or refund: the treasurer's alone
                what, field, new = self._summary(ev)
                rows.append(HistoryRow(when, who, what, field, "", new, True, shade))
                if self.show_accounting:
                    rows.extend(
                        HistoryRow(when, who, w, f, "", n, False, shade, accounting=True)
                        for w, f, n in self._accounting_rows(ev)
                    )
                shade += 1
                continue
            opened = self._opened_checklist(plain, i)
            if opened > 1:
                skip_to = i + opened
                rows.append(
                    HistoryRow(when, who, "Checklist opened", "Items", "", f"{opened}", True, shade)
                )
                shade += 1
                continue
            what = describe_event(entry, self.references)
            shown = [
                (humanise_field(c.field), old, new)
                for c in entry.changes
                if not self._hidden(entry, c)
                for old, new in [
                    (
                        self.value_text(c.field, c.old, entry.entity),
                        self.value_text(c.field, c.new, entry.entity),
                    )
                ]
                if old or new  # an id with no name left to show: nothing a clerk can read
            ]
            if not shown:
                rows.append(HistoryRow(when, who, what, "", "", "", True, shade))
            for j, (field, old, new) in enumerate(shown):
                rows.append(HistoryRow(when, who, what, field, old, new, j == 0, shade))
            shade += 1
        return rows

    @property
    def empty_text(self) -> str:
        return "No changes recorded for this permit."
