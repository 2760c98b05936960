"""Two typings of one paper sheet compared cell by cell (double entry), and a settled sheet.

Pure: no Django, no database. A typing is a list of rows ``{"number", "contract",
"declarer", "amounts", "scores"}`` (``tournaments.models.SheetTyping``). A cell is one
deal's contract, declarer or one seat's amount; an amount cell compares the complete row the
engine made of the typing (``scores``), so a defender's amount left blank because it follows
from the declarer's is no difference. A line missing from one typing differs in every cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CONTRACT = "contract"
DECLARER = "declarer"

Cell = str | int | None


def seat_column(position: int) -> str:
    return f"seat{position}"


def columns(seats: int) -> list[str]:
    return [CONTRACT, DECLARER, *(seat_column(p) for p in range(seats))]


def cell_key(number: int, column: str) -> str:
    """The form's name for one cell: ``"5-contract"``, ``"5-seat2"``."""
    return f"{number}-{column}"


def _cells(rows: Sequence[Mapping[str, Any]], seats: int) -> dict[int, dict[str, Cell]]:
    lines: dict[int, dict[str, Cell]] = {}
    for row in rows:
        cells: dict[str, Cell] = {CONTRACT: row["contract"], DECLARER: row["declarer"]}
        scores = list(row["scores"])[:seats]
        for position in range(seats):
            cells[seat_column(position)] = scores[position] if position < len(scores) else None
        lines[int(row["number"])] = cells
    return lines


_EMPTY: dict[str, Cell] = {}


@dataclass(frozen=True)
class Difference:
    number: int
    column: str
    first: Cell
    second: Cell

    @property
    def key(self) -> str:
        return cell_key(self.number, self.column)


def differences(
    first: Sequence[Mapping[str, Any]], second: Sequence[Mapping[str, Any]], *, seats: int
) -> list[Difference]:
    """Every cell where the two typings differ, by deal number, then column."""
    one, two = _cells(first, seats), _cells(second, seats)
    found = []
    for number in sorted(set(one) | set(two)):
        a, b = one.get(number, _EMPTY), two.get(number, _EMPTY)
        for column in columns(seats):
            if a.get(column) != b.get(column):
                found.append(Difference(number, column, a.get(column), b.get(column)))
    return found


@dataclass(frozen=True)
class SettledLine:
    """One line of the settled sheet: every amount is given (the complete row)."""

    number: int
    contract: str
    declarer: int | None
    amounts: tuple[int | None, ...]


def settled_lines(
    first: Sequence[Mapping[str, Any]],
    second: Sequence[Mapping[str, Any]],
    *,
    seats: int,
    decided: Mapping[str, Cell],
) -> list[SettledLine]:
    """The sheet after the desk's decisions: ``decided`` maps each differing cell's key to its
    value (an agreed cell keeps its value). A line whose every cell is empty is left out."""
    one, two = _cells(first, seats), _cells(second, seats)
    lines = []
    for number in sorted(set(one) | set(two)):
        a, b = one.get(number, _EMPTY), two.get(number, _EMPTY)
        values: dict[str, Cell] = {}
        for column in columns(seats):
            if a.get(column) == b.get(column):
                values[column] = a.get(column)
            else:
                values[column] = decided.get(cell_key(number, column))
        contract = values[CONTRACT] or ""
        declarer = values[DECLARER]
        amounts = tuple(values[seat_column(p)] for p in range(seats))
        if not contract and declarer is None and all(x is None for x in amounts):
            continue
        lines.append(
            SettledLine(
                number=number,
                contract=str(contract),
                declarer=declarer if isinstance(declarer, int) else None,
                amounts=tuple(x if isinstance(x, int) else None for x in amounts),
            )
        )
    return lines
