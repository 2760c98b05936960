from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CeremonyConfig(AppConfig):
    name = "ceremony"
    verbose_name = _("Prize ceremony")
    default_auto_field = "django.db.models.BigAutoField"
