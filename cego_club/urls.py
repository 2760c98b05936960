from django.contrib import admin
from django.urls import include, path

from cego_club.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("rules/", include("rules.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
]
