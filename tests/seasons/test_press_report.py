"""The press report (issue 41 item 3): the pure text (``seasons.press``) with each optional
part present and absent, in German and English; the facts gathered from a season's
tournaments (``seasons.selectors.press``) in a constant number of queries; the pages for the
host's organisers, the text box, the download of the edited text."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from seasons.models import PlannedTournament
from seasons.press import (
    NextStop,
    Placed,
    SeasonFacts,
    SeasonLead,
    TournamentFacts,
    season_report,
    tournament_report,
)
from seasons.selectors.press import season_facts, tournament_facts
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory

DAY = dt.date(2026, 11, 28)  # a Saturday

FULL = TournamentFacts(
    name="Herbstturnier",
    date=DAY,
    venue="Festhalle Unadingen",
    host="Cego-Club Unadingen",
    podium=(
        Placed(1, "Anna Maier", "Löffingen", 1412),
        Placed(2, "Bert Hall", "Unadingen", 380),
        Placed(3, "Carl Ruf", "Bachheim", 355),
    ),
    players=48,
    women=9,
    youth=3,
    seniors=11,
    best_woman=Placed(7, "Dora Kern", "Göschweiler", 210),
    youngest=(Placed(21, "Finn Gut", "Bachheim", 12),),
    oldest=(Placed(30, "Gerda Wehrle", "Rötenbach", -8),),
    last=Placed(48, "Egon Wehrle", "Rötenbach", -320),
    season=SeasonLead(
        season="2026/27",
        leaders=(Placed(1, "Anna Maier", "Löffingen", 2210),),
        gap=85,
        runner_up="Bert Hall",
    ),
    next_stop=NextStop("Winterturnier", dt.date(2026, 12, 12), "Gemeindehalle", "Cego Bachheim"),
)


def german(text_of):
    with translation.override("de"):
        return text_of()


def english(text_of):
    with translation.override("en"):
        return text_of()


def test_the_full_report_in_german():
    text = german(lambda: tournament_report(FULL))
    assert text.startswith("Anna Maier gewinnt das Cego-Turnier „Herbstturnier“\n\n")
    assert (
        "Beim Cego-Turnier „Herbstturnier“ (Ausrichter: Cego-Club Unadingen, Spielort: "
        "Festhalle Unadingen) am Samstag, 28. November 2026, gewann Anna Maier (Löffingen) "
        "mit 1.412 Punkten." in text
    )
    assert "Auf Platz zwei folgte Bert Hall (Unadingen) mit 380 Punkten." in text
    assert "Platz drei belegte Carl Ruf (Bachheim) mit 355 Punkten." in text
    assert "Beste Frau war Dora Kern (Göschweiler) auf Platz 7 mit 210 Punkten." in text
    assert (
        "Es nahmen 48 Spielerinnen und Spieler teil, darunter 9 Frauen, 3 Jugendliche und "
        "11 Senioren." in text
    )
    assert "Den letzten Platz belegte Egon Wehrle (Rötenbach) mit −320 Punkten." in text
    assert (
        "In der Saisonwertung 2026/27 führt nach diesem Turnier Anna Maier mit 2.210 Punkten, "
        "85 Punkte vor Bert Hall." in text
    )
    assert (
        "Das nächste Turnier der Saison, „Winterturnier“ (Ausrichter: Cego Bachheim, "
        "Spielort: Gemeindehalle), ist am Samstag, 12. Dezember 2026." in text
    )
    assert "Am jüngsten im Feld war Finn Gut (Bachheim)." in text
    assert "Am ältesten im Feld war Gerda Wehrle (Rötenbach)." in text


def test_the_full_report_in_english():
    text = english(lambda: tournament_report(FULL))
    assert text.startswith("Anna Maier wins the Cego tournament “Herbstturnier”")
    assert "Anna Maier (Löffingen) won with 1,412 points." in text
    assert "Second was Bert Hall (Unadingen) with 380 points." in text
    assert "48 players took part, among them 9 women, 3 young players and 11 seniors." in text
    assert "85 points ahead of Bert Hall." in text
    assert "The youngest player was Finn Gut (Bachheim)." in text
    assert "The oldest player was Gerda Wehrle (Rötenbach)." in text


# Each optional part: (how to leave it out, a German phrase only that part writes)
OPTIONAL = {
    "second and third": (dict(podium=FULL.podium[:1]), "Auf Platz zwei"),
    "third": (dict(podium=FULL.podium[:2]), "Platz drei"),
    "best woman": (dict(best_woman=None), "Beste Frau"),
    "women": (dict(women=0), "9 Frauen"),
    "youth": (dict(youth=0), "Jugendliche"),
    "seniors": (dict(seniors=0), "Senioren"),
    "players": (dict(players=0, women=0, youth=0, seniors=0), "nahmen"),
    "last place": (dict(last=None), "letzten Platz"),
    "youngest": (dict(youngest=()), "Am jüngsten"),
    "oldest": (dict(oldest=()), "Am ältesten"),
    "season leader": (dict(season=None), "Saisonwertung"),
    "next tournament": (dict(next_stop=None), "nächste Turnier"),
    "venue": (dict(venue=""), "Spielort: Festhalle"),
    "host": (dict(host=""), "Ausrichter: Cego-Club"),
    "next tournament's hall": (
        dict(next_stop=dataclasses.replace(FULL.next_stop, venue="", host="")),
        "„Winterturnier“ (",
    ),
}


@pytest.mark.parametrize("part", sorted(OPTIONAL))
def test_each_optional_part_present_and_absent(part):
    change, phrase = OPTIONAL[part]
    assert phrase in german(lambda: tournament_report(FULL))
    without = german(lambda: tournament_report(dataclasses.replace(FULL, **change)))
    assert phrase not in without
    assert "gewann Anna Maier" in without  # the rest still stands


def test_ties_on_the_podium_and_in_the_season_lead():
    facts = dataclasses.replace(
        FULL,
        podium=(
            Placed(1, "Anna Maier", "", 400),
            Placed(1, "Bert Hall", "", 400),
            Placed(3, "Carl Ruf", "", 300),
            Placed(3, "Dora Kern", "", 300),
        ),
        season=SeasonLead(
            season="2026/27",
            leaders=(Placed(1, "Anna Maier", "", 900), Placed(1, "Bert Hall", "", 900)),
            gap=20,
            runner_up="Carl Ruf",
        ),
    )
    text = german(lambda: tournament_report(facts))
    assert text.startswith("Cego-Turnier „Herbstturnier“\n\n")
    assert "teilten sich Anna Maier und Bert Hall den ersten Platz mit je 400 Punkten." in text
    assert "Platz 3 teilten sich Carl Ruf und Dora Kern mit je 300 Punkten." in text
    assert "führen nach diesem Turnier Anna Maier und Bert Hall gemeinsam mit je 900" in text
    born_together = dataclasses.replace(
        facts, youngest=(Placed(5, "Finn Gut", "", 1), Placed(9, "Ida Gut", "Bachheim", 0))
    )
    assert "Am jüngsten im Feld waren Finn Gut und Ida Gut (Bachheim)." in german(
        lambda: tournament_report(born_together)
    )
    assert "The youngest players were Finn Gut and Ida Gut (Bachheim)." in english(
        lambda: tournament_report(born_together)
    )


def test_one_point_and_cup_points():
    lead = SeasonLead(
        "2026/27", (Placed(1, "Anna Maier", "", 61),), gap=1, runner_up="Bert Hall", cup=True
    )
    text = german(lambda: tournament_report(dataclasses.replace(FULL, season=lead)))
    assert "mit 61 Cup-Punkten, 1 Cup-Punkt vor Bert Hall." in text


def test_no_result_yet():
    text = german(lambda: tournament_report(TournamentFacts(name="Herbstturnier", date=DAY)))
    assert "ist noch kein Ergebnis eingegeben" in text


SEASON = SeasonFacts(
    season="2026/27",
    decided=True,
    tournaments=13,
    players=84,
    podium=(
        Placed(1, "Anna Maier", "Löffingen", 2210),
        Placed(2, "Bert Hall", "Unadingen", 2125),
        Placed(3, "Carl Ruf", "Bachheim", 1990),
    ),
    gap=85,
    best_woman=Placed(1, "Anna Maier", "Löffingen", 2210),
    final="Finale Brauerei",
    final_winner=Placed(1, "Carl Ruf", "Bachheim", 512),
    women=17,
)


def test_the_season_report_after_the_final():
    text = german(lambda: season_report(SEASON))
    assert text.startswith("Anna Maier gewinnt die Saisonwertung 2026/27\n\n")
    assert (
        "Die Saisonwertung 2026/27 ist nach 13 Turnieren entschieden: Anna Maier (Löffingen) "
        "gewinnt mit 2.210 Punkten, 85 Punkte vor Bert Hall." in text
    )
    assert "Das Finale, „Finale Brauerei“, gewann Carl Ruf (Bachheim) mit 512 Punkten." in text
    assert "In der Wertung stehen 84 Spielerinnen und Spieler, darunter 17 Frauen." in text
    english_text = english(lambda: season_report(SEASON))
    assert "Anna Maier wins the season standings 2026/27" in english_text


def test_the_season_report_before_it_is_decided_and_its_optional_parts():
    text = german(
        lambda: season_report(
            dataclasses.replace(
                SEASON, decided=False, final="", final_winner=None, best_woman=None, women=0
            )
        )
    )
    assert text.startswith("Saisonwertung 2026/27\n\n")
    assert "führt nach 13 Turnieren Anna Maier (Löffingen) mit 2.210 Punkten" in text
    for absent in ("Finale", "Beste Frau", "Frauen", "entschieden"):
        assert absent not in text


# --- the facts from the database -------------------------------------------------------------


def build_season(players: int, name: str = "Saison 2026/27"):
    today = timezone.localdate()
    season = SeasonFactory(
        name=name,
        starts_on=today - dt.timedelta(days=90),
        ends_on=today + dt.timedelta(days=90),
    )
    first = TournamentFactory(
        season=season, name="Herbst", date=today - dt.timedelta(days=30), venue="Festhalle"
    )
    second = TournamentFactory(season=season, name="Winter", date=today - dt.timedelta(days=10))
    later = TournamentFactory(
        season=season, name="Frühling", date=today + dt.timedelta(days=20), venue="Gemeindehalle"
    )
    PlannedTournament.objects.create(
        season=season, date=today + dt.timedelta(days=10), note="Rötenbach"
    )
    people = [
        PlayerFactory(
            first_name=f"P{i}",
            last_name="Hall",
            category=("woman" if i % 3 == 1 else "senior" if i == 5 else "open"),
        )
        for i in range(players)
    ]
    for i, player in enumerate(people):
        # the entry plays in the player's category (as registration copies it)
        cat = player.category
        EntryFactory(tournament=first, player=player, paper_total=100 - 10 * i, category=cat)
        EntryFactory(tournament=second, player=player, paper_total=10 * i, category=cat)
    return season, first, second, later, people


@pytest.mark.django_db
def test_facts_of_a_season_tournament():
    season, first, second, later, people = build_season(6)
    facts = tournament_facts(tournament=first)
    assert [(p.place, p.name, p.points) for p in facts.podium] == [
        (1, "P0 Hall", 100),
        (2, "P1 Hall", 90),
        (3, "P2 Hall", 80),
    ]
    assert (facts.players, facts.women, facts.seniors, facts.youth) == (6, 2, 1, 0)
    assert facts.best_woman.name == "P1 Hall"
    assert (facts.last.place, facts.last.name) == (6, "P5 Hall")
    # after the first tournament: P0 leads by 10 (the second does not count yet)
    assert (facts.season.leaders[0].name, facts.season.gap, facts.season.runner_up) == (
        "P0 Hall",
        10,
        "P1 Hall",
    )
    # the next stop: the tournament after it
    assert (facts.next_stop.name, facts.next_stop.venue) == ("Winter", "")
    after_second = tournament_facts(tournament=second)
    # the planned date in ten days comes before the created tournament in twenty
    assert after_second.next_stop.name == "Rötenbach"
    # after both: every player 100, all lead together
    assert len(after_second.season.leaders) == 6 and after_second.season.gap is None
    assert tournament_facts(tournament=later).next_stop is None


def _ages(people, years, agreed):
    for player, year, yes in zip(people, years, agreed, strict=True):
        player.birth_year, player.named_for_age = year, yes
        player.save()


@pytest.mark.django_db
def test_youngest_and_oldest_only_where_they_agreed():
    season, first, _second, _later, people = build_season(6)
    facts = tournament_facts(tournament=first)
    assert (facts.youngest, facts.oldest) == ((), ())  # no birth years known
    years = [1980, 2010, 1950, 1990, 2010, None]
    _ages(people, years, [True] * 6)
    facts = tournament_facts(tournament=first)
    # born 2010 together: both named; the oldest born 1950; the unknown year counts for none
    assert [(p.name, p.place) for p in facts.youngest] == [("P1 Hall", 2), ("P4 Hall", 5)]
    assert [p.name for p in facts.oldest] == ["P2 Hall"]
    text = german(lambda: tournament_report(facts))
    assert "Am jüngsten im Feld waren P1 Hall und P4 Hall." in text
    assert "Am ältesten im Feld war P2 Hall." in text
    assert "2010" not in text and "1950" not in text  # the year itself is never printed
    # the oldest did not agree: nobody is named in their place (not the next oldest)
    _ages(people, years, [True, True, False, True, False, True])
    facts = tournament_facts(tournament=first)
    assert [p.name for p in facts.youngest] == ["P1 Hall"] and facts.oldest == ()
    text = german(lambda: tournament_report(facts))
    assert "Am jüngsten im Feld war P1 Hall." in text and "ältesten" not in text
    # nobody agreed: neither line
    _ages(people, years, [False] * 6)
    text = german(lambda: tournament_report(tournament_facts(tournament=first)))
    assert "jüngsten" not in text and "ältesten" not in text


@pytest.mark.django_db
def test_facts_without_a_season_and_for_few_players():
    alone = TournamentFactory(season=None)
    for total in (10, -10):
        EntryFactory(tournament=alone, paper_total=total)
    facts = tournament_facts(tournament=alone)
    assert facts.season is None and facts.next_stop is None
    assert facts.last is None  # two players: no last place beyond the podium


@pytest.mark.django_db
def test_a_constant_number_of_queries():
    counts = []
    for size in (4, 12):
        season, first, *_ = build_season(size, name=f"Saison {size}")
        with CaptureQueriesContext(connection) as queries:
            tournament_facts(tournament=first)
            season_facts(season=season)
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_season_facts_decided_after_the_final():
    season, first, second, later, _ = build_season(4)
    later.delete()
    PlannedTournament.objects.all().delete()
    season.planned_tournaments = 2
    season.save()
    facts = season_facts(season=season)
    assert not facts.decided and facts.final_winner is None
    second.finished_at = timezone.now()
    second.save()
    facts = season_facts(season=season)
    assert facts.decided
    assert facts.final == "Winter" and facts.final_winner.name == "P3 Hall"
    assert facts.tournaments == 2


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("orga", "", "pw")


@pytest.mark.django_db
def test_the_page_the_box_and_the_download(client, organiser):
    season, first, *_ = build_season(5)
    client.force_login(organiser)
    url = reverse("seasons:tournament_press", args=[first.pk])
    client.cookies["django_language"] = "de"
    html = client.get(url).content.decode()
    assert '<textarea id="press-text" name="text"' in html
    assert "P0 Hall gewinnt das Cego-Turnier „Herbst“" in html
    assert "Text kopieren" in html and "press-copy.js" in html
    assert "nur genannt, wenn sie in ihren Spielerdaten zugestimmt haben" in html
    assert 'href="/hilfe/#pressebericht"' in html
    response = client.post(url, {"text": "Bearbeitet:\r\nAnna gewinnt."})
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="pressebericht-')
    assert response.content.decode() == "Bearbeitet:\nAnna gewinnt."
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert "P0 Hall wins the Cego tournament “Herbst”" in html and "Copy text" in html
    season_html = client.get(reverse("seasons:season_press", args=[season.pk])).content.decode()
    assert "Season standings Saison 2026/27" in season_html


@pytest.mark.django_db
def test_while_places_are_hidden_the_page_says_to_wait_for_the_ceremony(client, organiser):
    from ceremony import services as ceremony

    _season, first, *_ = build_season(5)
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    url = reverse("seasons:tournament_press", args=[first.pk])
    wait = "erst nach der Siegerehrung weitergeben"
    assert wait not in client.get(url).content.decode()
    ceremony.set_hiding(tournament=first, user=organiser, from_round=1, top=3)
    html = client.get(url).content.decode()
    # the organisers see every place (the text names the winner), and are told to wait
    assert wait in html and "P0 Hall gewinnt" in html
    ceremony.reveal(tournament=first, user=organiser)
    assert wait not in client.get(url).content.decode()
