"""Creating and editing tournaments and registering players.

Every function takes keyword-only arguments and runs in ``transaction.atomic``; problems are
raised as ``django.core.exceptions.ValidationError`` keyed by the form field they belong to
(``rules_slug``, ``table_sizes``, ``preferred_table_size``, ...), so that a view can show them
next to that field.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Player
from rules.registry import get_rule_source, rule_source_data
from seasons.models import Season
from tournaments import seating
from tournaments.models import Deal, Entry, Table, Tournament, TournamentChange
from tournaments.services import changelog
from tournaments.services.registration import entry_category
from tournaments.services.revision import bump_revision

# The settings the log compares before and after an edit.
LOGGED_SETTINGS = (
    "name",
    "host_club_id",
    "season_id",
    "date",
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
    "last_round_raeuber",
    "review_draws",
    "double_entry",
    "two_referee_rulings",
)


def _settings(tournament: Tournament) -> dict:
    values = {name: getattr(tournament, name) for name in LOGGED_SETTINGS}
    values["date"] = values["date"].isoformat() if values["date"] else None
    return values


def supported_table_sizes(rules_slug: str) -> frozenset[int]:
    """The table sizes a rule source can be played at (``RuleSource.tables``)."""
    try:
        return frozenset(get_rule_source(rules_slug).tables)
    except KeyError:
        raise ValidationError({"rules_slug": _("Unknown rule source.")}) from None


def _check_table_sizes(
    *,
    rules_slug: str,
    table_sizes: frozenset[int],
    preferred_table_size: int,
    last_round_raeuber: bool = False,
    five_table_agreement: bool = False,
) -> None:
    supported = supported_table_sizes(rules_slug)
    if five_table_agreement and seating.five_table_agreement_possible(rule_source_data(rules_slug)):
        supported |= {seating.AGREED_TABLE}
    source = get_rule_source(rules_slug)
    if source.practice_only:  # two-hand Cego: club evenings, not tournaments
        raise ValidationError(
            {
                "rules_slug": _(
                    "The rule source %(rules)s is for practice games, not for tournaments."
                )
                % {"rules": rules_slug}
            }
        )
    errors: dict[str, str] = {}
    raeuber = source.contracts.get("raeuber")
    if last_round_raeuber and getattr(raeuber, "last_round_amount", None) is None:
        errors["last_round_raeuber"] = _(
            "The rule source %(rules)s has no higher Räuber amount for the last round."
        ) % {"rules": rules_slug}
    if not table_sizes:
        errors["table_sizes"] = _("Allow at least one table size.")
    elif not table_sizes <= supported:
        errors["table_sizes"] = _(
            "The rule source %(rules)s is played at tables of %(sizes)s only."
        ) % {"rules": rules_slug, "sizes": ", ".join(str(s) for s in sorted(supported))}
        if 5 in table_sizes and seating.five_table_agreement_possible(rule_source_data(rules_slug)):
            errors["table_sizes"] += " " + _(
                "Tables of five can be agreed for the tournament on the draw page."
            )
    if table_sizes and preferred_table_size not in table_sizes:
        errors["preferred_table_size"] = _("The preferred table size must be an allowed size.")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def create_tournament(
    *,
    name: str,
    host_club: Club,
    date: dt.date,
    rules_slug: str,
    season: Season | None = None,
    venue: str = "",
    rounds: int = 2,
    deals_per_round: int = 24,
    table_sizes: frozenset[int] = frozenset({4}),
    preferred_table_size: int = 4,
    entry_mode: str = Tournament.EntryMode.DEALS,
    tie_break: str = Tournament.TieBreak.BEST_ROUND,
    entry_fee_cents: int = 800,
    last_round_raeuber: bool = False,
    review_draws: bool = True,
    double_entry: bool = False,
    two_referee_rulings: bool = False,
    user: User | None = None,
) -> Tournament:
    """Create a tournament and pin a snapshot of its rule source's parameters.

    Only table sizes the rule source supports are accepted."""
    table_sizes = frozenset(table_sizes)
    _check_table_sizes(
        rules_slug=rules_slug,
        table_sizes=table_sizes,
        preferred_table_size=preferred_table_size,
        last_round_raeuber=last_round_raeuber,
    )
    tournament = Tournament(
        name=name,
        host_club=host_club,
        date=date,
        season=season,
        venue=venue,
        rules_slug=rules_slug,
        rules_snapshot=rule_source_data(rules_slug),
        rounds=rounds,
        deals_per_round=deals_per_round,
        preferred_table_size=preferred_table_size,
        tables_of_3=3 in table_sizes,
        tables_of_4=4 in table_sizes,
        tables_of_5=5 in table_sizes,
        entry_mode=entry_mode,
        tie_break=tie_break,
        entry_fee_cents=entry_fee_cents,
        last_round_raeuber=last_round_raeuber,
        review_draws=review_draws,
        double_entry=double_entry,
        two_referee_rulings=two_referee_rulings,
    )
    tournament.full_clean()
    tournament.save()
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.CREATED,
        user=user,
        subject=tournament.name,
        after=_settings(tournament),
    )
    return tournament


def _has_table_of(tournament: Tournament, size: int) -> bool:
    return (
        Table.objects.filter(round__tournament=tournament)
        .annotate(size=Count("seats"))
        .filter(size=size)
        .exists()
    )


@transaction.atomic
def update_tournament(
    *,
    tournament: Tournament,
    name: str,
    host_club: Club,
    date: dt.date,
    rules_slug: str,
    season: Season | None = None,
    venue: str = "",
    rounds: int = 2,
    deals_per_round: int = 24,
    table_sizes: frozenset[int] = frozenset({4}),
    preferred_table_size: int = 4,
    entry_mode: str = Tournament.EntryMode.DEALS,
    tie_break: str = Tournament.TieBreak.BEST_ROUND,
    entry_fee_cents: int = 800,
    last_round_raeuber: bool = False,
    review_draws: bool | None = None,
    double_entry: bool | None = None,
    two_referee_rulings: bool | None = None,
    referees: Iterable[User] | None = None,
    user: User | None = None,
) -> Tournament:
    """Change a tournament's settings (and its referees, if given); logs what changed.

    The rule source (and with it the pinned snapshot) can change only while no round has been
    drawn; choosing another source re-pins the snapshot. The number of rounds cannot drop below
    the rounds already drawn, nor the deals per round below a deal number already entered, and
    the entry mode is fixed once any result exists.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    table_sizes = frozenset(table_sizes)
    errors: dict[str, str] = {}
    drawn = locked.round_set.aggregate(highest=Max("number"))["highest"] or 0
    if rules_slug != locked.rules_slug and drawn:
        errors["rules_slug"] = _("The rule source cannot change once a round has been drawn.")
    if rounds < drawn:
        errors["rounds"] = ngettext(
            "%(count)s round has already been drawn.",
            "%(count)s rounds have already been drawn.",
            drawn,
        ) % {"count": drawn}
    deals = Deal.objects.filter(table__round__tournament=locked)
    highest_deal = deals.aggregate(highest=Max("number"))["highest"] or 0
    if deals_per_round < highest_deal:
        errors["deals_per_round"] = _("Deal %(number)s has already been entered.") % {
            "number": highest_deal
        }
    if entry_mode != locked.entry_mode and highest_deal:
        errors["entry_mode"] = _("The result entry cannot change once results exist.")
    if errors:
        raise ValidationError(errors)
    # The agreed table of five (services.player_count) stays while tables of five stay allowed.
    agreement = locked.five_table_agreement and 5 in table_sizes
    _check_table_sizes(
        rules_slug=rules_slug,
        table_sizes=table_sizes,
        preferred_table_size=preferred_table_size,
        last_round_raeuber=last_round_raeuber,
        five_table_agreement=agreement,
    )
    if locked.five_table_agreement and not agreement and _has_table_of(locked, 5):
        raise ValidationError(
            {
                "table_sizes": _(
                    "A table of five has been drawn under the tournament agreement: tables of "
                    "five stay allowed."
                )
            }
        )
    if rules_slug != locked.rules_slug:
        locked.rules_slug = rules_slug
        locked.rules_snapshot = rule_source_data(rules_slug)
        agreement = agreement and seating.five_table_agreement_possible(locked.rules_snapshot)
        if agreement:
            locked.rules_snapshot = seating.with_five_table_agreement(locked.rules_snapshot)
    elif locked.five_table_agreement and not agreement:
        locked.rules_snapshot = seating.without_five_table_agreement(locked.rules_snapshot)
    locked.five_table_agreement = agreement
    locked.name = name
    locked.host_club = host_club
    locked.date = date
    locked.season = season
    locked.venue = venue
    locked.rounds = rounds
    locked.deals_per_round = deals_per_round
    locked.preferred_table_size = preferred_table_size
    locked.tables_of_3 = 3 in table_sizes
    locked.tables_of_4 = 4 in table_sizes
    locked.tables_of_5 = 5 in table_sizes
    locked.entry_mode = entry_mode
    locked.tie_break = tie_break
    locked.entry_fee_cents = entry_fee_cents
    locked.last_round_raeuber = last_round_raeuber
    if review_draws is not None:  # None: left as it is
        locked.review_draws = review_draws
    if double_entry is not None:  # None: left as it is
        locked.double_entry = double_entry
    if two_referee_rulings is not None:  # None: left as it is
        locked.two_referee_rulings = two_referee_rulings
    before = _settings(Tournament.objects.get(pk=locked.pk))
    locked.full_clean()
    locked.save()
    after = _settings(locked)
    changed = [name for name in LOGGED_SETTINGS if before[name] != after[name]]
    if changed:
        changelog.record(
            tournament_id=locked.pk,
            action=TournamentChange.Action.EDITED,
            user=user,
            subject=", ".join(changed),
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )
    if referees is not None:
        set_referees(tournament=locked, referees=referees, user=user)
    return locked


@transaction.atomic
def set_referees(
    *,
    tournament: Tournament,
    referees: Iterable[User],
    user: User | None = None,
) -> Tournament:
    """Name the tournament's referees (replacing the earlier ones); logs the change."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = sorted(locked.referees.values_list("username", flat=True))
    wanted = list(referees)
    after = sorted(referee.get_username() for referee in wanted)
    if before != after:
        locked.referees.set(wanted)
        changelog.record(
            tournament_id=locked.pk,
            action=TournamentChange.Action.REFEREES,
            user=user,
            subject=", ".join(after) or "–",
            before=before,
            after=after,
        )
    return locked


@transaction.atomic
def register_player(
    *,
    tournament: Tournament,
    player: Player,
    category: str | None = None,
    checked_in: bool = False,
    fee_paid: bool = False,
    user: User | None = None,
) -> Entry:
    """Register a player; the start number is the next free one in the tournament.

    ``fee_paid`` is ignored for an entry that plays free (youth where the tournament lets
    youth play free): no fee is recorded for it, as :func:`tournaments.money.entry_fee_cents`
    counts none. Raises ValidationError (field ``player``) if the player is registered
    already."""
    # Lock the tournament row so that two desks registering at once get distinct numbers.
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=tournament.pk)
    )
    if tournament.entries.filter(player=player).exists():
        raise ValidationError(
            {"player": _("%(name)s is registered already.") % {"name": player.full_name}}
        )
    highest = tournament.entries.aggregate(highest=Max("number"))["highest"] or 0
    entry = Entry(
        tournament=tournament,
        player=player,
        number=highest + 1,
        category=category or entry_category(tournament, player=player),
        checked_in=checked_in,
        fee_paid=fee_paid,
    )
    if entry.plays_free:
        entry.fee_paid = False
    entry.full_clean()
    entry.save()
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.REGISTERED,
        user=user,
        subject=f"{entry.number}: {player.full_name}",
        after={"checked_in": checked_in, "fee_paid": entry.fee_paid, "category": entry.category},
    )
    bump_revision(tournament_id=tournament.pk)
    return entry
