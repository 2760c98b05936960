from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The registry's signals (renames, merges): clubs imports nothing from here.
        from tournaments import receivers  # noqa: F401

        share_spectator_pages()


def share_spectator_pages() -> None:
    """The standings page, its live part and the projector's board, as every spectator sees
    them, answered by the venue's front (``cego_club/platform/front.py``) by the tournament's
    revision."""
    from cego_club.platform.front import share
    from tournaments.caching import RECENT_REVISIONS
    from tournaments.views.standings import SHARED_QUERIES, stamp_projector, stamp_standings

    def revision(match):
        return RECENT_REVISIONS.revision(int(match[1]))

    share(
        r"/tournaments/(\d+)/standings/",
        queries=SHARED_QUERIES,
        version=revision,
        finish=stamp_standings,
        finish_per_second=True,  # the clock's hours, minutes and seconds
    )
    share(
        r"/tournaments/(\d+)/standings/projector/",
        queries=SHARED_QUERIES,  # the whole page and the board
        version=revision,
        finish=stamp_projector,
    )
