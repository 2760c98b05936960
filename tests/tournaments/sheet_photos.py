"""Photos of a real table's tick-box sheet for the tests (issue 42): the round's tick-box PDF
as the print view makes it, filled in and photographed by ``sheetreading.testset``, with the
truth of every row. A photo is made once per table address and seed (the QR code holds the
table's short address, which the tests set, so later tests reuse it)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from printing.printouts import tick_sheets_pdf
from sheetreading import layout as L
from sheetreading import testset
from tournaments.models import Seat, Table
from tournaments.rule_snapshot import rule_source_of
from tournaments.seating import sitting_out_position

BASE_URL = "http://testserver"
GENTLE = testset.PhotoSettings(
    megapixels=2.0, tilt=8.0, rotation=4.0, curve=1.0, blur=0.0, jpeg=90, light=0.9, shadow=False
)
_MADE: dict[tuple, tuple[bytes, list[Any]]] = {}


def _second_contract(image: np.ndarray, layout: L.SheetLayout, index: int, truth) -> None:
    """A second contract ticked in row ``index``: a bold cross in a contract box the row
    does not have."""
    taken = {value for (group, value) in truth.marks if group == "contract"}
    box = next(b for b in layout.boxes_of("contract") if b.value not in taken)
    top = layout.row_top(index) + (layout.row_height - L.BOX) / 2
    px = testset.SRC_PX
    x0, y0 = int((box.x + 0.4) * px), int((top + 0.4) * px)
    x1, y1 = int((box.x + L.BOX - 0.4) * px), int((top + L.BOX - 0.4) * px)
    cv2.line(image, (x0, y0), (x1, y1), (140, 40, 20), 5, cv2.LINE_AA)
    cv2.line(image, (x1, y0), (x0, y1), (140, 40, 20), 5, cv2.LINE_AA)


def tick_photo(
    table: Table, *, seed: int = 3, two_contracts_in: int | None = 2, settings=GENTLE
) -> tuple[bytes, list[Any]]:
    """A JPEG photo of ``table``'s filled tick-box sheet and each row's truth
    (``testset.RowTruth``); with ``two_contracts_in`` that deal's row has a second contract
    ticked (the reader must flag it)."""
    tournament = table.round.tournament
    rules = rule_source_of(tournament)
    size = Seat.objects.filter(table=table).count()
    key = (table.short_code, rules.slug, size, tournament.deals_per_round, seed, two_contracts_in)
    if key not in _MADE:
        numbers = list(table.round.tables.order_by("number").values_list("number", flat=True))
        pdf = tick_sheets_pdf(
            tournament=tournament, round_number=table.round.number, base_url=BASE_URL
        )
        blank = testset.render_blank(pdf, page=numbers.index(table.number) + 1)
        layout = L.sheet_layouts(rules=rules, table_size=size, deals=tournament.deals_per_round)[0]
        rng = np.random.default_rng(seed)
        filled, truths = testset.fill_sheet(
            blank,
            rules=rules,
            layout=layout,
            rng=rng,
            sitting_out=lambda deal: sitting_out_position(
                rules=rules, table_size=size, deal_number=deal
            ),
        )
        if two_contracts_in is not None:
            index = layout.deals.index(two_contracts_in)
            _second_contract(filled, layout, index, truths[index])
            truths[index].kind = "flagged"
            truths[index].record = None
        _MADE[key] = (testset.photograph(filled, settings, rng), truths)
    return _MADE[key]


def not_a_sheet() -> bytes:
    """A photo of something else: a table cloth with a few shapes."""
    rng = np.random.default_rng(5)
    image = np.full((900, 1200, 3), 180, np.uint8)
    image = cv2.add(image, rng.integers(0, 40, image.shape, dtype=np.uint8))
    cv2.circle(image, (400, 400), 150, (30, 60, 160), -1)
    cv2.rectangle(image, (700, 200), (1000, 700), (40, 120, 40), -1)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return encoded.tobytes()


def darkened(photo: bytes, factor: float = 0.12) -> bytes:
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    image = (image.astype(np.float32) * factor).astype(np.uint8)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def blurred(photo: bytes, sigma: float = 9.0) -> bytes:
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def resaved(photo: bytes) -> bytes:
    """The same picture as another file (another sha256): a retake of the same sheet."""
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])[1].tobytes()
