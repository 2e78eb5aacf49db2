"""Administration → GL accounts: the municipality's accounts and which account each fee item
code books to. No Qt here; the view calls the services in desk.services.cashiering."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desk.domain.cashiering import AccountKind
from desk.services.cashiering import AccountRow
from ui.presenters.formatting import EMPTY

ACCOUNT_COLUMNS = ("Number", "Name", "Kind", "Fee codes")
CODE_COLUMNS = ("Fee code", "Description", "Account")
KINDS = (AccountKind.REVENUE, AccountKind.LIABILITY)


@dataclass(frozen=True)
class CodeRow:
    code: str
    description: str
    account_number: str  # "" when the code books to no account yet

    def cells(self, names: dict[str, str]) -> tuple[str, ...]:
        account = (
            f"{self.account_number}  {names.get(self.account_number, '')}".rstrip()
            if self.account_number
            else EMPTY
        )
        return (self.code, self.description or EMPTY, account)


class GlAccountsPresenter:
    def __init__(
        self,
        fetch_accounts: Callable[[], list[AccountRow]],
        fetch_descriptions: Callable[[], dict[str, str]],
    ) -> None:
        self.fetch_accounts = fetch_accounts
        self.fetch_descriptions = fetch_descriptions
        self.accounts: list[AccountRow] = []
        self.codes: list[CodeRow] = []
        self.names: dict[str, str] = {}

    def load(self) -> None:
        self.accounts = self.fetch_accounts()
        self.names = {a.number: a.name for a in self.accounts}
        descriptions = self.fetch_descriptions()
        booked = {code: a.number for a in self.accounts for code in a.codes}
        # The items of the schedule in force and every code already mapped (a code dropped from
        # the schedule still books where it did, so it stays visible).
        self.codes = [
            CodeRow(code, descriptions.get(code, ""), booked.get(code, ""))
            for code in sorted(set(descriptions) | set(booked))
        ]

    def account_cells(self, row: int) -> tuple[str, ...]:
        a = self.accounts[row]
        return (a.number, a.name, a.kind.label, str(len(a.codes)) if a.codes else EMPTY)

    def code_cells(self, row: int) -> tuple[str, ...]:
        return self.codes[row].cells(self.names)

    def row_of_code(self, code: str) -> int | None:
        return next((i for i, c in enumerate(self.codes) if c.code == code), None)

    @property
    def account_choices(self) -> list[str]:
        """The combo's entries, "number  name"; the number is what map_fee_code takes."""
        return [f"{a.number}  {a.name}" for a in self.accounts if a.active]

    def choice_index(self, code_row: int) -> int:
        number = self.codes[code_row].account_number
        numbers = [a.number for a in self.accounts if a.active]
        return numbers.index(number) if number in numbers else 0

    @staticmethod
    def number_of(choice: str) -> str:
        return choice.split(maxsplit=1)[0] if choice.strip() else ""

    @property
    def summary(self) -> str:
        if not self.accounts and not self.codes:
            return (
                "No general-ledger accounts: none are shipped for a municipality without a "
                "permit ordinance."
            )
        unmapped = sum(1 for c in self.codes if not c.account_number)
        text = f"{len(self.accounts)} accounts, {len(self.codes)} fee codes"
        return text + (f"; {unmapped} book to no account" if unmapped else "")
