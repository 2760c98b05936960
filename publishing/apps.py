from django.apps import AppConfig


class PublishingConfig(AppConfig):
    name = "publishing"
    verbose_name = "Publishing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from publishing.laptop import receivers  # noqa: F401 (connects the venue's signal)
