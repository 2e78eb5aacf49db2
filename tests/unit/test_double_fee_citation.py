"""Each municipality's form cites its own ordinance: Glendale doubles fees for work begun before
the permit (15.1.21(f)); New Lisbon's Ch. 435 has no such rule, so its form cites nothing."""

from __future__ import annotations

from desk.fees.engine import double_fee_section
from desk.fees.loader import shipped_schedule
from ui.presenters.intake import work_began_text


def test_glendale_cites_15_1_21_f_and_new_lisbon_cites_no_glendale_section() -> None:
    assert double_fee_section("glendale") == "15.1.21(f)"
    assert work_began_text("glendale") == "&Work began before permit (double fees, 15.1.21(f))"
    assert double_fee_section("new_lisbon") == ""
    assert work_began_text("new_lisbon") == "&Work began before permit"


def test_new_lisbon_s_schedule_doubles_no_item() -> None:
    # The reading behind the empty citation: no §435 fee item is charged twice.
    schedule = shipped_schedule("new_lisbon")
    assert schedule.versions
    assert not [i.code for v in schedule.versions for i in v.items if i.doubles]
