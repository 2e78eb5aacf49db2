"""A number the register keeps unique, entered twice: the clerk reads which record has it
already (the service checks first; the database's unique constraint, the last guard, is
answered in the same words), never an IntegrityError."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from db import schema
from db.database import Database
from db.uow import NOT_SAVED, outcome
from desk.clock import FixedClock
from desk.domain.cashiering import AccountKind
from desk.domain.enums import Role
from desk.domain.model import GlAccount, Parcel, User
from desk.errors import DuplicateRecord
from desk.services import cashiering as cash
from desk.services import permits, setup, users
from tests.factories import PASSWORD, Register, seed_register
from tests.racing import errors, race

PIN = "047-9991-002"  # seed_register's parcel, 6120 N Port Washington Rd
ON_FILE = "parcel number: Parcel 047-9991-002 already exists (6120 N Port Washington Rd)."


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def _count(database: Database, table: object, **where: object) -> int:
    t = getattr(schema, str(table))
    query = select(func.count()).select_from(t)
    for column, value in where.items():
        query = query.where(t.c[column] == value)
    with database.read() as conn:
        return int(conn.execute(query).scalar_one())


def _parcel(mid: int, pin: str = PIN) -> Parcel:
    return Parcel(municipality_id=mid, pin=pin, street="W Bender Rd")


# --- parcels -----------------------------------------------------------------------------------


def test_a_parcel_number_already_on_file_is_refused_naming_the_parcel_and_its_address(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    with pytest.raises(DuplicateRecord) as err:
        permits.add_parcel(database.uow(), clock, reg.clerk, _parcel(reg.municipality_id))
    assert str(err.value) == ON_FILE
    assert err.value.field == "parcel number"
    assert err.value.existing_id == reg.parcel_id
    # Spaces typed around the number do not make it another parcel.
    with pytest.raises(DuplicateRecord, match="already exists"):
        permits.add_parcel(
            database.uow(), clock, reg.clerk, _parcel(reg.municipality_id, f"  {PIN} ")
        )
    assert _count(database, "parcel", pin=PIN) == 1


def test_the_same_parcel_number_in_another_municipality_is_another_parcel(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    other = setup.ensure_municipality(database.uow(), clock, reg.admin, "new_lisbon")
    new_id = permits.add_parcel(database.uow(), clock, reg.clerk, _parcel(other))
    assert new_id != reg.parcel_id
    assert _count(database, "parcel", pin=PIN) == 2


def test_a_duplicate_parcel_that_reaches_the_database_is_refused_in_the_same_words(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    """A writer that skipped the service's check meets the unique constraint: nothing saved,
    and the clerk still reads which parcel has the number."""
    uow = database.uow()
    with pytest.raises(DuplicateRecord) as err, uow:
        uow.act_as(reg.clerk, clock.now())
        uow.parcels.add(_parcel(reg.municipality_id))
        uow.commit()
    assert str(err.value) == ON_FILE
    assert err.value.existing_id == reg.parcel_id
    assert outcome(err.value) == NOT_SAVED
    assert _count(database, "parcel", pin=PIN) == 1


def test_two_clerks_adding_the_same_new_parcel_at_once_get_one_parcel_and_one_refusal(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    before = _count(database, "parcel", municipality_id=reg.municipality_id)

    def add() -> int:
        return permits.add_parcel(
            database.uow(), clock, reg.clerk, _parcel(reg.municipality_id, "047-5000-001")
        )

    for _trial in range(3):
        outcomes = race(add, add)
        assert errors(outcomes) == []
        assert sorted(outcomes) == [
            "ok",
            "parcel number: Parcel 047-5000-001 already exists (W Bender Rd).",
        ]
        # Renumbered, so the next trial races for a new number again.
        with database.uow() as uow:
            uow.act_as(reg.clerk, clock.now())
            found = uow.parcels.by_pin(reg.municipality_id, "047-5000-001")
            assert found is not None
            found.pin = f"047-5000-9{_trial:02d}"
            uow.commit()
    assert _count(database, "parcel", municipality_id=reg.municipality_id) == before + 3


# --- GL accounts -------------------------------------------------------------------------------

ACCOUNT_ON_FILE = "account number: Account 100-44300 already exists (Building permits)."


def test_a_gl_account_number_already_used_is_refused_naming_the_account(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    building = next(
        a for a in cash.gl_accounts(database.uow(), clock, mid) if a.number == "100-44300"
    )
    with pytest.raises(DuplicateRecord) as err:
        cash.add_gl_account(
            database.uow(), clock, reg.admin, mid, " 100-44300 ", "Again", AccountKind.REVENUE
        )
    assert str(err.value) == ACCOUNT_ON_FILE
    assert err.value.existing_id == building.id
    assert _count(database, "gl_account", municipality_id=mid, number="100-44300") == 1


def test_a_duplicate_gl_account_that_reaches_the_database_is_refused_in_the_same_words(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    cash.gl_accounts(database.uow(), clock, mid)  # the shipped accounts, loaded on first use
    uow = database.uow()
    with pytest.raises(DuplicateRecord) as err, uow:
        uow.act_as(reg.admin, clock.now())
        uow.cash.add(
            GlAccount(municipality_id=mid, number="100-44300", name="x", kind=AccountKind.REVENUE)
        )
        uow.commit()
    assert str(err.value) == ACCOUNT_ON_FILE


# --- user names --------------------------------------------------------------------------------


def test_a_user_name_already_taken_is_refused_and_the_user_is_not_made(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    with pytest.raises(DuplicateRecord) as err:
        users.create_user(
            database.uow(),
            clock,
            reg.admin,
            username=" carol ",
            full_name="Caroline Other",
            password=PASSWORD,
            roles={Role.CLERK},
        )
    assert str(err.value) == "user name: 'carol' is already taken"
    assert err.value.existing_id == users.user_id_for(database.uow(), "carol")
    assert _count(database, "app_user", username="carol") == 1


def test_a_duplicate_user_name_that_reaches_the_database_is_refused_in_the_same_words(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    uow = database.uow()
    with pytest.raises(DuplicateRecord, match=r"^user name: 'carol' is already taken$"), uow:
        uow.act_as(reg.admin, clock.now())
        uow.users.add(User(username="carol", full_name="Caroline Other", password_hash="x"))
        uow.commit()
