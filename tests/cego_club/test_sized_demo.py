"""``load_demo --players N --rounds R`` (issue 26): one more finished tournament of that size
beside the usual demo, its deals dealt from shuffled packs and scored by the engine."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from clubs.models import Player
from scoring import deal_from_record, score_deal
from tournaments import demo
from tournaments.models import Deal, Entry, Round, Tournament
from tournaments.services.results_common import TableFacts, deal_record, stored_record

pytestmark = pytest.mark.django_db


def load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def sized(players: int, rounds: int) -> Tournament:
    return Tournament.objects.get(name=demo.sized_demo_name(players, rounds))


def engine_scores(tournament: Tournament) -> int:
    """Scores every stored deal again with the engine; asserts they equal the stored ones.
    Returns how many deals were compared."""
    from tournaments.rule_snapshot import rule_source_of

    rules = rule_source_of(tournament)
    compared = 0
    deals = Deal.objects.filter(table__round__tournament=tournament).select_related("table")
    for deal in deals:
        facts = TableFacts(table=deal.table, rules=rules, table_size=4)
        record = deal_record(facts=facts, number=deal.number, inputs=stored_record(deal))
        expected = score_deal(rules, deal_from_record(record)).scores
        assert tuple(deal.scores[:4]) == expected, (deal.table.number, deal.number, record)
        compared += 1
    return compared


def test_a_tournament_of_the_size_asked_for(client) -> None:
    output = load("--players", "16", "--rounds", "2", "--seed", "7")
    tournament = sized(16, 2)
    assert "192" in output  # 4 tables × 24 deals × 2 rounds
    # run twice, it is left alone (and said so)
    assert "192" in load("--players", "16", "--rounds", "2")
    assert Deal.objects.filter(table__round__tournament=tournament).count() == 192
    assert tournament.finished_at is not None
    assert tournament.entries.count() == 16
    assert not tournament.entries.filter(checked_in=False).exists()
    assert list(tournament.round_set.values_list("number", "state")) == [
        (1, Round.State.CLOSED),
        (2, Round.State.CLOSED),
    ]
    # the app's own draw: every round's seed stored, four players a table
    assert [r.draw_seed for r in tournament.round_set.all()] == [8, 9]
    assert all(t.seats.count() == 4 for r in tournament.round_set.all() for t in r.tables.all())
    assert engine_scores(tournament) == 192
    assert Deal.objects.filter(table__round__tournament=tournament, status="confirmed").count()
    # Räuber deals among them (dealt from a pack, so the engine took them)
    assert Deal.objects.filter(table__round__tournament=tournament, contract="raeuber").exists()
    # beside the usual demo, in its season
    assert Tournament.objects.filter(name=demo.DEMO_FINISHED_NAME).exists()
    assert tournament.season.name == demo.DEMO_SEASON["name"]
    page = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    assert page.status_code == 200
    for entry in tournament.entries.select_related("player")[:16]:
        assert entry.player.last_name in page.content.decode()


@pytest.fixture
def place(django_user_model):
    """Where the command puts the tournament: the demo's season and club, its organiser."""
    from tests.factories import ClubFactory, SeasonFactory

    return {
        "season": SeasonFactory(name=demo.DEMO_SEASON["name"]),
        "host_club": ClubFactory(**demo.DEMO_CLUB),
        "organiser": django_user_model.objects.create_user("organisator", "", "pw"),
    }


def test_the_issues_size_gives_2880_deals(place) -> None:
    tournament, built = demo.load_sized_demo(players=160, rounds=3, seed=1, **place)
    assert built
    assert Deal.objects.filter(table__round__tournament=tournament).count() == 2880
    assert engine_scores(tournament) == 2880
    assert Player.objects.filter(entries__tournament=tournament).distinct().count() == 160


def test_a_seed_gives_the_same_tournament_and_another_seed_another(place) -> None:
    def build(seed: int) -> list[tuple]:
        with transaction.atomic():
            tournament, _ = demo.load_sized_demo(players=8, rounds=2, seed=seed, **place)
            built = list(
                Deal.objects.filter(table__round__tournament=tournament)
                .order_by("table__round__number", "table__number", "number")
                .values_list(
                    "table__round__number",
                    "table__number",
                    "number",
                    "contract",
                    "declarer_points",
                    "details",
                    "score_0",
                    "score_1",
                    "score_2",
                    "score_3",
                )
            )
            seats = list(
                Entry.objects.filter(tournament=tournament)
                .order_by("seats__round__number", "seats__table__number", "seats__position")
                .values_list("player__last_name", "player__first_name")
            )
            transaction.set_rollback(True)
        return [*built, *seats]

    first = build(5)
    assert first == build(5)
    assert first != build(6)


def test_twice_leaves_the_tournament_as_it_is(place) -> None:
    tournament, built = demo.load_sized_demo(players=8, rounds=1, seed=1, **place)
    deals = Deal.objects.count()
    again, built_again = demo.load_sized_demo(players=8, rounds=1, seed=2, **place)
    assert built and not built_again and again == tournament
    assert Deal.objects.count() == deals == 2 * 24


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "0"], "1 to 400 players"),
        (["--players", "-8"], "1 to 400 players"),
        (["--players", "404"], "1 to 400 players"),
        (["--players", "8", "--rounds", "0"], "1 to 10 rounds"),
        (["--players", "8", "--rounds", "11"], "1 to 10 rounds"),
        (["--players", "161"], "161 players cannot be seated at tables of 4"),
        (["--players", "2"], "2 players cannot be seated"),
        (["--rounds", "2"], "give both"),
    ],
)
def test_bad_arguments_are_refused_and_change_nothing(arguments, message) -> None:
    with translation.override("en"), pytest.raises(CommandError, match=message) as refused:
        load(*arguments)
    assert "Nothing was changed" in str(refused.value)
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_the_refusal_is_german_by_default() -> None:
    with (
        translation.override("de"),
        pytest.raises(CommandError, match="nicht auf Tische mit 4 Spielern") as refused,
    ):
        load("--players", "161")
    assert "Nichts wurde geändert" in str(refused.value)


def test_more_players_than_the_demo_has_are_made_distinct() -> None:
    players = demo.sized_demo_players(demo.SIZED_MAX_PLAYERS)
    names = {(p["first_name"], p["last_name"]) for p in players}
    assert len(names) == demo.SIZED_MAX_PLAYERS
    assert players[:40] == demo.demo_players()
