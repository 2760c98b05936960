"""The project's addresses plus three that fail on purpose (the error pages' tests)."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from cego_club.urls import urlpatterns as project


def bad(request):
    raise SuspiciousOperation("a request the app cannot take")


def denied(request):
    raise PermissionDenied


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("test-errors/400/", bad),
    path("test-errors/403/", denied),
    path("test-errors/500/", boom),
    *project,
]
