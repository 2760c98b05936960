"""The test suite's PostgreSQL backend (``cego_club/test_settings.py``): Django's, with a cheaper
way to empty the tables after a transactional test.

Django empties every table after each ``transaction=True`` test (``TransactionTestCase``'s
``flush``) with one ``TRUNCATE`` of all the app's tables. On PostgreSQL a ``TRUNCATE`` gives
every table and each of its indexes a new file, whether it held rows or not: 2.5 to 3.5 s for
the 68 tables on a busy 2-core machine, after each of the fast tier's 57 transactional tests.
Such a test leaves rows in a few tables only; deleting those rows ends in the same empty
tables in some 30 ms. The foreign keys Django makes are ``DEFERRABLE INITIALLY DEFERRED`` and
checked at the flush's commit, when every row is gone, so the order of the deletes does not
matter. Sequences are not reset either way (``TRUNCATE`` without ``RESTART IDENTITY``).

A flush that resets sequences or cascades (``reset_sequences=True``, ``available_apps``)
is Django's own. The app's production backend is Django's unchanged: only the tests use this.
Listed in docs/architecture/framework-overrides.md.
"""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        holding = self.tables_with_rows(tables)
        if not holding:
            return []
        return [
            "SET CONSTRAINTS ALL DEFERRED;",
            *(
                f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
                f"{style.SQL_FIELD(self.quote_name(table))};"
                for table in holding
            ),
        ]

    def tables_with_rows(self, tables):
        """Those of ``tables`` that hold a row (one query)."""
        tables = sorted(tables)
        query = " UNION ALL ".join(
            f"SELECT {number} FROM (SELECT 1 FROM {self.quote_name(table)} LIMIT 1) AS t{number}"
            for number, table in enumerate(tables)
        )
        with self.connection.cursor() as cursor:
            cursor.execute(query)
            return [tables[number] for (number,) in cursor.fetchall()]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
