"""Queries built by the ORM once and run again with other values (the hot read paths).

Building a query (``QuerySet.values(…)``: resolving the lookups, compiling the SQL) costs the
ORM some 0.3-1 ms each time, more than SQLite needs to run a small query; the standings of a
tournament run seven of them at every new revision (every deal entered). A
:class:`PreparedValues` lets the ORM build its queryset once, with stand-in values, and keeps
the SQL, where each value goes in its parameters, the column names and the ORM's converters
(a boolean of SQLite, a JSON column): run again it gives what ``list(queryset)`` would have
given, row for row, through the same database cursor (a test's query count counts it).

The stand-ins are integers no row has (large negative numbers); a list argument (``__in``)
is compiled once per length (a longer list than 999 is built by the ORM each time). Compiled
per database alias and vendor.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet

# An argument: one integer, or a list of them (an ``__in`` lookup).
Arg = int | Sequence[int]

_STAND_IN = -987_000_000  # slot i, item j: _STAND_IN - 1000 * i - j
_MAX_LIST = 999


def converted(
    row: Sequence[Any],
    *,
    converters: Sequence[tuple[int, Sequence[Callable], Any]],
    connection: Any,
) -> list[Any]:
    """A fetched row's values as the ORM gives them: each (column, its converters, what it
    selects) applied as the ORM's compiler applies them."""
    values = list(row)
    for column, functions, expression in converters:
        value = values[column]
        for convert in functions:
            value = convert(value, expression, connection)
        values[column] = value
    return values


@dataclass(frozen=True)
class _Compiled:
    sql: str | None  # None: the query can match nothing (an empty ``__in``)
    params: tuple  # the stand-ins replaced per call (see ``slots``)
    slots: tuple[tuple[int, int, int | None], ...]  # (param index, argument, item or None)
    names: tuple[str, ...]
    converters: tuple[tuple[int, tuple, Any], ...]  # (column, converters, expression)


class PreparedValues:
    """``build(*args)`` (a ``values()`` queryset of integer arguments) compiled once.

    ``rows(*args)`` returns ``list(build(*args))``: the same dicts, one query."""

    def __init__(self, build: Callable[..., QuerySet]):
        self._build = build
        self._compiled: dict[tuple, _Compiled] = {}
        self._lock = threading.Lock()

    def rows(self, *args: Arg, using: str = "default") -> list[dict[str, Any]]:
        connection = connections[using]
        shape = tuple(None if isinstance(a, int) else len(a) for a in args)
        if any(length is not None and length > _MAX_LIST for length in shape):
            return list(self._build(*args).using(using))  # not worth a compiled shape
        key = (using, connection.vendor, shape)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compile(shape, using)
            with self._lock:
                self._compiled[key] = compiled
        if compiled.sql is None:
            return []
        params = list(compiled.params)
        for index, slot, item in compiled.slots:
            value = args[slot]
            params[index] = value if item is None else value[item]  # type: ignore[index]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        names = compiled.names
        if not compiled.converters:
            return [dict(zip(names, row, strict=True)) for row in fetched]
        out = []
        for row in fetched:
            values = converted(row, converters=compiled.converters, connection=connection)
            out.append(dict(zip(names, values, strict=True)))
        return out

    def _compile(self, shape: tuple[int | None, ...], using: str) -> _Compiled:
        stand_ins: list[Arg] = []
        where: dict[int, tuple[int, int | None]] = {}
        for slot, length in enumerate(shape):
            if length is None:
                value = _STAND_IN - 1000 * slot
                stand_ins.append(value)
                where[value] = (slot, None)
            else:
                items = [_STAND_IN - 1000 * slot - j - 1 for j in range(length)]
                stand_ins.append(items)
                where.update({value: (slot, j) for j, value in enumerate(items)})
        queryset = self._build(*stand_ins)
        query = queryset.query
        names = (
            tuple(query.selected)
            if query.selected
            else (*query.extra_select, *query.values_select, *query.annotation_select)
        )
        compiler = query.get_compiler(using=using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            return _Compiled(sql=None, params=(), slots=(), names=names, converters=())
        slots = []
        found = set()
        for index, param in enumerate(params):  # a value may be used more than once
            if isinstance(param, int) and param in where:
                slot, item = where[param]
                slots.append((index, slot, item))
                found.add(param)
        if found != set(where):  # a stand-in not carried as a parameter: not safe to reuse
            raise ValueError(f"arguments not found in the compiled query: {set(where) - found}")
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        converters = tuple(
            (column, tuple(found[0]), found[1])
            for column, found in compiler.get_converters(fields).items()
        )
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=tuple(slots),
            names=tuple(names),
            converters=converters,
        )
