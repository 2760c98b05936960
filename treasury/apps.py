from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TreasuryConfig(AppConfig):
    name = "treasury"
    verbose_name = _("Treasury")
