"""A tournament as one JSON document (the archive), for moving it between servers.

The format (version 1), key by key:
- ``format`` / ``version``: ``"cego-club/tournament-archive"``, ``1``;
- ``archive_id``: the tournament's ``archive_id`` (importing the same archive twice gives one
  tournament);
- ``revision``: the tournament's revision where it was exported (a newer one replaces an
  imported copy, an older one is refused); ``content_hash``: the state digest of the
  archive's items (``tournaments.archive_format``: the same content is the same tournament,
  whatever the revision);
- ``tournament``: its settings, ``rules_snapshot`` (the rule source every deal is scored
  from), ``host_club`` and ``season`` (by name);
- ``clubs``: the clubs named in the archive (with their registry ``uuid``); ``players``: each
  with a ``key`` the rest of the archive refers to, registry ``uuid``, name, birth year,
  category, club and member number;
- ``entries`` (start number, player key, …), ``teams``, ``keep_apart``, ``lot_draws``
  (entries named by start number);
- ``rounds``: each with its ``tables``, their ``seats`` (start numbers in seat order),
  ``substitutions`` and ``deals``. A deal carries its deal record
  (``shared/spec/deal-record.md``, with an ``id`` of ``r<round>-t<table>-d<deal>``), its
  ``scores`` per seat, ``status``, dealer and its ``history``; round totals have no record.
  A deal typed in as written on a paper sheet (``as_written``) has contract and declarer in
  its record and its amounts as the scores.
- ``round_history``: the closing, reopening and voiding of rounds and tables.

Read in a constant number of queries (15), whatever the size of the tournament, one small
function per part. The order of every list is the one ``archive_format.archive_from_items``
gives (clubs: the host first, then by short name; teams by name; keep-apart pairs by start
numbers; the round history by time, then round), so that cutting an archive into items and
putting them together again gives the same archive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from ceremony.models import CeremonySettings
from clubs.models import Club, Membership
from clubs.permissions import registry_player_ids
from scoring import rule_source_from_dict
from seasons.models import SeriesMembership
from tournaments.archive_format import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    archive_hash,
    archive_items,
    round_items,
)
from tournaments.models import (
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Ruling,
    Seat,
    SeatSwap,
    Substitution,
    Table,
    Team,
    Tournament,
)
from tournaments.seating import sitting_out_position

TOURNAMENT_SETTINGS = (
    "name",
    "venue",
    "rules_slug",
    "rounds",
    "deals_per_round",
    "preferred_table_size",
    "tables_of_3",
    "tables_of_4",
    "tables_of_5",
    "five_table_agreement",
    "entry_mode",
    "tie_break",
    "entry_fee_cents",
    "keep_teams_apart",
    "last_round_raeuber",
    "youth_entry_free",
    "prize_shares_cents",
)


def _club(club: Club) -> dict[str, str]:
    return {
        "uuid": str(club.uuid),
        "name": club.name,
        "short_name": club.short_name,
        "town": club.town,
    }


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def deal_record_of(deal: Deal, *, rules_slug: str, seats: int, rules) -> dict[str, Any] | None:
    """The deal record of a stored deal: what the engine needs to score it again."""
    if deal.kind != Deal.Kind.DEAL:
        return None
    record: dict[str, Any] = {"id": None, "rules": rules_slug, "seats": seats}
    out = sitting_out_position(rules=rules, table_size=seats, deal_number=deal.number)
    if out is not None:
        record["sitting_out"] = out
    record["contract"] = deal.contract
    if deal.as_written:
        # Typed in from a paper sheet: contract and declarer; the amounts are the scores.
        record["declarer"] = deal.declarer_position
        if deal.won is not None:
            record["won"] = deal.won
        return record
    for key, value in (
        ("declarer", deal.declarer_position),
        ("declarer_points", deal.declarer_points),
        ("won", deal.won),
    ):
        if value is not None:
            record[key] = value
    record.update(deal.details)
    return record


def _player_data(entry: Entry, membership: Membership | None, shown: bool) -> dict[str, Any]:
    return {
        "key": f"p{entry.number}",
        "uuid": str(entry.player.uuid),
        "first_name": entry.player.first_name,
        "last_name": entry.player.last_name,
        "birth_year": entry.player.birth_year if shown else None,
        "category": entry.player.category,
        "club": membership.club.short_name if membership else None,
        "member_number": membership.member_number if membership and shown else "",
    }


def _entry_data(entry: Entry, team_name: str | None) -> dict[str, Any]:
    return {
        "number": entry.number,
        "player": f"p{entry.number}",
        "category": entry.category,
        "fee_paid": entry.fee_paid,
        "checked_in": entry.checked_in,
        "withdrawn_after_round": entry.withdrawn_after_round,
        "paper_total": entry.paper_total,
        "fill_in": entry.fill_in,
        "team": team_name,
    }


@dataclass
class _People:
    """The entries with their players, teams and clubs (4 queries)."""

    entries: list[Entry]
    players: list[dict[str, Any]]
    teams: list[dict[str, Any]]
    team_of: dict[int, str]
    clubs: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def number_of(self) -> dict[int, int]:
        return {e.pk: e.number for e in self.entries}


def _first_memberships(tournament: Tournament) -> dict[int, Membership]:
    """Each entered player's membership the archive names (active first, then by club)."""
    memberships: dict[int, Membership] = {}
    for membership in (
        Membership.objects.filter(player__entries__tournament=tournament)
        .select_related("club")
        .order_by("-status", "club__short_name")
    ):
        memberships.setdefault(membership.player_id, membership)
    return memberships


def _people(tournament: Tournament, user: Any) -> _People:
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    player_ids = [e.player_id for e in entries]
    private = set(player_ids) if user is None else registry_player_ids(user, player_ids)
    memberships = _first_memberships(tournament)
    clubs = {tournament.host_club.short_name: _club(tournament.host_club)}
    players = []
    for entry in entries:
        membership = memberships.get(entry.player_id)
        if membership is not None:
            clubs.setdefault(membership.club.short_name, _club(membership.club))
        players.append(_player_data(entry, membership, entry.player_id in private))
    teams, team_names = [], {}
    for team in Team.objects.filter(tournament=tournament).select_related("club").order_by("name"):
        team_names[team.pk] = team.name
        if team.club is not None:
            clubs.setdefault(team.club.short_name, _club(team.club))
        teams.append({"name": team.name, "club": team.club.short_name if team.club else None})
    host = tournament.host_club.short_name
    ordered = dict(sorted(clubs.items(), key=lambda pair: (pair[0] != host, pair[0])))
    return _People(
        entries=entries,
        players=players,
        teams=teams,
        team_of={e.pk: team_names[e.team_id] for e in entries if e.team_id},
        clubs=ordered,
    )


def _by(rows: list, attribute: str) -> dict[int, list]:
    grouped: dict[int, list] = {}
    for row in rows:
        grouped.setdefault(getattr(row, attribute), []).append(row)
    return grouped


def _username(user) -> str:
    return user.get_username() if user else ""


def _deal_histories(
    tournament: Tournament, table_ids: list[int] | None = None
) -> dict[int, list[dict[str, Any]]]:
    """Every deal's history rows (of ``table_ids`` only, where given), by deal (1 query;
    plain rows, no model instances: a big tournament has thousands)."""
    history_of: dict[int, list[dict[str, Any]]] = {}
    changes = (
        DealChange.objects.filter(deal__table_id__in=table_ids)
        if table_ids is not None
        else DealChange.objects.filter(deal__table__round__tournament=tournament)
    )
    rows = (
        changes.order_by("changed_at", "pk")
        .values_list(
            "deal_id", "action", "changed_at", "changed_by__username", "actor", "reason",
            "before", "after",
        )
    )  # fmt: skip
    for deal_id, action, changed_at, username, actor, reason, before, after in rows:
        history_of.setdefault(deal_id, []).append(
            {
                "action": action,
                "changed_at": _when(changed_at),
                "changed_by": username or "",
                "actor": actor,
                "reason": reason,
                "before": before,
                "after": after,
            }
        )
    return history_of


def _deal_data(
    deal: Deal, *, name: str, size: int, history: list[dict], tournament: Tournament, rules
) -> dict[str, Any]:
    record = deal_record_of(deal, rules_slug=tournament.rules_slug, seats=size, rules=rules)
    if record is not None:
        record["id"] = name
    return {
        "number": deal.number,
        "kind": deal.kind,
        "status": deal.status,
        "dealer": deal.dealer_position,
        "entered_via": deal.entered_via,
        "entered_by": deal.entered_by_position,
        "version": deal.version,
        "as_written": deal.as_written,
        "record": record,
        "scores": list(deal.scores[:size]),
        "history": history,
    }


def _rounds(
    tournament: Tournament, number_of: dict[int, int], table_ids: list[int] | None = None
) -> list[dict[str, Any]]:
    """Rounds with their tables, seats, substitutions and deals with history (6 queries).
    Given ``table_ids``: only those tables, in their rounds (the rest left out)."""
    rules = rule_source_from_dict(tournament.rules_snapshot)
    if table_ids is None:
        stored_tables = Table.objects.filter(round__tournament=tournament)
        stored_seats = Seat.objects.filter(round__tournament=tournament)
        stored_subs = Substitution.objects.filter(seat__round__tournament=tournament)
        stored_deals = Deal.objects.filter(table__round__tournament=tournament)
    else:
        stored_tables = Table.objects.filter(pk__in=table_ids, round__tournament=tournament)
        stored_seats = Seat.objects.filter(table_id__in=table_ids)
        stored_subs = Substitution.objects.filter(seat__table_id__in=table_ids)
        stored_deals = Deal.objects.filter(table_id__in=table_ids)
    tables_of = _by(list(stored_tables.order_by("number")), "round_id")
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    if table_ids is not None:
        rounds = [round_ for round_ in rounds if round_.pk in tables_of]
    seats_of = _by(list(stored_seats.order_by("position")), "table_id")
    subs_of: dict[int, list[Substitution]] = {}
    for sub in stored_subs.select_related("seat").order_by("from_deal", "pk"):
        subs_of.setdefault(sub.seat.table_id, []).append(sub)
    deals_of = _by(list(stored_deals.order_by("number")), "table_id")
    history_of = _deal_histories(tournament, table_ids)
    result = []
    for round_ in rounds:
        tables = []
        for table in tables_of.get(round_.pk, []):
            seats = seats_of.get(table.pk, [])
            position_of = {seat.pk: seat.position for seat in seats}
            deals = [
                _deal_data(
                    deal,
                    name=f"r{round_.number}-t{table.number}-d{deal.number}",
                    size=len(seats),
                    history=history_of.get(deal.pk, []),
                    tournament=tournament,
                    rules=rules,
                )
                for deal in deals_of.get(table.pk, [])
            ]
            tables.append(
                {
                    "number": table.number,
                    "voided": table.voided,
                    "void_reason": table.void_reason,
                    "seats": [number_of[seat.entry_id] for seat in seats],
                    "substitutions": [
                        {
                            "position": position_of[sub.seat_id],
                            "entry": number_of[sub.entry_id],
                            "from_deal": sub.from_deal,
                            "reason": sub.reason,
                        }
                        for sub in subs_of.get(table.pk, [])
                    ],
                    "deals": deals,
                }
            )
        result.append(
            {
                "number": round_.number,
                "state": round_.state,
                "draw_seed": round_.draw_seed,
                "time_limit_minutes": round_.time_limit_minutes,
                # Only while true: a round drawn but not yet released stays hidden on the
                # season server too (and the items of every other round keep their digest).
                **({"awaiting_release": True} if round_.awaiting_release else {}),
                "tables": tables,
            }
        )
    return result


def _round_history(
    tournament: Tournament, round_numbers: set[int] | None = None
) -> list[dict[str, Any]]:
    """The closing, reopening and voiding of rounds and tables (of ``round_numbers`` only,
    where given), by time, then round (1 query)."""
    changes = RoundChange.objects.filter(round__tournament=tournament)
    if round_numbers is not None:
        changes = changes.filter(round__number__in=round_numbers)
    rows = [
        {
            "round": change.round.number,
            "table": change.table.number if change.table else None,
            "action": change.action,
            "reason": change.reason,
            "changed_at": _when(change.changed_at),
            "changed_by": _username(change.changed_by),
        }
        for change in changes.select_related("changed_by", "table", "round").order_by(
            "changed_at", "pk"
        )
    ]
    rows.sort(key=lambda row: (row["changed_at"] or "", row["round"]))
    return rows


def _keep_apart(tournament: Tournament, number_of: dict[int, int]) -> list[dict[str, Any]]:
    pairs = [
        {"first": number_of[p.first_id], "second": number_of[p.second_id], "reason": p.reason}
        for p in KeepApart.objects.filter(tournament=tournament)
    ]
    return sorted(pairs, key=lambda pair: (pair["first"], pair["second"]))


def _lot_draws(tournament: Tournament, number_of: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {
            "purpose": draw.purpose,
            "seed": draw.seed,
            "order": [number_of.get(entry_id) for entry_id in draw.order],
            "performed_at": _when(draw.performed_at),
        }
        for draw in LotDraw.objects.filter(tournament=tournament).order_by("performed_at", "pk")
    ]


def _settings(tournament: Tournament) -> dict[str, Any]:
    season = tournament.season
    return {
        **{key: getattr(tournament, key) for key in TOURNAMENT_SETTINGS},
        "date": tournament.date.isoformat(),
        "host_club": tournament.host_club.short_name,
        "season": (
            {
                "name": season.name,
                "starts_on": season.starts_on.isoformat(),
                "ends_on": season.ends_on.isoformat(),
            }
            if season
            else None
        ),
        "rules_snapshot": tournament.rules_snapshot,
        "finished_at": _when(tournament.finished_at),
    }


def fairness_records(tournament: Tournament, *, number_of: dict[int, int]) -> dict[str, Any]:
    """The final rulings (``rulings``) and approved seat swaps (``seat_swaps``) as the
    archive's tournament part holds them, each key only where there are any: an archive
    without them keeps the content hash it had (2 queries). Rulings in the order they came to
    count, swaps in the order they were approved; people by name as signed, players by start
    number."""
    records: dict[str, Any] = {}
    rulings = [
        {
            "round": ruling.round_number,
            "table": ruling.table_number,
            "deal": ruling.deal_number,
            "conduct": ruling.conduct,
            "decision": ruling.decision,
            "penalty": ruling.penalty,
            "referees": [name for name in (ruling.first_name, ruling.second_name) if name],
            "ruled_at": _when(ruling.first_at),
            "decided_at": _when(ruling.decided_at),
        }
        for ruling in Ruling.objects.filter(
            tournament=tournament, decided_at__isnull=False
        ).order_by("decided_at", "pk")
    ]
    if rulings:
        records["rulings"] = rulings
    swaps = [
        {
            "round": swap.round.number,
            "first": number_of[swap.first_id],
            "second": number_of[swap.second_id],
            "first_table": swap.first_table,
            "first_position": swap.first_position,
            "second_table": swap.second_table,
            "second_position": swap.second_position,
            "reason": swap.reason,
            "requested_by": swap.requested_name,
            "approved_by": swap.decided_name,
            "requested_at": _when(swap.requested_at),
            "approved_at": _when(swap.decided_at),
        }
        for swap in SeatSwap.objects.filter(tournament=tournament, state=SeatSwap.State.APPROVED)
        .select_related("round")
        .order_by("decided_at", "pk")
    ]
    if swaps:
        records["seat_swaps"] = swaps
    return records


def ceremony_record(tournament: Tournament) -> dict[str, Any]:
    """``{"ceremony": …}`` where the desk hides places until the prize ceremony or revealed
    them; else nothing, so that an archive without it keeps its content hash (1 query)."""
    found = (
        CeremonySettings.objects.filter(tournament_id=tournament.pk)
        .values_list("hide_from_round", "hide_top_n", "revealed_at")
        .first()
    )
    if found is None or (found[0] is None and found[2] is None):
        return {}
    from_round, top, revealed_at = found
    return {
        "ceremony": {
            "hide_from_round": from_round,
            "hide_top_n": top,
            "revealed_at": _when(revealed_at),
        }
    }


def series_record(tournament: Tournament) -> dict[str, Any]:
    """``{"series": […]}``: the other series the tournament also counts for (issue 41), each
    as the home ``season`` is named (name, first and last day), by name; ``[]`` once its last
    one was removed (``series_chosen``), so that the removal travels; else nothing, so that
    an archive of a tournament never in a series keeps its content hash and an older reader
    passes the key by (1 query)."""
    series = [
        {"name": name, "starts_on": starts_on.isoformat(), "ends_on": ends_on.isoformat()}
        for name, starts_on, ends_on in SeriesMembership.objects.filter(tournament_id=tournament.pk)
        .order_by("season__name")
        .values_list("season__name", "season__starts_on", "season__ends_on")
    ]
    return {"series": series} if series or tournament.series_chosen else {}


def tournament_archive(*, tournament: Tournament, user: Any = None) -> dict[str, Any]:
    """The archive of ``tournament``. Downloaded by ``user``, a player's birth year and
    member number are given only where ``user`` may see them
    (``clubs.permissions.registry_player_ids``: a guest of another club travels with name,
    category and club); ``user=None`` (the command line) gives them all."""
    archive = _document(tournament, user)
    archive["content_hash"] = archive_hash(archive)
    return archive


def _document(tournament: Tournament, user: Any) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("host_club", "season").get(pk=tournament.pk)
    people = _people(tournament, user)
    number_of = people.number_of
    archive = {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "archive_id": str(tournament.archive_id),
        "revision": tournament.revision,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **_settings(tournament),
            **fairness_records(tournament, number_of=number_of),
            **ceremony_record(tournament),
            **series_record(tournament),
        },
        "clubs": list(people.clubs.values()),
        "players": people.players,
        "entries": [_entry_data(e, people.team_of.get(e.pk)) for e in people.entries],
        "teams": people.teams,
        "keep_apart": _keep_apart(tournament, number_of),
        "rounds": _rounds(tournament, number_of),
        "round_history": _round_history(tournament),
        "lot_draws": _lot_draws(tournament, number_of),
    }
    return archive


def tournament_items(*, tournament: Tournament, user: Any = None) -> dict[str, dict[str, Any]]:
    """The tournament's archive cut into items (``archive_format.archive_items``)."""
    return archive_items(_document(tournament, user))


def table_items(*, tournament: Tournament, table_ids: list[int]) -> dict[str, dict[str, Any]]:
    """The items of some tables only, as ``tournament_items`` gives them: each table, its
    deals and its round's item (a constant number of queries, whatever the tournament's
    size). For the laptop's outbox, which reads only what changed (``RevisionScope``)."""
    number_of = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "number"))
    rounds = _rounds(tournament, number_of, table_ids)
    history = _round_history(tournament, {round_["number"] for round_ in rounds})
    return round_items({"rounds": rounds, "round_history": history})
