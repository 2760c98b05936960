from django.apps import AppConfig


class SignupsConfig(AppConfig):
    name = "signups"
    verbose_name = "Online pre-registration"
    default_auto_field = "django.db.models.BigAutoField"
