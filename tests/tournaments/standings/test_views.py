import re

import pytest
import segno
from django.urls import reverse

from clubs.models import Category
from tests.factories import EntryFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, entries_of, table_of
from tournaments.models import Entry, LotDraw, Round
from tournaments.services.phone_entry import enter_deal
from tournaments.services.round_state import set_round_state

pytestmark = pytest.mark.django_db


def page(client, name, pk, **params):
    name = name if ":" in name else f"tournaments:{name}"
    response = client.get(reverse(name, kwargs={"pk": pk}), params)
    assert response.status_code == 200
    return response.content.decode()


def rows_of(html: str) -> list[str]:
    """The standings table's body rows, tags stripped, whitespace squeezed."""
    body = html.split('class="standings-table', 1)[1].split("</tbody>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", row.split(">", 1)[1]).split())
        for row in body.split("<tr")[2:]  # [0]: before thead, [1]: the header row
    ]


def test_public_page_shows_ranks_signed_totals_and_open_tables(client, tournament, one_table):
    first, *others = entries_of(one_table)
    html = page(client, "standings", tournament.pk)
    rows = rows_of(html)
    assert rows[0].startswith(f"1. {first.number} {first.player.full_name}")
    assert rows[0].endswith("+30 +30")  # round 1 and total
    assert all(row.startswith("2. =") and row.endswith("\u221210 \u221210") for row in rows[1:])
    assert tournament.get_tie_break_display() in html
    # The open table: round 1, table 1, one of 24 deals confirmed.
    open_body = html.split('class="open-tables-table"', 1)[1].split("</tbody>", 1)[0]
    assert " ".join(re.sub(r"<[^>]+>", " ", open_body.split("<tbody>")[1]).split()).startswith(
        "1 1 1 of 24 0"
    )
    assert "Draw lots" not in html  # anonymous visitors see the ties, not the button
    assert reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}) not in html


def test_withdrawn_and_side_rankings(client, tournament):
    woman = EntryFactory(tournament=tournament, category=Category.WOMAN)
    youth = EntryFactory(tournament=tournament, category=Category.YOUTH)
    others = [EntryFactory(tournament=tournament) for _ in range(2)]
    table = table_of(tournament=tournament, entries=[woman, youth, *others])
    enter_deal(table=table, number=1, inputs=cego(0, 45))  # woman +30
    enter_deal(table=table, number=2, inputs=cego(2, 45))  # others[0] +30
    enter_deal(table=table, number=3, inputs=cego(3, 34))  # others[1] loses a Cego: 2 Fach
    Entry.objects.filter(pk=others[1].pk).update(withdrawn_after_round=1)
    html = page(client, "standings", tournament.pk)
    sides = html.split('class="side-rankings"', 1)[1]
    best_woman, best_youth, on_plus, last = sides.split('class="side-card"')[1:5]
    assert woman.player.full_name in best_woman and youth.player.full_name in best_youth
    assert '<p class="big-number">2</p>' in on_plus
    # The withdrawn player is last in the table but takes no part in the side rankings.
    assert youth.player.full_name in last and others[1].player.full_name not in last
    withdrawn_row = html.split(f'id="entry-{others[1].pk}"', 1)[1].split("</tr>", 1)[0]
    assert "badge-withdrawn" in withdrawn_row
    pattern = r'<tr class="[^"]*\bwithdrawn\b[^"]*" id="entry-' + str(others[1].pk) + '"'
    assert re.search(pattern, html)


def test_lots_are_for_organisers_and_shown_afterwards(client, tournament, one_table, organiser):
    url = reverse("tournaments:standings_draw_lots", kwargs={"pk": tournament.pk})
    response = client.post(url, {"confirm_open": "1"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not LotDraw.objects.exists()

    client.force_login(organiser)
    assert client.get(url).status_code == 405
    html = page(client, "standings", tournament.pk)
    assert "Draw lots" in html and 'name="confirm_open"' in html
    # Tables are still playing: without the confirmation nothing is drawn.
    client.post(url)
    assert not LotDraw.objects.exists()

    set_round_state(
        round=one_table.round, state=Round.State.CLOSED, user=organiser, close_open=True
    )
    html = page(client, "standings", tournament.pk)
    assert 'name="confirm_open"' not in html  # finished: no confirmation needed
    response = client.post(url, follow=True)  # no reason: refused, with a message
    assert not LotDraw.objects.exists()
    assert "Give a reason for drawing lots." in response.content.decode()
    response = client.post(url, {"reason": "Gleichstand Platz 2"}, follow=True)
    lot = LotDraw.objects.get()
    html = response.content.decode()
    assert "Lots drawn for 1 tied group." in html
    assert str(lot.seed) in html
    order = html.split('class="lot-order"', 1)[1].split("</ol>", 1)[0]
    names = {e.pk: e.player.full_name for e in Entry.objects.filter(pk__in=lot.order)}
    positions = [order.index(names[entry_id]) for entry_id in lot.order]
    assert positions == sorted(positions)  # listed in the drawn order
    rows = rows_of(html)
    assert [row.split(".")[0] for row in rows] == ["1", "2", "3", "4"]
    assert [names[e] in rows[i + 1] for i, e in enumerate(lot.order)] == [True] * 3
    assert html.count("badge-lot") >= 3
    assert "No undecided ties." in html
    # Drawing again finds nothing to draw.
    client.post(url, {"reason": "nochmal"})
    assert LotDraw.objects.count() == 1


def test_standings_partial_is_the_live_part_only(client, tournament, one_table):
    html = page(client, "standings", tournament.pk, partial="1")
    assert "<html" not in html and 'class="standings-table"' in html
    assert 'id="ties"' not in html
    response = client.get(
        reverse("tournaments:standings", kwargs={"pk": tournament.pk}), HTTP_HX_REQUEST="true"
    )
    assert "<html" not in response.content.decode()
    assert response["Cache-Control"] == "no-store"


def test_projector_full_page_and_partial(client, tournament):
    for number in range(1, 11):  # 40 players
        table = table_of(
            tournament=tournament,
            entries=[EntryFactory(tournament=tournament) for _ in range(4)],
            table_number=number,
        )
        enter_deal(table=table, number=1, inputs=cego(number % 4, 45))
    html = page(client, "projector", tournament.pk)
    assert "site-header" not in html and 'class="projector"' in html
    assert "live-refresh.js" in html and 'data-live-seconds="20"' in html
    assert "10 tables still playing" in html
    # Every player in one list, in order; the page's script lays them out in columns and
    # screens by the screen's size (tests/browser/test_projector.py).
    assert html.count('<td class="number rank">') == 40
    assert "40 players" in html and 'data-page-text="Screen %(page)s/%(pages)s"' in html
    assert "projector-pages.js" in html
    # The QR code leads to the full standings.
    assert 'class="projector-qr"><img src="data:image/svg+xml' in html

    partial = page(client, "projector", tournament.pk, partial="1")
    assert "<html" not in partial and "<body" not in partial
    assert partial.count('<td class="number rank">') == 40


def test_projector_qr_code_opens_the_full_standings(client, tournament, settings):
    settings.PUBLIC_BASE_URL = "http://192.0.2.7:8000"
    table = table_of(
        tournament=tournament, entries=[EntryFactory(tournament=tournament) for _ in range(4)]
    )
    enter_deal(table=table, number=1, inputs=cego(0, 45))
    html = page(client, "projector", tournament.pk)
    uri = html.split('class="projector-qr"><img src="', 1)[1].split('"', 1)[0]
    assert uri == segno.make(
        f"http://192.0.2.7:8000/tournaments/{tournament.pk}/standings/", error="m"
    ).svg_data_uri(scale=6, border=1)


def test_projector_without_results(client, tournament):
    assert "No results yet." in page(client, "projector", tournament.pk)


def test_season_page_sums_tournaments_with_negatives(client):
    season = SeasonFactory()
    first = TournamentFactory(season=season)
    second = TournamentFactory(season=season, date=first.date.replace(day=29))
    woman = EntryFactory(tournament=first, category=Category.WOMAN)
    woman.player.category = Category.WOMAN
    woman.player.save()
    players = [woman, *(EntryFactory(tournament=first) for _ in range(3))]
    enter_deal(table=table_of(tournament=first, entries=players), number=1, inputs=cego(0, 45))
    again = [EntryFactory(tournament=second, player=e.player) for e in players]
    # The woman loses in the second tournament: +30, then 2 Fach -> -30, 0 in all.
    enter_deal(table=table_of(tournament=second, entries=again), number=1, inputs=cego(0, 34))
    html = page(client, "seasons:season_standings", season.pk)
    assert f"{first.date:%d.%m.}" in html and f"{second.date:%d.%m.}" in html
    woman_row = next(r for r in rows_of(html) if woman.player.full_name in r)
    assert woman_row.endswith(" 0 2 +30 \u221230")  # total, played, per tournament
    assert "sum of all results, negative ones included" in html
    sides = html.split('class="side-rankings"', 1)[1]
    assert woman.player.full_name in sides.split('class="side-card"')[1]
    assert season.name in html


def test_a_new_deal_in_any_tournament_changes_the_next_season_page(client, monkeypatch):
    from seasons.views import standings as views

    calls = []
    real = views.season_standings
    monkeypatch.setattr(views, "season_standings", lambda **kw: calls.append(1) or real(**kw))
    season = SeasonFactory()
    first = TournamentFactory(season=season)
    second = TournamentFactory(season=season, date=first.date.replace(day=29))
    players = [EntryFactory(tournament=first) for _ in range(4)]
    enter_deal(table=table_of(tournament=first, entries=players), number=1, inputs=cego(0, 45))
    again = [EntryFactory(tournament=second, player=e.player) for e in players]
    table = table_of(tournament=second, entries=again)
    before = page(client, "seasons:season_standings", season.pk)
    assert rows_of(page(client, "seasons:season_standings", season.pk)) == rows_of(before)
    assert len(calls) == 1  # the second reader got the cached ranking
    enter_deal(table=table, number=1, inputs=cego(0, 34))
    leader = next(r for r in rows_of(page(client, "seasons:season_standings", season.pk)))
    assert leader != next(r for r in rows_of(before))
    assert "\u221230" in page(client, "seasons:season_standings", season.pk)


def test_exports_are_for_staff(client, tournament, one_table):
    for url in (
        reverse("exports:standings_xlsx", kwargs={"pk": tournament.pk}),
        reverse("exports:season_standings_xlsx", kwargs={"pk": SeasonFactory().pk}),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]


def test_unknown_tournament_is_404(client, db):
    assert client.get(reverse("tournaments:standings", kwargs={"pk": 999})).status_code == 404
