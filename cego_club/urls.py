from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from cego_club.health import health
from clubs.views import accounts


def favicon(request: HttpRequest) -> HttpResponse:
    """For what asks for /favicon.ico without reading the page's icon links (every page links
    the SVG, its PNG and the touch icon: ``templates/_icons.html``)."""
    return redirect(static("img/favicon.ico"))


urlpatterns = [
    path("health/", health, name="health"),
    path("favicon.ico", favicon, name="favicon"),
    # The language switch takes no CSRF token: a forged switch only changes a reader's
    # language, and without a token every spectator's copy of the standings is the same page,
    # served from the cache (a token per request was a third of the server's work there).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
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
    path("", include("seasons.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("publishing.urls")),
    path("", include("signups.urls")),
    path("", include("treasury.urls")),
    path("", include("ceremony.urls")),
    path("", include("simultaneous.urls")),
    path("", include("printing.urls")),
    path("", include("exports.urls")),
    path("api/v1/", include("api.urls")),
    path("", include("handbook.urls")),
]
