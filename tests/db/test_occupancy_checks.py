"""Occupancy calculations attached to a case or a rooming house licence, on both backends: an
over-occupied unit is a violation of the case (Hudson 140-7A/B, Ch. 512-11B/C), recorded at an
inspection that day with the item's correction date; the result is kept as computed."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from db import enforcement_queries as eq
from db import occupancy_queries as oq
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import Channel, ClosureReason
from desk.errors import NotFound, PermissionDenied, RuleViolation, ValidationError
from desk.housing import occupancy as rules
from desk.housing.jsonio import result_to_dict, unit_from_json
from desk.services.enforcement import cases, complaints, inspections
from desk.services.enforcement import licences as lic
from desk.services.enforcement.occupancy import attach_occupancy
from tests.db.enforcement_setup import Office, office

TODAY = date(2026, 3, 2)

# Hand-worked under Hudson 140-7: habitable 160 + 80 + 100 + 70 = 410 sq ft. 140-7A: 150 for the
# first, 100 for the second, 75 each after: 250, 325, 400 -> at most 4; five stated need 475.
# 140-7B: two over 12 need 2 x 40 = 80 sq ft; Bedroom 2 has 70 (Bedroom 1's 100 is enough).
HUDSON_UNIT = """{
  "occupants_over_12": 5,
  "rooms": [
    {"name": "Living room", "use": "living", "floor_area": "160"},
    {"name": "Kitchen", "use": "kitchen", "floor_area": "80"},
    {"name": "Bedroom 1", "use": "sleeping", "floor_area": "100", "occupants_over_12": 2},
    {"name": "Bedroom 2", "use": "sleeping", "floor_area": "70", "occupants_over_12": 2},
    {"name": "Bathroom", "use": "bathroom", "floor_area": "40", "mechanical_ventilation": true}
  ]
}"""

# The same floor for the four sleepers stated in its rooms (400 sq ft needed of 410), two
# children under 12 in Bedroom 2: 2 x 30 = 60 sq ft needed of its 70.
HUDSON_OK = """{
  "rooms": [
    {"name": "Living room", "use": "living", "floor_area": "160"},
    {"name": "Kitchen", "use": "kitchen", "floor_area": "80"},
    {"name": "Bedroom 1", "use": "sleeping", "floor_area": "100", "occupants_over_12": 2},
    {"name": "Bedroom 2", "use": "sleeping", "floor_area": "70", "occupants_under_12": 2}
  ]
}"""

# Ch. 512-11B: 150 for the first, 100 each after; 140 + 90 = 230 sq ft -> at most 1, three
# stated need 350. 512-11C: two sleepers need 2 x 50 = 100; the bedroom has 90.
CH512_UNIT = """{
  "occupants_over_12": 3,
  "rooms": [
    {"name": "Living room", "use": "living", "floor_area": "140"},
    {"name": "Bedroom", "use": "sleeping", "floor_area": "90", "occupants_over_12": 2}
  ]
}"""


@pytest.fixture
def o(database: Database, clock: FixedClock) -> Office:
    return office(database, clock)


def _case(o: Office, parcel_id: int | None = None) -> int:
    taken = complaints.take_complaint(
        o.db.uow(),
        o.clock,
        o.clerk,
        o.mid,
        parcel_id or o.parcel_id,
        Channel.PHONE,
        "Too many people living upstairs",
    )
    return taken.case.case_id


def test_an_over_occupied_hudson_unit_is_two_violations_with_30_days_to_correct(
    o: Office,
) -> None:
    case_id = _case(o)
    done = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
    )
    assert done.max_occupants == 4 and not done.complies
    assert done.sections == ("140-7A", "140-7B")
    assert done.inspection_id is not None and len(done.violation_ids) == 2
    assert done.summary.startswith(
        "Attached to CE-2026-0001; 2 violations recorded (140-7A, 140-7B)"
    )
    with o.db.read() as conn:
        rows = oq.occupancy_checks(conn, case_id=case_id)
        entries = eq.timeline(conn, case_id)
    assert len(rows) == 1
    row = rows[0]
    assert (row.attached_to, row.unit, row.checked_on, row.max_occupants, row.complies) == (
        "CE-2026-0001",
        "2",
        TODAY,
        4,
        False,
    )
    assert [p[:2] for p in row.problems] == [("140-7A", ""), ("140-7B", "Bedroom 2")]
    assert "5 occupants need 475 sq ft" in row.problems[0][2]
    assert "enough for 4" in row.problems[0][2]
    assert row.inspection_id == done.inspection_id
    assert row.by == "Ivan Inspector"
    texts = [e.text for e in entries]
    occ = texts.index("Occupancy calculated: 4 may live here (140-7A); does not comply (Unit 2)")
    inspection = texts[occ + 1]
    # 140-7A/B: 30 days each (resources/housing_codes/hudson-140.toml): 04/01/2026.
    assert "140-7A Gross floor area (Unit 2), correct by 04/01/2026" in inspection
    assert "140-7B Sleeping rooms (Unit 2, Bedroom 2), correct by 04/01/2026" in inspection
    assert "found by the occupancy calculation" in inspection
    assert entries[occ].section == "140-7A"


def test_the_violations_carry_the_room_the_problem_text_and_the_correction_date(
    o: Office,
) -> None:
    from sqlalchemy import select

    from db import schema

    case_id = _case(o)
    done = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
    )
    vi = schema.enforcement_violation
    with o.db.read() as conn:
        found = conn.execute(
            select(vi.c.section, vi.c.unit, vi.c.room, vi.c.notes, vi.c.correct_by)
            .where(vi.c.id.in_(done.violation_ids))
            .order_by(vi.c.id)
        ).all()
    assert [(v.section, v.unit, v.room, v.correct_by) for v in found] == [
        ("140-7A", "2", "", TODAY + timedelta(days=30)),
        ("140-7B", "2", "Bedroom 2", TODAY + timedelta(days=30)),
    ]
    assert found[1].notes == (
        "2 occupants (2 over 12) sleep in 70 sq ft; 140-7B requires 80 sq ft."
    )


def test_attaching_the_same_result_again_does_not_record_an_open_violation_twice(
    o: Office,
) -> None:
    case_id = _case(o)
    attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
    )
    again = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
    )
    assert again.sections == () and again.inspection_id is None
    assert [p.section for p in again.already_open] == ["140-7A", "140-7B"]
    assert "open already: 140-7A, 140-7B" in again.summary
    other_unit = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="3", rooms_json=HUDSON_UNIT
    )
    assert other_unit.sections == ("140-7A", "140-7B")


def test_a_ch_512_unit_is_held_to_512_11b_and_512_11c(o: Office) -> None:
    cases.set_housing_code(o.db.uow(), o.clock, o.admin, o.mid, "ch-512")
    case_id = _case(o)
    done = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="", rooms_json=CH512_UNIT
    )
    assert done.max_occupants == 1
    assert done.sections == ("512-11B", "512-11C")
    with o.db.read() as conn:
        (row,) = oq.occupancy_checks(conn, case_id=case_id)
        texts = [e.text for e in eq.timeline(conn, case_id)]
    assert row.code == "ch-512"
    assert "3 occupants need 350 sq ft" in row.problems[0][2]
    assert "Occupancy calculated: 1 may live here (512-11B); does not comply" in texts


def test_a_complying_unit_records_no_violation(o: Office) -> None:
    case_id = _case(o)
    done = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="1", rooms_json=HUDSON_OK
    )
    assert done.complies and done.max_occupants == 4
    assert done.inspection_id is None and done.violation_ids == ()
    assert done.summary == "Attached to CE-2026-0001; the unit complies (at most 4)"
    with o.db.read() as conn:
        (row,) = oq.occupancy_checks(conn, case_id=case_id)
        texts = [e.text for e in eq.timeline(conn, case_id)]
    assert row.complies and row.problems == ()
    assert "Occupancy calculated: 4 may live here (140-7A); complies (Unit 1)" in texts
    assert not any(t.startswith("Inspection") for t in texts)


def test_attaching_to_a_closed_case_is_refused_and_nothing_is_kept(o: Office) -> None:
    case_id = _case(o)
    inspections.record_inspection(o.db.uow(), o.clock, o.inspector, case_id, TODAY)
    cases.close_case(o.db.uow(), o.clock, o.inspector, case_id, ClosureReason.UNFOUNDED)
    with pytest.raises(RuleViolation, match="CE-2026-0001"):
        attach_occupancy(
            o.db.uow(),
            o.clock,
            o.inspector,
            case_id=case_id,
            unit_label="2",
            rooms_json=HUDSON_UNIT,
        )
    with o.db.read() as conn:
        assert oq.occupancy_checks(conn, case_id=case_id) == []


def test_the_rules_are_the_inspectors_and_the_input_is_checked(o: Office) -> None:
    case_id = _case(o)
    with pytest.raises(PermissionDenied):
        attach_occupancy(
            o.db.uow(), o.clock, o.clerk, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
        )
    with pytest.raises(ValidationError, match="either a case or a licence"):
        attach_occupancy(o.db.uow(), o.clock, o.inspector, unit_label="2", rooms_json=HUDSON_UNIT)
    with pytest.raises(ValidationError) as bad:
        attach_occupancy(
            o.db.uow(),
            o.clock,
            o.inspector,
            case_id=case_id,
            unit_label="2",
            rooms_json='{"rooms": [{"name": "Bedroom", "use": "sleeping", "floor_area": "12x"}]}',
        )
    assert bad.value.field == 'rooms[0] "Bedroom": floor_area'
    with pytest.raises(ValidationError, match="03/03/2026 is in the future"):
        attach_occupancy(
            o.db.uow(),
            o.clock,
            o.inspector,
            case_id=case_id,
            unit_label="2",
            rooms_json=HUDSON_UNIT,
            checked_on=TODAY + timedelta(days=1),
        )
    with pytest.raises(NotFound):
        attach_occupancy(
            o.db.uow(), o.clock, o.inspector, case_id=999, unit_label="2", rooms_json=HUDSON_UNIT
        )
    with o.db.read() as conn:
        assert oq.occupancy_checks(conn, case_id=case_id) == []


def test_the_result_is_kept_as_computed_that_day(
    o: Office, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from reports.occupancy_result import render_attached_pdf

    case_id = _case(o)
    done = attach_occupancy(
        o.db.uow(), o.clock, o.inspector, case_id=case_id, unit_label="2", rooms_json=HUDSON_UNIT
    )
    expected = json.dumps(
        result_to_dict(rules.occupancy(rules.HUDSON, unit_from_json(HUDSON_UNIT))), indent=2
    )
    # A later change of the rules: the attached result does not follow it.
    monkeypatch.setattr(rules, "hudson_max_occupants", lambda area: 99)
    monkeypatch.setattr(rules, "hudson_sleeping_area", lambda over, under: Decimal(0))
    with o.db.read() as conn:
        row = oq.occupancy_check(conn, done.check_id)
        assert oq.occupancy_check(conn, done.check_id + 100) is None
    assert row is not None
    assert row.rooms_json == HUDSON_UNIT  # as entered, byte for byte
    assert row.result_json == expected  # as `permitdesk housing occupancy` printed it
    assert row.max_occupants == 4 and [p[0] for p in row.problems] == ["140-7A", "140-7B"]
    out = tmp_path / "reprint.pdf"
    render_attached_pdf(row, "City of Hudson", ["City of Hudson"], out)
    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    text = " ".join(text.split())
    assert "Maximum occupants 4" in text
    assert "140-7B Bedroom 2: 2 occupants (2 over 12) sleep in 70 sq ft" in text
    assert "CE-2026-0001" in text and "Unit 2" in text
    assert "03/02/2026" in text or "March 2, 2026" in text


def test_a_licence_gets_the_result_and_no_violation(o: Office) -> None:
    licence_id = lic.record_application(
        o.db.uow(),
        o.clock,
        o.clerk,
        lic.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel_id,
            operator_name="Rita Roomer",
            operator_address="5 Oak St, Hudson WI 54016",
            persons=5,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=(lic.RoomInput("Room 1", Decimal(120), True, 1),),
            dwelling_unit="Upper",
        ),
    )
    done = attach_occupancy(
        o.db.uow(),
        o.clock,
        o.inspector,
        licence_id=licence_id,
        unit_label="",
        rooms_json=HUDSON_UNIT,
    )
    assert done.violation_ids == () and done.inspection_id is None and not done.complies
    assert done.attached_to == f"the application #{licence_id}"
    assert "2 shortfalls, not recorded as violations" in done.summary
    with o.db.read() as conn:
        (row,) = oq.occupancy_checks(conn, licence_id=licence_id)
    assert (row.unit, row.case_id, row.max_occupants) == ("Upper", None, 4)
    assert row.attached_to == f"application #{licence_id}"
    with pytest.raises(NotFound):
        attach_occupancy(
            o.db.uow(), o.clock, o.inspector, licence_id=999, unit_label="", rooms_json=HUDSON_OK
        )
