from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = _("Venue")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_migrate

        from venue.receivers import record_version
        from venue.sessions import bind_session

        user_logged_in.connect(bind_session, dispatch_uid="venue.sessions.bind_session")
        # The version that migrated the database (venue/versions.py), once it is up to date.
        post_migrate.connect(record_version, sender=self, dispatch_uid="venue.record_version")
