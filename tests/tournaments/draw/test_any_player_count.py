"""Any player count at the draw: tables of five (by tournament agreement under swm), tables of
three where the source scores three-hand Cego, fill-ins from the host club; scoring at a table
of five against hand-computed amounts; the draw page's message and one-click options."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from clubs.models import Membership, Player
from rules.builtin_sources import builtin_data
from scoring import DealInput, rule_source_from_dict, score_deal
from tests.tournaments.setup.factories import tournament_with_players
from tournaments import seating
from tournaments.draw import advise_count, plan_table_sizes
from tournaments.models import Entry, Round, Seat, Table, Tournament, TournamentChange
from tournaments.selectors.prizes import prize_groups
from tournaments.selectors.standings import tournament_standings
from tournaments.services import phone_entry, player_count, results_common
from tournaments.services.setup import update_tournament

# --------------------------------------------------------------------------- pure


@pytest.mark.parametrize(
    ("players", "over", "missing", "fives", "fill_ins"),
    [
        (37, 1, 3, [4] * 8 + [5], 3),
        (38, 2, 2, [4] * 7 + [5, 5], 2),
        (39, 3, 1, [4] * 6 + [5] * 3, 1),
        (41, 1, 3, [4] * 9 + [5], 3),
    ],
)
def test_advice_for_the_championship_counts(players, over, missing, fives, fill_ins):
    advice = advise_count(
        players=players, allowed_sizes=frozenset({4}), preferred_size=4, possible_sizes={4, 5}
    )
    assert (advice.over, advice.missing) == (over, missing)
    assert advice.plan is None
    assert list(advice.with_size[5]) == fives
    assert 3 not in advice.with_size
    assert advice.fill_ins == fill_ins
    assert plan_table_sizes(
        players=players + fill_ins, allowed_sizes=frozenset({4}), preferred_size=4
    ) == [4] * ((players + fill_ins) // 4)


def test_advice_offers_threes_where_possible_and_nothing_when_the_count_fits():
    advice = advise_count(
        players=37, allowed_sizes=frozenset({4}), preferred_size=4, possible_sizes={3, 4, 5}
    )
    assert list(advice.with_size[3]) == [4] * 7 + [3] * 3
    nobody = advise_count(players=0, allowed_sizes=frozenset({4}), preferred_size=4)
    assert (nobody.plan, nobody.fill_ins, nobody.with_size) == (None, None, {})
    fits = advise_count(players=40, allowed_sizes=frozenset({4}), preferred_size=4)
    assert fits.plan == (4,) * 10
    assert (fits.over, fits.missing, fits.fill_ins) == (0, 0, None)


def test_five_table_agreement_only_for_four_hand_sources_without_a_table_of_five():
    assert seating.five_table_agreement_possible(builtin_data("swm"))
    assert seating.five_table_agreement_possible(builtin_data("cego_online2011"))
    assert not seating.five_table_agreement_possible(builtin_data("schwaerzehof"))  # has it
    assert not seating.five_table_agreement_possible(builtin_data("dreierles"))  # 3 active
    agreed = seating.with_five_table_agreement(builtin_data("swm"))
    rules = rule_source_from_dict(agreed)  # the engine accepts it
    table = rules.tables[5]
    assert (table.active, table.sitting_out_scores, table.tricks) == (4, "defender", 11)
    assert seating.without_five_table_agreement(agreed) == builtin_data("swm")
    with pytest.raises(ValueError):
        seating.with_five_table_agreement(builtin_data("dreierles"))


SWM_FIVE = rule_source_from_dict(seating.with_five_table_agreement(builtin_data("swm")))


@pytest.mark.parametrize(
    ("deal", "scores"),
    [
        # Halbe lost 34:45: 2 Fach × 5 × 2 = 20 to each defender; the dealer (seat 0) sitting
        # out receives it too: the declarer pays 4 × 20.
        (
            DealInput(seats=5, contract="halbe", declarer=1, sitting_out=0, declarer_points=34),
            (20, -80, 20, 20, 20),
        ),
        # Eine won 41:38: 1 Fach × 5 × 3 = 15, rounded up to 20, from each of four.
        (
            DealInput(seats=5, contract="eine", declarer=2, sitting_out=1, declarer_points=41),
            (-20, -20, 80, -20, -20),
        ),
        # Räuber, forehand (seat 1) announced; seat 2 has most and pays 40 to each other seat,
        # the sitting-out dealer included.
        (
            DealInput(
                seats=5, contract="raeuber", declarer=1, sitting_out=0, points=(0, 14, 30, 20, 15)
            ),
            (40, 40, -160, 40, 40),
        ),
    ],
)
def test_the_sitting_out_dealer_scores_like_a_defender(deal, scores):
    assert score_deal(SWM_FIVE, deal).scores == scores


def test_swm_alone_still_refuses_a_table_of_five():
    from scoring import ScoringError

    swm = rule_source_from_dict(builtin_data("swm"))
    with pytest.raises(ScoringError):
        score_deal(
            swm, DealInput(seats=5, contract="halbe", declarer=1, sitting_out=0, declarer_points=34)
        )


# --------------------------------------------------------------------------- services

pytestmark_db = pytest.mark.django_db


def seating_of(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, entry_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "entry_id")
    ):
        tables.setdefault(number, []).append(entry_id)
    return [tables[n] for n in sorted(tables)]


def host_members(tournament: Tournament, count: int) -> list[Player]:
    players = Player.objects.bulk_create(
        [Player(first_name=f"Ersatz{i}", last_name=f"Mitglied{i:02d}") for i in range(count)]
    )
    Membership.objects.bulk_create(
        [
            Membership(player=p, club=tournament.host_club, since=dt.date(2020, 1, 1))
            for p in players
        ]
    )
    return players


@pytestmark_db
@pytest.mark.parametrize(
    ("players", "sizes"),
    [(37, [4] * 8 + [5]), (38, [4] * 7 + [5] * 2), (39, [4] * 6 + [5] * 3), (41, [4] * 9 + [5])],
)
def test_championship_draw_with_tables_of_five_by_agreement(players, sizes, django_user_model):
    user = django_user_model.objects.create_user("orga")
    tournament, entries = tournament_with_players(players)  # swm, tables of 4 only
    round_ = player_count.draw_with(
        tournament=tournament, number=1, option=player_count.FIVES, user=user
    )
    tables = seating_of(round_)
    assert [len(t) for t in tables] == sizes
    seated = Counter(e for table in tables for e in table)
    assert set(seated) == {e.pk for e in entries} and set(seated.values()) == {1}
    tournament.refresh_from_db()
    assert tournament.five_table_agreement and tournament.tables_of_5
    assert tournament.rules_snapshot["tables"]["5"]["sitting_out_scores"] == "defender"
    change = TournamentChange.objects.get(
        tournament=tournament, action=TournamentChange.Action.EDITED
    )
    assert change.changed_by == user
    assert change.after == {"tables_of_5": True, "five_table_agreement": True}
    # round 2 draws with the agreement already in place
    round_2 = player_count.draw_with(
        tournament=tournament, number=2, option=player_count.FIVES, while_previous_open=True
    )
    assert [len(t) for t in seating_of(round_2)] == sizes


@pytestmark_db
def test_dealer_rotation_and_scores_at_a_table_of_five_through_the_service():
    tournament, _ = tournament_with_players(37)
    round_ = player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    table = Table.objects.get(round=round_, number=9)  # the odd table comes last
    assert table.seats.count() == 5
    # Eine won 41:38 is 20 from each defender; the dealer sits out and pays like one.
    for number, dealer in ((1, 0), (2, 1), (5, 4), (6, 0)):
        declarer = (dealer + 2) % 5
        deal = phone_entry.enter_deal(
            table=table,
            number=number,
            inputs={"contract": "eine", "declarer": declarer, "declarer_points": 41},
        )
        assert deal.dealer_position == dealer
        record = results_common.deal_record(
            facts=results_common.table_facts(table),
            number=number,
            inputs=results_common.stored_record(deal),
        )
        assert record["sitting_out"] == dealer
        assert list(deal.scores) == [80 if seat == declarer else -20 for seat in range(5)]
    # deal 3 is dealt by seat 2, who sits it out and cannot declare
    with pytest.raises(results_common.ResultError):
        phone_entry.enter_deal(
            table=table,
            number=3,
            inputs={"contract": "eine", "declarer": 2, "declarer_points": 41},
        )


@pytestmark_db
@pytest.mark.parametrize(("players", "needed"), [(37, 3), (38, 2), (39, 1), (41, 3)])
def test_championship_draw_with_fill_ins(players, needed):
    tournament, entries = tournament_with_players(players)
    members = host_members(tournament, 5)
    round_ = player_count.draw_with(
        tournament=tournament,
        number=1,
        option=player_count.FILL_INS,
        players=members[:needed],
    )
    tables = seating_of(round_)
    assert [len(t) for t in tables] == [4] * ((players + needed) // 4)
    fill_ins = Entry.objects.filter(tournament=tournament, fill_in=True)
    assert {e.player_id for e in fill_ins} == {p.pk for p in members[:needed]}
    assert all(e.checked_in and e.plays_free for e in fill_ins)
    assert sorted(e.number for e in fill_ins) == list(range(players + 1, players + needed + 1))
    seated = Counter(e for table in tables for e in table)
    assert set(seated) == {e.pk for e in entries} | {e.pk for e in fill_ins}
    assert set(seated.values()) == {1}
    assert not Tournament.objects.get(pk=tournament.pk).five_table_agreement


@pytestmark_db
def test_too_few_fill_ins_change_nothing():
    tournament, _ = tournament_with_players(37)
    members = host_members(tournament, 3)
    with pytest.raises(ValidationError):
        player_count.draw_with(
            tournament=tournament, number=1, option=player_count.FILL_INS, players=members[:2]
        )
    assert not Round.objects.exists()
    assert not Entry.objects.filter(fill_in=True).exists()
    assert not TournamentChange.objects.filter(tournament=tournament).exists()


@pytestmark_db
def test_fill_ins_must_be_host_club_members_not_entered():
    tournament, entries = tournament_with_players(37)
    stranger = Player.objects.create(first_name="Gast", last_name="Fremd")
    with pytest.raises(ValidationError, match="Fremd"):
        player_count.add_fill_ins(tournament=tournament, players=[stranger])
    entered = entries[0].player
    Membership.objects.create(player=entered, club=tournament.host_club)
    with pytest.raises(ValidationError):
        player_count.add_fill_ins(tournament=tournament, players=[entered])
    assert Entry.objects.filter(tournament=tournament).count() == 37


@pytestmark_db
def test_tables_of_three_only_where_the_source_scores_three_hand_cego():
    tournament, _ = tournament_with_players(37)  # swm: no three-hand tables [S]
    with pytest.raises(ValidationError):
        player_count.draw_with(tournament=tournament, number=1, option=player_count.THREES)
    tournament.refresh_from_db()
    assert not tournament.tables_of_3 and not Round.objects.exists()

    bb, _ = tournament_with_players(37, rules_slug="bb2013", name="B&B")
    round_ = player_count.draw_with(tournament=bb, number=1, option=player_count.THREES)
    assert [len(t) for t in seating_of(round_)] == [4] * 7 + [3] * 3
    bb.refresh_from_db()
    assert bb.tables_of_3 and not bb.five_table_agreement


@pytestmark_db
def test_tables_of_five_of_the_source_itself_are_no_agreement():
    tournament, _ = tournament_with_players(37, rules_slug="schwaerzehof")
    snapshot = dict(tournament.rules_snapshot)
    round_ = player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    assert sorted(len(t) for t in seating_of(round_))[-1] == 5
    tournament.refresh_from_db()
    assert tournament.tables_of_5 and not tournament.five_table_agreement
    assert tournament.rules_snapshot == snapshot


@pytestmark_db
def test_fill_ins_are_listed_without_a_place_and_take_no_prize(client):
    tournament, entries = tournament_with_players(7)
    members = host_members(tournament, 1)
    round_ = player_count.draw_with(
        tournament=tournament, number=1, option=player_count.FILL_INS, players=members
    )
    fill_in = Entry.objects.get(tournament=tournament, fill_in=True)
    table = Seat.objects.get(round=round_, entry=fill_in).table
    position = Seat.objects.get(round=round_, entry=fill_in).position
    # the fill-in wins a Solo: the best total of the day
    phone_entry.enter_deal(
        table=table,
        number=1,
        inputs={"contract": "solo", "declarer": position, "declarer_points": 79},
    )
    rows = tournament_standings(tournament=tournament).rows
    assert rows[-1].entry_id == fill_in.pk and rows[-1].fill_in
    assert rows[-1].total > 0 and rows[0].rank == 1 and not rows[0].fill_in
    assert [r.rank for r in rows[:-1]] == sorted(r.rank for r in rows[:-1])
    prizes = prize_groups(tournament_standings(tournament=tournament))
    assert fill_in.pk not in {r.entry_id for r in prizes.on_plus + prizes.last}
    page = text(client.get(reverse("tournaments:standings", args=[tournament.pk])))
    row = page[page.index(f'id="entry-{fill_in.pk}"') :]
    row = row[: row.index("</tr>")]
    assert '<abbr title="Ersatz, ohne Wertung">–</abbr>' in row
    assert '<span class="badge badge-fill-in">Ersatz</span>' in row
    board = text(client.get(reverse("tournaments:projector", args=[tournament.pk])))
    assert '<abbr title="Ersatz, ohne Wertung">–</abbr>' in board
    assert '<span class="badge badge-fill-in">Ersatz</span>' in board
    from exports.standings import tournament_standings_rows

    sheet = list(tournament_standings_rows(tournament_standings(tournament=tournament)))
    assert sheet[-1][0] is None and sheet[-1][1] == fill_in.number
    assert sheet[-1][-1] == "Ersatz, ohne Wertung"
    # the printed standings: no place, "(Ersatz)" after the name
    import io

    from pypdf import PdfReader

    from printing.printouts import standings_pdf

    with translation.override("de"):
        pdf = standings_pdf(tournament=tournament)
    lines = PdfReader(io.BytesIO(pdf)).pages[0].extract_text().splitlines()
    last = next(line for line in lines if fill_in.player.last_name in line)
    assert "(Ersatz)" in last and last.lstrip().startswith("–")


@pytestmark_db
def test_edit_keeps_the_agreement_and_refuses_to_drop_a_drawn_table_of_five():
    tournament, _ = tournament_with_players(37)
    player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    base = {
        "name": tournament.name,
        "host_club": tournament.host_club,
        "date": tournament.date,
        "rules_slug": "swm",
    }
    kept = update_tournament(tournament=tournament, table_sizes=frozenset({4, 5}), **base)
    assert kept.five_table_agreement and "5" in kept.rules_snapshot["tables"]
    with translation.override("en"), pytest.raises(ValidationError, match="five has been drawn"):
        update_tournament(tournament=tournament, table_sizes=frozenset({4}), **base)


@pytestmark_db
def test_edit_drops_an_unused_agreement_and_points_to_it_otherwise():
    tournament, _ = tournament_with_players(36)
    player_count.allow_table_size(tournament=tournament, size=5)
    base = {
        "name": tournament.name,
        "host_club": tournament.host_club,
        "date": tournament.date,
        "rules_slug": "swm",
    }
    dropped = update_tournament(tournament=tournament, table_sizes=frozenset({4}), **base)
    assert not dropped.five_table_agreement and not dropped.tables_of_5
    assert dropped.rules_snapshot == builtin_data("swm")
    with translation.override("en"), pytest.raises(ValidationError, match="on the draw page"):
        update_tournament(tournament=tournament, table_sizes=frozenset({4, 5}), **base)


# --------------------------------------------------------------------------- pages


@pytest.fixture
def desk(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("desk", "", "pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def text(response) -> str:
    import re

    return re.sub(r"\s+", " ", response.content.decode())


@pytestmark_db
def test_draw_page_says_what_is_over_and_missing_and_draws_with_one_click(desk):
    tournament, _ = tournament_with_players(37)
    members = host_members(tournament, 4)
    url = reverse("tournaments:round_draw", args=[tournament.pk, 1])
    page = text(desk.get(url))
    assert "37 players cannot be seated at tables of 4." in page
    assert "1 player over for tables of 4, or 3 missing." in page
    assert "8 tables of 4 and 1 table of 5" in page
    assert 'value="draw_fives"' in page and 'value="draw_fill_ins"' in page
    assert 'value="draw_threes"' not in page  # swm: no three-hand tables
    assert "Tick 3 members of" in page and members[0].full_name in page

    response = desk.post(url, {"action": "draw_fives"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Round 1 drawn."]
    assert "five: the dealer sits out" in text(response)
    assert Round.objects.filter(tournament=tournament, number=1).exists()


@pytestmark_db
def test_draw_page_fill_ins_with_one_click(desk):
    tournament, _ = tournament_with_players(38)
    members = host_members(tournament, 4)
    url = reverse("tournaments:round_draw", args=[tournament.pk, 1])
    response = desk.post(
        url, {"action": "draw_fill_ins", "fill_in": [members[0].pk, members[2].pk]}, follow=True
    )
    assert [str(m) for m in response.context["messages"]] == ["Round 1 drawn."]
    page = text(response)
    assert page.count('class="badge badge-fill-in"') == 2
    wrong = tournament_with_players(38, name="Zweites")[0]
    host_members(wrong, 1)
    response = desk.post(
        reverse("tournaments:round_draw", args=[wrong.pk, 1]),
        {"action": "draw_fill_ins", "fill_in": []},
        follow=True,
    )
    assert "Choose the members who fill in." in [str(m) for m in response.context["messages"]]
    assert not Round.objects.filter(tournament=wrong).exists()


@pytestmark_db
def test_the_tournaments_tariff_card_and_sheets_show_the_agreement(client):
    from pypdf import PdfReader

    from printing.printouts import score_sheets_pdf

    tournament, _ = tournament_with_players(37)
    plain = text(client.get(reverse("tournaments:tournament_rules", args=[tournament.pk])))
    assert "Turniervereinbarung" not in plain and "5er-Tisch" not in plain
    player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    page = text(client.get(reverse("tournaments:tournament_rules", args=[tournament.pk])))
    assert "Turniervereinbarung: Fünfertisch, der Geber setzt aus" in page
    assert "5er-Tisch" in page  # the agreed table rule, from the tournament's snapshot
    import io

    with translation.override("de"):
        pdf = score_sheets_pdf(tournament=tournament, round_number=1, base_url="http://cego.test")
    # the extracted text breaks words where the lines' spans meet: compare without spaces
    letters = "".join(
        "".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )
    assert letters.count("Turniervereinbarung:Fünfertisch,derGebersetztaus") == 9  # every sheet


@pytestmark_db
def test_the_archive_carries_the_agreement_the_fill_ins_and_deals_at_five():
    import copy
    import json
    import uuid

    from tournaments.selectors.archive import tournament_archive
    from tournaments.services.archive_write import import_tournament_archive

    tournament, _ = tournament_with_players(37)
    member = host_members(tournament, 1)[0]
    player_count.add_fill_ins(tournament=tournament, players=[member])  # 38: two tables of five
    round_ = player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    table = Table.objects.get(round=round_, number=9)  # 7 tables of 4, then 2 of 5
    phone_entry.enter_deal(
        table=table, number=1, inputs={"contract": "halbe", "declarer": 1, "declarer_points": 34}
    )
    archive = json.loads(json.dumps(tournament_archive(tournament=tournament)))
    other = copy.deepcopy(archive)
    other["archive_id"] = str(uuid.uuid4())
    other["tournament"]["name"] = "Kopie"
    copy_ = import_tournament_archive(data=other).tournament  # every deal scored again
    assert copy_.five_table_agreement and copy_.tables_of_5
    assert copy_.entries.get(fill_in=True).player_id == member.pk
    deal = copy_.round_set.get(number=1).tables.get(number=9).deals.get(number=1)
    assert list(deal.scores) == [20, -80, 20, 20, 20]


@pytestmark_db
def test_the_check_in_desk_marks_a_fill_in_who_plays_free(desk):
    tournament, _ = tournament_with_players(39)
    member = host_members(tournament, 1)[0]
    player_count.add_fill_ins(tournament=tournament, players=[member])
    page = text(desk.get(reverse("tournaments:checkin", args=[tournament.pk])))
    row = page[page.index(f"{member.last_name}, {member.first_name}") :]
    row = row[: row.index("</tr>")]
    assert '<span class="badge badge-fill-in">fill-in</span>' in row
    assert 'title="Fill-ins play free."' in row and 'value="pay"' not in row
    from tournaments.services.checkin import set_fee_paid

    with (
        translation.override("en"),
        pytest.raises(ValidationError, match=r"plays free \(fill-in\)"),
    ):
        set_fee_paid(entry=Entry.objects.get(fill_in=True), paid=True)


@pytestmark_db
def test_nobody_checked_in_is_said_and_nothing_offered(desk):
    tournament, _ = tournament_with_players(5, checked_in=False)
    host_members(tournament, 4)
    page = text(desk.get(reverse("tournaments:round_draw", args=[tournament.pk, 1])))
    assert "Nobody is checked in yet." in page
    assert "cannot be seated" not in page and 'name="action"' not in page


@pytestmark_db
def test_the_desk_and_phone_pages_of_an_agreed_table_of_five(desk):
    tournament, _ = tournament_with_players(37)
    round_ = player_count.draw_with(tournament=tournament, number=1, option=player_count.FIVES)
    table = Table.objects.get(round=round_, number=9)
    response = desk.get(reverse("tournaments:desk_entry", args=[tournament.pk, 1, 9]))
    assert response.status_code == 200
    form = response.context["form"]
    assert (form.table_size, form.sitting_out) == (5, 0)  # deal 1: seat 1 deals and sits out
    phone = desk.get(reverse("tournaments:table_entry", args=[table.token]))
    assert phone.status_code == 200
