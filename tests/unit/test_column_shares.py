"""How a list's columns share a table's width (ui/columns.py): as wide as their values when
there is room, the widest cut first on a narrow screen, never below their headings."""

from ui.columns import shares


def test_with_room_to_spare_the_stretching_column_takes_it() -> None:
    assert shares([80, 200, 90], [60, 70, 60], 500, [1]) == [80, 330, 90]


def test_with_room_to_spare_and_nothing_to_stretch_each_keeps_its_width() -> None:
    assert shares([80, 200, 90], [60, 70, 60], 500, []) == [80, 200, 90]


def test_short_of_room_the_widest_are_cut_to_one_width() -> None:
    # 80 + 400 + 300 = 780 in 500: the two long ones are cut to 210 each.
    assert shares([80, 400, 300], [60, 70, 60], 500, [1]) == [80, 210, 210]


def test_no_column_is_cut_below_its_heading() -> None:
    # 'Scheduled' needs 88 for its heading: it keeps 88 and the address gives more.
    assert shares([40, 300, 88], [30, 72, 88], 300, []) == [40, 172, 88]


def test_headings_that_do_not_fit_keep_their_widths() -> None:
    assert shares([100, 100], [90, 90], 150, []) == [90, 90]


def test_every_pixel_of_the_room_is_used() -> None:
    widths = shares([101, 333, 257, 80], [40, 40, 40, 40], 517, [])
    assert sum(widths) == 517
    assert widths[3] == 80  # short enough to keep its values whole
