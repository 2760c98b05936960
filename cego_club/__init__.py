"""Cego Club: tournament scoring and club administration for Cego and Dreierles.

``__version__`` is the program's version, the one place it is written: the wheel's metadata
(``pyproject.toml`` reads it), ``cego-club --version``, the Windows zip's name and the record
of which version last wrote a database (``venue.versions``). Raised once per release, with its
entry in ``CHANGELOG.md``.
"""

__version__ = "0.3.0"
