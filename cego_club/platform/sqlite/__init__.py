"""Django's SQLite backend, with the writers of one process queued in the process
(:mod:`cego_club.platform.sqlite.base`)."""
