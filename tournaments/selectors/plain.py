"""Model instances from plain SQL, for the reads every phone request makes.

A phone's deal reads its table (with the round and the tournament) three times and the
table's deals once. Building those queries with the ORM (compiling the joins and column
lists, request after request) cost several times what running them costs. Here each query
is written out once per database vendor, from the models' own fields, and its rows become
the same instances the ORM makes: every concrete field, converted by the same converters
(``Model.from_db``), the round and the tournament cached on the table as ``select_related``
caches them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models

from tournaments.models import Deal, Round, Table, Tournament
from tournaments.selectors.prepared import converted


@dataclass(frozen=True)
class _Part:
    """One model's columns in a query: what to select, and how a row's values become it."""

    model: type[models.Model]
    select: str  # the quoted columns, "alias"."column", …
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Callable, ...], Any], ...]  # (index, converters, column)

    def instance(self, values: Sequence[Any]) -> Any:
        values = converted(values, converters=self.converters, connection=connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def _part(model: type[models.Model], alias: str) -> _Part:
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(alias)
        functions = (
            *connection.ops.get_db_converters(column),
            *column.get_db_converters(connection),
        )
        if functions:
            converters.append((index, tuple(functions), column))
    return _Part(
        model=model,
        select=", ".join(f"{quote(alias)}.{quote(str(field.column))}" for field in fields),
        attnames=tuple(field.attname for field in fields),
        converters=tuple(converters),
    )


def _column(model: type[models.Model], name: str) -> str:
    field: Any = model._meta.get_field(name)
    return connection.ops.quote_name(str(field.column))


def _db_table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@dataclass(frozen=True)
class _TableQuery:
    sql: str
    locked_sql: str
    parts: tuple[_Part, _Part, _Part]


@functools.cache
def _table_query(vendor: str, key: str) -> _TableQuery:
    """The table with its round and tournament, found by ``key`` (a column of the table),
    as ``Table.objects.select_related("round__tournament")`` selects them."""
    table, round_, tournament = _part(Table, "t"), _part(Round, "r"), _part(Tournament, "o")
    c = _column
    sql = (
        f"SELECT {table.select}, {round_.select}, {tournament.select} "  # noqa: S608
        f"FROM {_db_table(Table)} t "
        f"INNER JOIN {_db_table(Round)} r ON r.{c(Round, 'id')} = t.{c(Table, 'round')} "
        f"INNER JOIN {_db_table(Tournament)} o ON o.{c(Tournament, 'id')} = r.{c(Round, 'tournament')} "
        f"WHERE t.{c(Table, key)} = %s"
    )
    # As select_for_update() with select_related: all three rows (SQLite: the write
    # transaction is the lock, there is no FOR UPDATE).
    locked = sql + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    return _TableQuery(sql=sql, locked_sql=locked, parts=(table, round_, tournament))


def _fetch_table(key: str, value: Any, *, lock: bool) -> Table | None:
    query = _table_query(connection.vendor, key)
    with connection.cursor() as cursor:
        cursor.execute(query.locked_sql if lock else query.sql, [value])
        row = cursor.fetchone()
    if row is None:
        return None
    table_part, round_part, tournament_part = query.parts
    first, second = len(table_part.attnames), len(table_part.attnames) + len(round_part.attnames)
    table = table_part.instance(row[:first])
    round_ = round_part.instance(row[first:second])
    tournament = tournament_part.instance(row[second:])
    Round._meta.get_field("tournament").set_cached_value(round_, tournament)
    Table._meta.get_field("round").set_cached_value(table, round_)
    return table


def table_by_token(token: str) -> Table | None:
    """The table with this token, its round and tournament loaded (None: no such table).
    One query."""
    return _fetch_table("token", token, lock=False)


def locked_table(pk: int) -> Table:
    """The table ``pk`` with its round and tournament, locked for this transaction as
    ``select_for_update()`` locks them. One query; Table.DoesNotExist if there is none."""
    table = _fetch_table("id", pk, lock=True)
    if table is None:
        raise Table.DoesNotExist(f"no table {pk}")
    return table


@functools.cache
def _deals_query(vendor: str) -> tuple[str, _Part]:
    part = _part(Deal, "d")
    sql = (
        f"SELECT {part.select} FROM {_db_table(Deal)} d "  # noqa: S608
        f"WHERE d.{_column(Deal, 'table')} = %s ORDER BY d.{_column(Deal, 'number')}"
    )
    return sql, part


def table_deals(table: Table) -> list[Deal]:
    """The table's deals by number, as ``Deal.objects.filter(table=table).order_by("number")``
    (each with the table cached on it). One query."""
    sql, part = _deals_query(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk])
        rows = cursor.fetchall()
    field = Deal._meta.get_field("table")
    deals = []
    for row in rows:
        deal = part.instance(row)
        field.set_cached_value(deal, table)
        deals.append(deal)
    return deals
