"""What the desk keeps of a reading and shows of it (issue 42): each row as plain data, the
straightened page as a small grey JPEG, a row's crop as a PNG, and the photo kept as a copy of
bounded size. Pure: OpenCV and NumPy, no Django.

A row's ``values`` are what the desk's confirm form starts from: the deal record's fields
where the row was read whole, else what was read despite a flag (``RowReading.partial``);
``None`` where nothing was read.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from sheetreading import layout as L
from sheetreading.reader import PX, RowReading, SheetReading

VALUE_FIELDS = ("declarer", "contract", "declarer_points", "won", "after_solo")
PAGE_QUALITY = 80


def row_data(row: RowReading) -> dict[str, Any]:
    """One row of a reading as JSON-able data."""
    source = row.record if row.record is not None else row.partial
    values = {key: source.get(key) for key in VALUE_FIELDS}
    values["after_solo"] = bool(source.get("after_solo", False))
    return {
        "deal": row.deal,
        "flags": list(row.flags),
        "values": values,
        "accepted": row.accepted,
        "struck": row.struck,
        "empty": row.empty,
        "scores": list(row.scores) if row.scores is not None else None,
        "crop": [int(v) for v in row.crop],
    }


def reading_rows(reading: SheetReading) -> list[dict[str, Any]]:
    return [row_data(row) for row in reading.rows]


def page_jpeg(reading: SheetReading) -> bytes:
    """The straightened page (grey), as the desk's crops are cut from it."""
    ok, encoded = cv2.imencode(
        ".jpg", reading.straightened, [cv2.IMWRITE_JPEG_QUALITY, PAGE_QUALITY]
    )
    if not ok:  # pragma: no cover - OpenCV encodes any grey image
        raise ValueError("the page could not be encoded")
    return encoded.tobytes()


def decode_page(page: bytes) -> np.ndarray:
    """The stored page (``page_jpeg``) as a grey image, to cut crops from."""
    image = cv2.imdecode(np.frombuffer(page, np.uint8), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise ValueError("no page")
    return image


def crop_png(
    page: bytes | np.ndarray, crop: tuple[int, int, int, int] | list[int], *, heads: bool = True
) -> bytes:
    """The row's crop of the stored page (``page_jpeg``, or the page decoded by
    :func:`decode_page`) as a PNG, with the sheet's column heads above it (``heads``: which
    box is which, seat numbers, contracts, digits); an empty crop gives the whole width of the
    page's middle (never an error: the values are still shown)."""
    image = decode_page(page) if isinstance(page, bytes) else page
    x, y, w, h = (int(v) for v in crop)
    height, width = image.shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, width), min(y + h, height)
    part = image[y0:y1, x0:x1] if x1 > x0 and y1 > y0 else image[height // 2 : height // 2 + 40]
    if heads and x1 > x0 and y1 > y0:
        top, bottom = int((L.HEADER_BOTTOM + 2) * PX), int(L.ROWS_TOP * PX)
        band = image[top:bottom, x0:x1]
        if band.size and band.shape[1] == part.shape[1]:
            rule = np.full((2, part.shape[1]), 120, np.uint8)
            part = np.vstack([band, rule, part])
    ok, encoded = cv2.imencode(".png", part, [cv2.IMWRITE_PNG_COMPRESSION, 3])
    if not ok:  # pragma: no cover
        raise ValueError("the crop could not be encoded")
    return encoded.tobytes()


def kept_copy(data: bytes, *, longest: int) -> tuple[bytes, str]:
    """The photo as kept: the file itself where its long side is at most ``longest`` pixels
    and it is a JPEG or PNG, else a JPEG copy scaled down to it. (bytes, content type)."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("not an image")
    height, width = image.shape[:2]
    kind = "image/png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "image/jpeg"
    if max(height, width) <= longest and (kind == "image/png" or data[:2] == b"\xff\xd8"):
        return data, kind
    scale = min(1.0, longest / max(height, width))
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:  # pragma: no cover
        raise ValueError("the photo could not be encoded")
    return encoded.tobytes(), "image/jpeg"
