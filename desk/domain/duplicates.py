"""The words for a record that would repeat a number the register keeps unique. The service's
check and the database's last guard (another workstation saved the same number a moment
earlier) raise the same error, so the clerk reads the same sentence either way."""

from __future__ import annotations

from desk.dates import short_date
from desk.domain.model import GlAccount, Parcel, Payment, Refund, User
from desk.errors import DuplicateRecord


def parcel_exists(existing: Parcel) -> DuplicateRecord:
    """'Parcel 048-1007-017 already exists (6120 N Port Washington Rd).'"""
    assert existing.id is not None
    where = f" ({existing.address})" if existing.address else ""
    return DuplicateRecord(
        "parcel number", f"Parcel {existing.pin} already exists{where}.", existing.id
    )


def gl_account_exists(existing: GlAccount) -> DuplicateRecord:
    """'Account 100-44300 already exists (Building permits).'"""
    assert existing.id is not None
    return DuplicateRecord(
        "account number",
        f"Account {existing.number} already exists ({existing.name}).",
        existing.id,
    )


def username_taken(existing: User) -> DuplicateRecord:
    assert existing.id is not None
    return DuplicateRecord("user name", f"'{existing.username}' is already taken", existing.id)


def check_already_receipted(existing: Payment) -> DuplicateRecord:
    """'Check 1042 from Jane Doe is already on receipt 2026-0371 of 11/03/2026.' A check
    is one instrument: receipting it twice would count its money twice."""
    assert existing.id is not None
    d = existing.day
    return DuplicateRecord(
        "check number",
        f"Check {existing.check_number} from {existing.check_drawer or existing.payer_name} is "
        f"already on receipt {existing.receipt_number} of {short_date(d)}.",
        existing.id,
    )


def refund_check_used(existing: Refund) -> DuplicateRecord:
    """'Refund check 10012 was already written on 11/03/2026 (to Jane Doe).' The
    treasurer's checks are numbered once each."""
    assert existing.id is not None
    d = existing.check_date
    return DuplicateRecord(
        "check number",
        f"Refund check {existing.check_number} was already written on {short_date(d)} "
        f"(to {existing.payer_name}).",
        existing.id,
    )
