"""The permit window's Work tab: the work as the application recorded it, the flags that double
the fees, the SBD-5823 answers of a house, and the holds of a damaged building and a delinquent
sewer tax with the buttons that record what clears them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pytestqt.qtbot import QtBot

from desk.domain.enums import PartyRole
from desk.domain.model import Actor
from desk.services import permits
from tests.ui.sample import Sample
from ui import dialogs
from ui.app import application, make_session
from ui.permit import work as work_module
from ui.permit.base import PermitContext
from ui.permit.work import WorkTab
from ui.presenters.intake import FLOOR_AREA_NOTE, VALUATION_NOTE


def parcel_and_owner(sample: Sample) -> tuple[int, int]:
    uow = sample.database.uow()
    with uow:
        issued = uow.permits.get(sample.issued_id)
        assert issued is not None and issued.parcel_id is not None
        owner = issued.party_in(PartyRole.BUILDING_OWNER)
        assert owner is not None and owner.id is not None
        return issued.parcel_id, owner.id


def take(sample: Sample, kind: str, description: str, **facts: object) -> int:
    parcel_id, owner_id = parcel_and_owner(sample)
    application_input = permits.ApplicationInput(
        municipality_id=sample.municipality_id,
        kind=kind,
        parcel_id=parcel_id,
        description=description,
        parties=((PartyRole.BUILDING_OWNER, owner_id),),
        **facts,  # type: ignore[arg-type]
    )
    return permits.take_application(
        sample.database.uow(), sample.clock, sample.admin, application_input
    )


def open_tab(qtbot: QtBot, sample: Sample, permit_id: int, actor: Actor | None = None) -> WorkTab:
    application()  # the stylesheet, as in the app
    session = make_session(sample.database, actor or sample.admin)
    tab = WorkTab(PermitContext(sample.database, session, permit_id, sample.clock))
    qtbot.addWidget(tab)
    tab.refresh()
    tab.resize(900, 640)
    tab.show()
    return tab


def test_a_new_house_shows_its_work_flags_and_the_answered_sbd_5823_fields(
    qtbot: QtBot, sample: Sample
) -> None:
    permit_id = take(
        sample, "RES-NEW-DWELLING", "New 2-story single-family dwelling",
        valuation=Decimal("412500.00"), floor_area_sqft=2880,
        areas={"basement_unfinished": 1400, "first": 1400, "second": 1000, "garage": 480},
        dwelling_units=1, stories=2, volume_cuft=31000, construction_type="V-B",
        work_details={"sbd_project": "New", "sbd_electric": "200", "sbd_energy": "Natural gas"},
        work_began_before_permit=True,
    )  # fmt: skip
    tab = open_tab(qtbot, sample, permit_id)
    assert tab.value("Description") == "New 2-story single-family dwelling"
    assert tab.value("Valuation") == "$412,500.00"
    assert tab.note("Valuation") == VALUATION_NOTE
    assert tab.value("Floor area") == "2,880 sq ft"
    assert tab.note("Floor area") == FLOOR_AREA_NOTE
    assert tab.value("By level (sq ft)") == (
        "Basement, unfinished: 1,400; First floor: 1,400; Second floor: 1,000; Garage: 480"
    )
    assert tab.value("Dwelling units") == "1"
    assert tab.value("Stories") == "2"
    assert tab.value("Volume") == "31,000 cu ft"
    assert tab.note("Volume") == ""  # a one-family house needs no seal (15.1.7(d))
    assert tab.value("Construction type") == "V-B"
    assert tab.value("Work began before permit") == "Yes — double fees (15.1.21(f))"
    assert tab.value("Emergency") == "No"
    assert "Uniform Building Permit Application (SBD-5823)" in tab.section_titles
    assert tab.value("Project") == "New"
    assert tab.value("Electric service (amps)") == "200"
    assert tab.value("Energy source") == "Natural gas"
    assert "Walls" not in tab.values  # not answered
    assert "Disturbed land" not in tab.values  # not asked for a house
    assert "Holds" not in tab.section_titles
    assert not tab.damage_button.isVisibleTo(tab)


def test_a_commercial_building_over_50000_cubic_feet_is_told_it_needs_a_seal(
    qtbot: QtBot, sample: Sample
) -> None:
    permit_id = take(
        sample, "COM-NEW", "Two-story office building",
        valuation=Decimal("1850000.00"), volume_cuft=60000, occupancy_class="mercantile",
        construction_type="II-B", emergency=True,
    )  # fmt: skip
    tab = open_tab(qtbot, sample, permit_id)
    assert tab.value("Volume") == "60,000 cu ft"
    assert tab.note("Volume") == (
        "Over 50,000 cu ft: an architect's or engineer's seal is required (15.1.7(d))"
    )
    assert tab.value("Occupancy class") == "Mercantile, restaurant, tavern, assembly hall, office"
    assert tab.value("Stories") == "— (not recorded)"
    assert tab.value("Emergency") == "Yes"
    assert tab.value("Work began before permit") == "No"
    assert tab.section_titles[-1] != "Uniform Building Permit Application (SBD-5823)"


def test_erosion_control_shows_the_acreage_and_which_plan_it_needs(
    qtbot: QtBot, sample: Sample
) -> None:
    permit_id = take(sample, "EROSION", "Grading for a new parking lot",
                     disturbed_acres=Decimal("1.250"))  # fmt: skip
    tab = open_tab(qtbot, sample, permit_id)
    assert tab.value("Disturbed land") == "1.25 acres"
    assert tab.note("Disturbed land") == "More than one acre: a full erosion control plan (15.2.8)"


def test_the_sewer_tax_and_the_plumbing_inspectors_permission_are_recorded_from_the_tab(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    permit_id = take(sample, "SEWER-WATER", "Sanitary lateral to the main in the street")
    clerk_tab = open_tab(qtbot, sample, permit_id, sample.clerk)
    assert clerk_tab.value("Sewer tax on the parcel") == "Not delinquent"
    assert clerk_tab.sewer_tax_button.isVisibleTo(clerk_tab)
    assert not clerk_tab.permission_button.isVisibleTo(clerk_tab)  # the inspector's to grant
    questions: list[str] = []

    def ask(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        questions.append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    clerk_tab.toggle_sewer_tax()
    assert "is delinquent" in questions[0] and "(15.1.36)" in questions[0]
    assert clerk_tab.value("Sewer tax on the parcel") == "Delinquent"
    assert clerk_tab.note("Sewer tax on the parcel") == (
        "No sewer connection permit without the Plumbing Inspector's special permission (15.1.36)"
    )
    assert clerk_tab.sewer_tax_button.text() == "Sewer tax pai&d"

    tab = open_tab(qtbot, sample, permit_id)  # the administrator
    assert tab.permission_button.isVisibleTo(tab)
    monkeypatch.setattr(
        work_module, "ask_permission", lambda _p, _pin: "Granted by R. Nowak, payment plan"
    )
    tab.record_sewer_permission()
    assert tab.value("Sewer permission") == (
        "Granted by R. Nowak, payment plan (recorded by Alex Administrator on 03/02/2026)"
    )
    assert tab.note("Sewer tax on the parcel") == ""  # no longer holding the permit


def test_the_inspectors_damage_finding_is_recorded_and_names_the_hold(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    permit_id = take(sample, "MOVE", "Move the frame garage to 6200 N Green Bay Rd", stories=1)
    clerk_tab = open_tab(qtbot, sample, permit_id, sample.clerk)
    assert clerk_tab.value("Damage") == "— (no finding recorded)"
    assert not clerk_tab.damage_button.isVisibleTo(clerk_tab)
    tab = open_tab(qtbot, sample, permit_id)
    assert tab.damage_button.isVisibleTo(tab)
    monkeypatch.setattr(work_module, "ask_damage", lambda _p, _current: 60)
    tab.record_damage()
    assert tab.value("Damage") == "60% of equalized value"
    assert tab.note("Damage") == (
        "50% or more: no permit to repair, alter or move the building (15.1.9(b), 15.1.3(d)(3))"
    )
