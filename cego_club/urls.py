from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from cego_club.health import health
from clubs.views import accounts

urlpatterns = [
    path("health/", health, name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The app's own login and logout (no namespace: the names Django's settings expect).
    *accounts.urlpatterns,
    # The admin's own login page is not used: everybody logs in on the app's (throttled) one.
    path(
        "admin/login/",
        RedirectView.as_view(pattern_name="login", query_string=True),
        name="admin_login_redirect",
    ),
    path("admin/", admin.site.urls),
    path("rules/", include("rules.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
]
