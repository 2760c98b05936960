"""A tournament as one JSON document (the archive), for moving it between servers.

The format (version 1), key by key:
- ``format`` / ``version``: ``"cego-club/tournament-archive"``, ``1``;
- ``archive_id``: the tournament's ``archive_id`` (importing the same archive twice gives one
  tournament);
- ``revision``: the tournament's revision where it was exported (a newer one replaces an
  imported copy, an older one is refused); ``content_hash``: SHA-256 of the archive's
  canonical JSON without ``exported_at``, ``revision`` and ``content_hash`` (the same content
  is the same tournament, whatever the revision);
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

Read in a constant number of queries (13), whatever the size of the tournament.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone

from clubs.models import Club, Membership
from clubs.permissions import registry_player_ids
from scoring import rule_source_from_dict
from tournaments.models import (
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Seat,
    Substitution,
    Table,
    Team,
    Tournament,
)
from tournaments.seating import sitting_out_position

ARCHIVE_FORMAT = "cego-club/tournament-archive"
ARCHIVE_VERSION = 1

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


# Left out of the content hash: they change without the tournament changing.
UNHASHED_KEYS = ("exported_at", "revision", "content_hash")


def archive_hash(data: dict[str, Any]) -> str:
    """SHA-256 of the archive's canonical JSON, without the keys that say when it was made."""
    content = {key: value for key, value in data.items() if key not in UNHASHED_KEYS}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


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


def tournament_archive(*, tournament: Tournament, user: Any = None) -> dict[str, Any]:
    """The archive of ``tournament``. Downloaded by ``user``, a player's birth year and
    member number are given only where ``user`` may see them
    (``clubs.permissions.registry_player_ids``: a guest of another club travels with name,
    category and club); ``user=None`` (the command line) gives them all."""
    tournament = Tournament.objects.select_related("host_club", "season").get(pk=tournament.pk)
    rules = rule_source_from_dict(tournament.rules_snapshot)
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    number_of = {e.pk: e.number for e in entries}
    player_ids = [e.player_id for e in entries]
    private = set(player_ids) if user is None else registry_player_ids(user, player_ids)
    memberships: dict[int, Membership] = {}
    for candidate in (
        Membership.objects.filter(player__entries__tournament=tournament)
        .select_related("club")
        .order_by("-status", "club__short_name")
    ):
        memberships.setdefault(candidate.player_id, candidate)
    clubs = {tournament.host_club.short_name: _club(tournament.host_club)}
    players = []
    for entry in entries:
        membership = memberships.get(entry.player_id)
        shown = entry.player_id in private
        if membership is not None:
            clubs.setdefault(membership.club.short_name, _club(membership.club))
        players.append(
            {
                "key": f"p{entry.number}",
                "uuid": str(entry.player.uuid),
                "first_name": entry.player.first_name,
                "last_name": entry.player.last_name,
                "birth_year": entry.player.birth_year if shown else None,
                "category": entry.player.category,
                "club": membership.club.short_name if membership else None,
                "member_number": membership.member_number if membership and shown else "",
            }
        )
    teams = []
    team_names: dict[int, str] = {}
    for team in Team.objects.filter(tournament=tournament).select_related("club"):
        team_names[team.pk] = team.name
        if team.club is not None:
            clubs.setdefault(team.club.short_name, _club(team.club))
        teams.append({"name": team.name, "club": team.club.short_name if team.club else None})
    team_of = {e.pk: team_names[e.team_id] for e in entries if e.team_id}

    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    seats = list(Seat.objects.filter(round__tournament=tournament).order_by("position"))
    substitutions = list(
        Substitution.objects.filter(seat__round__tournament=tournament)
        .select_related("seat")
        .order_by("from_deal", "pk")
    )
    deals = list(Deal.objects.filter(table__round__tournament=tournament).order_by("number"))
    changes = list(
        DealChange.objects.filter(deal__table__round__tournament=tournament)
        .select_related("changed_by")
        .order_by("changed_at", "pk")
    )
    round_changes = list(
        RoundChange.objects.filter(round__tournament=tournament)
        .select_related("changed_by", "table")
        .order_by("changed_at", "pk")
    )

    seats_of: dict[int, list[Seat]] = {}
    for seat in seats:
        seats_of.setdefault(seat.table_id, []).append(seat)
    subs_of: dict[int, list[Substitution]] = {}
    for sub in substitutions:
        subs_of.setdefault(sub.seat.table_id, []).append(sub)
    deals_of: dict[int, list[Deal]] = {}
    for deal in deals:
        deals_of.setdefault(deal.table_id, []).append(deal)
    history_of: dict[int, list[dict]] = {}
    for change in changes:
        history_of.setdefault(change.deal_id, []).append(
            {
                "action": change.action,
                "changed_at": _when(change.changed_at),
                "changed_by": change.changed_by.get_username() if change.changed_by else "",
                "actor": change.actor,
                "reason": change.reason,
                "before": change.before,
                "after": change.after,
            }
        )
    tables_of: dict[int, list[Table]] = {}
    for table in tables:
        tables_of.setdefault(table.round_id, []).append(table)

    def deal_data(deal: Deal, round_number: int, table: Table, size: int) -> dict[str, Any]:
        record = deal_record_of(deal, rules_slug=tournament.rules_slug, seats=size, rules=rules)
        if record is not None:
            record["id"] = f"r{round_number}-t{table.number}-d{deal.number}"
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
            "scores": [s for s in deal.scores[:size]],
            "history": history_of.get(deal.pk, []),
        }

    round_number = {r.pk: r.number for r in rounds}
    round_data = []
    for round_ in rounds:
        table_data = []
        for table in tables_of.get(round_.pk, []):
            table_seats = seats_of.get(table.pk, [])
            position_of = {seat.pk: seat.position for seat in table_seats}
            table_data.append(
                {
                    "number": table.number,
                    "voided": table.voided,
                    "void_reason": table.void_reason,
                    "seats": [number_of[seat.entry_id] for seat in table_seats],
                    "substitutions": [
                        {
                            "position": position_of[sub.seat_id],
                            "entry": number_of[sub.entry_id],
                            "from_deal": sub.from_deal,
                            "reason": sub.reason,
                        }
                        for sub in subs_of.get(table.pk, [])
                    ],
                    "deals": [
                        deal_data(deal, round_.number, table, len(table_seats))
                        for deal in deals_of.get(table.pk, [])
                    ],
                }
            )
        round_data.append(
            {
                "number": round_.number,
                "state": round_.state,
                "draw_seed": round_.draw_seed,
                "time_limit_minutes": round_.time_limit_minutes,
                "tables": table_data,
            }
        )
    season = tournament.season
    archive = {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "archive_id": str(tournament.archive_id),
        "revision": tournament.revision,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
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
        },
        "clubs": list(clubs.values()),
        "players": players,
        "entries": [
            {
                "number": e.number,
                "player": f"p{e.number}",
                "category": e.category,
                "fee_paid": e.fee_paid,
                "checked_in": e.checked_in,
                "withdrawn_after_round": e.withdrawn_after_round,
                "paper_total": e.paper_total,
                "fill_in": e.fill_in,
                "team": team_of.get(e.pk),
            }
            for e in entries
        ],
        "teams": teams,
        "keep_apart": [
            {"first": number_of[p.first_id], "second": number_of[p.second_id], "reason": p.reason}
            for p in KeepApart.objects.filter(tournament=tournament)
        ],
        "rounds": round_data,
        "round_history": [
            {
                "round": round_number[change.round_id],
                "table": change.table.number if change.table else None,
                "action": change.action,
                "reason": change.reason,
                "changed_at": _when(change.changed_at),
                "changed_by": change.changed_by.get_username() if change.changed_by else "",
            }
            for change in round_changes
        ],
        "lot_draws": [
            {
                "purpose": draw.purpose,
                "seed": draw.seed,
                "order": [number_of.get(entry_id) for entry_id in draw.order],
                "performed_at": _when(draw.performed_at),
            }
            for draw in LotDraw.objects.filter(tournament=tournament).order_by("performed_at")
        ],
    }
    archive["content_hash"] = archive_hash(archive)
    return archive
