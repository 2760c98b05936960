"""A new row written by plain SQL, for the two rows every phone deal writes (the deal and its
"entered" history row).

``Model.save()`` compiles its INSERT afresh for every row (each field's value prepared through
the query compiler): on a phone's deal that cost more than the two inserts themselves. Here
the statement is written once per model and vendor from the model's concrete fields, and each
value is prepared as ``save()`` prepares it (``pre_save`` with ``add``: ``auto_now_add``;
``get_db_prep_save``). The instance ends as ``save()`` leaves a new one (its primary key, not
adding, the database's alias). A model with ``pre_save``/``post_save`` receivers, a database
default or a primary key already set is saved by ``save()`` as ever.
"""

from __future__ import annotations

import functools

from django.db import connection, models
from django.db.models import signals
from django.db.models.fields import NOT_PROVIDED


@functools.cache
def _statement(
    model: type[models.Model], vendor: str
) -> tuple[str, tuple[models.Field, ...]] | None:
    meta = model._meta
    pk = meta.pk
    if pk is None or not isinstance(
        pk, models.AutoField | models.BigAutoField | models.SmallAutoField
    ):
        return None
    fields = tuple(field for field in meta.local_concrete_fields if field is not pk)
    if any(
        field.db_default is not NOT_PROVIDED
        or field.generated
        or hasattr(field, "get_placeholder")  # e.g. a binary field's own placeholder
        for field in fields
    ):
        return None
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(meta.db_table)} "  # noqa: S608 - names from the model
        f"({', '.join(quote(str(field.column)) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(str(pk.column))}"
    return sql, fields


def insert(instance: models.Model) -> None:
    """Store the new ``instance`` (one INSERT), as ``instance.save()`` would."""
    model = type(instance)
    statement = _statement(model, connection.vendor)
    if (
        statement is None
        or instance.pk is not None
        or signals.pre_save.has_listeners(model)
        or signals.post_save.has_listeners(model)
    ):
        instance.save()
        return
    sql, fields = statement
    values = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            column = str(model._meta.pk.column)
            pk = connection.ops.last_insert_id(cursor, model._meta.db_table, column)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
