"""The pages of a simultaneous Cego day.

Public (on the season server): the list of days, a day's overall ranking with its halls
(live: ``?partial=1``), each hall's (section's) ranking, the overall ranking on a projector,
and the JSON a hall's laptop fetches (``simultaneous.follower``). The association's: create a
day, add and remove halls. On the hall's laptop: the hall's projector with its own standings
beside the last overall ranking fetched (``hall_projector``)."""

from __future__ import annotations

import datetime as dt
import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.permissions import MANAGE_SIMULTANEOUS, has_perm, refuse, season_scorer_required
from seasons.ical import FeedEvent, calendar_bytes, event_uid
from simultaneous import documents, services
from simultaneous.forms import DayForm, HallForm
from simultaneous.models import OverallCopy, SimultaneousDay
from simultaneous.selectors import day_for_tournament, day_ranking, day_sections, days
from tournaments.models import Tournament
from tournaments.selectors.standings import standings_at_revision
from tournaments.selectors.visibility import hiding, public_standings

LIVE_SECONDS = 5
# The laptop's copy counts as current while younger than this; older, the projector says
# since when the season server has not answered.
STALE_SECONDS = 20
PROJECTOR_ROWS = 15


def _misfit_words(fields) -> list[str]:
    words = {
        "rules_slug": _("another rule source"),
        "rounds": _("another number of rounds"),
        "deals_per_round": _("another number of deals per round"),
        "date": _("another date"),
    }
    return [words[name] for name in fields if name in words]


@require_GET
def day_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "simultaneous/day_list.html",
        {"days": days(), "may_manage": has_perm(request.user, MANAGE_SIMULTANEOUS, None)},
    )


DAY_FIELDS = ("name", "date", "season", "rules_slug", "rounds", "deals_per_round")


def _day_fields(form: DayForm) -> dict:
    """The day's own fields from a valid form, as the services take them."""
    return {name: form.cleaned_data[name] for name in DAY_FIELDS}


@season_scorer_required
def day_create(request: HttpRequest) -> HttpResponse:
    form = DayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            day = services.create_day(**_day_fields(form), by=request.user)
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            messages.success(request, _("The day is created. Now add its halls."))
            return redirect("simultaneous:day_manage", pk=day.pk)
    return render(request, "simultaneous/day_create.html", {"form": form})


@season_scorer_required
def day_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The day's own fields changed, or the day deleted (once no hall takes part)."""
    day = get_object_or_404(SimultaneousDay.objects.select_related("season"), pk=pk)
    if not has_perm(request.user, MANAGE_SIMULTANEOUS, day):
        return refuse(request)
    initial = {name: getattr(day, name) for name in DAY_FIELDS}
    form = DayForm(request.POST or None, initial=initial)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "delete":
                services.delete_day(day=day, by=request.user)
                messages.success(request, _("The day is deleted."))
                return redirect("simultaneous:days")
            if form.is_valid():
                services.change_day(day=day, **_day_fields(form), by=request.user)
                messages.success(request, _("The day is changed."))
                return redirect("simultaneous:day_manage", pk=pk)
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                form.add_error(field if field in form.fields else None, problems)
    return render(
        request,
        "simultaneous/day_edit.html",
        {"day": day, "form": form, "halls": day.sections.count()},
    )


def _hall_choices(day: SimultaneousDay) -> list[tuple[int, str]]:
    found = (
        Tournament.objects.filter(
            date=day.date, finished_at__isnull=True, simultaneous_section__isnull=True
        )
        .select_related("host_club")
        .order_by("host_club__name", "name")
    )
    return [(t.pk, f"{t.name} ({t.host_club.name})") for t in found]


@season_scorer_required
def day_manage(request: HttpRequest, pk: int) -> HttpResponse:
    day = get_object_or_404(SimultaneousDay, pk=pk)
    if not has_perm(request.user, MANAGE_SIMULTANEOUS, day):
        return refuse(request)
    form = HallForm(request.POST or None, choices=_hall_choices(day))
    if request.method == "POST":
        try:
            if request.POST.get("action") == "remove":
                services.remove_hall(
                    day=day, section_id=int(request.POST.get("section") or 0), by=request.user
                )
                messages.success(request, _("The hall has left the day."))
                return redirect("simultaneous:day_manage", pk=pk)
            if form.is_valid():
                tournament = get_object_or_404(Tournament, pk=form.cleaned_data["tournament"])
                services.add_hall(day=day, tournament=tournament, by=request.user)
                messages.success(request, _("The hall takes part."))
                return redirect("simultaneous:day_manage", pk=pk)
        except (ValidationError, ValueError) as error:
            problems = getattr(error, "message_dict", None) or {None: [_("Unknown hall.")]}
            for field, texts in problems.items():
                form.add_error("tournament" if field in ("tournament", None) else None, texts)
    return render(
        request,
        "simultaneous/day_manage.html",
        {"day": day, "form": form, "sections": day_sections(day=day), "changes": day.changes.all()},
    )


def _ranking_context(day: SimultaneousDay) -> dict:
    result = day_ranking(day=day)
    return {
        "day": day,
        "result": result,
        "halls": [(s, _misfit_words(s.misfit)) for s in result.sections],
        "overall": [(item, result.hall_names.get(item.row.section, "")) for item in result.overall],
    }


@require_GET
def day_ranking_view(request: HttpRequest, pk: int) -> HttpResponse:
    day = get_object_or_404(SimultaneousDay.objects.select_related("season"), pk=pk)
    context = _ranking_context(day)
    board = render_to_string("simultaneous/_overall.html", context, request=request)
    if request.GET.get("partial") == "1":
        return HttpResponse(board)
    context.update(
        board=board,
        live_seconds=LIVE_SECONDS,
        may_manage=has_perm(request.user, MANAGE_SIMULTANEOUS, day),
    )
    return render(request, "simultaneous/day.html", context)


@require_GET
def section_view(request: HttpRequest, pk: int, section: int) -> HttpResponse:
    day = get_object_or_404(SimultaneousDay, pk=pk)
    context = _ranking_context(day)
    found = context["result"].section(section)
    if found is None:
        raise Http404
    context["section"] = found
    context["misfit"] = _misfit_words(found.misfit)
    board = render_to_string("simultaneous/_section.html", context, request=request)
    if request.GET.get("partial") == "1":
        return HttpResponse(board)
    context.update(board=board, live_seconds=LIVE_SECONDS)
    return render(request, "simultaneous/section.html", context)


@require_GET
def day_projector(request: HttpRequest, pk: int) -> HttpResponse:
    """The overall ranking on a hall's screen (the season server's)."""
    day = get_object_or_404(SimultaneousDay, pk=pk)
    result = day_ranking(day=day)
    context = {
        "day": day,
        "overall": [_overall_item(day, result, item) for item in result.overall[:PROJECTOR_ROWS]],
        "as_of": result.built_at,
        "stale": False,
        "own": None,
    }
    return _projector(request, context)


def _overall_item(day, result, item) -> dict:
    return {
        "rank": item.rank,
        "tied": item.tied,
        "name": item.row.name,
        "club": item.row.club,
        "hall_name": result.hall_names.get(item.row.section, ""),
        "total": item.row.total,
    }


def _projector(request: HttpRequest, context: dict) -> HttpResponse:
    board = render_to_string("simultaneous/_projector_board.html", context, request=request)
    if request.GET.get("partial") == "1":
        return HttpResponse(board)
    context.update(board=board, live_seconds=LIVE_SECONDS)
    return render(request, "simultaneous/projector.html", context)


@require_GET
def hall_projector(request: HttpRequest, pk: int) -> HttpResponse:
    """On the hall's laptop: the hall's own standings beside the day's overall ranking as last
    fetched from the season server (``simultaneous.follower``), with its time."""
    tournament = get_object_or_404(Tournament, pk=pk)
    standings = public_standings(
        standings_at_revision(tournament=tournament), shown=hiding(tournament=tournament)
    )
    copy = OverallCopy.objects.filter(tournament=tournament).first()
    day = None
    overall: list[dict] = []
    as_of = None
    stale = False
    if copy is not None:
        document = copy.document
        day = {"name": document.get("name", ""), "date": document.get("date", "")}
        overall = [
            {
                "rank": row.get("rank"),
                "tied": row.get("tied"),
                "name": row.get("name", ""),
                "club": row.get("club", ""),
                "hall_name": row.get("hall_name", ""),
                "total": row.get("total", 0),
            }
            for row in document.get("overall", [])[:PROJECTOR_ROWS]
        ]
        as_of = copy.fetched_at
        stale = (timezone.now() - copy.fetched_at) > dt.timedelta(seconds=STALE_SECONDS)
    context = {
        "day": day,
        "tournament": tournament,
        "own": [row for row in standings.rows if not row.fill_in][:PROJECTOR_ROWS],
        "overall": overall,
        "as_of": as_of,
        "stale": stale,
        "waiting": copy is None,
    }
    return _projector(request, context)


@require_GET
def overall_json(request: HttpRequest, archive_id) -> HttpResponse:
    """The overall ranking of the day ``archive_id``'s tournament takes part in, for the
    hall's laptop (public: what the day's page shows; without the halls' own rows)."""
    day = day_for_tournament(archive_id=archive_id)
    if day is None:
        return HttpResponse(
            json.dumps({"error": _("This tournament takes part in no simultaneous day.")}),
            status=404,
            content_type="application/json",
        )
    result = day_ranking(day=day)
    etag = f'"o{result.stamp}"'
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        answer: HttpResponse = HttpResponseNotModified()
    else:
        document = documents.day_document(day, result, with_hall_rows=False)
        answer = HttpResponse(
            json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False),
            content_type="application/json",
        )
    answer["ETag"] = etag
    answer["Cache-Control"] = "no-cache"
    return answer


@require_GET
def day_feed(request: HttpRequest, pk: int) -> HttpResponse:
    """The day in a calendar: one event per hall, each with the overall ranking's address."""
    day = get_object_or_404(SimultaneousDay, pk=pk)
    url = request.build_absolute_uri(reverse("simultaneous:day_ranking", args=[day.pk]))
    events = [
        FeedEvent(
            uid=event_uid(section.tournament.archive_id),
            summary=f"{day.name}: {section.tournament.name}",
            day=section.tournament.date,
            location=", ".join(
                part
                for part in (section.tournament.venue, section.tournament.host_club.town)
                if part
            ),
            description="\n".join(
                [
                    _("Host: %(club)s") % {"club": section.tournament.host_club.name},
                    _("Overall ranking of the simultaneous day: %(url)s") % {"url": url},
                ]
            ),
            url=url,
        )
        for section in day_sections(day=day)
    ]
    body = calendar_bytes(events, name=day.name, stamp=timezone.now())
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


urlpatterns = [
    path("simultan/", day_list, name="days"),  # public, without any club data
    path("simultan/neu/", day_create, name="day_create"),
    path("simultan/<int:pk>/", day_ranking_view, name="day_ranking"),
    path("simultan/<int:pk>/verwalten/", day_manage, name="day_manage"),
    path("simultan/<int:pk>/aendern/", day_edit, name="day_edit"),
    path("simultan/<int:pk>/halle/<int:section>/", section_view, name="section"),
    path("simultan/<int:pk>/projektor/", day_projector, name="day_projector"),
    path("simultan/<int:pk>/kalender.ics", day_feed, name="day_feed"),
    path("simultan/turniere/<uuid:archive_id>/gesamt.json", overall_json, name="overall_json"),
    path("simultan/halle/<int:pk>/", hall_projector, name="hall_projector"),
]
