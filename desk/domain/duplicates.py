"""The words for a record that would repeat a number the register keeps unique. The service's
check and the database's last guard (another workstation saved the same number a moment
earlier) raise the same error, so the clerk reads the same sentence either way."""

from __future__ import annotations

from desk.domain.model import GlAccount, Parcel, User
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
