from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandbookConfig(AppConfig):
    name = "handbook"
    verbose_name = _("Handbook")
