"""Each tournament's results kept with the tournament, by revision (``TournamentResult``).

The player page, the season page and the season workbook read a tournament's place, total,
games won as declarer and contract counts per entry from these rows instead of adding up
every deal of every season again. The rows are a cache in the database, keyed like
``tournaments.caching``'s output on ``Tournament.revision``: they are read only while their
``TournamentResultSet.revision`` equals the tournament's revision (and its ``method`` this
version's ``RESULTS_METHOD``). A reader that finds them
missing or older works them out again (:func:`fresh_results`), so they are never stale, and
nothing else has to remember to update them (a deal entered, an archive imported, a player
merged: each bumps the revision).

Working out one tournament of 148 players and 5 rounds takes a few tens of milliseconds; it
happens in its own short transaction with the tournament's ``TournamentResultSet`` row locked
(``select_for_update``), so two readers do not write it twice. The revision is read before the
deals: if a deal arrives meanwhile, the rows are stored under the older revision and the next
reader works them out again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction

from scoring import rule_source_from_dict
from seasons.models import TournamentResult, TournamentResultSet
from tournaments import ranking
from tournaments.caching import current_revision
from tournaments.models import SCORE_FIELDS, Deal, Entry, Seat, Substitution, Tournament
from tournaments.seating import sitting_out_position
from tournaments.selectors.standings import _occupant, _occupant_lookup, _tally, add_paper_totals
from tournaments.selectors.visibility import hiding

# The way the rows are worked out: raise it with any change to ``work_out_results`` (or to the
# standings it follows) that gives the same deals other rows; stored rows of another method are
# stale. 2: a registered player who never came has no place (issue 39).
RESULTS_METHOD = 2

# The counts kept per contract: [declared, won, points as declarer, defended, points as defender]
DECLARED, WON, DECLARER_POINTS, DEFENDED, DEFENDER_POINTS = range(5)


def fresh_results(*, tournaments: Iterable[Tournament]) -> int:
    """Make sure every one of ``tournaments`` (as just read: their revision) has its results
    stored at its current revision; returns how many were worked out (one query when none)."""
    by_id = {t.pk: t for t in tournaments}
    if not by_id:
        return 0
    stored = {
        pk: (revision, method)
        for pk, revision, method in TournamentResultSet.objects.filter(
            tournament_id__in=by_id
        ).values_list("tournament_id", "revision", "method")
    }
    stale = [pk for pk, t in by_id.items() if stored.get(pk) != (t.revision, RESULTS_METHOD)]
    for pk in stale:
        store_results(tournament=by_id[pk])
    return len(stale)


def store_results(*, tournament: Tournament) -> None:
    """Work out and store ``tournament``'s results at its current revision (unless another
    reader just did)."""
    with transaction.atomic():
        stamp, _created = TournamentResultSet.objects.select_for_update().get_or_create(
            tournament_id=tournament.pk, defaults={"revision": -1}
        )
        revision = current_revision(tournament.pk)
        if revision is None or (stamp.revision, stamp.method) == (revision, RESULTS_METHOD):
            return
        rows = work_out_results(tournament=tournament)
        TournamentResult.objects.filter(tournament_id=tournament.pk).delete()
        TournamentResult.objects.bulk_create(rows, batch_size=500)
        stamp.revision = revision
        stamp.method = RESULTS_METHOD
        stamp.save(update_fields=["revision", "method"])


def work_out_results(*, tournament: Tournament) -> list[TournamentResult]:
    """Every entry's result in ``tournament`` from its counting deals (five queries): total
    (paper totals included), place by total (equal totals share it; the tie-break is the
    tournament page's business), games won as declarer, and per contract the games declared,
    won and defended with their points."""
    entries = list(
        Entry.objects.filter(tournament_id=tournament.pk).values("id", "player_id", "paper_total")
    )
    if hiding(tournament=tournament) is not None:
        # Places hidden until the prize ceremony: the season's pages, the player pages and
        # the statistics count nothing of the tournament until then (the reveal bumps the
        # revision, and the results are worked out again).
        return [TournamentResult(tournament_id=tournament.pk, entry_id=e["id"]) for e in entries]
    seats = list(
        Seat.objects.filter(round__tournament_id=tournament.pk, table__voided=False).values(
            "id", "table_id", "position", "entry_id", "round__number"
        )
    )
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament_id=tournament.pk).values(
            "seat_id", "entry_id", "from_deal"
        )
    )
    deals = list(
        Deal.objects.filter(
            table__round__tournament_id=tournament.pk,
            table__voided=False,
            status=Deal.Status.CONFIRMED,
        ).values(
            "table_id", "number", "kind", "contract", "declarer_position", "details", *SCORE_FIELDS
        )
    )
    tallies = _tally(seats=seats, substitutions=substitutions, deals=deals, bucket="round__number")
    add_paper_totals(tallies, entries=entries, bucket=lambda entry: 1)
    totals = {
        e["id"]: tallies[e["id"]].total
        for e in entries
        if e["id"] in tallies and tallies[e["id"]].round_totals
    }
    places = ranking.places(totals)
    contracts, penalties = _contract_counts(tournament, seats, substitutions, deals)
    return [
        TournamentResult(
            tournament_id=tournament.pk,
            entry_id=e["id"],
            total=totals.get(e["id"]),
            place=places.get(e["id"]),
            declarer_wins=tallies[e["id"]].declarer_wins if e["id"] in tallies else 0,
            contracts=contracts.get(e["id"], {}),
            penalties=penalties.get(e["id"], 0),
        )
        for e in entries
    ]


def _contract_counts(tournament, seats, substitutions, deals):
    """Per entry and contract: games declared and won, points as declarer, games defended and
    points as defender; and penalties per entry. Only deals the player sat in (not sitting
    out) count."""
    timelines = _occupant_lookup(seats, substitutions)
    seat_at = {(s["table_id"], s["position"]): s for s in seats}
    table_size: dict[int, int] = defaultdict(int)
    for seat in seats:
        table_size[seat["table_id"]] += 1
    rules = None
    counts: dict[int, dict[str, list[int]]] = defaultdict(dict)
    penalties: dict[int, int] = defaultdict(int)
    for deal in deals:
        if deal["kind"] != Deal.Kind.DEAL:
            continue
        size = table_size[deal["table_id"]]
        if rules is None:
            rules = rule_source_from_dict(tournament.rules_snapshot)
        out = sitting_out_position(rules=rules, table_size=size, deal_number=deal["number"])
        penalty = (deal["details"] or {}).get("penalty")
        for position in range(size):
            if position == out:
                continue
            seat = seat_at.get((deal["table_id"], position))
            if seat is None:
                continue
            entry_id = _occupant(timelines[seat["id"]], deal["number"])
            item = counts[entry_id].get(deal["contract"])
            if item is None:
                item = counts[entry_id][deal["contract"]] = [0, 0, 0, 0, 0]
            score = deal[SCORE_FIELDS[position]] or 0
            if position == deal["declarer_position"]:
                item[DECLARED] += 1
                item[WON] += score > 0
                item[DECLARER_POINTS] += score
            else:
                item[DEFENDED] += 1
                item[DEFENDER_POINTS] += score
            if isinstance(penalty, dict) and penalty.get("seat") == position:
                penalties[entry_id] += 1
    return counts, penalties
