"""The treasurer is a club's organiser: the club area's fixtures."""

from tests.clubs.conftest import organiser, staff_client  # noqa: F401
