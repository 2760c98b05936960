"""Reading a photo of a tick-box score sheet (issue 42): marks, not handwriting; flagged, never
guessed. Pure: OpenCV and NumPy, the scoring engine, no Django.

1. The photo is decoded (JPEG, PNG, any size) and its four corner markers found (ArUco 4x4; on a
   copy of at most ~2 megapixels, the corners scaled back). Their sixteen corners give the
   homography that straightens the page; the markers' ids tell which page of the sheet it is.
2. The QR code is straightened on its own at 10 px/mm and decoded: the caller turns its text
   (the table's address) into the sheet's layout, or refuses the photo.
3. The page is straightened at ``PX`` px/mm, the ink separated from the paper by dividing by
   the paper's own brightness (shadows and uneven light fall out), and per row the two timing
   marks found; the row's boxes are placed between them (paper that curves moves them), each
   group of boxes then fitted to its printed outlines.
4. Each box's fill (the share of dark pixels inside its outline) is classed as empty, a mark,
   a cancelled mark (filled completely, the sheet's way to correct a tick) or doubtful; a
   doubtful trace is then read against the other boxes of its group, as a person reads it.
5. Each row becomes a deal record, or a flag saying why not: a doubtful box, two contracts, no
   declarer, points where a special has none, a deal the desk completes (Räuber, penalty), an
   empty row, or one the engine finds impossible (:func:`scoring.score_deal`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import cv2
import numpy as np
from segno import encoder as segno_encoder

from scoring import RuleSource, ScoringError, deal_from_record, score_deal
from sheetreading import layout as L

PX = 6.0  # px per mm of the straightened page
QR_PX = 10.0
DETECT_PIXELS = 2_000_000  # the markers are looked for on a copy this size
RETRY_DETECT_PIXELS = (1_000_000, 500_000)  # then on smaller ones
DARK = 0.60  # ink: darker than this share of the paper's own brightness
BLUR_BELOW = 4.0  # the straightened page's sharpness (variance of its Laplacian)
INSET = 0.45  # mm inside a box's printed outline that is measured

# a box's fill (less its group's empty fill) -> its class
EMPTY_BELOW = 0.07
EMPTY_ALONE_BELOW = 0.035
MARK_FROM = 0.10
HEAVY_FROM = 0.70  # from here a fill is a cancelled box if even, a heavy mark if not
CANCELLED_FROM = 0.92
CANCELLED_EVEN = 0.88
MARK_UNEVEN = 0.84  # the emptiest ninth: a broad cross up to 0.83, a box filled over 0.95
# the same for a box's mean ink (less its group's empty level)
INK_EMPTY_BELOW = 0.05
INK_EMPTY_ALONE_BELOW = 0.035
INK_MARK = 0.09
CORE = 1.1  # mm inside the outline: a box's middle
CORE_EMPTY_BELOW = 0.02
# a faint trace read against its group (see _read_within_groups)
OUTSHONE = 0.33  # beside one light tick: at most this share of its ink and of its middle's,
OUTSHONE_CORE_BELOW = 0.04  # and its own middle nearly empty: empty
STANDS_OUT_INK = 0.06  # alone in a group that needs a tick: at least this much ink,
STANDS_OUT_BY = 0.04  # this much more than any other box of the group
STANDS_OUT_TIMES = 3.0  # and three times as much: the tick
# a row's line across (see measure_rows) this much above the page's usual: a line through it
# (bench, seeds 1 and 2, 800 photos: struck rows 0.13 and more, but two flagged anyway; plain
# deals above it: 14 of 17,549)
LINE_ACROSS = 0.12
ONE_TICK = frozenset({"seat", "contract", "tens", "units"})  # a deal ticks one box in each

ALONE = frozenset({"after_solo", "special", "strike"})  # one-box groups
EMPTY, MARK, CANCELLED, DOUBTFUL = "empty", "mark", "cancelled", "doubtful"


class Unreadable(Exception):
    """The photo cannot be read at all; ``code`` says why (the page turns it into words)."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(code if not detail else f"{code}: {detail}")
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class BoxReading:
    group: str
    value: int | str | bool
    fill: float
    state: str
    evenness: float = 0.0
    ink: float = 0.0  # the box's mean darkness (less its group's empty level): blur keeps it


@dataclass
class RowReading:
    deal: int
    index: int  # the row's place on its page
    boxes: list[BoxReading]
    record: dict[str, Any] | None = None  # the deal record read, when nothing is flagged
    struck: bool = False
    empty: bool = False
    flags: list[str] = field(default_factory=list)
    partial: dict[str, Any] = field(default_factory=dict)  # what was read despite a flag
    scores: tuple[int, ...] | None = None
    crop: tuple[int, int, int, int] = (0, 0, 0, 0)  # x, y, w, h in the straightened page

    @property
    def accepted(self) -> bool:
        return self.record is not None and not self.flags


@dataclass
class SheetReading:
    qr_text: str
    page: int
    layout: L.SheetLayout
    rows: list[RowReading]
    straightened: np.ndarray  # the page at PX px/mm (grey), for the desk's crops
    seconds: float = 0.0


def decode_image(data: bytes) -> np.ndarray:
    """The picture in ``data`` (BGR), or :class:`Unreadable` ("not_image"). A photo of more
    than ~6 megapixels is decoded at half size straight from the JPEG (its boxes still have
    7 px a side; decoding 12 MP whole takes longer than reading the sheet)."""
    array = np.frombuffer(data, dtype=np.uint8)
    if not array.size:
        raise Unreadable("not_image")
    image = cv2.imdecode(array, cv2.IMREAD_REDUCED_COLOR_2)
    if image is not None and image.shape[0] * image.shape[1] < 1_500_000:
        image = cv2.imdecode(array, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise Unreadable("not_image")
    return image


_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(_DICTIONARY, params)


def _marker_points(page: int) -> dict[int, np.ndarray]:
    """Each marker id's four corners on the page (mm), in ArUco's order (clockwise from the
    marker's top left)."""
    points = {}
    for corner, (x, y) in enumerate(L.MARKER_TOPLEFT):
        s = L.MARKER
        points[4 * page + corner] = np.array(
            [[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float32
        )
    return points


def _markers_at(gray: np.ndarray, pixels: float):
    """The markers found on a copy of about ``pixels`` pixels (or a brightened copy of it: a
    dim photo's markers stand out less; or a sharpened one): corners, ids, the copy and its
    scale."""
    height, width = gray.shape[:2]
    scale = min(1.0, (pixels / (height * width)) ** 0.5)
    small = (
        gray
        if scale == 1.0
        else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    corners, ids, _rejected = _detector().detectMarkers(small)
    if ids is None or len(ids) < 3:
        corners, ids, _rejected = _detector().detectMarkers(cv2.equalizeHist(small))
    if ids is None or len(ids) < 3:
        # a blurred photo's markers, sharpened: their cells' bits are read again (bench)
        sharp = cv2.addWeighted(small, 2.0, cv2.GaussianBlur(small, (0, 0), 2), -1.0, 0)
        corners, ids, _rejected = _detector().detectMarkers(sharp)
    return corners, ids, small, scale


def find_page(gray: np.ndarray) -> tuple[np.ndarray, int]:
    """The homography from the page (mm) into the photo, and the page's number."""
    corners, ids, small, scale = _markers_at(gray, DETECT_PIXELS)
    for pixels in RETRY_DETECT_PIXELS:
        if ids is not None and len(ids) >= 3:
            break
        # a blurred photo's markers, shrunk, are sharp again (found by the bench)
        corners, ids, _smaller, scale = _markers_at(gray, pixels)
    if ids is None or len(ids) < 3:
        if float(np.mean(small)) < 70:
            raise Unreadable("dark")
        if cv2.Laplacian(small, cv2.CV_64F).var() < 30:
            raise Unreadable("blurred")
        raise Unreadable("no_markers")
    found = {int(i): c.reshape(4, 2) / scale for i, c in zip(ids.ravel(), corners, strict=True)}
    pages: dict[int, int] = {}
    for marker_id in found:
        pages[marker_id // 4] = pages.get(marker_id // 4, 0) + 1
    page = max(pages, key=lambda p: pages[p])
    if pages[page] < 3:
        raise Unreadable("no_markers")
    known = _marker_points(page)
    src = np.concatenate([known[i] for i in found if i in known])
    dst = np.concatenate([found[i] for i in found if i in known]).astype(np.float32)
    homography, _mask = cv2.findHomography(src, dst, 0)
    if homography is None:
        raise Unreadable("no_markers")
    return homography, page


def _scaled(homography: np.ndarray, px: float, x0: float = 0.0, y0: float = 0.0) -> np.ndarray:
    """The homography from a straightened image (``px`` per mm, origin at x0, y0 mm)."""
    to_mm = np.array([[1 / px, 0, x0], [0, 1 / px, y0], [0, 0, 1]], dtype=np.float64)
    return homography @ to_mm


def read_qr(image: np.ndarray, homography: np.ndarray, *, first_look_only: bool = False) -> str:
    """The QR code's text: first from the photo itself around where the page puts it (the
    detector finds its own corners: paper that curls near the corner does not matter), then
    (unless ``first_look_only``) module by module, last from straightened, sharpened copies."""
    margin = 3.0
    detector = cv2.QRCodeDetector()
    x0, y0, x1, y1 = _qr_window(homography, image.shape, margin)
    crop = image[y0:y1, x0:x1]
    candidates = []
    if crop.size:
        side = max(crop.shape)
        if side < 400:  # small modules: enlarged, the detector's sampling has room
            factor = 400 / side
            crop = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        candidates.append(crop)
    for candidate in candidates:
        for variant in (candidate, _binarised(candidate)):
            text, _points, _code = detector.detectAndDecode(variant)
            if text:
                return text
    if first_look_only:
        raise Unreadable("no_qr")
    # module by module: the surest try for a blurred code, and no slower than the rest
    text = read_qr_modules(image, homography)
    if text:
        return text
    # straightened copies, sharpened against blur (tried only when the photo itself failed)
    for px, wide, tries in (
        (QR_PX, margin, ((0, 0), (2, 2), (3, 1), (3, -3))),
        (14.0, margin, ((0, 0), (2, 2), (4, 2))),
        (8.0, margin, ((3, -3),)),
        # a 2 MP photo blurred: sharpened hard, with a wider quiet zone (found by the bench)
        (QR_PX, margin + 1, ((2, 8), (3, 6))),
    ):
        patch = _qr_straightened(image, homography, px, wide)
        for sigma, amount in tries:
            variant = patch
            if amount:
                strength = abs(amount)
                blurred = cv2.GaussianBlur(patch, (0, 0), sigma * px / 8)
                variant = cv2.addWeighted(patch, 1 + strength, blurred, -strength, 0)
            if amount < 0:  # and made black and white
                variant = cv2.threshold(variant, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
            text, _points, _code = detector.detectAndDecode(variant)
            if text:
                return text
    raise Unreadable("no_qr")


def _qr_straightened(image: np.ndarray, homography: np.ndarray, px: float, wide: float):
    """The QR code's square and ``wide`` mm around it, straightened at ``px`` per mm."""
    out = int((L.QR_SIZE + 2 * wide) * px)
    return cv2.warpPerspective(
        image,
        _scaled(homography, px, L.QR_X - wide, L.QR_Y - wide),
        (out, out),
        flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
        borderValue=255,
    )


# --- a code too blurred for the detector: its modules read one by one -----------------------

QR_MODULE_PX = 6.0  # px per mm of the code's straightened patch
QR_REACH = 5.0  # mm around it: paper curling in the corner moves the code up to ~4 mm
QR_VERSIONS = (1, 2, 3, 4, 5, 6)  # a table's address fits in these (version 3 at 33 letters)
# the blur taken off, as a share of a module (the bench's blurred 2 MP photos: 0.5 to 0.55)
QR_BLURS = (0.0, 0.5, 0.55, 0.45, 0.6)


def read_qr_modules(image: np.ndarray, homography: np.ndarray) -> str | None:
    """The code's text read module by module, or None: for a photo too blurred for OpenCV's
    detector (a 2 MP photo whose modules are 3 px, blurred by half a module: the bench's
    last refused sheets). The code is straightened from the page's markers; its three finder
    patterns are found by matching (blur leaves their big squares), which places every
    module, and the grid is moved where the modules every code has agree best; the blur is taken off (a few steps of Landweber's deconvolution, for a Gaussian
    blur of a share of a module) and each module's middle read dark or light. The modules
    every code has (finders, timing, alignment) and the format (the printer's error levels
    with its mask, :data:`layout.QR_MASK`) are drawn as they must be, the code redrawn clean
    and decoded: its error correction checks the rest, and the caller checks the address."""
    patch = _qr_straightened(image, homography, QR_MODULE_PX, QR_REACH).astype(np.float32)
    paper = cv2.GaussianBlur(cv2.dilate(patch, np.ones((15, 15), np.uint8)), (0, 0), 6)
    dark = np.clip(1 - patch / np.maximum(paper, 1), 0, 1)
    placed = sorted(
        (p for p in (_qr_modules_placed(dark, v) for v in QR_VERSIONS) if p),
        key=lambda p: -p[0],
    )
    for _score, version, centres, module in placed[:2]:
        at = _qr_module_middles(version, centres)
        for blur in QR_BLURS:
            smooth = cv2.GaussianBlur(
                _deblurred(dark, blur * module) if blur else dark, (0, 0), module * 0.2
            )
            fitted = _qr_grid_fitted(smooth, at, module, version)
            for middles in (fitted, at) if fitted is not at else (at,):
                text = _decode_modules(_qr_module_bits(smooth, middles), version)
                if text:
                    return text
    return None


def _qr_modules_placed(dark: np.ndarray, version: int):
    """(match score, version, the three finders' centres in px, px per module) for a code of
    ``version`` filling the printed square, or None."""
    n = 17 + 4 * version
    module = L.QR_SIZE / (n + 4) * QR_MODULE_PX  # the printed square holds a quiet zone of 2
    side = int(round(9 * module))
    finder = np.zeros((9, 9), np.float32)  # with a light module around it
    finder[1:8, 1:8] = 1
    finder[2:7, 2:7] = 0
    finder[3:6, 3:6] = 1
    template = cv2.GaussianBlur(
        cv2.resize(finder, (side, side), interpolation=cv2.INTER_NEAREST), (0, 0), module * 0.3
    )
    scores = cv2.matchTemplate(dark, template, cv2.TM_CCOEFF_NORMED)
    reach = int(QR_REACH * QR_MODULE_PX)
    total, centres = 0.0, []
    for cx, cy in ((3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)):
        # the template's top left where the finder is printed, give or take QR_REACH
        ex = int(QR_REACH * QR_MODULE_PX + (2 + cx - 4.5) * module)
        ey = int(QR_REACH * QR_MODULE_PX + (2 + cy - 4.5) * module)
        x0, y0 = max(ex - reach, 0), max(ey - reach, 0)
        window = scores[y0 : ey + reach, x0 : ex + reach]
        if window.size == 0:
            return None
        _low, best, _lowat, at = cv2.minMaxLoc(window)
        total += best
        centres.append((x0 + at[0] + (side - 1) / 2, y0 + at[1] + (side - 1) / 2))
    return total, version, centres, module


def _deblurred(dark: np.ndarray, sigma: float, steps: int = 80) -> np.ndarray:
    """Landweber's iteration for a Gaussian blur of ``sigma`` px, kept within 0..1."""
    sharp = dark.copy()
    for _step in range(steps):
        rest = dark - cv2.GaussianBlur(sharp, (0, 0), sigma)
        sharp = np.clip(sharp + 1.5 * cv2.GaussianBlur(rest, (0, 0), sigma), 0, 1)
    return sharp


def _qr_module_middles(version: int, centres) -> np.ndarray:
    """Every module's middle (px, rows x columns x 2), placed by the three finders."""
    n = 17 + 4 * version
    placed = cv2.getAffineTransform(
        np.float32([[3.5, 3.5], [n - 3.5, 3.5], [3.5, n - 3.5]]), np.float32(centres)
    )
    middles = np.stack(np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5), axis=-1)
    return cv2.transform(middles.reshape(-1, 1, 2).astype(np.float32), placed).reshape(n, n, 2)


def _qr_grid_fitted(smooth: np.ndarray, at: np.ndarray, module: float, version: int):
    """The module grid moved (up to half a module each way) where the modules every code has
    (finders, timing, alignment) agree best with what is seen: a finder's centre found in a
    blurred patch may sit a tenth of a module off, enough to misread a few dozen modules
    (bench: a blurred 2 MP photo's code read with 8 wrong modules instead of 18)."""
    fixed = _qr_fixed_modules(version)
    known = fixed < 2
    sign = np.where(fixed == 1, 1.0, -1.0)[known]
    best, fitted = -np.inf, at
    for dx in np.linspace(-0.5, 0.5, 11) * module:
        for dy in np.linspace(-0.5, 0.5, 11) * module:
            moved = (at + np.float32([dx, dy])).astype(np.float32)
            values = cv2.remap(smooth, moved[..., 0], moved[..., 1], cv2.INTER_LINEAR)
            agreement = float(((values - values.mean())[known] * sign).sum())
            if agreement > best + 1e-9:
                best, fitted = agreement, moved
    return fitted


def _qr_module_bits(smooth: np.ndarray, middles: np.ndarray) -> np.ndarray:
    """Every module dark (1) or light (0), read at its middle."""
    values = cv2.remap(smooth, middles[..., 0], middles[..., 1], cv2.INTER_LINEAR)
    levels = np.clip(values * 255, 0, 255).astype(np.uint8)
    threshold, _ = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return (levels > threshold).astype(np.uint8)


def _decode_modules(bits: np.ndarray, version: int) -> str | None:
    """The text of the code whose modules are ``bits``, with its fixed modules and format
    drawn in, redrawn clean for OpenCV's decoder."""
    n = len(bits)
    fixed = _qr_fixed_modules(version)
    bits = np.where(fixed < 2, fixed, bits).astype(np.uint8)
    for error in L.QR_ERROR_LEVELS:
        matrix = [bytearray(row) for row in bits]
        segno_encoder.add_format_info(matrix, version, error, L.QR_MASK)
        clean = np.full((n + 8, n + 8), 255, np.uint8)
        clean[4:-4, 4:-4] = np.where(np.array(matrix, np.uint8) == 1, 0, 255)
        clean = cv2.resize(clean, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
        # where the code is drawn is known: decoded without looking for it (a sixth the time)
        text, _code = cv2.QRCodeDetector().decode(clean, _QR_CLEAN_CORNERS[n])
        if text:
            return text
    return None


# the corners of a code of n modules redrawn clean (a quiet zone of 4, 4 px a module)
_QR_CLEAN_CORNERS = {
    17 + 4 * v: np.float32(
        [[4, 4], [21 + 4 * v, 4], [21 + 4 * v, 21 + 4 * v], [4, 21 + 4 * v]]
    ).reshape(1, 4, 2)
    * 4
    for v in QR_VERSIONS
}


@cache
def _qr_fixed_modules(version: int) -> np.ndarray:
    """The modules every code of ``version`` has (finders, separators, timing, alignment):
    0 or 1; the rest 2."""
    n = 17 + 4 * version
    matrix = segno_encoder.make_matrix(n, n)
    segno_encoder.add_finder_patterns(matrix, n, n)
    segno_encoder.add_alignment_patterns(matrix, n, n)
    segno_encoder.add_timing_pattern(matrix, False)
    return np.array([list(row) for row in matrix], np.uint8)


def _qr_window(
    homography: np.ndarray, shape: tuple[int, ...], wide: float
) -> tuple[int, int, int, int]:
    """The part of the photo (x0, y0, x1, y1 px) that holds the QR code and ``wide`` mm
    around it."""
    corners = np.array(
        [
            [L.QR_X - wide, L.QR_Y - wide],
            [L.QR_X + L.QR_SIZE + wide, L.QR_Y - wide],
            [L.QR_X + L.QR_SIZE + wide, L.QR_Y + L.QR_SIZE + wide],
            [L.QR_X - wide, L.QR_Y + L.QR_SIZE + wide],
        ],
        dtype=np.float32,
    ).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(corners, homography).reshape(-1, 2)
    x0, y0 = np.floor(seen.min(axis=0)).astype(int)
    x1, y1 = np.ceil(seen.max(axis=0)).astype(int)
    height, width = shape[:2]
    return max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height)


def _binarised(patch: np.ndarray) -> np.ndarray:
    sharp = cv2.addWeighted(patch, 1.8, cv2.GaussianBlur(patch, (0, 0), 2), -0.8, 0)
    return cv2.threshold(sharp, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]


def ink_map(page: np.ndarray) -> np.ndarray:
    """Darkness against the paper's own local brightness: 1 - pixel / paper, 0 for paper.
    The paper is the page with its ink closed over (brightest then darkest in a window wider
    than a filled box): a shadow's edge stays where it is. The brightest alone carried the lit
    side 3 mm into the shadow, and the boxes there read as grey ink (bench, 120 sheets:
    88.3 % of plain deals unflagged before, 90.3 % after, 0 wrong accepts either way)."""
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    kernel = np.ones((9, 9), np.uint8)  # 9 px at a quarter: 6 mm, wider than a filled box
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    paper = cv2.GaussianBlur(paper, (0, 0), 2)
    paper = cv2.resize(paper, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)
    ratio = page.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0)
    return np.clip(1.0 - ratio, 0.0, 1.0)


def _mark_centre(ink: np.ndarray, x_mm: float, y_mm: float, reach: float = 2.4):
    """The centre (px) of the timing mark expected at (x_mm, y_mm), or None."""
    x0, x1 = int((x_mm - reach) * PX), int((x_mm + reach) * PX)
    y0, y1 = int((y_mm - reach) * PX), int((y_mm + reach) * PX)
    x0, y0 = max(x0, 0), max(y0, 0)
    window = ink[y0:y1, x0:x1] > (1 - DARK)
    count = int(window.sum())
    expected = (L.TIMING * PX) ** 2
    if count < 0.4 * expected or count > 2.2 * expected:
        return None
    ys, xs = np.nonzero(window)
    return x0 + float(xs.mean()), y0 + float(ys.mean())


def _box_ring(size_px: int, line: int) -> np.ndarray:
    ring = np.zeros((size_px, size_px), np.float32)
    cv2.rectangle(ring, (0, 0), (size_px - 1, size_px - 1), 1.0, line)
    return ring


def _group_template(boxes: list[L.Box]) -> np.ndarray:
    box_px = int(round(L.BOX * PX))
    width = int(round((boxes[-1].x - boxes[0].x) * PX)) + box_px + 1
    template = np.zeros((box_px + 1, width), np.float32)
    for box in boxes:
        bx = int(round((box.x - boxes[0].x) * PX))
        cv2.rectangle(template, (bx, 0), (bx + box_px, box_px), 1.0, 1)
    return template


def measure_rows(
    page: np.ndarray, layout: L.SheetLayout, debug: list | None = None
) -> list[
    tuple[list[float], list[float], list[float], list[float], float, tuple[int, int, int, int]]
]:
    """Each row's boxes' fills, evenness, mean ink and ink in the middle (in the layout's
    order), how strongly a line runs across the row, and the row's crop (px). The fill counts
    the pixels darker than ``DARK``; the ink adds up how dark every pixel is: a thin stroke
    that blur spreads into grey drops out of the fill, not the ink. The line across is the
    median over the row's boxes of each box's darkest line of pixels (its mean ink): a pen
    drawn through the row crosses nearly every box, a tick only its own."""
    ink = ink_map(page)
    dark = (ink > (1 - DARK)).astype(np.float32)
    box_px = L.BOX * PX
    inset = INSET * PX
    reach = int(round(2.2 * PX))  # paper bulging 5 mm moves a row 2.5 mm at the middle
    xl = L.TIMING_LEFT + L.TIMING / 2
    xr = L.TIMING_RIGHT + L.TIMING / 2
    groups = [[b for b in layout.boxes if b.group == g.name] for g in layout.groups]
    templates = [_group_template(boxes) for boxes in groups]
    # pass 1: each row's timing marks, each group's fit to its printed outlines
    ends = []
    previous = None  # the last row's timing-mark offsets, for a mark not found
    for index in range(len(layout.deals)):
        yc = layout.row_top(index) + layout.row_height / 2
        left = _mark_centre(ink, xl, yc)
        right = _mark_centre(ink, xr, yc)
        if left is None or right is None:
            if previous is None:
                left = left or (xl * PX, yc * PX)
                right = right or (xr * PX, yc * PX)
            else:
                left = left or (xl * PX + previous[0][0], yc * PX + previous[0][1])
                right = right or (xr * PX + previous[1][0], yc * PX + previous[1][1])
        previous = (
            (left[0] - xl * PX, left[1] - yc * PX),
            (right[0] - xr * PX, right[1] - yc * PX),
        )
        ends.append((left, right))

    def at(index: int, x_mm: float) -> tuple[float, float]:
        left, right = ends[index]
        t = (x_mm - xl) / (xr - xl)
        return left[0] + t * (right[0] - left[0]), left[1] + t * (right[1] - left[1])

    rows = len(layout.deals)
    shifts = np.full((rows, len(groups), 2), np.nan, np.float32)  # nan: no clear fit
    for index in range(rows):
        for g, (boxes, template) in enumerate(zip(groups, templates, strict=True)):
            gx, gy = at(index, boxes[0].x)
            top = gy - box_px / 2
            x0, y0 = int(round(gx)) - reach, int(round(top)) - reach
            if x0 < 0 or y0 < 0:
                continue
            window = ink[
                y0 : y0 + template.shape[0] + 2 * reach, x0 : x0 + template.shape[1] + 2 * reach
            ]
            if window.shape[0] < template.shape[0] or window.shape[1] < template.shape[1]:
                continue
            scores = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
            _min, best, _minloc, loc = cv2.minMaxLoc(scores)
            if best > 0.3:
                shifts[index, g] = (x0 + loc[0] - gx, y0 + loc[1] - top)
    xs_mm = [boxes[0].x for boxes in groups]
    bend = _page_bend(shifts, xs_mm)
    everyone = np.arange(rows)
    smooth = np.stack(
        [
            _column_shifts(shifts[:, g], bend(everyone, xs_mm[g]) if bend else None)
            for g in range(len(groups))
        ],
        axis=1,
    )
    # pass 2: every box's fill
    results = []
    for index in range(rows):
        fills: list[float] = []
        inks: list[float] = []
        cores: list[float] = []  # the box's middle: a stroke overshooting from next door misses it
        evenness: list[float] = []  # each box's emptiest ninth: a filled box has none
        lines: list[float] = []  # each box's darkest line of pixels
        for g, boxes in enumerate(groups):
            dx, dy = (float(v) for v in smooth[index, g])
            for box in boxes:
                bx, by = at(index, box.x)
                bx += dx
                by = by - box_px / 2 + dy
                ix0, iy0 = int(round(bx + inset)), int(round(by + inset))
                ix1, iy1 = int(round(bx + box_px - inset)), int(round(by + box_px - inset))
                cell = dark[max(iy0, 0) : max(iy1, 0), max(ix0, 0) : max(ix1, 0)]
                fills.append(float(cell.mean()) if cell.size else 1.0)
                shade = ink[max(iy0, 0) : max(iy1, 0), max(ix0, 0) : max(ix1, 0)]
                inks.append(float(shade.mean()) if shade.size else 1.0)
                c = int(round((CORE - INSET) * PX))
                middle = shade[c : shade.shape[0] - c, c : shade.shape[1] - c]
                cores.append(float(middle.mean()) if middle.size else 1.0)
                lines.append(float(shade.mean(axis=1).max()) if shade.size else 1.0)
                # ninths rather than quarters: a heavy cross or tick leaves the middle of an
                # edge white, which a quarter holding part of a stroke hid (bench: heavy ticks
                # read as cancelled or doubtful 3 times as often; cancelled boxes read as
                # ticks no more often)
                third_y, third_x = cell.shape[0] / 3, cell.shape[1] / 3
                ninths = [
                    cell[
                        int(round(r * third_y)) : int(round((r + 1) * third_y)),
                        int(round(c * third_x)) : int(round((c + 1) * third_x)),
                    ]
                    for r in range(3)
                    for c in range(3)
                ]
                evenness.append(min(float(q.mean()) if q.size else 1.0 for q in ninths))
                if debug is not None:
                    debug.append((ix0, iy0, ix1, iy1))
        base = _baseline(fills, layout)
        fills = np.clip(np.array(fills) - base, 0, 1).tolist()
        evenness = np.clip(np.array(evenness) - base, 0, 1).tolist()
        inks = np.clip(np.array(inks) - _baseline(inks, layout), 0, 1).tolist()
        cores = np.clip(np.array(cores) - _baseline(cores, layout), 0, 1).tolist()
        left, right = ends[index]
        top = int(min(left[1], right[1]) - layout.row_height * PX * 0.8)
        crop = (
            int(L.DEAL_X * PX),
            max(top, 0),
            int((layout.totals_x - L.DEAL_X) * PX),
            int(layout.row_height * PX * 1.6),
        )
        results.append((fills, evenness, inks, cores, float(np.median(lines)), crop))
    return results


def _bend_basis(rows: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The terms a page's bend is made of: down a column of boxes a shift changes along a line
    (a page bulging moves its top and bottom rows most), across the page along a curve."""
    # the shifts are from the line between the row's timing marks: nil at the marks
    left = (L.TIMING_LEFT + L.TIMING / 2) / L.PAGE_W
    right = (L.TIMING_RIGHT + L.TIMING / 2) / L.PAGE_W
    q = (xs - left) * (right - xs) * 4
    return np.stack([np.ones_like(rows), rows, q, rows * q], axis=1)


def _page_bend(
    fits: np.ndarray, xs_mm: list[float]
) -> Callable[[np.ndarray, float], np.ndarray] | None:
    """The page's bend fitted to every group's clear fits (rows x groups x 2, nan where none),
    fits more than 0.8 mm off it left out; None when too few fitted."""
    rows, groups = fits.shape[:2]
    r = np.repeat(np.linspace(-1.0, 1.0, rows), groups)
    x = np.tile(np.array(xs_mm) / L.PAGE_W, rows)
    flat = fits.reshape(-1, 2).astype(np.float64)
    use = ~np.isnan(flat[:, 0])
    if use.sum() < 12:
        return None
    basis = _bend_basis(r, x)
    coefficients = np.zeros((basis.shape[1], 2))
    for _round in range(3):
        coefficients = np.linalg.lstsq(basis[use], flat[use], rcond=None)[0]
        off = np.abs(np.nan_to_num(flat - basis @ coefficients)).max(axis=1)
        kept = use & (off <= 0.8 * PX)
        if kept.sum() < 12:
            break
        use = kept

    def bend(row_numbers: np.ndarray, x_mm: float) -> np.ndarray:
        rr = np.linspace(-1.0, 1.0, rows)[row_numbers]
        return _bend_basis(rr, np.full_like(rr, x_mm / L.PAGE_W)) @ coefficients

    return bend


def _column_shifts(fits: np.ndarray, predicted: np.ndarray | None) -> np.ndarray:
    """One group's shift in every row: what the page's bend predicts, plus the median of its
    neighbours' believed distance from that (a fit within 0.8 mm of the prediction). A blurred
    column whose outlines fit nothing clearly still gets the shift the page's bend says;
    without a bend (too few fits on the page), the neighbours' median, no fit as 0."""
    rows = len(fits)
    if predicted is None:
        filled = np.where(np.isnan(fits), 0.0, fits)
        return np.stack(
            [np.median(filled[max(0, k - 2) : k + 3], axis=0) for k in range(rows)]
        ).astype(np.float32)
    off = fits - predicted
    believed = ~np.isnan(off[:, 0]) & (np.abs(np.nan_to_num(off)).max(axis=1) <= 0.8 * PX)
    result = predicted.astype(np.float32).copy()
    for k in range(rows):
        lo, hi = max(0, k - 2), min(rows, k + 3)
        near = off[lo:hi][believed[lo:hi]]
        if len(near):
            result[k] += np.median(near, axis=0)
    return result


def _baseline(fills: list[float], layout: L.SheetLayout) -> np.ndarray:
    """What an empty box shows, taken off every fill: a printed outline that reaches into the
    boxes a little, or a shaded row, is not ink. A group of six boxes or more: its lowest
    quarter (most of them are empty). Smaller groups may be all ink (a cancelled tick beside
    the right one): the row's lowest quarter."""
    values = np.array(fills, dtype=np.float32)
    groups = np.array([b.group for b in layout.boxes])
    row_base = float(np.percentile(values, 25))
    base = np.full(values.shape, row_base, dtype=np.float32)
    for name in dict.fromkeys(groups.tolist()):
        members = groups == name
        if int(members.sum()) >= 6:
            base[members] = min(float(np.percentile(values[members], 25)), row_base + 0.05)
    return base


def classify(fill: float, evenness: float, *, alone: bool = False, ink: float | None = None) -> str:
    """A box's class from its fill and its emptiest ninth's fill: a box filled completely
    (a cancelled tick) is dark in every ninth, a heavy tick or a scribble is not. A box
    alone in its group (after Solo, other, strike out) has no neighbour to be read against:
    a faint trace there is doubtful sooner."""
    empty = fill < (EMPTY_ALONE_BELOW if alone else EMPTY_BELOW)
    if empty and (ink is None or ink < (INK_EMPTY_ALONE_BELOW if alone else INK_EMPTY_BELOW)):
        return EMPTY
    if fill >= HEAVY_FROM:
        if fill >= CANCELLED_FROM and evenness >= CANCELLED_EVEN:
            return CANCELLED
        if evenness < MARK_UNEVEN:
            return MARK
        return DOUBTFUL
    if fill >= MARK_FROM:
        if ink is not None and ink < INK_EMPTY_BELOW:
            return DOUBTFUL  # dark pixels but hardly any ink: the measures disagree (bench)
        return MARK
    if ink is not None and ink >= INK_MARK:
        return MARK  # a thin stroke blurred into grey: few dark pixels, its ink all there
    return DOUBTFUL


def _overshoots_cleared(boxes: list[BoxReading], cores: list[float]) -> list[BoxReading]:
    """A doubtful trace whose box's middle holds no ink is empty where it is either a tick's
    stroke overshooting the printed outline (beside a light tick of its own group), or, in a
    box alone in its group, no more than any box's empty level: the alone box's stricter
    bounds are there for a faint tick, and a tick of its own crosses the box's middle (and
    stays doubtful). On the bench the second kept 77 of 11,000 plain deals from a flag, with
    no wrong accept under bounds twice as loose."""
    cleared = list(boxes)
    for i, box in enumerate(boxes):
        if box.state != DOUBTFUL or cores[i] >= CORE_EMPTY_BELOW or box.fill >= EMPTY_BELOW:
            continue
        if box.group in ALONE:
            if box.ink is None or box.ink < INK_EMPTY_BELOW:
                cleared[i] = BoxReading(
                    box.group, box.value, box.fill, EMPTY, box.evenness, box.ink
                )
            continue
        beside = [
            boxes[j] for j in (i - 1, i + 1) if 0 <= j < len(boxes) and boxes[j].group == box.group
        ]
        # beside a heavy mark (perhaps a cancelled tick read as a mark) nothing is cleared
        if any(b.state == MARK and b.fill < HEAVY_FROM for b in beside):
            cleared[i] = BoxReading(box.group, box.value, box.fill, EMPTY, box.evenness, box.ink)
    return cleared


def _read_within_groups(boxes: list[BoxReading], cores: list[float]) -> list[BoxReading]:
    """A doubtful trace read against the other boxes of its group, as a person reads the
    row: where the group holds one light tick, a trace with no more than a third of that
    tick's ink, in the whole box and in its middle, and nearly nothing in its own middle, is
    empty (a smudge, a stroke's end; a faint tick of its own crosses its middle). Where a
    group that needs one tick (seat, contract, tens, units) holds no tick, nothing cancelled
    and this one faint trace, and the trace has plainly more ink than every other box of the
    group (0.04 more and three times as much), it is the tick: the pen was faint, the photo
    blurred. Anything else stays doubtful, a heavy trace always (a box filled over looks so).
    On the bench's 500 photos (sheets 0-249 and 250-499 alike): 97.4 % -> 98.8 % of plain
    deals unflagged, no wrong accept (and none on the 300 photos of seed 2, made after);
    none either with the faint tick's bounds loosened to 0.05 ink, 0 more and 1.5 times, or
    the outshone trace's to a half and 0.06. A box filled over to cancel it and read as a
    tick (a blurred photo, a light pen) has more than a tick's fill, or leaves the faint
    right tick's middle inked: the trace beside it stays doubtful (found by the bench)."""
    groups: dict[str, list[int]] = {}
    for index, box in enumerate(boxes):
        groups.setdefault(box.group, []).append(index)
    read = list(boxes)

    def now(index: int, state: str) -> None:
        box = boxes[index]
        read[index] = BoxReading(box.group, box.value, box.fill, state, box.evenness, box.ink)

    for group, members in groups.items():
        if group in ALONE:
            continue
        marks = [i for i in members if boxes[i].state == MARK]
        faint = [i for i in members if boxes[i].state == DOUBTFUL and boxes[i].fill < HEAVY_FROM]
        if len(marks) == 1 and boxes[marks[0]].fill < HEAVY_FROM:
            tick = marks[0]
            for i in faint:
                if (
                    boxes[i].ink <= OUTSHONE * boxes[tick].ink
                    and cores[i] <= OUTSHONE * cores[tick]
                    and cores[i] < OUTSHONE_CORE_BELOW
                ):
                    now(i, EMPTY)
        doubtful = [i for i in members if boxes[i].state == DOUBTFUL]
        cancelled = any(boxes[i].state == CANCELLED for i in members)
        if group in ONE_TICK and not marks and not cancelled and len(doubtful) == len(faint) == 1:
            trace = boxes[faint[0]].ink
            others = max((boxes[i].ink for i in members if i != faint[0]), default=0.0)
            if (
                trace >= STANDS_OUT_INK
                and trace - others >= STANDS_OUT_BY
                and trace >= STANDS_OUT_TIMES * others
            ):
                now(faint[0], MARK)
    return read


def _flag_marks(row: RowReading, boxes: list[BoxReading]) -> dict[str, list[BoxReading]] | None:
    """The row's marked boxes by group, after the flags that need no group: doubtful boxes, a
    lone box filled in, a struck or empty row (then None: nothing more to read)."""
    doubtful = [b for b in boxes if b.state == DOUBTFUL]
    marked: dict[str, list[BoxReading]] = {}
    for b in boxes:
        if b.state == MARK:
            marked.setdefault(b.group, []).append(b)
    if doubtful:
        row.flags.append("doubtful:" + ",".join(f"{b.group}={b.value}" for b in doubtful))
    # a box alone in its group (after Solo, other, strike out) filled in: nothing beside it is
    # the right one, and a heavy tick looks the same (found by the bench): the desk looks
    for b in boxes:
        if b.state == CANCELLED and b.group in ALONE:
            row.flags.append(f"cancelled_alone:{b.group}")
    if marked.get("strike"):
        row.struck = True
        row.flags.append("struck")
        return None
    if not marked:
        if not doubtful:
            row.empty = True
            row.flags.append("empty")
        return None
    return marked


@dataclass
class _Groups:
    """What the row's groups say: one box each, or None (missing, or several: flagged)."""

    seat: BoxReading | None
    contract: BoxReading | None
    kind: str | None  # the contract's kind on the sheet: normal, fixed or one the desk completes
    tens: BoxReading | None
    units: BoxReading | None
    won: BoxReading | None
    after_solo: bool


def _read_groups(
    row: RowReading, marked: dict[str, list[BoxReading]], layout: L.SheetLayout
) -> _Groups:
    """Each group's one box, flagging a group with several or a needed one with none."""

    def one(group: str) -> BoxReading | None:
        got = marked.get(group, [])
        if len(got) > 1:
            row.flags.append(f"several:{group}")
            return None
        return got[0] if got else None

    seat = one("seat")
    contract = one("contract")
    if seat is not None:
        row.partial["declarer"] = seat.value
    if contract is not None:
        row.partial["contract"] = contract.value
    if seat is None and "several:seat" not in row.flags:
        row.flags.append("missing:seat")
    if contract is None and "several:contract" not in row.flags:
        row.flags.append("missing:contract")
    if marked.get("special"):
        row.flags.append("special")
    kind = dict(layout.contract_kinds).get(str(contract.value)) if contract else None
    tens, units, won = one("tens"), one("units"), one("won")
    return _Groups(seat, contract, kind, tens, units, won, bool(marked.get("after_solo")))


def _check_groups(row: RowReading, read: _Groups, marked: dict[str, list[BoxReading]]) -> None:
    """The flags of boxes that do not fit the contract ticked (points, won, after Solo)."""
    if read.kind in L.SPECIAL_KINDS:
        row.flags.append("desk:" + str(read.kind))
    if read.kind == "normal":
        if read.tens is None or read.units is None:
            if "several:tens" not in row.flags and "several:units" not in row.flags:
                row.flags.append("missing:points")
        else:
            row.partial["declarer_points"] = int(read.tens.value) * 10 + int(read.units.value)
    elif read.kind == "fixed":
        if marked.get("tens") or marked.get("units"):
            row.flags.append("points_on_special")
        if read.won is None and "several:won" not in row.flags:
            row.flags.append("missing:won")
        if read.after_solo:
            row.flags.append("after_solo_on_special")
    if read.won is not None:
        row.partial["won"] = bool(read.won.value)


def _deal_record(
    row: RowReading,
    read: _Groups,
    *,
    layout: L.SheetLayout,
    rules: RuleSource,
    sitting_out: int | None,
) -> dict[str, Any] | None:
    """The deal record the row says, or None with the row flagged (won disagrees)."""
    record: dict[str, Any] = {
        "rules": rules.slug,
        "seats": layout.table_size,
        "contract": read.contract.value if read.contract else None,
        "declarer": read.seat.value if read.seat else None,
    }
    if sitting_out is not None:
        record["sitting_out"] = sitting_out
    if read.kind != "normal":
        record["won"] = bool(read.won.value) if read.won else None
        return record
    record["declarer_points"] = row.partial["declarer_points"]
    if read.after_solo:
        record["after_solo"] = True
    if read.won is not None:
        # a won/lost tick beside points is the players' own check of the tens digit
        bonus = rules.tables[layout.table_size].declarer_bonus
        wins = record["declarer_points"] + bonus >= rules.counting.win_at
        if bool(read.won.value) != wins:
            row.flags.append("won_disagrees")
            return None
    return record


def row_from_boxes(
    boxes: list[BoxReading],
    *,
    deal: int,
    index: int,
    layout: L.SheetLayout,
    rules: RuleSource,
    sitting_out: int | None,
    line_across: bool = False,
) -> RowReading:
    """The row's deal record, or the flags saying why the desk must look at it. A line
    drawn through a row whose strike-out box reads as not ticked is flagged: the players
    struck the row out, and the tick was missed (found by the bench: a faint tick in that box
    weighed against a row the line darkened everywhere)."""
    row = RowReading(deal=deal, index=index, boxes=boxes)
    marked = _flag_marks(row, boxes)
    if line_across and not row.struck:
        row.flags.append("line_across")
    if marked is None:
        return row
    read = _read_groups(row, marked, layout)
    _check_groups(row, read, marked)
    if row.flags:
        return row
    record = _deal_record(row, read, layout=layout, rules=rules, sitting_out=sitting_out)
    if record is None:
        return row
    try:
        result = score_deal(rules, deal_from_record(record))
    except ScoringError as error:
        row.flags.append(f"impossible:{error}")
        return row
    row.record = record
    row.scores = tuple(result.scores)
    return row


def read_sheet(
    data: bytes | np.ndarray,
    *,
    layout_for: Callable[[str, int], tuple[L.SheetLayout, RuleSource, Callable[[int], int | None]]],
) -> SheetReading:
    """Read one photo. ``layout_for(qr_text, page)`` gives the sheet's layout, its rule source
    and each deal's sitting-out seat (or raises :class:`Unreadable`: a sheet of another table,
    round or tournament)."""
    import time

    start = time.perf_counter()
    image = decode_image(data) if isinstance(data, bytes) else data
    ink_source = image.min(axis=2) if image.ndim == 3 else image  # coloured ink stays dark
    homography, page_number = find_page(ink_source)
    # a photo this big may have been decoded at half size (decode_image)
    maybe_halved = isinstance(data, bytes) and image.shape[0] * image.shape[1] >= 1_500_000
    try:
        # a photo decoded at half size: the slower tries on its every pixel only
        qr_text = read_qr(ink_source, homography, first_look_only=maybe_halved)
    except Unreadable:
        full = (
            cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if isinstance(data, bytes) and maybe_halved
            else None
        )
        if full is None:
            raise
        if full.shape[:2] == image.shape[:2]:  # not halved after all
            qr_text = read_qr(ink_source, homography)
        else:
            # decoded at half size: the code's modules may need every pixel of the photo; of
            # the whole photo only the code's corner is looked at (its grey a tenth of the time)
            factor = full.shape[1] / image.shape[1]
            in_full = np.diag([factor, factor, 1.0]) @ homography
            # the reach every try looks within, and more
            x0, y0, x1, y1 = _qr_window(in_full, full.shape[:2], QR_REACH + 3.0)
            in_window = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ in_full
            qr_text = read_qr(full[y0:y1, x0:x1].min(axis=2), in_window)
    layout, rules, sitting_out = layout_for(qr_text, page_number)
    size = (int(L.PAGE_W * PX), int(L.PAGE_H * PX))
    page = cv2.warpPerspective(
        ink_source,
        _scaled(homography, PX),
        size,
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderValue=255,
    )
    if cv2.Laplacian(page, cv2.CV_64F).var() < BLUR_BELOW or float(np.percentile(page, 90)) < 60:
        raise Unreadable("blurred")
    rows = []
    measured = measure_rows(page, layout)
    # the page's usual level of a line across a row (its printed outlines, blur, light)
    usual_line = float(np.median([line for *_boxes, line, _crop in measured]))
    for index, (fills, evenness, inks, cores, line, crop) in enumerate(measured):
        boxes = [
            BoxReading(
                b.group,
                b.value,
                fill,
                classify(fill, even, alone=b.group in ALONE, ink=shade),
                even,
                shade,
            )
            for b, fill, even, shade in zip(layout.boxes, fills, evenness, inks, strict=True)
        ]
        boxes = _read_within_groups(_overshoots_cleared(boxes, cores), cores)
        deal = layout.deals[index]
        row = row_from_boxes(
            boxes,
            deal=deal,
            index=index,
            layout=layout,
            rules=rules,
            sitting_out=sitting_out(deal),
            line_across=line - usual_line >= LINE_ACROSS,
        )
        row.crop = crop
        rows.append(row)
    return SheetReading(
        qr_text=qr_text,
        page=page_number,
        layout=layout,
        rows=rows,
        straightened=page,
        seconds=time.perf_counter() - start,
    )
