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


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  # the group's label ("2025/26")
    value: int
    series: int  # which series (0, 1, …): its colour
    name: str = ""  # the series' name, for the bar's tooltip


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    labels: tuple[tuple[float, str], ...]  # (x of the group's middle, its label)
    top_value: int
    left: int
    top: int
    bottom: int  # where the bars stand (the 0 line)


def bar_chart(
    labels: Sequence[str],
    series: Sequence[Sequence[int]],
    *,
    names: Sequence[str] = (),
    width: int = 640,
    height: int = 240,
    left: int = 64,
    right: int = 16,
    top: int = 16,
    bottom: int = 44,
) -> BarChart:
    """Bars grouped by label, one bar per series in each group (``series[k][i]``: series k's
    value for label i), on one scale from 0 to the largest value."""
    count = len(labels)
    high = max([1, *(value for values in series for value in values)])
    inner_w = width - left - right
    inner_h = height - top - bottom
    group_w = inner_w / max(1, count)
    gap = group_w * 0.2
    bar_w = (group_w - gap) / max(1, len(series))
    bars = []
    for index, label in enumerate(labels):
        for number, values in enumerate(series):
            value = values[index]
            bar_h = value / high * inner_h
            bars.append(
                Bar(
                    x=left + index * group_w + gap / 2 + number * bar_w,
                    y=top + inner_h - bar_h,
                    width=bar_w,
                    height=bar_h,
                    label=label,
                    value=value,
                    series=number,
                    name=names[number] if number < len(names) else "",
                )
            )
    return BarChart(
        width=width,
        height=height,
        bars=tuple(bars),
        labels=tuple(
            (left + index * group_w + group_w / 2, label) for index, label in enumerate(labels)
        ),
        top_value=high,
        left=left,
        top=top,
        bottom=top + inner_h,
    )
