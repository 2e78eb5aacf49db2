"""Administration → Municipality through the services, on SQLite and PostgreSQL: the printed
fields with their letterhead versions, the audit trail, the logo and signature images, and the
settings that cashiering, condemnations, pricing and the C-404 report read."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select

from db import licence_queries as lq
from db import report_queries as rq
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.municipality import FIRST_VERSION_FROM, ImageKind
from desk.errors import PermissionDenied, ValidationError
from desk.services import cashiering as cash
from desk.services import licensing
from desk.services import municipality as svc
from tests.db.test_cashiering import _deposit, _office
from tests.db.test_images import picture
from tests.factories import Register, seed_register

TODAY = date(2026, 3, 2)
PNG = picture("PNG")  # real pictures: the service decodes what it stores
JPEG = picture("JPEG")


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def _audit(database: Database, entity: str) -> list[Any]:
    a = schema.audit_event
    with database.read() as conn:
        return list(conn.execute(select(a).where(a.c.entity == entity).order_by(a.c.id)))


def _versions(database: Database, municipality_id: int) -> list[Any]:
    """The municipality's letterhead versions, oldest first."""
    v = schema.letterhead_version
    with database.read() as conn:
        return list(
            conn.execute(select(v).where(v.c.municipality_id == municipality_id).order_by(v.c.id))
        )


def _store(
    database: Database, clock: FixedClock, actor: Any, municipality_id: int, kind: str, data: bytes
) -> int:
    """Save a new logo or signature as the screen does; the new image's id."""
    svc.update_municipality(database.uow(), clock, actor, municipality_id, {str(kind): data})
    shown = svc.municipality_settings(database.uow(), municipality_id)
    image = shown.logo if kind == "logo" else shown.signature
    assert image is not None
    return image.id


def _changes(row: Any) -> list[dict[str, Any]]:
    return row.changes if isinstance(row.changes, list) else json.loads(row.changes)


def test_a_new_municipality_prints_with_its_first_version_from_1900(
    database: Database, reg: Register
) -> None:
    versions = _versions(database, reg.municipality_id)
    assert [(v.effective_at, v.name, v.inspector_title) for v in versions] == [
        (FIRST_VERSION_FROM, "City of Glendale", "Building Inspector")
    ]


def test_changing_the_inspectors_title_writes_one_audit_row_and_a_new_letterhead_version(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    before = len(_audit(database, "municipality"))
    clock.set(date(2026, 3, 5))
    changed = svc.update_municipality(
        database.uow(),
        clock,
        reg.admin,
        reg.municipality_id,
        {
            "inspector_title": "Building Inspector & Zoning Administrator",
            "name": "City of Glendale",
        },
    )
    assert changed == ("inspector_title",)  # the name was sent unchanged: not written
    rows = _audit(database, "municipality")[before:]
    assert len(rows) == 1
    assert _changes(rows[0]) == [
        {
            "field": "inspector_title",
            "old": "Building Inspector",
            "new": "Building Inspector & Zoning Administrator",
        }
    ]
    assert rows[0].user_id == reg.admin.user_id
    versions = _versions(database, reg.municipality_id)
    assert [(v.effective_at, v.inspector_title) for v in versions] == [
        (FIRST_VERSION_FROM, "Building Inspector"),
        (clock.now(), "Building Inspector & Zoning Administrator"),
    ]
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert shown.inspector_title == "Building Inspector & Zoning Administrator"
    assert shown.versions == 2


def test_saving_nothing_new_writes_nothing(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    before = len(_audit(database, "municipality"))
    changes = {f: shown.value(f) for f in svc.FIELDS if f not in ("logo", "signature")}
    assert (
        svc.update_municipality(database.uow(), clock, reg.admin, reg.municipality_id, changes)
        == ()
    )
    assert len(_audit(database, "municipality")) == before
    assert len(_versions(database, reg.municipality_id)) == 1


def test_a_clerk_may_not_change_the_municipality(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    with pytest.raises(PermissionDenied, match="administrator"):
        svc.update_municipality(
            database.uow(), clock, reg.clerk, reg.municipality_id, {"treasurer_name": "X"}
        )
    with pytest.raises(PermissionDenied):
        _store(database, clock, reg.clerk, reg.municipality_id, "logo", PNG)
    assert svc.municipality_settings(database.uow(), reg.municipality_id).treasurer_name == ""


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"nsf_charge": "thirty"}, "NSF charge"),
        ({"nsf_charge": "-5"}, "NSF charge"),
        ({"withdrawn_refund": "half"}, "Refund when withdrawn"),
        ({"admin_cost_account": "999-99999"}, "Administrative cost account"),
        ({"vacate_days": 0}, "Vacate period"),
        ({"vacate_days": "sixty"}, "Vacate period"),
        ({"c404_high_value": "0"}, "C-404 high-value threshold"),
        ({"c404_high_value": "1000000.50"}, "C-404 high-value threshold"),
        ({"fee_schedule_date": "payment"}, "Fee schedule date"),
        ({"name": "  "}, "Name"),
        ({"letterhead": ["x"] * 7}, "Letterhead"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(
    database: Database, clock: FixedClock, reg: Register, changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as e:
        svc.update_municipality(database.uow(), clock, reg.admin, reg.municipality_id, changes)
    assert e.value.field == field
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert (shown.value("nsf_charge"), shown.vacate_days) == ("0.00", 60)


def test_the_settings_are_stored_in_the_profile_under_their_keys(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    svc.update_municipality(
        database.uow(),
        clock,
        reg.admin,
        reg.municipality_id,
        {
            "nsf_charge": "$25",
            "withdrawn_refund": "less 10",
            "vacate_days": "45",
            "fee_schedule_date": "issue",
            "c404_high_value": "750,000",
        },
    )
    with database.read() as conn:
        settings = conn.execute(
            select(schema.municipality.c.settings).where(
                schema.municipality.c.id == reg.municipality_id
            )
        ).scalar_one()
        assert settings["cashiering"] == {"nsf_charge": "25.00", "withdrawn_refund": "less 10.00"}
        assert settings["licensing"] == {"vacate_days": 45}
        assert settings["fee_schedule_date"] == "issue"
        assert settings["reports"] == {"c404_high_value": "750000"}
        assert rq.heading(conn, reg.municipality_id).setting("c404_high_value") == "750000"
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert (shown.value("nsf_charge"), shown.value("withdrawn_refund")) == ("25.00", "less 10.00")
    assert (shown.vacate_days, shown.fee_schedule_date) == (45, "issue")
    assert shown.c404_high_value == Decimal(750000)
    # Settings are not printed: still the first letterhead version only.
    assert len(_versions(database, reg.municipality_id)) == 1


def test_a_text_file_renamed_png_is_refused_as_a_logo(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    with pytest.raises(ValidationError) as e:
        _store(
            database, clock, reg.admin, reg.municipality_id, ImageKind.LOGO, b"City letterhead\n"
        )
    assert str(e.value) == "Logo: the file is not a PNG or JPEG image"
    with pytest.raises(ValidationError, match="at most 1 MB"):
        _store(database, clock, reg.admin, reg.municipality_id, "signature", PNG * 12_000)
    assert svc.municipality_settings(database.uow(), reg.municipality_id).logo is None


def test_a_second_logo_keeps_the_first_and_the_earlier_version_still_prints_it(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    first = _store(database, clock, reg.admin, reg.municipality_id, "logo", PNG)
    clock.advance(timedelta(days=1))
    second = _store(database, clock, reg.admin, reg.municipality_id, "logo", JPEG)
    assert first != second
    with database.read() as conn:
        images = conn.execute(
            select(schema.municipality_image.c.id, schema.municipality_image.c.media_type).order_by(
                schema.municipality_image.c.id
            )
        ).all()
    assert [tuple(r) for r in images] == [(first, "image/png"), (second, "image/jpeg")]
    versions = _versions(database, reg.municipality_id)
    assert [v.logo_image_id for v in versions] == [None, first, second]
    shown = svc.municipality_settings(database.uow(), reg.municipality_id)
    assert shown.logo is not None and shown.logo.id == second and shown.logo.content == JPEG
    # The audit trail records the image's size, never its bytes.
    created = _audit(database, "municipality_image")
    content = [c for c in _changes(created[0]) if c["field"] == "content"]
    assert content == [{"field": "content", "old": None, "new": f"<image {len(PNG)} bytes>"}]
    # Removing it prints no logo from now on; the image stays for the versions that had it.
    clock.advance(timedelta(days=1))
    remove = {"logo": None}
    assert svc.update_municipality(database.uow(), clock, reg.admin, reg.municipality_id, remove)
    versions = _versions(database, reg.municipality_id)
    assert [v.logo_image_id for v in versions] == [None, first, second, None]
    assert svc.municipality_settings(database.uow(), reg.municipality_id).logo is None
    assert not svc.update_municipality(
        database.uow(), clock, reg.admin, reg.municipality_id, remove
    )


def test_a_returned_check_carries_the_nsf_charge_set_on_the_municipality_screen(
    database: Database, clock: FixedClock
) -> None:
    office = _office(database, clock)
    svc.update_municipality(
        office.uow, clock, office.reg.admin, office.reg.municipality_id, {"nsf_charge": "35"}
    )
    paid = office.pay((office.house, "439.00"))
    _deposit(office)
    clock.advance(timedelta(days=6))
    cash.return_nsf(office.uow, clock, office.reg.treasurer, paid.payment_id, "NSF #88121")
    assert office.due(office.house) == Decimal("474.00")  # $439.00 again plus $35.00


def test_a_new_condemnation_is_to_be_vacated_within_the_period_set_on_the_screen(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    svc.update_municipality(
        database.uow(), clock, reg.admin, reg.municipality_id, {"vacate_days": 30}
    )
    cid = licensing.record_condemnation(
        database.uow(),
        clock,
        reg.inspector,
        licensing.CondemnationInput(
            municipality_id=reg.municipality_id,
            address="5820 N Lake Dr",
            grounds=("B1",),
            reasons="Fire damage: roof open",
            condemned_on=TODAY,
        ),
    )
    with database.read() as conn:
        assert lq.condemnation_line(conn, cid).vacate_by == TODAY + timedelta(days=30)
