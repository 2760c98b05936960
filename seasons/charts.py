"""Server-rendered SVG charts as pure geometry: numbers in, coordinates out (no JS library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str
    value: int


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: tuple[ChartPoint, ...]
    zero_y: float  # where the 0 line runs
    top_value: int
    bottom_value: int
    left: int
    bottom: int

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def line_chart(
    values: Sequence[tuple[str, int]],
    *,
    width: int = 640,
    height: int = 220,
    left: int = 64,
    right: int = 40,
    top: int = 16,
    bottom: int = 52,
) -> LineChart:
    """A line through ``values`` ((label, value) in order) with room for axis labels; the
    value range always includes 0 so that "on plus" and "on minus" read at a glance."""
    numbers = [v for _, v in values]
    high = max([0, *numbers])
    low = min([0, *numbers])
    if high == low:
        high = low + 1
    inner_w = width - left - right
    inner_h = height - top - bottom
    step = inner_w / max(1, len(values) - 1)

    def y_of(value: int) -> float:
        return top + (high - value) / (high - low) * inner_h

    points = tuple(
        ChartPoint(
            x=left + (index * step if len(values) > 1 else inner_w / 2),
            y=y_of(value),
            label=label,
            value=value,
        )
        for index, (label, value) in enumerate(values)
    )
    return LineChart(
        width=width,
        height=height,
        points=points,
        zero_y=y_of(0),
        top_value=high,
        bottom_value=low,
        left=left,
        bottom=height - bottom,
    )
