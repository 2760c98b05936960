"""The player registry: spelling-tolerant search, duplicates, merges, categories."""

import pytest
from django.core.exceptions import ValidationError

from clubs.categories import season_category
from clubs.models import AnnualFee, Membership, Player, PlayerMerge
from clubs.search import normalise, player_key
from clubs.selectors import players_named, search_players
from clubs.services.players import DuplicateName, create_player, merge_players, update_player
from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
)
from tournaments.models import Entry, Round, Seat, Substitution, Table
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("written", "typed"),
    [
        ("Müller", "Mueller"),
        ("Müller", "MÜLLER"),
        ("Weißhaar", "Weisshaar"),
        ("Weißhaar", "WEISSHAAR"),
        ("Jäckle", "jaeckle"),
        ("José", "jose"),
        ("Mu\u0308ller", "Müller"),  # a combining diaeresis, as some Mac exports write it
    ],
)
def test_spellings_share_a_key(written, typed):
    assert normalise(written) == normalise(typed)


def test_other_names_do_not_share_a_key():
    assert normalise("Muller") != normalise("Müller")  # u is not ü: Muller is another family
    assert normalise("Weishaar") != normalise("Weißhaar")


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Mueller", ["Müller"]),
        ("müller", ["Müller"]),
        ("Weisshaar", ["Weißhaar"]),
        ("weißhaar", ["Weißhaar"]),
        ("jose", ["Gómez"]),
        ("hans muell", ["Müller"]),
        ("xyz", []),
    ],
)
def test_registry_search_ignores_umlaut_spelling_accents_and_case(query, found):
    Player.objects.create(first_name="Hans", last_name="Müller")
    Player.objects.create(first_name="Anna", last_name="Weißhaar")
    Player.objects.create(first_name="José", last_name="Gómez")
    Player.objects.create(first_name="Otto", last_name="Faller")
    assert [p.last_name for p in search_players(query=query)] == found


def test_search_key_follows_renames_including_update_fields():
    player = Player.objects.create(first_name="Hans", last_name="Muller")
    player.last_name = "Müller"
    player.save(update_fields=["last_name"])
    assert Player.objects.get(pk=player.pk).search_key == player_key("Hans", "Mueller")


def test_search_takes_the_same_queries_for_few_and_many_players(django_assert_num_queries):
    club = ClubFactory()
    for count in (3, 30):
        for i in range(count):
            Membership.objects.create(
                player=Player.objects.create(first_name=f"P{count}{i}", last_name="Müller"),
                club=club,
            )
        with django_assert_num_queries(2):  # players, memberships with their clubs
            rows = list(search_players(query="mueller", club=club))
            assert all(m.club.short_name for p in rows for m in p.memberships.all())


def test_creating_a_known_name_is_refused_with_the_existing_player_offered():
    existing = Player.objects.create(first_name="Hans", last_name="Müller")
    with pytest.raises(DuplicateName) as caught:
        create_player(first_name="hans", last_name="Mueller")
    assert caught.value.players == [existing]
    assert Player.objects.count() == 1
    other = create_player(first_name="Hans", last_name="Mueller", allow_duplicate=True)
    assert Player.objects.count() == 2
    assert list(players_named(first_name="Hans", last_name="Müller", exclude_pk=other.pk)) == [
        existing
    ]


def test_member_numbers_are_unique_within_a_club():
    club = ClubFactory()
    first = create_player(first_name="A", last_name="Eins", club=club, member_number="7")
    with pytest.raises(ValidationError) as caught:
        create_player(first_name="B", last_name="Zwei", club=club, member_number="7")
    assert "member_number" in caught.value.error_dict
    assert not Player.objects.filter(last_name="Zwei").exists()  # one transaction
    update_player(player=first, first_name="A", last_name="Eins", club=club, member_number="8")
    assert Membership.objects.get(player=first).member_number == "8"


def _seated_entry(tournament, player, round_number=1, position=0):
    entry = EntryFactory(tournament=tournament, player=player)
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=round_number, defaults={"draw_seed": 1}
    )
    table, _ = Table.objects.get_or_create(round=round_, number=1)
    seat = Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return entry, seat


def test_merge_moves_entries_seats_substitutions_and_results(organiser):
    club_a, club_b = ClubFactory(), ClubFactory()
    season = SeasonFactory()
    keep = Player.objects.create(first_name="Hans", last_name="Müller")
    remove = Player.objects.create(
        first_name="Hans", last_name="Mueller", birth_year=1960, email="h@example.org"
    )
    Membership.objects.create(player=keep, club=club_a)
    gone = Membership.objects.create(player=remove, club=club_a, member_number="12")
    Membership.objects.create(player=remove, club=club_b, member_number="3")
    AnnualFee.objects.create(
        membership=gone, season=season, amount_cents=2400, due_on=season.starts_on
    )
    first, second = TournamentFactory(), TournamentFactory()
    entry_keep, _ = _seated_entry(first, keep)
    entry_removed, seat = _seated_entry(second, remove)
    Substitution.objects.create(seat=seat, entry=EntryFactory(tournament=second), from_deal=3)
    sub_entry = EntryFactory(tournament=second)
    Substitution.objects.create(seat=seat, entry=sub_entry, from_deal=5)

    log = merge_players(keep=keep, remove=remove, user=organiser)

    assert not Player.objects.filter(pk=remove.pk).exists()
    assert Entry.objects.get(pk=entry_removed.pk).player == keep
    assert Seat.objects.get(pk=seat.pk).entry.player == keep  # seats follow the entry
    keep.refresh_from_db()
    assert (keep.birth_year, keep.email) == (1960, "h@example.org")  # blanks filled
    memberships = {m.club_id: m for m in keep.memberships.all()}
    assert memberships[club_a.pk].member_number == "12"
    assert memberships[club_b.pk].member_number == "3"
    assert AnnualFee.objects.get().membership == memberships[club_a.pk]
    assert (log.entries_moved, log.memberships_moved, log.merged_by) == (1, 2, organiser)
    assert log.removed_data["last_name"] == "Mueller"
    assert PlayerMerge.objects.filter(kept=keep).count() == 1
    assert entry_keep.tournament == first


def test_merge_is_refused_where_both_played_in_one_tournament():
    tournament = TournamentFactory()
    keep = Player.objects.create(first_name="Hans", last_name="Müller")
    remove = Player.objects.create(first_name="Hans", last_name="Mueller")
    _seated_entry(tournament, keep, position=0)
    _seated_entry(tournament, remove, position=1)
    other = TournamentFactory()
    moved = EntryFactory(tournament=other, player=remove)
    with pytest.raises(ValidationError) as caught:
        merge_players(keep=keep, remove=remove)
    assert tournament.name in " ".join(caught.value.messages)
    assert Player.objects.filter(pk=remove.pk).exists()
    assert Entry.objects.get(pk=moved.pk).player == remove  # nothing moved
    assert not PlayerMerge.objects.exists()


def test_merge_of_a_player_with_itself_is_refused():
    player = PlayerFactory()
    with pytest.raises(ValidationError):
        merge_players(keep=player, remove=player)


def test_merged_results_count_for_the_kept_player():
    tournament = TournamentFactory(entry_mode="totals")
    keep = Player.objects.create(first_name="Hans", last_name="Müller")
    remove = Player.objects.create(first_name="Hans", last_name="Mueller")
    EntryFactory(tournament=tournament, player=remove, paper_total=42)
    merge_players(keep=keep, remove=remove)
    row = tournament_standings(tournament=tournament).rows[0]
    assert (row.last_name, row.total) == ("Müller", 42)


@pytest.mark.parametrize(
    ("category", "born", "cut_off", "expected"),
    [
        ("open", 2010, 2008, "youth"),
        ("woman", 2008, 2008, "youth"),
        ("youth", 2000, 2008, "open"),  # grown out of youth
        ("woman", 1990, 2008, "woman"),
        ("youth", None, 2008, "youth"),  # birth year unknown: the registry decides
        ("open", 2010, None, "open"),  # no cut-off in the season
    ],
)
def test_season_category_by_birth_year(category, born, cut_off, expected):
    assert season_category(category=category, birth_year=born, youth_born_from=cut_off) == expected


def test_bulk_created_players_are_found_too():
    Player.objects.bulk_create([Player(first_name="Lena", last_name="Schwär")])
    assert [p.first_name for p in search_players(query="schwaer")] == ["Lena"]
