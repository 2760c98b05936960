"""The workbooks are tested on the data of the pages they export, with those pages' fixtures
(and their pages in English)."""

from tests.seasons.conftest import english, organiser, season, visitor  # noqa: F401
from tests.tournaments.standings.conftest import one_table, tournament  # noqa: F401
