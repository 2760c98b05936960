"""The decorator of the tournament pages: it finds the tournament a URL names and asks
``clubs.permissions`` (the one place that decides) before the view runs."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import Http404

from clubs.permissions import check, check_not_in_hall, is_organiser, refuse
from tournaments.models import Deal, Table, Tournament


def _tournament_from_kwargs(kwargs: dict):
    """The tournament a URL names: by ``pk`` (a tournament), ``table_pk`` or ``deal_pk``."""
    try:
        if "deal_pk" in kwargs:
            return (
                Deal.objects.select_related("table__round__tournament")
                .get(pk=kwargs["deal_pk"])
                .table.round.tournament
            )
        if "table_pk" in kwargs:
            return (
                Table.objects.select_related("round__tournament")
                .get(pk=kwargs["table_pk"])
                .round.tournament
            )
        return Tournament.objects.get(pk=kwargs["pk"])
    except (Deal.DoesNotExist, Table.DoesNotExist, Tournament.DoesNotExist, KeyError):
        raise Http404 from None


def tournament_permission(action: str, *, post: str | None = None) -> Callable:
    """Check ``action`` (``post`` for POST requests, if given) on the tournament the URL
    names, before the view runs: visitors to the login page, others 404 (no such object)
    or 403 (not theirs). A POST to a tournament a venue laptop fetched is refused with a
    403 saying so (``clubs.permissions.check_not_in_hall``)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not is_organiser(request.user):
                return refuse(request)
            tournament = _tournament_from_kwargs(kwargs)
            wanted = post if post is not None and request.method == "POST" else action
            check(request.user, wanted, tournament)
            if request.method == "POST":
                check_not_in_hall(tournament)  # the hall writes it (a laptop fetched it)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
