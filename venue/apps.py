from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = _("Venue")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from venue.sessions import bind_session

        user_logged_in.connect(bind_session, dispatch_uid="venue.sessions.bind_session")
