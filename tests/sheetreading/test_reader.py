"""The sheet reader (sheetreading.reader, issue 42) on sheets the test set fills and photographs:
marks read, corrections honoured, doubtful and impossible rows flagged, bad photos refused."""

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from rules.builtin_sources import load_builtin
from sheetreading import layout as L
from sheetreading import testset
from sheetreading.reader import (
    CANCELLED,
    DETECT_PIXELS,
    DOUBTFUL,
    EMPTY,
    MARK,
    BoxReading,
    Unreadable,
    _detector,
    _markers_at,
    classify,
    decode_image,
    find_page,
    read_qr_modules,
    read_sheet,
    row_from_boxes,
)

pytestmark = pytest.mark.pdf


def _bench():
    """The bench's module: its blank sheets, as the bench draws them."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_sheet_reading

    return bench_sheet_reading


@pytest.fixture(scope="module")
def swm_sheet():
    return _bench().blank_sheet("swm", 4)


def _bench_photo(number: int, seed: int = 1):
    """Sheet ``number`` of the bench's set ``seed``, made as the bench makes it: its table's
    rules, layout, sitting-out seats and address, what its rows truly say, how it was
    photographed, and the photo."""
    bench = _bench()
    rules, layout, blank, sitting_out, url = bench.blank_sheet(*bench.TABLES[number % 4])
    rng = np.random.default_rng([seed, number])
    filled, truths = testset.fill_sheet(
        blank, rules=rules, layout=layout, rng=rng, sitting_out=sitting_out
    )
    settings = testset.random_settings(rng)
    photo = testset.photograph(filled, settings, rng)
    return SimpleNamespace(
        rules=rules,
        layout=layout,
        sitting_out=sitting_out,
        url=url,
        truths=truths,
        settings=settings,
        photo=photo,
    )


def _read(sheet):
    return read_sheet(
        sheet.photo, layout_for=lambda t, p: (sheet.layout, sheet.rules, sheet.sitting_out)
    )


def _boxes(layout, marks):
    return [
        BoxReading(
            b.group,
            b.value,
            0.4 if (b.group, b.value) in marks else 0.0,
            marks.get((b.group, b.value), EMPTY),
        )
        for b in layout.boxes
    ]


def _row(marks, *, slug="swm", size=4):
    rules = load_builtin(slug)
    layout = L.sheet_layouts(rules=rules, table_size=size, deals=24)[0]
    return row_from_boxes(
        _boxes(layout, marks), deal=1, index=0, layout=layout, rules=rules, sitting_out=None
    )


def test_a_row_of_ticks_is_a_deal_record_scored_by_the_engine():
    row = _row(
        {("seat", 2): MARK, ("contract", "eine"): MARK, ("tens", 4): MARK, ("units", 1): MARK}
    )
    assert row.accepted
    assert row.record == {
        "rules": "swm",
        "seats": 4,
        "contract": "eine",
        "declarer": 2,
        "declarer_points": 41,
    }
    assert row.scores == (-20, -20, 60, -20)  # docs/deal-record.md's example b


def test_a_cancelled_tick_gives_way_to_the_other_one():
    row = _row(
        {
            ("seat", 0): CANCELLED,
            ("seat", 1): MARK,
            ("contract", "bettel"): MARK,
            ("won", True): MARK,
        }
    )
    assert row.accepted and row.record["declarer"] == 1 and row.record["won"] is True


@pytest.mark.parametrize(
    ("marks", "flag"),
    [
        (
            {
                ("seat", 0): MARK,
                ("contract", "eine"): MARK,
                ("contract", "cego"): MARK,
                ("tens", 4): MARK,
                ("units", 1): MARK,
            },
            "several:contract",
        ),
        (
            {
                ("seat", 0): MARK,
                ("contract", "eine"): DOUBTFUL,
                ("tens", 4): MARK,
                ("units", 1): MARK,
            },
            "doubtful:contract=eine",
        ),
        ({("seat", 0): MARK, ("contract", "eine"): MARK, ("tens", 4): MARK}, "missing:points"),
        ({("contract", "eine"): MARK, ("tens", 4): MARK, ("units", 1): MARK}, "missing:seat"),
        (
            {
                ("seat", 0): MARK,
                ("contract", "bettel"): MARK,
                ("tens", 4): MARK,
                ("won", True): MARK,
            },
            "points_on_special",
        ),
        ({("seat", 0): MARK, ("contract", "bettel"): MARK}, "missing:won"),
        ({("seat", 0): MARK, ("contract", "raeuber"): MARK}, "desk:raeuber"),
        (
            {
                ("seat", 0): MARK,
                ("contract", "eine"): MARK,
                ("tens", 4): MARK,
                ("units", 1): MARK,
                ("won", False): MARK,
            },
            "won_disagrees",
        ),
        (
            {
                ("seat", 0): MARK,
                ("contract", "eine"): MARK,
                ("tens", 4): MARK,
                ("units", 1): MARK,
                ("strike", True): MARK,
            },
            "struck",
        ),
        ({}, "empty"),
    ],
)
def test_a_row_that_is_not_one_clear_deal_is_flagged_never_guessed(marks, flag):
    row = _row(marks)
    assert not row.accepted and row.record is None
    assert any(f.startswith(flag) for f in row.flags), row.flags


def test_an_impossible_row_is_flagged_by_the_engine():
    # 79 points is the deck; 7 tens and 9 units is 79, fine; tens 7 units 9 at bb2013 (70) is not
    row = _row(
        {("seat", 0): MARK, ("contract", "eine"): MARK, ("tens", 7): MARK, ("units", 9): MARK},
        slug="bb2013",
    )
    assert not row.accepted
    assert any(f.startswith("impossible:") for f in row.flags)


def test_fills_are_classed_with_a_doubtful_band_between():
    assert classify(0.0, 0.0) == EMPTY
    assert classify(0.35, 0.1) == MARK
    assert classify(0.08, 0.0) == DOUBTFUL
    assert classify(1.0, 1.0) == CANCELLED
    assert classify(0.8, 0.3) == MARK  # heavy, but one ninth of the box is empty: a scribble
    assert classify(0.8, 0.82) == MARK  # a broad cross: the middles of its edges stay lighter
    assert classify(0.8, 0.86) == DOUBTFUL
    assert classify(0.95, 0.86) == DOUBTFUL  # dark nearly everywhere: filled over, or a blot
    assert classify(0.95, 0.9) == CANCELLED


def test_a_photographed_sheet_reads_back_what_was_ticked(swm_sheet):
    rules, layout, blank, sitting_out, url = swm_sheet
    rng = np.random.default_rng(3)
    filled, truths = testset.fill_sheet(blank, rules=rules, layout=layout, rng=rng)
    settings = testset.PhotoSettings(
        megapixels=2.0, tilt=18, rotation=93, curve=2.0, blur=0.5, jpeg=70, light=0.7, shadow=True
    )
    photo = testset.photograph(filled, settings, rng)
    seen = []

    def layout_for(text, page):
        seen.append((text, page))
        return layout, rules, sitting_out

    reading = read_sheet(photo, layout_for=layout_for)
    assert seen == [(url, 0)]
    accepted = 0
    for truth, row in zip(truths, reading.rows, strict=True):
        if row.accepted:
            assert truth.kind == "deal" and row.record == truth.record
            accepted += 1
        if truth.kind == "struck":
            assert row.struck
    assert accepted >= 20


def test_a_sheet_of_another_table_is_refused_by_the_callers_check(swm_sheet):
    rules, layout, blank, sitting_out, url = swm_sheet
    rng = np.random.default_rng(4)
    filled, _truths = testset.fill_sheet(blank, rules=rules, layout=layout, rng=rng)
    photo = testset.photograph(filled, testset.PhotoSettings(2.0, 5, 0, 0, 0, 90, 1.0, False), rng)

    def layout_for(text, page):
        raise Unreadable("wrong_sheet", text)

    with pytest.raises(Unreadable) as error:
        read_sheet(photo, layout_for=layout_for)
    assert error.value.code == "wrong_sheet"


def test_bad_input_is_refused_with_a_reason():
    with pytest.raises(Unreadable) as error:
        decode_image(b"%PDF-1.7 not a picture")
    assert error.value.code == "not_image"
    with pytest.raises(Unreadable) as error:
        decode_image(b"")
    assert error.value.code == "not_image"
    dark = cv2.imencode(".jpg", np.full((1200, 1600, 3), 12, np.uint8))[1].tobytes()
    with pytest.raises(Unreadable) as error:
        read_sheet(dark, layout_for=lambda text, page: None)
    assert error.value.code == "dark"
    noise = np.random.default_rng(1).integers(0, 255, (1200, 1600, 3), dtype=np.uint8)
    something_else = cv2.imencode(".png", cv2.GaussianBlur(noise, (0, 0), 3))[1].tobytes()
    with pytest.raises(Unreadable) as error:
        read_sheet(something_else, layout_for=lambda text, page: None)
    assert error.value.code in ("no_markers", "blurred")


def test_a_cancelled_tick_beside_the_right_one_does_not_hide_it():
    """Found by the bench: in a group of two (won, lost) both boxes hold ink; the empty level
    taken from that group made the right tick empty and the cancelled one a tick."""
    from sheetreading.reader import _baseline

    rules = load_builtin("swm")
    layout = L.sheet_layouts(rules=rules, table_size=4, deals=24)[0]
    raw = {("won", True): 0.37, ("won", False): 0.99, ("seat", 1): 0.4, ("contract", "bettel"): 0.4}
    fills = [raw.get((b.group, b.value), 0.02) for b in layout.boxes]
    base = _baseline(fills, layout)
    states = {
        (b.group, b.value): classify(fill - level, fill - level)
        for b, fill, level in zip(layout.boxes, fills, base, strict=True)
    }
    assert states[("won", True)] == MARK
    assert states[("won", False)] == CANCELLED


def test_a_faint_trace_in_a_box_alone_is_doubtful_not_empty():
    # "other" has no neighbours: a trace that would pass for empty among the digits is flagged
    assert classify(0.05, 0.0) == EMPTY
    assert classify(0.05, 0.0, alone=True) == DOUBTFUL


def _one_row_sheet(swm_sheet, pen_colour, pen_width, rng):
    """The blank sheet with only its first row ticked (seat 3, Eine, 41 points) by one pen."""
    rules, layout, blank, _sitting_out, _url = swm_sheet
    img = blank.copy()
    pen = testset.Pen(rng)
    pen.colour, pen.width = pen_colour, pen_width
    top = layout.row_top(0) + (layout.row_height - L.BOX) / 2
    by_key = {(b.group, b.value): b for b in layout.boxes}
    for key in (("seat", 2), ("contract", "eine"), ("tens", 4), ("units", 1)):
        testset._mark(img, pen, by_key[key].x, top, "tick")
    return img


def test_a_photo_blurred_as_much_as_the_test_set_blurs_is_read_not_refused(swm_sheet):
    """Found by the bench: a fifth of the photos (blurred by 0.3 mm, still plain to the eye)
    were refused whole as blurred; their rows are read, a doubtful mark flagged."""
    rules, layout, _blank, sitting_out, _url = swm_sheet
    rng = np.random.default_rng(5)
    img = _one_row_sheet(swm_sheet, (140, 40, 20), 0.5, rng)
    settings = testset.PhotoSettings(2.0, 25, 1, 1.0, 1.6, 80, 0.8, False)
    reading = read_sheet(
        testset.photograph(img, settings, rng), layout_for=lambda t, p: (layout, rules, sitting_out)
    )
    assert reading.rows[0].accepted
    assert reading.rows[0].record["declarer_points"] == 41
    assert all(row.empty for row in reading.rows[1:])


def test_a_blurred_12_megapixel_photo_finds_its_markers_on_a_smaller_copy(swm_sheet):
    """Found by the bench: 12 MP photos blurred by 1.4 to 1.6 were refused as blurred, their
    markers lost on the 2 MP copy they are looked for on; shrunk further (or sharpened, since)
    they are found again, and the sheet is read."""
    rules, layout, _blank, sitting_out, _url = swm_sheet
    rng = np.random.default_rng(20)
    img = _one_row_sheet(swm_sheet, (140, 40, 20), 0.5, rng)
    settings = testset.PhotoSettings(12.0, 3, 97, 0.2, 1.45, 61, 0.63, True)
    photo = testset.photograph(img, settings, rng)
    gray = decode_image(photo).min(axis=2)
    _corners, _ids, copy, _scale = _markers_at(gray, DETECT_PIXELS)
    _corners, ids, _rejected = _detector().detectMarkers(copy)
    assert ids is None or len(ids) < 3  # the first look (unsharpened) finds too few
    reading = read_sheet(photo, layout_for=lambda t, p: (layout, rules, sitting_out))
    assert reading.rows[0].accepted
    assert reading.rows[0].record["declarer_points"] == 41
    assert all(row.empty for row in reading.rows[1:])


def test_a_photo_too_blurred_to_see_a_tick_is_refused(swm_sheet):
    rules, layout, _blank, sitting_out, _url = swm_sheet
    rng = np.random.default_rng(6)
    img = _one_row_sheet(swm_sheet, (140, 40, 20), 0.5, rng)
    settings = testset.PhotoSettings(2.0, 5, 0, 0.0, 6.0, 80, 1.0, False)
    with pytest.raises(Unreadable) as error:
        read_sheet(
            testset.photograph(img, settings, rng),
            layout_for=lambda t, p: (layout, rules, sitting_out),
        )
    assert error.value.code in ("blurred", "no_markers", "no_qr")


def test_a_thin_pencil_tick_in_a_blurred_photo_is_a_mark_by_its_ink():
    """A thin grey stroke blurred: few pixels darker than the ink threshold (a fill of 0.03,
    empty by the fill alone), but all its ink is there."""
    assert classify(0.03, 0.0) == EMPTY
    assert classify(0.03, 0.0, ink=0.12) == MARK
    assert classify(0.03, 0.0, ink=0.06) == DOUBTFUL
    assert classify(0.01, 0.0, ink=0.06) == DOUBTFUL  # a trace of ink: not empty
    assert classify(0.01, 0.0, ink=0.01) == EMPTY


def test_a_thin_pencil_row_in_a_blurred_photo_is_read(swm_sheet):
    rules, layout, _blank, sitting_out, _url = swm_sheet
    rng = np.random.default_rng(7)
    img = _one_row_sheet(swm_sheet, (95, 95, 95), 0.3, rng)
    settings = testset.PhotoSettings(2.0, 15, 2, 1.0, 1.2, 75, 0.8, False)
    reading = read_sheet(
        testset.photograph(img, settings, rng), layout_for=lambda t, p: (layout, rules, sitting_out)
    )
    row = reading.rows[0]
    assert row.accepted, (
        row.flags,
        [(b.group, b.value, b.fill, b.ink) for b in row.boxes if b.ink > 0.03],
    )
    assert row.record["declarer"] == 2 and row.record["declarer_points"] == 41


def test_a_tick_overshooting_into_the_next_box_leaves_it_empty_a_faint_tick_does_not():
    from sheetreading.reader import _overshoots_cleared

    def box(value, fill, state, ink=0.0):
        return BoxReading("units", value, fill, state, 0.0, ink)

    light = [box(3, 0.35, MARK, 0.3), box(4, 0.03, DOUBTFUL, 0.06), box(5, 0.0, EMPTY)]
    # the overshoot: ink at the edge, none in the middle
    assert _overshoots_cleared(light, [0.25, 0.005, 0.0])[1].state == EMPTY
    # a faint tick of its own crosses the middle: still doubtful
    assert _overshoots_cleared(light, [0.25, 0.05, 0.0])[1].state == DOUBTFUL
    # beside a heavy mark (perhaps a cancelled tick read as a mark): never cleared
    heavy = [box(3, 0.85, MARK, 0.7), box(4, 0.03, DOUBTFUL, 0.06), box(5, 0.0, EMPTY)]
    assert _overshoots_cleared(heavy, [0.7, 0.005, 0.0])[1].state == DOUBTFUL


def test_dark_pixels_without_ink_are_doubtful_not_a_mark():
    """Found by the bench (500 sheets, sheet 400): a blurred tick spread over two boxes gave one
    a fill of 0.10 but an ink of 0.049, the right one 0.045: accepted as 19 instead of 18."""
    assert classify(0.103, 0.0, ink=0.049) == DOUBTFUL
    assert classify(0.103, 0.0, ink=0.12) == MARK


def test_a_filled_box_alone_in_its_group_is_flagged():
    """Found by the bench (sheet 316): a heavy tick in "after Solo" read as a cancelled box
    dropped the raise without a flag."""
    row = _row(
        {
            ("seat", 2): MARK,
            ("contract", "halbe"): MARK,
            ("after_solo", True): CANCELLED,
            ("tens", 2): MARK,
            ("units", 5): MARK,
        }
    )
    assert not row.accepted
    assert "cancelled_alone:after_solo" in row.flags


def test_the_edge_of_a_shadow_is_not_read_as_ink(swm_sheet):
    """A shadow across the sheet (a phone held over it): the boxes just inside its edge are
    empty, not doubtful. The paper's brightness was taken from the lit side up to 3 mm into
    the shadow, and those boxes read as grey ink (found by the bench)."""
    rules, layout, blank, sitting_out, _url = swm_sheet
    page = blank.astype(np.float32)
    h, w = page.shape[:2]
    edge = np.zeros((h, w), np.float32)
    edge[:, w // 2 :] = 1.0  # the right half in shadow, its edge 5 mm soft
    edge = cv2.GaussianBlur(edge, (0, 0), 50)
    light = 1.0 - 0.4 * edge
    shaded = page * (light[:, :, None] if page.ndim == 3 else light)
    ok, photo = cv2.imencode(".png", np.clip(shaded, 0, 255).astype(np.uint8))
    assert ok
    reading = read_sheet(photo.tobytes(), layout_for=lambda t, p: (layout, rules, sitting_out))
    doubtful = [
        (row.deal, b.group, b.value) for row in reading.rows for b in row.boxes if b.state != EMPTY
    ]
    assert doubtful == []
    assert all(row.empty for row in reading.rows)


def test_the_top_and_bottom_rows_of_a_bulging_blurred_sheet_are_read(swm_sheet):
    """Paper bulging 5 mm moves the middle of its top and bottom rows by 2 to 3 mm; in a
    blurred photo the seat and contract outlines fit nothing clearly, and those boxes were
    measured where a flat page has them, a third of a box off the ticks (found by the bench).
    The page's bend, fitted over the columns that do fit, places them."""
    rules, layout, blank, sitting_out, _url = swm_sheet
    img = blank.copy()
    pen = testset.Pen(np.random.default_rng(8))
    pen.colour, pen.width = (30, 30, 90), 0.5
    by_key = {(b.group, b.value): b for b in layout.boxes}
    ticked = {
        0: (1, "eine", 4, 1),
        1: (2, "solo", 6, 7),
        22: (0, "cego", 3, 8),
        23: (3, "eine", 5, 2),
    }
    for index, (seat, contract, tens, units) in ticked.items():
        top = layout.row_top(index) + (layout.row_height - L.BOX) / 2
        for key in (("seat", seat), ("contract", contract), ("tens", tens), ("units", units)):
            testset._mark(img, pen, by_key[key].x, top, "tick")
    settings = testset.PhotoSettings(12.0, 3, 0, 5.0, 1.6, 80, 1.0, False)
    photo = testset.photograph(img, settings, np.random.default_rng(9))
    reading = read_sheet(photo, layout_for=lambda t, p: (layout, rules, sitting_out))
    for index, (seat, contract, tens, units) in ticked.items():
        row = reading.rows[index]
        assert row.accepted, (index, row.flags)
        assert (row.record["declarer"], row.record["contract"]) == (seat, contract)
        assert row.record["declarer_points"] == tens * 10 + units


def test_the_qr_code_of_a_blurred_2_megapixel_photo_is_read():
    """Sheet 88 of the bench's set (seed 1): 2 MP, blurred by 1.5. Its QR code was read by no
    try before and the whole sheet was refused; sharpened hard with a wider quiet zone, it is
    read, and so are its rows."""
    sheet = _bench_photo(88)
    assert (sheet.settings.megapixels, round(sheet.settings.blur, 2)) == (2.0, 1.55)
    reading = _read(sheet)
    assert reading.qr_text == sheet.url
    for truth, row in zip(sheet.truths, reading.rows, strict=True):
        if row.accepted:
            assert truth.kind == "deal" and row.record == truth.record


def test_a_qr_code_too_blurred_for_the_detector_is_read_module_by_module():
    """Sheet 34 of the bench's set (seed 1, Baumann & Blümle at 3): 2 MP, blurred by 1.44,
    turned 88 degrees: the code's modules are 3 px, blurred by half a module, and no sharpened
    copy was read by OpenCV's detector: the sheet was refused ("no_qr"). Its finder patterns
    placed, its blur taken off, its modules read one by one, it is read, and so are its rows."""
    sheet = _bench_photo(34)
    assert (sheet.settings.megapixels, round(sheet.settings.blur, 2)) == (2.0, 1.44)
    gray = decode_image(sheet.photo).min(axis=2)
    homography, _page = find_page(gray)
    assert read_qr_modules(gray, homography) == sheet.url
    reading = _read(sheet)
    assert reading.qr_text == sheet.url
    accepted = 0
    for truth, row in zip(sheet.truths, reading.rows, strict=True):
        if row.accepted:
            assert truth.kind == "deal" and row.record == truth.record
            accepted += 1
    assert accepted >= 12


def test_a_blurred_photo_whose_markers_hide_at_every_size_is_read_sharpened():
    """Sheet 94 of the bench's set (seed 1, Baumann & Blümle at 3): 12 MP, blurred by 1.59,
    JPEG 52, the page a third of the frame: no copy, however small, showed three markers, and
    the sheet was refused ("blurred"). Sharpened, the markers' cells are read and all four
    found; every row is read as the players ticked it."""
    sheet = _bench_photo(94)
    settings = sheet.settings
    assert (settings.megapixels, round(settings.blur, 2), settings.jpeg) == (12.0, 1.59, 52)
    _homography, page = find_page(decode_image(sheet.photo).min(axis=2))
    assert page == 0
    reading = _read(sheet)
    assert reading.qr_text == sheet.url
    for truth, row in zip(sheet.truths, reading.rows, strict=True):
        assert row.accepted == (truth.kind == "deal")
        if row.accepted:
            assert row.record == truth.record


def test_the_reader_knows_how_the_printer_makes_its_codes():
    """The reader draws a blurred code's format itself: the printer's mask and error level."""
    from segno import consts

    from printing import qr_codes

    assert qr_codes.MASK == L.QR_MASK
    assert L.QR_ERROR_LEVELS[0] == qr_codes.ERROR
    assert set(L.QR_ERROR_LEVELS) == {
        consts.ERROR_LEVEL_M,
        consts.ERROR_LEVEL_Q,
        consts.ERROR_LEVEL_H,
    }


def test_a_trace_in_a_box_alone_is_empty_only_with_no_ink_in_its_middle():
    """Found by the bench: "strike" and "special" boxes with the paper's noise in them were
    doubtful (an alone box's empty bounds are strict, for a faint tick); with nothing in the
    middle and no more than any box's empty level they are empty. A faint tick crosses the
    middle, and more ink than an empty box holds stays doubtful."""
    from sheetreading.reader import _overshoots_cleared

    def strike(fill, ink):
        return [BoxReading("strike", 1, fill, classify(fill, 0.0, alone=True, ink=ink), 0.0, ink)]

    noise = strike(0.05, 0.04)
    assert noise[0].state == DOUBTFUL
    assert _overshoots_cleared(noise, [0.0])[0].state == EMPTY
    assert _overshoots_cleared(noise, [0.05])[0].state == DOUBTFUL  # ink across the middle
    inky = strike(0.05, 0.06)  # more ink than an empty box's level
    assert _overshoots_cleared(inky, [0.0])[0].state == DOUBTFUL


def test_a_line_through_a_row_whose_strike_box_reads_empty_is_flagged():
    """A row the players struck out has a line through it; where its strike-out box reads as
    not ticked, the row is flagged, not taken as the deal its other ticks say."""
    ticks = {("seat", 2): MARK, ("contract", "eine"): MARK, ("tens", 4): MARK, ("units", 1): MARK}
    rules = load_builtin("swm")
    layout = L.sheet_layouts(rules=rules, table_size=4, deals=24)[0]

    def row(marks, line_across):
        return row_from_boxes(
            _boxes(layout, marks),
            deal=1,
            index=0,
            layout=layout,
            rules=rules,
            sitting_out=None,
            line_across=line_across,
        )

    assert row(ticks, False).accepted
    crossed = row(ticks, True)
    assert not crossed.accepted and crossed.flags == ["line_across"]
    struck = row({**ticks, ("strike", True): MARK}, True)
    assert struck.struck and struck.flags == ["struck"]


def test_a_struck_row_whose_faint_strike_tick_was_missed_is_not_accepted():
    """Sheet 290 of the bench's second set (seed 2, Baumann & Blümle at 3, 2 MP): deal 15 is
    struck out, a line through it and a thin tick in its strike-out box. The line darkens
    every box of the row, the tick weighed against it read as empty, and the row was accepted
    as the deal its other ticks say: a wrong deal. Now the line across is seen and the row
    flagged; every row accepted is what the players ticked."""
    sheet = _bench_photo(290, seed=2)
    reading = _read(sheet)
    truth, row = sheet.truths[14], reading.rows[14]
    assert truth.kind == "struck"
    assert not row.accepted
    assert "line_across" in row.flags
    for truth, row in zip(sheet.truths, reading.rows, strict=True):
        if row.accepted:
            assert truth.kind == "deal" and row.record == truth.record


def _group(group, measures):
    """Boxes of one group from (fill, ink) pairs, classed as the reader classes them."""
    alone = group in ("after_solo", "special", "strike")
    return [
        BoxReading(group, value, fill, classify(fill, 0.0, alone=alone, ink=ink), 0.0, ink)
        for value, (fill, ink) in enumerate(measures)
    ]


def test_a_faint_tick_standing_out_in_a_group_that_needs_one_is_the_tick():
    """Found by the bench: a faint pen in a blurred photo leaves a tick with 0.06-0.09 of ink,
    doubtful on its own. Where the group needs a tick, holds no other and nothing cancelled,
    and every other box of it is plainly emptier, it is the tick; else it stays doubtful."""
    from sheetreading.reader import _read_within_groups

    def states(group, measures, cores=None):
        boxes = _group(group, measures)
        cores = cores or [0.03] * len(boxes)
        return [b.state for b in _read_within_groups(boxes, cores)]

    faint = (0.03, 0.075)
    assert _group("seat", [faint])[0].state == DOUBTFUL
    assert states("seat", [(0, 0.01), faint, (0, 0.0), (0, 0.01)]) == [EMPTY, MARK, EMPTY, EMPTY]
    # another box with ink too: not three times as much
    assert states("seat", [(0, 0.03), faint, (0, 0.0)])[1] == DOUBTFUL
    # two faint traces: which one?
    assert states("tens", [faint, faint, (0, 0.0)])[:2] == [DOUBTFUL, DOUBTFUL]
    # a group a deal may leave empty (won or lost): a trace there is not read as a tick
    assert states("won", [(0, 0.0), faint]) == [EMPTY, DOUBTFUL]
    # a box filled over in the group: the faint trace may be the cancelled tick's neighbour
    cancelled = BoxReading("units", 5, 0.97, CANCELLED, 0.95, 0.8)
    boxes = [*_group("units", [(0, 0.0), faint]), cancelled]
    assert _read_within_groups(boxes, [0.0, 0.03, 0.9])[1].state == DOUBTFUL
    # too little ink to be anything but doubtful
    assert states("units", [(0, 0.0), (0.03, 0.055)])[1] == DOUBTFUL


def test_a_trace_outshone_by_its_groups_one_light_tick_is_empty():
    """Found by the bench: a smudge or a stroke's end in a box of a group whose tick is clear
    made the row doubtful. With a third of the tick's ink or less, in the box and in its
    middle, and its own middle nearly empty, it is empty. A faint trace crossing its middle,
    or beside a heavy "tick" (perhaps a box filled over to cancel it), stays doubtful: a
    blurred photo on the bench had a cancelled box read as a tick beside the faint right one."""
    from sheetreading.reader import _read_within_groups

    trace = (0.03, 0.06)
    tick = (0.3, 0.3)
    boxes = _group("contract", [trace, (0, 0.0), tick])
    assert [b.state for b in boxes] == [DOUBTFUL, EMPTY, MARK]
    assert _read_within_groups(boxes, [0.01, 0.0, 0.4])[0].state == EMPTY
    assert _read_within_groups(boxes, [0.05, 0.0, 0.4])[0].state == DOUBTFUL  # crosses it
    heavy = _group("contract", [trace, (0, 0.0), (0.8, 0.5)])
    assert heavy[2].state == MARK
    assert _read_within_groups(heavy, [0.01, 0.0, 0.6])[0].state == DOUBTFUL


def test_faint_ticks_of_a_blurred_2_megapixel_photo_are_read_against_their_groups():
    """Sheet 396 of the bench's set (seed 1, swm at 4): 2 MP, blurred by 1.29; 15 of its
    plain deals were read without a flag, the rest doubtful for faint ticks and smudges. Read
    against their groups, 20 are, and every row accepted is what the players ticked."""
    sheet = _bench_photo(396)
    assert (sheet.settings.megapixels, round(sheet.settings.blur, 2)) == (2.0, 1.29)
    accepted = 0
    for truth, row in zip(sheet.truths, _read(sheet).rows, strict=True):
        if row.accepted:
            assert truth.kind == "deal" and row.record == truth.record
            accepted += 1
    assert accepted >= 19


def test_a_heavy_cross_is_a_mark_and_a_filled_box_is_cancelled(swm_sheet):
    """Found by the bench: a cross of a broad felt pen fills most of a box, and every quarter
    of the box holds part of a stroke: it read as cancelled or doubtful. The middle of an edge
    stays white in a ninth of the box; a box filled over is dark in every ninth."""
    rules, layout, blank, sitting_out, _url = swm_sheet
    img = blank.copy()
    rng = np.random.default_rng(7)
    pen = testset.Pen(rng)
    pen.colour, pen.width = (20, 20, 120), 1.3
    top = layout.row_top(0) + (layout.row_height - L.BOX) / 2
    by_key = {(b.group, b.value): b for b in layout.boxes}
    for key in (("seat", 2), ("contract", "eine"), ("tens", 4)):
        testset._mark(img, pen, by_key[key].x, top, "cross")
    testset._cancel(img, pen, by_key[("units", 3)].x, top)  # ticked, then filled over
    testset._mark(img, pen, by_key[("units", 1)].x, top, "tick")
    settings = testset.PhotoSettings(2.0, 5, 0, 0.0, 0.3, 90, 1.0, False)
    reading = read_sheet(
        testset.photograph(img, settings, rng), layout_for=lambda t, p: (layout, rules, sitting_out)
    )
    row = reading.rows[0]
    box = {(b.group, b.value): b for b in row.boxes}
    assert box[("seat", 2)].fill >= 0.7  # heavy indeed
    assert {box[key].state for key in (("seat", 2), ("contract", "eine"), ("tens", 4))} == {MARK}
    assert box[("units", 3)].state == CANCELLED
    assert row.accepted and row.record["declarer_points"] == 41
