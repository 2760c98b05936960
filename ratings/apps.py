from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # A tournament finished, arrived, reopened or deleted; two players merged: the ratings
        # brought up to date once the change has committed.
        from ratings import receivers  # noqa: F401
