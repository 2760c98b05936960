"""What runs before or below every app and imports none of them: the SQLite backend
(``sqlite/``), the venue's front (``front.py``), readiness before the first request
(``readiness.py``), the Content-Security-Policy (``csp.py``), the chosen language
(``language.py``), the static files' storage (``staticfiles.py``) and the date formats
(``formats/``). The settings beside it (``cego_club.settings``) name these; the entry
points above every area (``cego_club.urls``, ``wsgi``, ``cli``) stay at the top."""
