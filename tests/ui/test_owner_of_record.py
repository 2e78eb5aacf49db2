"""The county's owner of record flows into what the office writes: a notice of violation is
addressed to the owner at the owner's mailing address, and a rooming-house licence application
starts with the owner as the operator; a new owner from the next import shows in the parcel's
history."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from db import schema
from db.database import Database
from db.enforcement_case_view import case_facts
from desk.clock import FixedClock
from desk.enforcement.model import AddresseeRole, Channel
from desk.imports.files import SourceFile
from desk.imports.mapping import suggest
from desk.services.enforcement import complaints, inspections
from desk.services.parcels import edit, imports
from tests.db.enforcement_setup import Office, office
from tests.parcel_files import v10_row, write_csv
from ui.app import application, make_session
from ui.permit.base import PermitContext
from ui.rooming.dialogs import ApplicationDialog
from ui.views.enforcement_dialogs import NoticeDialog

OWNER = "MICHAEL H & REBECCA L SOLBERG"
MAILING = "PO BOX 77, WESTBY, WI, 54667"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(date(2026, 3, 2))


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    o = office(empty_database, clock)
    with o.db.uow() as uow:
        parcel = uow.parcels.get(o.parcel_id)
        assert parcel is not None
        form = edit.parcel_edit_of(parcel)
    edit.update_parcel(
        o.db.uow(),
        clock,
        o.clerk,
        o.parcel_id,
        replace(form, owner_name=OWNER, owner_address=MAILING),
    )
    return o


def _context(o: Office, actor: object) -> PermitContext:
    application()
    return PermitContext(o.db, make_session(o.db, actor), 0, o.clock)  # type: ignore[arg-type]


def test_a_notice_of_violation_is_addressed_to_the_owner_of_record_at_the_mailing_address(
    qtbot: QtBot, o: Office
) -> None:
    taken = complaints.take_complaint(
        o.db.uow(), o.clock, o.clerk, o.mid, o.parcel_id, Channel.PHONE, "No heat"
    )
    case_id = taken.case.case_id
    inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        o.clock.today(),
        found=[inspections.FoundViolation("140-6C", unit="1", room="rear porch")],
    )
    with o.db.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    dialog = NoticeDialog(_context(o, o.inspector), facts)
    qtbot.addWidget(dialog)
    assert dialog.role.currentData() == AddresseeRole.OWNER.value
    assert (dialog.name.text(), dialog.address.text()) == (OWNER, MAILING)
    (_box, action), *_ = dialog.lines.values()
    action.setText("Repair the stair treads")
    dialog.statement.setPlainText("The rear porch stairs are unsafe.")
    dialog.run()  # issued as the form stands: the owner of record is the addressee
    a = schema.enforcement_addressee
    with o.db.read() as conn:
        rows = conn.execute(select(a.c.role, a.c.name, a.c.address)).all()
    assert [tuple(r) for r in rows] == [(AddresseeRole.OWNER.value, OWNER, MAILING)]


def test_a_licence_application_starts_with_the_owner_as_operator_until_another_is_typed(
    qtbot: QtBot, o: Office
) -> None:
    other = o.parcel("047-0001-002", "414")
    dialog = ApplicationDialog(_context(o, o.clerk))
    qtbot.addWidget(dialog)
    dialog.search.setText("412")
    assert dialog.parcel.currentData() == o.parcel_id
    assert (dialog.operator.text(), dialog.operator_address.text()) == (OWNER, MAILING)
    dialog.search.setText("414")  # another parcel, no owner of record: the fill goes with it
    assert dialog.parcel.currentData() == other
    assert (dialog.operator.text(), dialog.operator_address.text()) == ("", "")
    dialog.operator.setText("Hudson Rooms LLC")
    dialog.search.setText("412")  # an operator typed by hand is kept
    assert dialog.operator.text() == "Hudson Rooms LLC"


def test_a_new_owner_from_the_next_import_shows_in_the_parcels_history(
    o: Office, tmp_path: Path
) -> None:
    first = write_csv(tmp_path / "2025.csv", [v10_row(1, owner="OLD OWNER")])
    second = write_csv(tmp_path / "2026.csv", [v10_row(1, owner="NEW OWNER LLC")])
    for path in (first, second):
        source = SourceFile(path)
        layer = source.layers[0]
        choice = imports.ImportChoice(layer.name, suggest(layer.columns), None)
        parsed = imports.read_parcel_file(source, choice)
        imports.import_parcels(
            o.db.uow(),
            o.clock,
            o.clerk,
            o.mid,
            parsed,
            file_name=source.name,
            file_sha256=source.sha256(),
            choice=choice,
        )
    pc, a = schema.parcel, schema.audit_event
    with o.db.read() as conn:
        parcel_id = conn.execute(select(pc.c.id).where(pc.c.pin == "291000000001")).scalar_one()
        trail = conn.execute(
            select(a.c.user_id, a.c.changes).where(
                (a.c.entity == "parcel") & (a.c.entity_id == parcel_id) & (a.c.action == "update")
            )
        ).all()
    owner_lines = [
        (user, c["old"], c["new"])
        for user, changes in trail
        for c in changes
        if c["field"] == "owner_name"
    ]
    assert owner_lines == [(o.clerk.user_id, "OLD OWNER", "NEW OWNER LLC")]
