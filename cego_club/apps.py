from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class CegoClubConfig(AppConfig):
    """Project-wide start-up: the message catalogues compile themselves."""

    name = "cego_club"
    verbose_name = "Cego Club"

    def ready(self) -> None:
        from cego_club.catalogues import ensure_compiled

        ensure_compiled(list(settings.LOCALE_PATHS))
        checks.register(check_catalogues)


def check_catalogues(app_configs=None, **kwargs):
    from cego_club.catalogues import catalogues, stale

    return [
        checks.Warning(
            f"The message catalogue {po} is not compiled: the app will speak English.",
            hint="Run `manage.py compilemessages --ignore=.venv` (needs GNU gettext).",
            id="cego_club.W001",
        )
        for po in catalogues(list(settings.LOCALE_PATHS))
        if stale(po)
    ]
