"""The test set for the sheet reader: tick-box sheets filled as people fill them, turned into
phone photos (issue 42 item 3). Pure: OpenCV and NumPy; the blank page comes in as an image.

People: every row a deal of the rule source (mostly the Cego ladder, some Solos and specials,
now and then a Räuber the desk completes), ticked with pens of varied width and colour as
ticks, crosses, slashes or scribbles that fill part of the box, off-centre and overshooting;
now and then a wrong tick cancelled by filling its box, a won/lost tick beside the points, a
row struck out (its last box ticked and a line through it), running totals and notes in
handwriting, stray marks in the margin.

Photos: the page curved, tilted up to 30° away from the camera, rotated any way, lit unevenly
with a shadow across it, blurred, noisy, 2 or 12 megapixels, JPEG quality 50 to 95.
"""

from __future__ import annotations

import math
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring import RuleSource, ScoringError, deal_from_record, score_deal
from sheetreading import layout as L

SRC_PX = 10.0  # px per mm of the rendered blank page

INKS = (  # BGR: blue ballpoint, black, dark blue, blue felt, red, green, pencil grey
    (140, 40, 20),
    (30, 30, 30),
    (110, 40, 40),
    (170, 80, 30),
    (40, 40, 170),
    (60, 110, 40),
    (95, 95, 95),
)


def render_blank(pdf: bytes, *, page: int = 1) -> np.ndarray:
    """The PDF's page as a BGR image at SRC_PX px/mm (pdftoppm)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "sheet.pdf"
        source.write_bytes(pdf)
        dpi = SRC_PX * 25.4
        subprocess.run(
            ["pdftoppm", "-png", "-r", f"{dpi:.1f}", "-f", str(page), "-l", str(page)]
            + ["-singlefile", str(source), str(Path(folder) / "page")],
            check=True,
        )
        image = cv2.imread(str(Path(folder) / "page.png"), cv2.IMREAD_COLOR)
    return image


@dataclass
class RowTruth:
    deal: int
    # deal (a record the reader must give), struck, desk (the desk completes it), impossible
    # (a row the engine refuses: the reader must flag it)
    kind: str
    record: dict[str, Any] | None
    notes: list[str] = field(default_factory=list)
    marks: dict[tuple[str, Any], str] = field(default_factory=dict)  # box -> mark, cancelled


def _deal(
    rng: np.random.Generator, rules: RuleSource, layout: L.SheetLayout, deal: int, sitting_out
):
    seats = [s for s in range(layout.table_size) if s != sitting_out]
    declarer = int(rng.choice(seats))
    kinds = dict(layout.contract_kinds)
    ladder = [c for c, k in kinds.items() if k == "normal" and c not in ("solo", "gegensolo")]
    fixed = [c for c, k in kinds.items() if k == "fixed"]
    others = [c for c in ("solo", "gegensolo") if c in kinds]
    roll = rng.random()
    if roll < 0.70 or not (fixed or others):
        # the ladder's lower games are the common ones
        weights = np.array([1.0 / (1 + i) for i in range(len(ladder))])
        contract = str(rng.choice(ladder, p=weights / weights.sum()))
    elif roll < 0.82 and others:
        contract = str(rng.choice(others))
    elif roll < 0.97 and fixed:
        contract = str(rng.choice(fixed))
    else:
        special = [c for c, k in kinds.items() if k in L.SPECIAL_KINDS]
        contract = str(rng.choice(special)) if special else str(rng.choice(ladder))
    record: dict[str, Any] = {
        "rules": rules.slug,
        "seats": layout.table_size,
        "contract": contract,
        "declarer": declarer,
    }
    if sitting_out is not None:
        record["sitting_out"] = sitting_out
    kind = kinds[contract]
    if kind == "normal":
        table = rules.tables[layout.table_size]
        record["declarer_points"] = int(rng.integers(0, table.entered_total + 1))
        ladder_game = contract not in ("solo", "gegensolo", "cego")
        if rules.normal.after_solo_raise and ladder_game and rng.random() < 0.08:
            record["after_solo"] = True
    elif kind == "fixed":
        record["won"] = bool(rng.random() < 0.55)
    return record, kind


def _possible(rules: RuleSource, record: dict[str, Any]) -> bool:
    try:
        score_deal(rules, deal_from_record(record))
    except ScoringError:
        return False
    return True


class Pen:
    def __init__(self, rng: np.random.Generator):
        self.colour = INKS[int(rng.integers(len(INKS)))]
        self.width = float(rng.uniform(0.3, 0.75))  # mm
        self.rng = rng


def _stroke(
    img: np.ndarray, pen: Pen, points_mm: list[tuple[float, float]], width_mm: float | None = None
):
    w = max(1, int(round((width_mm or pen.width) * SRC_PX)))
    pts = np.array([[x * SRC_PX * 16, y * SRC_PX * 16] for x, y in points_mm], dtype=np.int32)
    cv2.polylines(img, [pts], False, pen.colour, w, cv2.LINE_AA, shift=4)


def _mark(img: np.ndarray, pen: Pen, x: float, y: float, style: str) -> None:
    """A tick in the box whose top left is (x, y) mm."""
    rng = pen.rng
    s = L.BOX * float(rng.uniform(0.75, 1.2))
    cx = x + L.BOX / 2 + float(rng.normal(0, 0.3))
    cy = y + L.BOX / 2 + float(rng.normal(0, 0.3))
    h = s / 2

    def j() -> float:
        return float(rng.normal(0, 0.15))

    if style == "tick":
        _stroke(
            img,
            pen,
            [
                (cx - h + j(), cy + j()),
                (cx - h * 0.2 + j(), cy + h + j()),
                (cx + h * 1.1 + j(), cy - h * 1.2 + j()),
            ],
        )
    elif style == "cross":
        _stroke(img, pen, [(cx - h + j(), cy - h + j()), (cx + h + j(), cy + h + j())])
        _stroke(img, pen, [(cx + h + j(), cy - h + j()), (cx - h + j(), cy + h + j())])
    elif style == "slash":
        _stroke(
            img,
            pen,
            [(cx - h * 0.8 + j(), cy + h + j()), (cx + h * 0.8 + j(), cy - h + j())],
            pen.width * 1.3,
        )
    else:  # scribble: part of the box filled
        share = float(rng.uniform(0.3, 0.6))
        top = cy - s * share / 2
        rows = max(2, int(s * share / max(pen.width * 0.8, 0.3)))
        points = []
        for i in range(rows):
            yy = top + i * (s * share) / rows
            points += [(cx - h * 0.8 + j(), yy), (cx + h * 0.8 + j(), yy + 0.2)]
        _stroke(img, pen, points)


def _cancel(img: np.ndarray, pen: Pen, x: float, y: float) -> None:
    """A tick cancelled: the box filled completely, as the sheet asks."""
    _mark(img, pen, x, y, str(pen.rng.choice(["tick", "cross"])))
    step = max(pen.width * 0.6, 0.25)
    yy = y - 0.2
    points = []
    while yy < y + L.BOX + 0.2:
        points += [(x - 0.2, yy), (x + L.BOX + 0.2, yy + step / 2)]
        yy += step
    _stroke(img, pen, points, max(pen.width, 0.5))


def _write(img: np.ndarray, pen: Pen, text: str, x: float, y: float, height: float) -> None:
    scale = height * SRC_PX / 22.0
    thickness = max(1, int(round(pen.width * SRC_PX * 0.8)))
    cv2.putText(
        img,
        text,
        (int(x * SRC_PX), int(y * SRC_PX)),
        cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
        scale,
        pen.colour,
        thickness,
        cv2.LINE_AA,
    )


@dataclass
class _RowPen:
    """Ticks one row's boxes with one pen, in one style."""

    img: np.ndarray
    pen: Pen
    top: float
    style: str
    truth: RowTruth
    by_key: dict

    def tick(self, group: str, value: Any) -> None:
        box = self.by_key[(group, value)]
        _mark(self.img, self.pen, box.x, self.top, self.style)
        self.truth.marks[(group, value)] = "mark"

    def wrong_then(self, group: str, value: Any, choices: list[Any]) -> None:
        """Now and then a wrong tick first, cancelled by filling its box; then the right one."""
        rng = self.pen.rng
        if rng.random() < 0.03 and len(choices) > 1:
            wrong = choices[int(rng.integers(len(choices)))]
            if wrong != value:
                box = self.by_key[(group, wrong)]
                _cancel(self.img, self.pen, box.x, self.top)
                self.truth.marks[(group, wrong)] = "cancelled"
                self.truth.notes.append(f"corrected {group}")
        self.tick(group, value)


def fill_sheet(
    blank: np.ndarray,
    *,
    rules: RuleSource,
    layout: L.SheetLayout,
    rng: np.random.Generator,
    sitting_out=lambda deal: None,
) -> tuple[np.ndarray, list[RowTruth]]:
    """The blank page (at SRC_PX) filled in by the table; and what each row truly says."""
    img = blank.copy()
    truths = []
    table_pen = Pen(rng)  # one pen writes most of a sheet; now and then another
    totals = [0] * layout.table_size
    box_offset = (layout.row_height - L.BOX) / 2
    by_key = {(b.group, b.value): b for b in layout.boxes}
    for index, deal in enumerate(layout.deals):
        pen = table_pen if rng.random() < 0.85 else Pen(rng)
        style_roll = rng.random()
        style = (
            "tick"
            if style_roll < 0.45
            else "cross"
            if style_roll < 0.8
            else "slash"
            if style_roll < 0.9
            else "scribble"
        )
        top = layout.row_top(index) + box_offset
        out = sitting_out(deal)
        record, kind = _deal(rng, rules, layout, deal, out)
        truth = RowTruth(deal=deal, kind="deal", record=record)

        row = _RowPen(img=img, pen=pen, top=top, style=style, truth=truth, by_key=by_key)
        tick, wrong_then = row.tick, row.wrong_then

        seats = [s for s in range(layout.table_size)]
        wrong_then("seat", record["declarer"], seats)
        wrong_then("contract", record["contract"], [c for c, _k in layout.contract_kinds])
        if record.get("after_solo"):
            tick("after_solo", True)
        if kind == "normal":
            points = record["declarer_points"]
            wrong_then("tens", points // 10, list(range(layout.tens_max + 1)))
            wrong_then("units", points % 10, list(range(10)))
            if rng.random() < 0.2:
                bonus = rules.tables[layout.table_size].declarer_bonus
                tick("won", points + bonus >= rules.counting.win_at)
        elif kind == "fixed":
            wrong_then("won", record["won"], [True, False])
        else:
            tick("special", True)
            truth.kind = "desk"
            truth.record = None
        if rng.random() < 0.015:
            tick("special", True)
            truth.kind = "desk"
            truth.record = None
        if rng.random() < 0.02:
            tick("strike", True)
            y = layout.row_top(index) + layout.row_height / 2 + float(rng.normal(0, 0.4))
            _stroke(
                img, pen, [(L.DEAL_X + 8, y), (layout.totals_x - 2, y + float(rng.normal(0, 0.6)))]
            )
            truth.kind = "struck"
            truth.record = None
        if truth.kind == "deal" and not _possible(rules, record):
            truth.kind = "impossible"  # e.g. a contract the table's size does not allow
            truth.record = None
        truths.append(truth)
        # the running totals, in handwriting
        for seat in range(layout.table_size):
            totals[seat] += int(rng.integers(-60, 61))
            x = layout.totals_x + seat * layout.totals_w + 1.0
            _write(
                img,
                pen,
                str(totals[seat]),
                x,
                layout.row_top(index) + layout.row_height - 1.2,
                layout.row_height * 0.75,
            )
    # notes and stray marks in the margins
    notes_pen = Pen(rng)
    _write(img, notes_pen, "Runde ok, Hans", 30, L.ROWS_BOTTOM + 15, 4.0)
    for _ in range(int(rng.integers(1, 5))):
        x = float(rng.choice([rng.uniform(20, 270), rng.uniform(2, 17)]))
        y = float(rng.uniform(L.ROWS_BOTTOM + 10, 204)) if x > 18 else float(rng.uniform(20, 190))
        _stroke(
            img, notes_pen, [(x, y), (x + float(rng.uniform(-4, 4)), y + float(rng.uniform(-3, 3)))]
        )
    return img, truths


@dataclass
class PhotoSettings:
    megapixels: float
    tilt: float  # degrees
    rotation: float
    curve: float  # mm of bulge
    blur: float
    jpeg: int
    light: float  # darkest share of the light across the page
    shadow: bool


def random_settings(rng: np.random.Generator) -> PhotoSettings:
    return PhotoSettings(
        megapixels=float(rng.choice([2.0, 12.0])),
        tilt=float(rng.uniform(0, 30)),
        rotation=float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 6)),
        curve=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.6)),
        jpeg=int(rng.integers(50, 96)),
        light=float(rng.uniform(0.5, 1.0)),
        shadow=bool(rng.random() < 0.5),
    )


def photograph(page: np.ndarray, settings: PhotoSettings, rng: np.random.Generator) -> bytes:
    """The filled page (at SRC_PX) as a phone's JPEG photo."""
    h, w = page.shape[:2]
    # curved paper: rows bulge up and down across the page, the sides curl a little
    if settings.curve > 0.1:
        ys, xs = np.indices((h, w), dtype=np.float32)
        bulge = settings.curve * SRC_PX * np.sin(np.pi * xs / w) * (ys / h - 0.5) * 2
        curl = settings.curve * 0.5 * SRC_PX * np.sin(np.pi * ys / h) * (xs / w - 0.5) * 2
        page = cv2.remap(page, xs + curl, ys + bulge, cv2.INTER_LINEAR, borderValue=(235, 235, 235))
    # the camera: the page tilted away by `tilt`, in any direction, then rotated
    out_w = int(math.sqrt(settings.megapixels * 1e6 * 4 / 3))
    out_h = int(out_w * 3 / 4)
    tilt = math.radians(settings.tilt)
    direction = float(rng.uniform(0, 2 * math.pi))
    ax, ay = tilt * math.cos(direction), tilt * math.sin(direction)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rot = math.radians(settings.rotation)
    rz = np.array(
        [[math.cos(rot), -math.sin(rot), 0], [math.sin(rot), math.cos(rot), 0], [0, 0, 1]]
    )
    corners = np.array(
        [[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]]
    )
    world = corners @ (rz @ ry @ rx).T
    distance = 1.3 * w
    projected = world[:, :2] * distance / (distance + world[:, 2:3])
    # fit the page into the frame, filling 70-92 % of it
    span = projected.max(axis=0) - projected.min(axis=0)
    scale = float(rng.uniform(0.70, 0.92)) * min(out_w / span[0], out_h / span[1])
    projected = (projected - projected.min(axis=0)) * scale
    offset = (np.array([out_w, out_h]) - (projected.max(axis=0))) * rng.uniform(0.2, 0.8, 2)
    projected += offset
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(source, projected.astype(np.float32))
    table = np.full((out_h, out_w, 3), rng.integers(40, 120, 3), dtype=np.uint8)
    table = cv2.add(table, rng.integers(0, 25, (out_h, out_w, 1), dtype=np.uint8).repeat(3, axis=2))
    photo = cv2.warpPerspective(
        page,
        homography,
        (out_w, out_h),
        dst=table,
        borderMode=cv2.BORDER_TRANSPARENT,
        flags=cv2.INTER_AREA,
    )
    # light: a gradient across the frame and perhaps a soft shadow
    yy, xx = np.indices((out_h, out_w), dtype=np.float32)
    angle = float(rng.uniform(0, 2 * math.pi))
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / (out_w + out_h)
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    light = settings.light + (1 - settings.light) * ramp
    if settings.shadow:
        mask = np.zeros((out_h, out_w), np.float32)
        a = rng.uniform(0, 1, 2) * [out_w, out_h]
        poly = np.array(
            [a, a + rng.uniform(-0.6, 0.6, 2) * out_w, a + rng.uniform(-0.6, 0.6, 2) * out_h],
            dtype=np.int32,
        )
        cv2.fillPoly(mask, [poly], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), out_w / 60)
        light = light * (1 - float(rng.uniform(0.2, 0.45)) * mask)
    photo = np.clip(
        photo.astype(np.float32) * light[:, :, None] * float(rng.uniform(0.85, 1.05)), 0, 255
    )
    if settings.blur > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), settings.blur * out_w / 1632)
    photo += rng.normal(0, 3.0, photo.shape).astype(np.float32)
    ok, encoded = cv2.imencode(
        ".jpg", np.clip(photo, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, settings.jpeg]
    )
    assert ok
    return encoded.tobytes()
