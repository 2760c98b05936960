"""The press report: the paragraph for the regional papers after a tournament
(``/tournaments/<id>/pressebericht/``, the host club's organisers) and after the season's final
(``/seasons/<id>/pressebericht/``, the season's organisers). Edited in a text box, copied with
one button, or downloaded as plain text (the text as edited: a POST of the box)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.permissions import MANAGE_SEASON, MANAGE_TOURNAMENT, check, organiser_required
from seasons.models import Season
from seasons.press import season_report, tournament_report
from seasons.selectors.press import season_facts, tournament_facts
from tournaments.models import Tournament
from tournaments.selectors.visibility import hiding

# The longest text taken back for the download (a report is some 1,500 characters).
MAX_REPORT_CHARS = 20_000
# The download's file name starts with the German word the host's club knows it by.
FILE_NAME = "pressebericht"


def _download(text: str, name: str) -> HttpResponse:
    response = HttpResponse(
        text.replace("\r\n", "\n")[:MAX_REPORT_CHARS], content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.txt"'
    return response


def _page(
    request,
    *,
    text: str,
    title: str,
    filename: str,
    back_url: str,
    back_label: str,
    note: str,
    warning: str = "",
):
    if request.method == "POST":
        return _download(request.POST.get("text", text), filename)
    return render(
        request,
        "seasons/press.html",
        {
            "text": text,
            "title": title,
            "back_url": back_url,
            "back_label": back_label,
            "note": note,
            "warning": warning,
            "rows": min(30, max(8, len(text) // 70 + text.count("\n") + 2)),
        },
    )


@organiser_required
def tournament_press(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("host_club", "season"), pk=pk)
    check(request.user, MANAGE_TOURNAMENT, tournament)
    text = tournament_report(tournament_facts(tournament=tournament))
    return _page(
        request,
        text=text,
        title=_("Press report · %(name)s") % {"name": tournament.name},
        filename=f"{FILE_NAME}-{tournament.date:%Y-%m-%d}-{slugify(tournament.name)}",
        back_url=reverse("tournaments:tournament_detail", args=[tournament.pk]),
        back_label=tournament.name,
        note=_(
            "The youngest and the oldest player are named only where they agreed to it in "
            "their player record and their birth year is known."
        ),
        # the desk sees the hidden places; the text names them, so not before the ceremony
        warning=_(
            "The top places are still hidden from the public until the prize ceremony: "
            "this text names them, so pass it on only after the ceremony."
        )
        if hiding(tournament=tournament) is not None
        else "",
    )


@organiser_required
def season_press(request, pk: int):
    season = get_object_or_404(Season, pk=pk)
    check(request.user, MANAGE_SEASON, season)
    facts = season_facts(season=season)
    return _page(
        request,
        text=season_report(facts),
        title=_("Press report · %(name)s") % {"name": season.name},
        filename=f"{FILE_NAME}-{slugify(season.name)}",
        back_url=reverse("seasons:season_standings", args=[season.pk]),
        back_label=season.name,
        note=""
        if facts.decided
        else _(
            "The season is not decided yet: the text gives the standings so far. After the "
            "final it names the season's winner."
        ),
    )


urlpatterns = [
    path("tournaments/<int:pk>/pressebericht/", tournament_press, name="tournament_press"),
    path("seasons/<int:pk>/pressebericht/", season_press, name="season_press"),
]
