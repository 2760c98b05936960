"""The ceremony on the projector (ceremony/selectors.py, services.py, views.py): the places
from the last prize place upwards, the side prizes, the prize table's call order and the
raffle; one step per click, nothing before the reveal, nothing ahead of the step shown; the
raffle drawn with a recorded seed that draws the same winner again."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ceremony import selectors, services
from ceremony.models import RaffleDraw
from clubs.models import Category
from tests.ceremony.test_hide_and_reveal import day  # noqa: F401
from tournaments.models import Entry, Tournament, TournamentChange
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready(day):  # noqa: F811
    """Three prizes set by the treasurer, everyone checked in, a woman and a senior."""
    Tournament.objects.filter(pk=day.pk).update(prize_shares_cents=[3000, 2000, 1000])
    Entry.objects.filter(tournament=day).update(checked_in=True)
    rows = tournament_standings(tournament=day).rows
    woman, senior = rows[4], rows[5]
    for row, category in ((woman, Category.WOMAN), (senior, Category.SENIOR)):
        entry = Entry.objects.select_related("player").get(pk=row.entry_id)
        entry.player.category = category
        entry.player.save()
        Entry.objects.filter(pk=entry.pk).update(category=category)
    day.refresh_from_db()
    from tournaments.services.revision import bump_revision

    bump_revision(tournament_id=day.pk)
    day.refresh_from_db()
    return day


@pytest.fixture
def desk(ready):
    user = User.objects.create_superuser("desk", "", "pw")
    client = Client()
    client.force_login(user)
    return user, client


def test_the_programme_runs_from_the_last_prize_place_up_then_side_prizes_and_call_order(ready):
    programme = selectors.programme(tournament=ready)
    kinds = [step.kind for step in programme.steps]
    places = [step.place for step in programme.steps if step.kind == selectors.PLACE]
    assert places == sorted(places, reverse=True) and places[-1] == 1
    assert kinds.index(selectors.SIDE) > kinds.index(selectors.PLACE)
    choose = [step.place for step in programme.steps if step.kind == selectors.CHOOSE]
    assert choose == sorted(choose) and choose[0] == 1
    assert kinds[-1] == selectors.RAFFLE
    titles = [step.title for step in programme.steps if step.kind == selectors.SIDE]
    assert any("Wurstsalat" in title for title in titles)
    first = next(step for step in programme.steps if step.place == 1)
    assert first.amount_cents == 3000 or len(first.winners) > 1  # tied players share


def test_the_projector_shows_nothing_before_the_reveal_and_only_the_step_shown(ready, desk):
    user, client = desk
    services.set_hiding(tournament=ready, user=user, from_round=1, top=3)
    url = reverse("ceremony:projector", args=[ready.pk])
    rows = tournament_standings(tournament=ready).rows
    page = Client().get(url).content.decode()
    assert not any(row.last_name in page for row in rows)
    # stepping is refused before the reveal
    answer = client.post(reverse("ceremony:step", args=[ready.pk]), {"direction": "next"})
    assert answer.status_code == 302
    assert selectors.programme(tournament=ready).shown == 0
    services.reveal(tournament=ready, user=user)
    programme = selectors.programme(tournament=ready)
    first_step = programme.steps[0]
    client.post(reverse("ceremony:step", args=[ready.pk]), {"direction": "next"})
    stage = Client().get(url + "?partial=1").content.decode()
    assert all(winner.name in stage for winner in first_step.winners)
    winners_of_1 = next(step for step in programme.steps if step.place == 1).winners
    assert not any(winner.name in stage for winner in winners_of_1)  # not yet
    # back again: the title
    client.post(reverse("ceremony:step", args=[ready.pk]), {"direction": "back"})
    stage = Client().get(url + "?partial=1").content.decode()
    assert not any(winner.name in stage for winner in first_step.winners)
    assert TournamentChange.objects.filter(subject="prize ceremony: step").count() == 2


def test_the_raffle_is_drawn_with_a_recorded_seed_among_those_present(ready, desk):
    user, client = desk
    services.reveal(tournament=ready, user=user)
    absent = Entry.objects.filter(tournament=ready).order_by("number").last()
    Entry.objects.filter(pk=absent.pk).update(checked_in=False)
    programme = selectors.programme(tournament=ready)
    winners = selectors.prize_winner_ids(programme)
    client.post(reverse("ceremony:raffle", args=[ready.pk]), {"exclude_prize_winners": "1"})
    draw = RaffleDraw.objects.get(tournament=ready)
    numbers = [candidate[0] for candidate in draw.candidates]
    assert absent.number not in numbers
    assert not {candidate[1] for candidate in draw.candidates} & winners
    assert numbers == sorted(numbers) and draw.winner_number in numbers
    # the seed and the candidates draw the same winner again
    assert services.redraw_winner(draw) == draw.winner_number
    pool = [tuple(candidate) for candidate in draw.candidates]
    assert random.Random(draw.seed).choice(pool)[0] == draw.winner_number
    log = TournamentChange.objects.get(subject="prize ceremony: raffle")
    assert log.after["seed"] == draw.seed and log.after["winner"] == draw.winner_number
    assert log.changed_by == user
    # nobody wins twice; when everyone has won, nothing is drawn
    for _ in range(len(numbers) - 1):
        client.post(reverse("ceremony:raffle", args=[ready.pk]), {"exclude_prize_winners": "1"})
    drawn = list(
        RaffleDraw.objects.filter(tournament=ready).values_list("winner_number", flat=True)
    )
    assert sorted(drawn) == numbers
    client.post(reverse("ceremony:raffle", args=[ready.pk]), {"exclude_prize_winners": "1"})
    assert RaffleDraw.objects.filter(tournament=ready).count() == len(numbers)


def test_the_raffle_may_include_the_prize_winners(ready, desk):
    user, _client = desk
    services.reveal(tournament=ready, user=user)
    candidates = selectors.raffle_candidates(tournament=ready, exclude=set())
    draw = services.draw_raffle(
        tournament=ready, user=user, candidates=candidates, excluded_prize_winners=False, seed=7
    )
    assert len(draw.candidates) == Entry.objects.filter(tournament=ready).count()
    assert draw.winner_number == random.Random(7).choice(sorted(candidates))[0]


def test_the_remote_and_the_projector_pages(ready, desk):
    user, client = desk
    services.reveal(tournament=ready, user=user)
    remote = client.get(reverse("ceremony:remote", args=[ready.pk]))
    assert remote.status_code == 200
    assert reverse("ceremony:step", args=[ready.pk]) in remote.content.decode()
    page = client.get(reverse("ceremony:projector", args=[ready.pk])).content.decode()
    assert "data-step-url" in page  # the desk's browser steers with the keyboard
    public = Client().get(reverse("ceremony:projector", args=[ready.pk])).content.decode()
    assert "data-step-url" not in public and "csrf" not in public.lower()


def _born(row, year, agreed):
    entry = Entry.objects.select_related("player").get(pk=row.entry_id)
    entry.player.birth_year, entry.player.named_for_age = year, agreed
    entry.player.save()


def _side_titles(tournament):
    return {
        step.title: step
        for step in selectors.programme(tournament=tournament).steps
        if step.kind == selectors.SIDE
    }


def test_youngest_and_oldest_are_side_prizes_only_where_they_agreed(ready):
    rows = tournament_standings(tournament=ready).rows
    sides = _side_titles(ready)
    assert "Jüngste im Feld" not in sides and "Älteste im Feld" not in sides  # no birth years
    _born(rows[1], 2009, True)
    _born(rows[2], 2009, True)
    _born(rows[3], 1941, False)
    _born(rows[6], 1975, True)
    sides = _side_titles(ready)
    # born the same year: both named; the oldest did not agree, so nobody is named for it
    assert {w.entry_id for w in sides["Jüngste im Feld"].winners} == {
        rows[1].entry_id,
        rows[2].entry_id,
    }
    assert "Älteste im Feld" not in sides
    _born(rows[3], 1941, True)
    steps = selectors.programme(tournament=ready).steps
    titles = [step.title for step in steps]
    assert [w.entry_id for w in _side_titles(ready)["Älteste im Feld"].winners] == [
        rows[3].entry_id
    ]
    # read out after the category prizes, before the Wurstsalat
    assert titles.index("Beste Dame") < titles.index("Jüngste im Feld")
    assert titles.index("Älteste im Feld") < titles.index("Letzter Platz (Wurstsalat)")
    # a side prize: left out of a raffle among those without a prize
    assert rows[3].entry_id in selectors.prize_winner_ids(selectors.programme(tournament=ready))


def test_youngest_and_oldest_stay_hidden_until_the_reveal_and_their_step(ready, desk):
    user, client = desk
    rows = tournament_standings(tournament=ready).rows
    _born(rows[1], 2009, True)
    _born(rows[3], 1941, True)
    services.set_hiding(tournament=ready, user=user, from_round=1, top=None)
    url = reverse("ceremony:projector", args=[ready.pk])
    youngest = Entry.objects.select_related("player").get(pk=rows[1].entry_id).player
    assert youngest.last_name not in Client().get(url).content.decode()
    services.reveal(tournament=ready, user=user)
    steps = selectors.programme(tournament=ready).steps
    at = [step.title for step in steps].index("Jüngste im Feld") + 1
    for _ in range(at - 1):
        client.post(reverse("ceremony:step", args=[ready.pk]), {"direction": "next"})
    stage = Client().get(url + "?partial=1").content.decode()
    assert "Jüngste im Feld" not in stage and youngest.full_name not in stage
    client.post(reverse("ceremony:step", args=[ready.pk]), {"direction": "next"})
    stage = Client().get(url + "?partial=1").content.decode()
    assert "Jüngste im Feld" in stage and youngest.full_name in stage
