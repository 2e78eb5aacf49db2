"""The kind picker of the new-application form finds a kind by any word of its name or code."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desk.domain.kinds import kinds_for
from ui.presenters.intake import find_kind
from ui.views.intake import _KindCombo

KINDS = kinds_for("glendale")


def code_of(typed: str) -> str | None:
    found = find_kind(KINDS, typed)
    return KINDS[found].code if found is not None else None


def test_a_kind_is_found_by_any_word_of_its_name_or_its_code() -> None:
    assert code_of("dwelling") == "RES-NEW-DWELLING"
    assert code_of("DWELL") == "RES-NEW-DWELLING"
    assert code_of("RES-NEW") == "RES-NEW-DWELLING"
    assert code_of("res-pool") == "RES-POOL"
    assert code_of("spa") == "RES-POOL"
    assert code_of("foundation") == "RES-EARLY-START"
    assert code_of("interceptor") == "GREASE-INTERCEPTOR"
    assert code_of("qqq") is None
    assert code_of("") is None


def test_what_clerks_call_a_kind_finds_it_through_a_few_synonyms() -> None:
    assert code_of("house") == "RES-NEW-DWELLING"
    assert code_of("home") == "RES-NEW-DWELLING"
    assert code_of("shed") == "RES-ACCESSORY"
    assert code_of("demolition") == "RAZE"
    assert code_of("furnace") == "HVAC"


def test_the_start_of_the_name_still_comes_first() -> None:
    # As the combo's own type-ahead did: 'New' is the new dwelling, not a word inside another.
    assert code_of("New") == "RES-NEW-DWELLING"
    assert code_of("Plumbing") == "PLUMBING"
    assert code_of("temp") == "TEMP-OCCUPANCY"  # before 'Temporary electrical' by list order
    assert code_of("h") == "HVAC"


def test_typing_into_the_picker_selects_the_kind(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    combo = _KindCombo(KINDS, parent)
    combo.addItem("— choose the kind of permit —", None)
    for kind in KINDS:
        combo.addItem(f"{kind.label} ({kind.code})", kind.code)
    qtbot.keyClicks(combo, "dwelling")
    assert combo.currentData() == "RES-NEW-DWELLING"
    qtbot.wait(500)  # a pause starts a new search, as in any list
    combo.setCurrentIndex(0)
    qtbot.keyClicks(combo, "house")
    assert combo.currentData() == "RES-NEW-DWELLING"
    qtbot.wait(500)
    qtbot.keyClicks(combo, "Plumbing")
    assert combo.currentData() == "PLUMBING"
    qtbot.wait(500)
    qtbot.keyClicks(combo, "zzz")  # nothing matches: the choice stays
    assert combo.currentData() == "PLUMBING"
    qtbot.wait(500)
    combo.setCurrentIndex(0)
    qtbot.keyClicks(combo, "e")
    assert combo.currentData() == "RES-EARLY-START"  # the first name starting with it
    qtbot.keyClicks(combo, "e")  # one letter again steps to the next name with it
    assert combo.currentData() == "EROSION"
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # the arrows work as before
    assert combo.currentData() == "SOLID-FILL"
