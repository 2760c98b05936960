"""Rulings and approved seat swaps in the tournament archive (issue 39, item 8): they travel
as keys of the archive's tournament part, given only where there are any (the format's
version 1 allows a key a reader does not know, not a new kind of item); an archive without
them imports and hashes as before; a copy on another server lists them on its public page."""

import copy
import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EntryFactory, two_officials
from tests.seasons.conftest import play, tournament_in
from tournaments.archive_format import ArchiveError, archive_hash, parse_archive
from tournaments.models import RefereeCall, Ruling, Seat, SeatSwap, Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services import draws, fairness, hall
from tournaments.services.archive_write import import_tournament_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def ruled(season):
    """A played round, a swap approved in the drawn second round, a final ruling on a call,
    a final conduct ruling, and what stays in the hall: a pending ruling, a waiting swap."""
    tournament = tournament_in(season, "Fairnesspokal", 20)
    entries = [EntryFactory(tournament=tournament, number=n + 1, checked_in=True) for n in range(8)]
    table = play(tournament, entries[:4], [(0, 45), (1, 34)])
    play(tournament, entries[4:], [(0, 45)], table_number=2)
    first, second = two_officials(tournament)
    call, _ = hall.call_referee(table=table, deal_number=2, reason="Karl hat geschummelt")
    fairness.record_ruling(
        tournament=tournament, call=call, deal_number=2, user=first,
        decision="Spiel 2 wird wie gespielt gewertet", penalty="Verwarnung",
    )  # fmt: skip
    fairness.record_ruling(
        tournament=tournament, user=second, decision="Verwarnung wegen Beleidigung",
        round_number=1, table_number=2,
    )  # fmt: skip
    tournament.round_set.update(state="closed")
    round_2 = draws.draw_next_round(tournament=tournament, number=2, seed=3)
    seats = list(Seat.objects.filter(round=round_2).order_by("table__number", "position"))
    swap = fairness.request_swap(
        round=round_2, first=seats[0].entry, second=seats[-1].entry, reason="Licht", user=first
    )
    fairness.approve_swap(swap=swap, user=second)
    fairness.request_swap(  # waits: the hall's own business
        round=round_2, first=seats[1].entry, second=seats[-2].entry, reason="Zug", user=first
    )
    tournament.two_referee_rulings = True
    tournament.save()
    fairness.record_ruling(tournament=tournament, user=first, decision="noch offen")  # pending
    return tournament


def exported(tournament) -> dict:
    return json.loads(json.dumps(tournament_archive(tournament=tournament)))


def as_another_server(archive: dict, archive_id: str | None = None) -> dict:
    other = copy.deepcopy(archive)
    other["archive_id"] = archive_id or str(uuid.uuid4())
    other["tournament"]["name"] = "Fairnesspokal (Kopie)"
    return other


def test_final_rulings_and_approved_swaps_are_in_the_archive_and_nothing_waiting(ruled):
    part = exported(ruled)["tournament"]
    assert [r["decision"] for r in part["rulings"]] == [
        "Spiel 2 wird wie gespielt gewertet",
        "Verwarnung wegen Beleidigung",
    ]
    first = part["rulings"][0]
    assert (first["round"], first["table"], first["deal"]) == (1, 1, 2)
    assert first["referees"] == ["Lea"] and first["penalty"] == "Verwarnung"
    assert part["rulings"][1]["conduct"] is True
    assert "geschummelt" not in json.dumps(part)  # the call's reason stays in the hall
    assert [s["reason"] for s in part["seat_swaps"]] == ["Licht"]
    swap = part["seat_swaps"][0]
    assert (swap["requested_by"], swap["approved_by"]) == ("Lea", "Sepp")
    parse_archive(json.dumps(exported(ruled)))  # the format checks them


def test_a_copy_elsewhere_holds_them_lists_them_and_exports_them_the_same(ruled):
    archive = exported(ruled)
    outcome = import_tournament_archive(data=as_another_server(archive))
    copy_ = outcome.tournament
    assert Ruling.objects.filter(tournament=copy_).count() == 2
    assert SeatSwap.objects.filter(tournament=copy_, state="approved").count() == 1
    again = exported(copy_)["tournament"]
    assert again["rulings"] == archive["tournament"]["rulings"]
    assert again["seat_swaps"] == archive["tournament"]["seat_swaps"]
    page = Client().get(reverse("tournaments:standings", args=[copy_.pk])).content.decode()
    assert "Spiel 2 wird wie gespielt gewertet" in page and "genehmigt von Sepp" in page
    assert "Licht" not in page  # the swap's reason: officials only


def test_a_newer_archive_brings_a_new_ruling_to_the_copy(ruled):
    archive = exported(ruled)
    copy_id = str(uuid.uuid4())
    copy_ = import_tournament_archive(data=as_another_server(archive, copy_id)).tournament
    first, second = two_officials(ruled)
    pending = Ruling.objects.get(tournament=ruled, decided_at__isnull=True)
    fairness.confirm_ruling(ruling=pending, user=second)
    newer = as_another_server(exported(ruled), copy_id)
    assert newer["revision"] > archive["revision"]
    outcome = import_tournament_archive(data=newer)
    assert outcome.replaced
    decided = Ruling.objects.filter(tournament=copy_).order_by("decided_at")
    assert [r.decision for r in decided][-1] == "noch offen"
    assert decided.last().second_name == "Sepp" and decided.last().needs_two
    # applied again: unchanged, nothing written twice
    import_tournament_archive(data=newer)
    assert Ruling.objects.filter(tournament=copy_).count() == 3


def test_an_archive_without_them_has_no_such_keys_and_imports(season):
    tournament = tournament_in(season, "Ohne Ruf", 21)
    entries = [EntryFactory(tournament=tournament, number=n + 1) for n in range(4)]
    play(tournament, entries, [(0, 45)])
    archive = exported(tournament)
    assert "rulings" not in archive["tournament"] and "seat_swaps" not in archive["tournament"]
    # the content hash is the one of the same archive as it was before rulings existed
    assert archive["content_hash"] == archive_hash(archive)
    copy_ = import_tournament_archive(data=as_another_server(archive)).tournament
    assert not Ruling.objects.filter(tournament=copy_).exists()


def test_a_ruling_or_swap_the_archive_cannot_hold_is_refused_and_nothing_imported(ruled):
    archive = as_another_server(exported(ruled))
    bad = copy.deepcopy(archive)
    bad["tournament"]["rulings"][0]["referees"] = "Lea"
    with pytest.raises(ArchiveError, match="rulings"):
        import_tournament_archive(data=json.loads(json.dumps(bad)))
    bad = copy.deepcopy(archive)
    bad["tournament"]["seat_swaps"][0]["first"] = 99
    before = Tournament.objects.count()
    with pytest.raises(ArchiveError, match="99"):
        import_tournament_archive(data=bad)
    assert Tournament.objects.count() == before


def test_the_hall_keeps_its_pending_rulings_when_the_server_sends_the_tournament_back(ruled):
    """Items taken back from the season server replace only what the archive carries."""
    from tournaments.services.archive_tournament_rows import Here, write_fairness

    part = exported(ruled)["tournament"]
    part["rulings"] = part["rulings"][:1]
    write_fairness(here=Here(tournament=ruled), settings=part)
    assert Ruling.objects.filter(tournament=ruled, decided_at__isnull=False).count() == 1
    assert Ruling.objects.filter(tournament=ruled, decided_at__isnull=True).count() == 1
    assert SeatSwap.objects.filter(tournament=ruled, state="requested").count() == 1
    assert RefereeCall.objects.filter(tournament=ruled).count() == 1
