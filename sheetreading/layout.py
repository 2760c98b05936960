"""Where everything sits on the tick-box score sheet: one pure description shared by the
printer (``printing.tick_sheets`` draws it) and the reader (``sheetreading.reader`` measures it).

Landscape A4, millimetres from the page's top left corner. Four ArUco markers (4x4, 50) sit in
the corners, their ids ``4 * page + corner`` (corner 0 top left, 1 top right, 2 bottom right,
3 bottom left): a sheet of more deals than fit one page tells its pages apart by them. Every
deal row has a solid square at each end (the timing marks): the reader finds them and places
the row's boxes between them, which follows paper that curves.

A row's boxes, left to right: the declarer's seat (one per seat at the table), the contract
(one per contract of the rule source), "after a Solo" where the rule source raises the ladder
after a Solo bid, the declarer's card points as a tens digit (0 to the total's tens) and a units
digit (0-9), won and lost, "special" (a penalty, a bonus, anything the desk completes) and the
box that strikes the row out. Then one column per seat for the running totals the players write
themselves, which the reader ignores, as it ignores the notes band at the bottom.

No Django here, no drawing: only numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import RuleSource

PAGE_W, PAGE_H = 297.0, 210.0
MARKER = 10.0  # the ArUco marker's side (6 x 6 cells including its black border)
MARKER_INSET = 6.0
MARKER_TOPLEFT = (
    (MARKER_INSET, MARKER_INSET),
    (PAGE_W - MARKER_INSET - MARKER, MARKER_INSET),
    (PAGE_W - MARKER_INSET - MARKER, PAGE_H - MARKER_INSET - MARKER),
    (MARKER_INSET, PAGE_H - MARKER_INSET - MARKER),
)
QR_X, QR_Y, QR_SIZE = 246.0, 3.0, 30.0  # with its own quiet zone of two modules
# how the printer makes its codes (printing.qr_codes: mask 0, error level M raised where the
# text leaves room), for the reader's last try at a blurred code: segno's numbers for M, Q, H
QR_MASK = 0
QR_ERROR_LEVELS = (0, 3, 2)
HEADER_BOTTOM = 31.0  # the column heads start here
ROWS_TOP = 48.0
ROWS_BOTTOM = 186.0  # the notes band below, between the bottom markers
ROW_MAX = 6.2
ROW_MIN = 5.2
TIMING = 2.6  # the timing marks' side
TIMING_LEFT = 19.0  # the left timing mark's left edge
TIMING_RIGHT = PAGE_W - 19.0 - TIMING
DEAL_X, DEAL_W = 22.5, 7.0
DEALER_W = 19.0
BOX = 3.7  # a tick box's side
GROUP_GAP = 2.0
TOTALS_MIN = 9.0  # a seat's running-total column, at least
PITCHES = (4.6, 4.4, 4.2, 4.0)  # a box's pitch, the widest that leaves the totals room

SPECIAL_KINDS = ("raeuber", "drescher")  # the desk enters these (per-seat points, last trick)

SHORT_NAMES = {
    "zwei_verschiedene": "2 Versch.",
    "eine_leere": "1 Leere",
    "zwei_leere": "2 Leere",
    "gegensolo": "Gegens.",
}


@dataclass(frozen=True)
class Box:
    group: str  # seat, contract, after_solo, tens, units, won, special, strike
    value: int | str | bool
    x: float  # left edge, mm
    label: str


@dataclass(frozen=True)
class Group:
    name: str
    x: float
    right: float


@dataclass(frozen=True)
class SheetLayout:
    rules_slug: str
    table_size: int  # seats at the table
    active: int  # seats that play a deal (one fewer where the dealer sits out)
    page: int
    pages: int
    deals: tuple[int, ...]  # the deal numbers on this page, top to bottom
    row_height: float
    pitch: float
    boxes: tuple[Box, ...]
    groups: tuple[Group, ...]
    totals_x: float
    totals_w: float  # one seat's running-total column
    contract_kinds: tuple[tuple[str, str], ...]  # (contract, kind) in the rule source's order
    tens_max: int

    def row_top(self, index: int) -> float:
        return ROWS_TOP + index * self.row_height

    @property
    def marker_ids(self) -> tuple[int, int, int, int]:
        base = 4 * self.page
        return (base, base + 1, base + 2, base + 3)

    def boxes_of(self, group: str) -> tuple[Box, ...]:
        return tuple(b for b in self.boxes if b.group == group)


def _contract_label(rules: RuleSource, contract: str) -> str:
    return SHORT_NAMES.get(contract, rules.contracts[contract].names.de)


def _row_boxes(rules: RuleSource, table_size: int, pitch: float) -> tuple[list[Box], list[Group]]:
    boxes: list[Box] = []
    groups: list[Group] = []
    x = DEAL_X + DEAL_W + DEALER_W + 1.0

    def group(name: str, items: list[tuple[int | str | bool, str]]) -> None:
        nonlocal x
        start = x
        for value, label in items:
            boxes.append(Box(name, value, x + (pitch - BOX) / 2, label))
            x += pitch
        groups.append(Group(name, start, x))
        x += GROUP_GAP

    group("seat", [(seat, str(seat + 1)) for seat in range(table_size)])
    group("contract", [(c, _contract_label(rules, c)) for c in rules.contracts])
    if rules.normal.after_solo_raise:
        group("after_solo", [(True, "after Solo")])
    tens_max = rules.counting.total // 10
    group("tens", [(d, str(d)) for d in range(tens_max + 1)])
    group("units", [(d, str(d)) for d in range(10)])
    group("won", [(True, "won"), (False, "lost")])
    group("special", [(True, "other")])
    group("strike", [(True, "strike out")])
    return boxes, groups


def sheet_layouts(*, rules: RuleSource, table_size: int, deals: int) -> tuple[SheetLayout, ...]:
    """The pages of one table's tick-box sheet: as many deal rows a page as fit at
    ``ROW_MIN``, the rows as tall as the page allows up to ``ROW_MAX``."""
    table = rules.tables.get(table_size)
    active = table.active if table else table_size
    room = ROWS_BOTTOM - ROWS_TOP
    per_page = max(1, int(room / ROW_MIN + 1e-6))
    pages = max(1, -(-deals // per_page))
    per_page = -(-deals // pages) if deals else 1
    row_height = min(ROW_MAX, room / per_page)
    for pitch in PITCHES:
        boxes, groups = _row_boxes(rules, table_size, pitch)
        totals_x = groups[-1].right + 1.0
        totals_w = (TIMING_LEFT + (TIMING_RIGHT - TIMING_LEFT) - 1.0 - totals_x) / table_size
        if totals_w >= TOTALS_MIN:
            break
    kinds = tuple((c, contract.kind) for c, contract in rules.contracts.items())
    layouts = []
    for page in range(pages):
        numbers = tuple(range(page * per_page + 1, min(deals, (page + 1) * per_page) + 1))
        layouts.append(
            SheetLayout(
                rules_slug=rules.slug,
                table_size=table_size,
                active=active,
                page=page,
                pages=pages,
                deals=numbers,
                row_height=row_height,
                pitch=pitch,
                boxes=tuple(boxes),
                groups=tuple(groups),
                totals_x=totals_x,
                totals_w=totals_w,
                contract_kinds=kinds,
                tens_max=rules.counting.total // 10,
            )
        )
    return tuple(layouts)
