"""The app's own login and logout (German, the app's look). The Django admin sends its login
here too; django-axes throttles every login (``AXES_*`` in the settings)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext_lazy as _

from clubs.permissions import first_run_open


class LoginForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "User name or password is wrong. After %(limit)s wrong tries the login is "
            "blocked for %(minutes)s minutes."
        ),
    }

    def get_invalid_login_error(self):
        return forms.ValidationError(
            self.error_messages["invalid_login"],
            code="invalid_login",
            params={"limit": settings.AXES_FAILURE_LIMIT, "minutes": cooloff_minutes()},
        )


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        # A new installation has no account to log in with: point to the first-time setup.
        return {**super().get_context_data(**kwargs), "first_run_open": first_run_open()}


def locked_out(request, original_response=None, credentials=None):
    """What django-axes answers once a run of wrong passwords blocked the login: the login
    page again, with the reason and how long to wait (status 429), even for the right one."""
    return render(
        request,
        "accounts/login.html",
        {
            "form": LoginForm(request),
            "locked_out": True,
            "minutes": cooloff_minutes(),
            "next": request.POST.get("next", "") or request.GET.get("next", ""),
        },
        status=429,
    )


urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
