from signups.views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]
