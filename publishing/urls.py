from publishing.views import urlpatterns

app_name = "publishing"
__all__ = ["urlpatterns"]
