"""The BLDS export against the specification itself: field names and mapped vocabularies written
out here as BLDS 1.2 lists them, so a change to our mappings cannot move the test along with it.

Source: the BLDS 1.2 wiki, github.com/open-data-standards/permitdata.org/wiki --
Core-Permits-Dataset-Requirements, Optional-Inspections-Dataset-Requirements,
Optional-Contractor-Dataset-Requirements and Appendix-A -- read in the copy kept in
cityofasheville/bedrock, documentation/development/*.md.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.enums import (
    CredentialKind,
    PartyKind,
    PartyRole,
    PermitClass,
    PermitStatus,
    WorkClass,
)
from desk.domain.inspections import Result, sequences_for
from desk.domain.kinds import kinds_for
from desk.domain.model import Credential, Party
from desk.services import permits
from permitdesk.cli import main
from tests.cli_sign_in import signed, signed_demo
from tests.factories import seed_register

# --------------------------------------------------------------------------- the specification

# Core permits dataset: required, recommended and optional fields, as the spec spells them.
CORE_FIELDS = {
    "PermitNum", "Description", "AppliedDate", "IssuedDate", "CompletedDate", "StatusCurrent",
    "OriginalAddress1", "OriginalAddress2", "OriginalCity", "OriginalState", "OriginalZip",
    "Jurisdiction", "PermitClass", "PermitClassMapped", "StatusCurrentMapped", "WorkClass",
    "WorkClassMapped", "PermitType", "PermitTypeMapped", "PermitTypeDesc", "StatusDate",
    "TotalSqFt", "Link", "Latitude", "Longitude", "EstProjectCost", "HousingUnits", "PIN",
    "ContractorCompanyName", "ContractorTrade", "ContractorTradeMapped", "ContractorLicNum",
    "ContractorStateLic", "ProposedUse", "AddedSqFt", "RemovedSqFt", "MasterPermitNum",
    "ExpiresDate", "COIssuedDate", "HoldDate", "VoidDate", "ProjectName", "ProjectID",
    "TotalFinishedSqFt", "TotalUnfinishedSqFt", "TotalHeatedSqFt", "TotalUnHeatedSqFt",
    "TotalAccSqFt", "TotalSprinkledSqFt", "ExtraFields", "Publisher", "Fee",
    "ContractorFullName", "ContractorCompanyDesc", "ContractorPhone", "ContractorAddress1",
    "ContractorAddress2", "ContractorCity", "ContractorState", "ContractorZip", "ContractorEmail",
}  # fmt: skip
# What issue 8 asks permits.csv to carry, in this order.
PERMITS_HEADER = [
    "PermitNum", "Description", "AppliedDate", "IssuedDate", "CompletedDate", "StatusCurrent",
    "OriginalAddress1", "OriginalAddress2", "OriginalCity", "OriginalState", "OriginalZip",
    "Jurisdiction", "PermitClass", "PermitClassMapped", "StatusCurrentMapped", "WorkClass",
    "WorkClassMapped", "PermitType", "PermitTypeMapped", "PermitTypeDesc", "StatusDate",
    "TotalSqFt", "EstProjectCost", "HousingUnits", "PIN", "ContractorCompanyName",
    "ContractorTrade", "ContractorTradeMapped", "ContractorLicNum", "ContractorStateLic",
    "ExpiresDate", "COIssuedDate", "HoldDate", "VoidDate", "Fee",
]  # fmt: skip
INSPECTIONS_HEADER = [
    "PermitNum", "InspType", "InspTypeMapped", "Result", "ResultMapped", "ScheduledDate",
    "InspectedDate", "Inspector", "ReInspection", "Final",
]  # fmt: skip
# The optional contractor dataset (additional contractors), its names with the spec's "2".
CONTRACTORS_HEADER = [
    "PermitNum", "ContractorCompanyName2", "ContractorTrade2", "ContractorTradeMapped2",
    "ContractorLicNum2", "ContractorStateLicense2", "ContractorFullName2", "ContractorPhone2",
    "ContractorAddress1_2", "ContractorAddress2_2", "ContractorCity2", "ContractorState2",
    "ContractorZip2", "ContractorEmail2",
]  # fmt: skip

PERMIT_CLASS_MAPPED = {"Residential", "Non-Residential"}
STATUS_CURRENT_MAPPED = {
    "Application Accepted", "Fees/Payment", "In Review", "Permit Issued", "Inspection Phase",
    "Permit Finaled", "Permit Finaled with Conditions", "Occupancy", "Appeal", "Permit Cancelled",
}  # fmt: skip
WORK_CLASS_MAPPED = {"New", "Existing"}
PERMIT_TYPE_MAPPED = {
    "Building", "Demolition", "Electrical", "Mechanical", "Plumbing", "Roof", "Fence", "Grading",
    "Pool/Spa",
}  # fmt: skip
CONTRACTOR_TRADE_MAPPED = {
    "General", "Electrical", "Mechanical", "Plumbing", "Architecture", "Engineering", "Masonry",
    "Sign", "Tent",
}  # fmt: skip
CONTRACTOR_TRADE_MAPPED2 = {
    "General", "Electrical", "Mechanical", "Plumbing", "Architecture", "Engineering",
}  # fmt: skip
RESULT_MAPPED = {"Passed", "Rejected", "Partial", "Cancelled", "OK for Service"}
# Appendix A, both columns.
INSP_TYPE_MAPPED = {
    "Set Backs", "Temp Power", "Footings & Forms", "Foundation", "Rough Frame", "Frame",
    "Floor Deck", "Roof Deck", "Partial/Temp Building Final", "Building Final", "Fire Final",
    "Zoning Final", "Progress Check", "Health Final", "Sanitary Sewer Final", "Storm Sewer Final",
    "Storm Water Quality Final", "Gas Disconnect", "Electrical Disconnect",
    "Hazardous Material Removal", "Roof Final",
    "Rough", "Service", "Ground Work", "Electrical Final", "Temp Service Pole", "Breaker Box",
    "Grounding", "Fence Final", "Grading Final", "Rough In", "Duct Work", "Gas Meter Reset",
    "Gas Service", "Construction Gas", "Service Interior", "Relocate Service", "Mechanical Final",
    "Sewer", "Water", "Gas", "Plumbing Final",
}  # fmt: skip
YES_NO = {"Yes", "No"}
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PERMIT_DATES = ("AppliedDate", "IssuedDate", "CompletedDate", "StatusDate", "ExpiresDate")
PERMIT_DATES += ("COIssuedDate", "HoldDate", "VoidDate")


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [dict(zip(header, row, strict=True)) for row in reader]


# --------------------------------------------------------------------------- the mappings


def test_every_status_class_kind_and_inspection_maps_to_a_value_of_the_spec_or_to_nothing() -> None:
    # Where the spec has no value, the mapping is "" (a draft, an expired permit, a denial,
    # work of class "other", kinds of trade "other"), never a word of our own.
    assert {s.blds for s in PermitStatus} <= STATUS_CURRENT_MAPPED | {""}
    assert {s for s in PermitStatus if not s.blds} == {
        PermitStatus.DRAFT,
        PermitStatus.EXPIRED,
        PermitStatus.DENIED,
    }
    assert {c.blds for c in PermitClass} == PERMIT_CLASS_MAPPED
    assert {w.blds for w in WorkClass} == WORK_CLASS_MAPPED | {""}
    assert WorkClass.RAZE.blds == "Existing" and WorkClass.NEW.blds == "New"
    for municipality in ("glendale", "new_lisbon"):
        for kind in kinds_for(municipality):
            mapped = r.blds_permit_type(kind.code, kind.trade)
            assert mapped in PERMIT_TYPE_MAPPED | {""}, kind.code
            assert mapped or kind.trade == "other", kind.code
        for sequence in sequences_for(municipality):
            for itype in sequence.types:
                assert itype.blds in INSP_TYPE_MAPPED, itype.code
    assert {x.blds for x in Result} == RESULT_MAPPED
    assert set(r.BLDS_CONTRACTOR_TRADE.values()) <= CONTRACTOR_TRADE_MAPPED2
    assert CONTRACTOR_TRADE_MAPPED2 <= CONTRACTOR_TRADE_MAPPED


# --------------------------------------------------------------------------- the demo, exported


@pytest.fixture(scope="module")
def demo_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("blds_demo")
    database = open_database(sqlite_url(folder / "demo.db"))
    try:
        spec = DemoSpec(years=2, per_year=150, seed=5, today=date(2026, 11, 30))
        build_demo(database, spec)
    finally:
        database.close()
    out = folder / "blds"
    with pytest.MonkeyPatch.context() as mp:  # the clerk signs in
        argv = ["export", "blds", "--db", str(folder / "demo.db"), "--out", str(out)]
        assert main([*argv, *signed_demo(mp, "clerk")]) == 0
    return out


def test_the_demo_export_has_the_specifications_field_names(demo_export: Path) -> None:
    header, _ = _read(demo_export / "permits.csv")
    assert header == PERMITS_HEADER
    assert set(header) <= CORE_FIELDS
    assert _read(demo_export / "inspections.csv")[0] == INSPECTIONS_HEADER
    assert _read(demo_export / "contractors.csv")[0] == CONTRACTORS_HEADER


def test_every_mapped_value_of_the_demo_export_is_one_the_specification_lists(
    demo_export: Path,
) -> None:
    _, rows = _read(demo_export / "permits.csv")
    assert len(rows) > 250
    seen = {name: {p[name] for p in rows} for name in PERMITS_HEADER}
    assert seen["PermitClassMapped"] == PERMIT_CLASS_MAPPED
    assert seen["StatusCurrentMapped"] <= STATUS_CURRENT_MAPPED | {""}
    assert {"Permit Issued", "Inspection Phase", "Permit Finaled", "Permit Cancelled"} <= seen[
        "StatusCurrentMapped"
    ]
    assert seen["WorkClassMapped"] <= WORK_CLASS_MAPPED | {""}
    assert seen["PermitTypeMapped"] <= PERMIT_TYPE_MAPPED | {""}
    assert {"Building", "Electrical", "Plumbing", "Mechanical"} <= seen["PermitTypeMapped"]
    assert seen["ContractorTradeMapped"] <= CONTRACTOR_TRADE_MAPPED | {""}
    for p in rows:
        for name in PERMIT_DATES:
            assert p[name] == "" or ISO_DATE.match(p[name]), (name, p[name])
        # StatusCurrentMapped is empty only where the spec has no word for the status.
        if not p["StatusCurrentMapped"]:
            assert p["StatusCurrent"] in ("Expired", "Denied"), p
        # A contractor named on the row has its trade mapped.
        assert bool(p["ContractorCompanyName"]) == bool(p["ContractorTradeMapped"]), p
        if p["StatusCurrent"] == "On hold":
            assert p["HoldDate"], p  # the day of its stop-work order

    _, inspections = _read(demo_export / "inspections.csv")
    assert inspections
    assert {i["InspTypeMapped"] for i in inspections} <= INSP_TYPE_MAPPED
    results = {i["ResultMapped"] for i in inspections}
    assert results <= RESULT_MAPPED | {""}  # "" for an inspection scheduled, not yet made
    assert {"Passed", "Rejected"} <= results
    for i in inspections:
        assert i["ReInspection"] in YES_NO and i["Final"] in YES_NO
        # "Whether a reinspection is needed": after a rejected or partial inspection.
        assert (i["ReInspection"] == "Yes") == (i["ResultMapped"] in ("Rejected", "Partial")), i
        for name in ("ScheduledDate", "InspectedDate"):
            assert i[name] == "" or ISO_DATE.match(i[name]), (name, i[name])

    _, contractors = _read(demo_export / "contractors.csv")
    assert {c["ContractorTradeMapped2"] for c in contractors} <= CONTRACTOR_TRADE_MAPPED2


# --------------------------------------------------------------------------- contractors


@pytest.fixture
def office(tmp_path: Path) -> Iterator[tuple[Database, FixedClock, int, int]]:
    """The factories' register and a new house with a general contractor and a plumber."""
    db = open_database(sqlite_url(tmp_path / "office.db"))
    clock = FixedClock(date(2026, 3, 2))
    reg = seed_register(db, clock)
    uow = db.uow()
    plumber = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name="Kettle Moraine Plumbing")
    )
    permits.add_credential(
        uow,
        clock,
        reg.clerk,
        plumber,
        Credential(kind=CredentialKind.MASTER_PLUMBER, number="MP-221", issuing_state="WI"),
    )
    house = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="RES-NEW-DWELLING",
            parcel_id=reg.parcel_id,
            description="New ranch dwelling",
            valuation=Decimal("298000.00"),
            dwelling_units=1,
            parties=(
                (PartyRole.BUILDING_OWNER, reg.owner_id),
                (PartyRole.PLUMBER, plumber),
                (PartyRole.CONTRACTOR, reg.contractor_id),
            ),
        ),
    )
    try:
        yield db, clock, reg.municipality_id, house
    finally:
        db.close()


def test_the_contractors_file_lists_the_contractors_beside_the_primary_one(
    office: tuple[Database, FixedClock, int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _, _, house = office
    out = tmp_path / "blds"
    argv = ["export", "blds", "--db", str(db.engine.url.database), "--out", str(out)]
    assert main([*argv, *signed(monkeypatch)]) == 0
    _, rows = _read(out / "permits.csv")
    row = next(p for p in rows if p["PermitNum"] == f"APP-{house}")
    # The general contractor is the primary one, though the plumber was named first.
    assert (row["ContractorCompanyName"], row["ContractorTradeMapped"]) == (
        "Badger State Builders LLC",
        "General",
    )
    assert row["StatusCurrentMapped"] == "Application Accepted"
    assert row["WorkClassMapped"] == "New" and row["PermitClassMapped"] == "Residential"
    header, contractors = _read(out / "contractors.csv")
    assert header == CONTRACTORS_HEADER
    assert contractors == [
        {
            "PermitNum": f"APP-{house}",
            "ContractorCompanyName2": "Kettle Moraine Plumbing",
            "ContractorTrade2": "Master plumber",
            "ContractorTradeMapped2": "Plumbing",
            "ContractorLicNum2": "MP-221",
            "ContractorStateLicense2": "WI",
            "ContractorFullName2": "Kettle Moraine Plumbing",
            "ContractorPhone2": "",
            "ContractorAddress1_2": "",
            "ContractorAddress2_2": "",
            "ContractorCity2": "",
            "ContractorState2": "WI",
            "ContractorZip2": "",
            "ContractorEmail2": "",
        }
    ]
