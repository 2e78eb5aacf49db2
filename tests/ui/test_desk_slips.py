"""Small slips at the counter, each of which cost a clerk something."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tests.ui.sample import Sample
from ui.app import make_session
from ui.permit.base import PermitContext
from ui.permit.inspections import RequestDialog


def test_a_request_from_the_permit_window_shows_no_permit_finder_over_its_heading(
    qtbot: QtBot, sample: Sample
) -> None:
    session = make_session(sample.database, sample.admin)
    context = PermitContext(sample.database, session, sample.issued_id, sample.clock)
    dialog = RequestDialog(context)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    # The permit is known: its number is shown as text, and there is nothing to search.
    assert not dialog.finder.isVisible()
    assert dialog.permit_label.isVisible()
    assert dialog.permit_label.text().startswith("2026-")


def test_new_parcel_takes_the_address_typed_and_the_municipality_s_city_and_zip(
    qtbot: QtBot, sample: Sample
) -> None:
    from db.parcel_queries import usual_city_zip
    from ui.views.intake_dialogs import NewParcelDialog

    with sample.database.read() as conn:
        city, zip_code = usual_city_zip(conn, sample.municipality_id)
    assert (city, zip_code) == ("Glendale", "53217")  # the sample's parcels
    typed = {
        "6100 N Port Washington Rd": ("", "6100", "N Port Washington Rd"),
        "047-9991-003": ("047-9991-003", "", ""),
        "6100": ("", "6100", ""),
        "N Port Washington Rd": ("", "", "N Port Washington Rd"),
    }
    for text, (pin, house, street) in typed.items():
        dialog = NewParcelDialog(
            sample.database, sample.clock, sample.clerk, sample.municipality_id, street=text
        )
        qtbot.addWidget(dialog)
        assert (dialog.pin.text(), dialog.house.text(), dialog.street.text()) == (
            pin,
            house,
            street,
        ), text
        assert (dialog.city.text(), dialog.zip.text()) == ("Glendale", "53217")
