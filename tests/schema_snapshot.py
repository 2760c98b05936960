"""The schema of the database a connection reaches, in a form two databases can be compared
by: tables, their columns (type, null) and their constraints and indexes (by what they hold,
not by name: a migration and a fresh build name some of them differently).

Run as a script it migrates the database of DATABASE_URL from nothing and prints its schema
as JSON (tests/foundation/test_migrations_build_the_models.py).
"""

from __future__ import annotations

import json
import sys


def describe(connection) -> dict[str, dict]:
    introspection = connection.introspection
    schema: dict[str, dict] = {}
    with connection.cursor() as cursor:
        for table in sorted(introspection.table_names(cursor)):
            if table == "django_migrations":
                continue
            columns = {
                column.name: {"type": str(column.type_code), "null": bool(column.null_ok)}
                for column in introspection.get_table_description(cursor, table)
            }
            constraints = sorted(
                json.dumps(
                    {
                        "columns": list(info["columns"] or []),
                        "primary_key": bool(info["primary_key"]),
                        "unique": bool(info["unique"]),
                        "foreign_key": list(info["foreign_key"] or []),
                        "check": bool(info["check"]),
                        "index": bool(info["index"]),
                        "type": info.get("type") if info.get("index") else None,
                        "orders": list(info.get("orders") or []),
                    },
                    sort_keys=True,
                )
                for info in introspection.get_constraints(cursor, table).values()
            )
            schema[table] = {"columns": columns, "constraints": constraints}
    return schema


if __name__ == "__main__":
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    json.dump(describe(connection), sys.stdout)
