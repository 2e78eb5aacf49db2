"""A form saved over a record changed since it was opened is refused, naming who changed it
and when; nothing is overwritten unseen (both backends). The form sends the version it showed."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.errors import AuthenticationFailed, StaleEdit
from desk.services import municipality, permits, users
from desk.services import sureties as sure
from tests.db.test_sureties import _office, mover_certificate, moving_bond
from tests.factories import seed_register


def test_a_bond_form_saved_over_another_clerks_change_is_refused_and_keeps_that_change(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    bond_id = sure.record_bond(o.uow, clock, o.reg.clerk, moving_bond(o))
    carols_form = sure.bond_input(o.uow, bond_id)
    alexs_form = sure.bond_input(o.uow, bond_id)
    clock.advance(timedelta(minutes=7))
    sure.edit_bond(o.uow, clock, o.reg.clerk, bond_id, replace(carols_form, amount=Decimal(2500)))
    with pytest.raises(StaleEdit) as refused:
        sure.edit_bond(o.uow, clock, o.reg.admin, bond_id, replace(alexs_form, notes="rider"))
    assert str(refused.value).startswith(
        "Bond SB-1001 was changed by Carol Clerk at 03/02/2026 3:07 PM, after you opened it."
    )
    now = sure.bond_input(o.uow, bond_id)
    assert (now.amount, now.notes) == (Decimal("2500.00"), "")
    # Reloaded, the same change saves, and keeps Carol's amount.
    sure.edit_bond(o.uow, clock, o.reg.admin, bond_id, replace(now, notes="rider"))
    assert sure.bond_input(o.uow, bond_id).amount == Decimal("2500.00")


def test_a_change_to_a_bonds_sureties_alone_makes_older_forms_stale(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    bond_id = sure.record_bond(o.uow, clock, o.reg.clerk, moving_bond(o))
    first, second = sure.bond_input(o.uow, bond_id), sure.bond_input(o.uow, bond_id)
    sure.edit_bond(o.uow, clock, o.reg.clerk, bond_id, replace(first, permit_ids=()))
    with pytest.raises(StaleEdit):
        sure.edit_bond(o.uow, clock, o.reg.admin, bond_id, replace(second, notes="x"))
    assert sure.bond_input(o.uow, bond_id).permit_ids == ()


def test_a_stale_certificate_form_is_refused(database: Database, clock: FixedClock) -> None:
    o = _office(database, clock)
    cert_id = sure.record_certificate(o.uow, clock, o.reg.clerk, mover_certificate(o))
    a, b = sure.certificate_input(o.uow, cert_id), sure.certificate_input(o.uow, cert_id)
    sure.edit_certificate(o.uow, clock, o.reg.clerk, cert_id, replace(a, insurer="Acuity"))
    with pytest.raises(StaleEdit, match=r"^Certificate GL-4471 was changed by Carol Clerk"):
        sure.edit_certificate(o.uow, clock, o.reg.admin, cert_id, replace(b, policy="GL-9"))
    now = sure.certificate_input(o.uow, cert_id)
    assert (now.insurer, now.policy) == ("Acuity", "GL-4471")


def test_a_stale_description_and_a_stale_user_form_are_refused(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with database.read() as conn:
        p, u = schema.permit, schema.app_user
        shown = conn.execute(select(p.c.version).where(p.c.id == reg.permit_id)).scalar_one()
        ivan = conn.execute(select(u.c.id, u.c.version).where(u.c.username == "ivan")).one()
    permits.update_description(database.uow(), clock, reg.clerk, reg.permit_id, "A", shown)
    with pytest.raises(StaleEdit, match="Application #1 was changed by Carol Clerk"):
        permits.update_description(database.uow(), clock, reg.admin, reg.permit_id, "B", shown)
    users.edit_user(
        database.uow(), clock, reg.admin, ivan.id, "Ivan Inspector", "Chief Inspector",
        {Role.INSPECTOR}, ivan.version,
    )  # fmt: skip
    with pytest.raises(StaleEdit, match="The user ivan was changed by Alex Administrator"):
        users.edit_user(
            database.uow(), clock, reg.admin, ivan.id, "Ivan I. Inspector", "",
            {Role.INSPECTOR}, ivan.version,
        )  # fmt: skip
    with database.read() as conn:
        row = conn.execute(select(u.c.full_name, u.c.title).where(u.c.id == ivan.id)).one()
    assert tuple(row) == ("Ivan Inspector", "Chief Inspector")


def test_signing_in_does_not_make_a_users_form_stale(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    u = schema.app_user
    with database.read() as conn:
        ivan = conn.execute(select(u.c.id, u.c.version).where(u.c.username == "ivan")).one()
    with pytest.raises(AuthenticationFailed):
        users.sign_in(database.uow(), clock, "ivan", "not the password")
    users.edit_user(
        database.uow(), clock, reg.admin, ivan.id, "Ivan Inspector", "Inspector",
        {Role.INSPECTOR}, ivan.version,
    )  # fmt: skip


def test_a_stale_municipality_form_is_refused(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    shown = municipality.municipality_settings(database.uow(), reg.municipality_id)
    municipality.update_municipality(
        database.uow(), clock, reg.admin, reg.municipality_id,
        {"treasurer_name": "Terry Treasurer"}, shown.record_version,
    )  # fmt: skip
    with pytest.raises(StaleEdit, match=r"^The municipality City of Glendale was changed by Alex"):
        municipality.update_municipality(
            database.uow(), clock, reg.admin, reg.municipality_id,
            {"treasurer_name": "Pat Payne"}, shown.record_version,
        )  # fmt: skip
    now = municipality.municipality_settings(database.uow(), reg.municipality_id)
    assert now.treasurer_name == "Terry Treasurer"


def test_a_sign_in_with_an_unknown_user_name_is_in_the_audit_trail(
    database: Database, clock: FixedClock
) -> None:
    seed_register(database, clock)
    with pytest.raises(AuthenticationFailed):
        users.sign_in(database.uow(), clock, "mallory", "guess")
    a = schema.audit_event
    with database.read() as conn:
        last = conn.execute(
            select(a.c.entity, a.c.action, a.c.user_id, a.c.changes).order_by(a.c.id.desc())
        ).first()
    assert last is not None
    assert tuple(last) == (
        "sign_in",
        "failed",
        None,
        [
            {"field": "user name", "old": None, "new": "mallory"},
            {"field": "reason", "old": None, "new": "unknown user name"},
        ],
    )
