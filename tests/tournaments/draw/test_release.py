"""The draw reviewed before release: under ``Tournament.review_draws`` a new round's seats are
shown to nobody but the organisers (draw page, printouts) until an organiser or referee of the
tournament presses "Auslosung freigeben"; then phones, the players' pages and the projector
show them. The release is in the round's history (who, when)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import ClubRole
from tests.factories import ClubFactory
from tests.tournaments.setup.factories import tournament_with_players
from tournaments.models import Round, RoundChange, Seat, Table, Tournament
from tournaments.selectors.player_day import player_day
from tournaments.selectors.standings import tournament_standings
from tournaments.services import draws
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def held():
    """Round 1 of 8 players drawn under review: held back."""
    tournament, entries = tournament_with_players(8, review_draws=True)
    round_ = draws.draw_next_round(tournament=tournament, number=1)
    return tournament, entries, round_


@pytest.fixture
def people(django_user_model, held):
    tournament = held[0]
    organiser = django_user_model.objects.create_user("orga")
    ClubRole.objects.create(user=organiser, club=tournament.host_club, role="organiser")
    referee = django_user_model.objects.create_user("schiri")
    tournament.referees.add(referee)
    stranger = django_user_model.objects.create_user("fremd")
    ClubRole.objects.create(user=stranger, club=ClubFactory(), role="organiser")
    other_referee = django_user_model.objects.create_user("schiri2")
    tournament_with_players(4)[0].referees.add(other_referee)
    return {
        "organiser": organiser,
        "referee": referee,
        "stranger": stranger,
        "other_referee": other_referee,
    }


def phone(client, table: Table):
    return client.get(reverse("tournaments:table_entry", args=[table.token]))


def my_page(client, tournament, number: int) -> str:
    return client.get(reverse("tournaments:my_seat", args=[tournament.pk, number])).content.decode()


def test_new_tournaments_review_their_draws_existing_ones_do_not():
    # The model's default (and the setup service's) is on; the migration added the column
    # with False for the tournaments that existed (tournaments/migrations/0015_…).
    assert Tournament._meta.get_field("review_draws").default is True
    club = ClubFactory()
    created = create_tournament(
        name="Neu", host_club=club, date="2026-12-05", rules_slug="swm", table_sizes={4}
    )
    assert created.review_draws is True


def test_without_review_a_draw_is_shown_at_once():
    tournament, _ = tournament_with_players(8)  # review_draws off (as existing tournaments)
    round_ = draws.draw_next_round(tournament=tournament, number=1)
    assert not round_.awaiting_release and round_.released_at is None


def test_before_release_players_and_the_public_see_no_seats(client, held):
    tournament, entries, round_ = held
    assert round_.awaiting_release
    table = round_.tables.first()
    response = phone(client, table)
    html = response.content.decode()
    assert "has not been released yet" in html or "noch nicht freigegeben" in html
    names = [s.entry.player.last_name for s in Seat.objects.filter(table=table)]
    assert not any(name in html for name in names)
    # the other phone addresses refuse the table
    assert (
        client.post(
            reverse("tournaments:table_entry_seat", args=[table.token]), {"position": 0}
        ).status_code
        == 404
    )
    # the player's own page and the standings know of no seat
    day = player_day(tournament=tournament, number=entries[0].number)
    assert day.round is None and day.seat is None and day.next_round_held == 1
    page = my_page(client, tournament, entries[0].number)
    assert "me-table" not in page
    assert not tournament_standings(tournament=tournament).open_tables


def test_after_release_they_do(client, held, people):
    tournament, entries, round_ = held
    client.force_login(people["organiser"])
    response = client.post(reverse("tournaments:round_release", args=[tournament.pk, 1]))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert not round_.awaiting_release and round_.released_by == people["organiser"]
    assert round_.released_at is not None
    change = RoundChange.objects.get(round=round_)
    assert change.action == RoundChange.Action.RELEASED
    assert change.changed_by == people["organiser"]
    client.logout()
    table = round_.tables.first()
    html = phone(client, table).content.decode()
    first = Seat.objects.filter(table=table).order_by("position").first()
    assert first.entry.player.full_name in html  # the seat choice lists the players
    day = player_day(tournament=tournament, number=first.entry.number)
    assert (day.round.number, day.seat.table_number, day.seat.seat) == (1, table.number, 1)
    page = my_page(client, tournament, first.entry.number)
    assert f'class="me-table">{table.number}<' in page
    assert len(tournament_standings(tournament=tournament).open_tables) == 2
    # released once: a second release is refused and changes nothing
    with pytest.raises(ValidationError):
        draws.release_draw(round=round_, user=people["organiser"])
    assert RoundChange.objects.filter(round=round_).count() == 1


def test_the_referee_releases_too(client, held, people):
    tournament, _, round_ = held
    client.force_login(people["referee"])
    response = client.post(reverse("tournaments:round_release", args=[tournament.pk, 1]))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert not round_.awaiting_release and round_.released_by == people["referee"]


@pytest.mark.parametrize("who", ["stranger", "other_referee", None])
def test_nobody_else_releases(client, held, people, who):
    tournament, _, round_ = held
    if who:
        client.force_login(people[who])
    response = client.post(reverse("tournaments:round_release", args=[tournament.pk, 1]))
    assert response.status_code in (302, 403, 404)
    if who is None:
        assert "/login/" in response["Location"]
    round_.refresh_from_db()
    assert round_.awaiting_release and round_.released_at is None
    assert not RoundChange.objects.filter(round=round_).exists()


def test_the_organiser_sees_the_held_draw_and_redraws_it(client, held, people):
    tournament, _, round_ = held
    client.force_login(people["organiser"])
    page = client.get(reverse("tournaments:round_draw", args=[tournament.pk, 1]))
    html = page.content.decode()
    assert "round_release" not in html and "/rounds/1/release/" in html
    seated = Seat.objects.filter(round=round_).select_related("entry__player").first()
    assert seated.entry.player.full_name in html
    # printouts are there for the organiser before the release
    pdf = client.get(reverse("printing:print_seat_plan", args=[tournament.pk, 1]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    # a redraw stays held; a redraw after the release is held again for checking
    draws.redraw_round(round=round_, same_seed=False)
    round_.refresh_from_db()
    assert round_.awaiting_release
    draws.release_draw(round=round_, user=people["organiser"])
    draws.redraw_round(round=round_, same_seed=False)
    round_.refresh_from_db()
    assert round_.awaiting_release and round_.released_at is None


def test_the_setting_is_a_logged_tournament_setting(held, people):
    from tournaments.models import TournamentChange
    from tournaments.services.setup import update_tournament

    tournament = held[0]
    update_tournament(
        tournament=tournament,
        name=tournament.name,
        host_club=tournament.host_club,
        date=tournament.date,
        rules_slug=tournament.rules_slug,
        review_draws=False,
        user=people["organiser"],
    )
    tournament.refresh_from_db()
    assert tournament.review_draws is False
    change = TournamentChange.objects.filter(action="edited").last()
    assert change.before["review_draws"] is True and change.after["review_draws"] is False
    # the next round is shown at once
    Round.objects.filter(tournament=tournament).update(state="closed")
    tournament.rounds = 2
    tournament.save()
    assert not draws.draw_next_round(tournament=tournament, number=2).awaiting_release


def test_the_new_tournament_form_offers_the_review_ticked(client, people):
    client.force_login(people["organiser"])
    html = client.get(reverse("tournaments:tournament_create")).content.decode()
    field = html.split('name="review_draws"', 1)[1].split(">", 1)[0]
    assert "checked" in field
