"""Who may do what: the one place that decides.

Views ask through ``organiser_required`` (someone who may run something at all; visitors
are sent to the login page, signed-in users without any role get 403) and ``check`` (this
user, this action, this object), or in one step through ``tournament_permission``, which finds
the tournament from the URL. Templates ask through ``{% may "action" obj as flag %}``
(``clubs.templatetags.permissions``). Nothing else in the code base decides access. The table
token on the phone pages is a separate, anonymous capability and does not pass through here.

Roles:
- superuser: everything (and the only one let into the Django admin);
- organiser of a club (``ClubRole``): that club's tournaments, players, fees, the seasons it
  hosts;
- referee of a tournament (``Tournament.referees``): correct, annul, void and draw lots in
  that tournament only (and see its result pages to do so);
- official of a tournament (``is_official``: its host club's organisers, its referees,
  superusers): one of the two signatures a swap of drawn seats or a two-referee ruling
  needs (``tournaments.services.fairness``);
- the association's season scorer (``AssociationRole``, no club needed): appeals against the
  results of any season's tournament (recorded, decided, the appellant's text), confirming
  results before the appeal window closes; the register of sanctions (with their reasons);
- while no account exists: whoever sits at the laptop, or types the one-time code printed in
  its terminal, may create the first account and its club (``/setup/``, below).

Actions, each on the object named:
- ``MANAGE_CLUB`` (club): the club's players, members, fees, creating its tournaments.
- ``MANAGE_SEASON`` (season): season rules, season exports.
- ``MANAGE_TOURNAMENT`` (tournament): setup, check-in, draw, printouts, entry, log.
- ``REFEREE_TOURNAMENT`` (tournament): correct, annul, void, draw lots (each with a reason).
- ``JUDGE_RESULTS`` (a tournament, an appeal, or None): record and decide appeals, read the
  appellants' texts, confirm a tournament's results early. The season scorer and superusers
  only; the host club's organisers do not judge appeals against their own tournaments.
- ``KEEP_SANCTIONS`` (None or a sanction): the register of sanctions with its reasons; record
  and lift sanctions. The season scorer and superusers only: the organisers who register a
  banned player see a warning with the terms (from, until or for N), never the reason.
- ``MANAGE_SIMULTANEOUS`` (None or a simultaneous day): create a simultaneous Cego day and
  add or remove its halls (``simultaneous.services``). The season scorer and superusers only:
  the day spans clubs, so no club's organiser decides it; each host runs its own hall.

An object that belongs to a tournament (round, table, seat, deal, entry …) may be passed
instead of the tournament; a player stands for the clubs they are a member of.

What a user may see of the registry is decided here too (the lists, searches, exports and
duplicate offers ask ``registry_players``, ``registry_player_ids``, ``registry_memberships``,
``exportable_players``, ``manageable_clubs``): a player's birth year, member number, e-mail
and fees only for the organisers of the player's clubs and superusers; names and clubs as on
the public standings. What a club's publishing token may take of the registry (its laptops'
copy, ``GET /api/registry/``) is decided here as well (``club_registry_players``,
``club_registry_memberships``): the club's own members in full, everybody else as the public
sees them.
"""

from __future__ import annotations

import ipaddress
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404

MANAGE_CLUB = "manage_club"
MANAGE_SEASON = "manage_season"
MANAGE_TOURNAMENT = "manage_tournament"
REFEREE_TOURNAMENT = "referee_tournament"
JUDGE_RESULTS = "judge_results"
KEEP_SANCTIONS = "keep_sanctions"
MANAGE_SIMULTANEOUS = "manage_simultaneous"

ACTIONS = (
    MANAGE_CLUB,
    MANAGE_SEASON,
    MANAGE_TOURNAMENT,
    REFEREE_TOURNAMENT,
    JUDGE_RESULTS,
    KEEP_SANCTIONS,
    MANAGE_SIMULTANEOUS,
)
# The association's actions: held by its season scorer whatever the object (and superusers).
ASSOCIATION_ACTIONS = (JUDGE_RESULTS, KEEP_SANCTIONS, MANAGE_SIMULTANEOUS)


# --- what the user holds (two queries per request at most, cached on the user object) ----


def _active(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def organised_club_ids(user: Any) -> frozenset[int]:
    """The clubs ``user`` is an organiser of."""
    if not _active(user):
        return frozenset()
    cached = getattr(user, "_organised_club_ids", None)
    if cached is None:
        from clubs.models import ClubRole

        cached = frozenset(
            ClubRole.objects.filter(user=user, role=ClubRole.Role.ORGANISER).values_list(
                "club_id", flat=True
            )
        )
        user._organised_club_ids = cached
    return cached


def refereed_tournament_ids(user: Any) -> frozenset[int]:
    """The tournaments ``user`` is a referee of."""
    if not _active(user):
        return frozenset()
    cached = getattr(user, "_refereed_tournament_ids", None)
    if cached is None:
        cached = frozenset(user.refereed_tournaments.values_list("pk", flat=True))
        user._refereed_tournament_ids = cached
    return cached


def association_roles(user: Any) -> frozenset[str]:
    """The association's roles ``user`` holds (``AssociationRole``): read once per request,
    and only where a page asks."""
    if not _active(user):
        return frozenset()
    cached = getattr(user, "_association_roles", None)
    if cached is None:
        from clubs.models import AssociationRole

        cached = frozenset(AssociationRole.objects.filter(user=user).values_list("role", flat=True))
        user._association_roles = cached
    return cached


def is_superuser(user: Any) -> bool:
    return _active(user) and bool(user.is_superuser)


def is_season_scorer(user: Any) -> bool:
    """The association's season scorer (or a superuser): appeals, early confirmations and
    the register of sanctions."""
    from clubs.models import AssociationRole

    return is_superuser(user) or AssociationRole.Role.SEASON_SCORER in association_roles(user)


def is_organiser(user: Any) -> bool:
    """Someone who may run anything at all (before any object is known): a superuser, an
    organiser of some club or a referee of some tournament."""
    return (
        is_superuser(user) or bool(organised_club_ids(user)) or bool(refereed_tournament_ids(user))
    )


def manageable_clubs(user: Any):
    """The clubs ``user`` may run (for choices such as a new tournament's host club)."""
    from clubs.models import Club

    if is_superuser(user):
        return Club.objects.all()
    return Club.objects.filter(pk__in=organised_club_ids(user))


# --- from an object to the club and tournament it belongs to ------------------------------


# The areas above the registry mark their models instead of being imported here:
# ``Tournament.is_tournament`` and ``Season.is_season`` are True.


def tournament_of(obj: Any):
    """The tournament an object belongs to (None if it belongs to none): a tournament itself,
    or the tournament of its round, table or seat (entries, deals, teams …)."""
    if getattr(obj, "is_tournament", False):
        return obj
    for path in ("tournament", "round", "table", "seat"):
        parent = getattr(obj, path, None)
        if parent is not None and parent is not obj:
            return tournament_of(parent)
    return None


def _club_ids_of(obj: Any) -> frozenset[int]:
    from clubs.models import Club, Player

    if isinstance(obj, Club):
        return frozenset({obj.pk})
    if isinstance(obj, Player):
        return frozenset(obj.memberships.values_list("club_id", flat=True))
    if getattr(obj, "is_season", False):
        # A season a club hosts; a season without a host club (an association's
        # championship) is run by the clubs that host its tournaments.
        host = getattr(obj, "host_club_id", None) or getattr(obj, "club_id", None)
        if host is not None:
            return frozenset({host})
        return frozenset(obj.tournaments.values_list("host_club_id", flat=True))
    tournament = tournament_of(obj)
    if tournament is not None:
        return frozenset({tournament.host_club_id})
    club_id = getattr(obj, "club_id", None)
    if club_id is not None:
        return frozenset({club_id})
    season = getattr(obj, "season", None)  # e.g. a season's team: the season's clubs
    if getattr(season, "is_season", False):
        return _club_ids_of(season)
    return frozenset()


# --- the decision ------------------------------------------------------------------------


def has_perm(user: Any, action: str, obj: Any) -> bool:
    """May ``user`` do ``action`` to ``obj``?"""
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    if action in ASSOCIATION_ACTIONS:
        return is_season_scorer(user)
    mine = organised_club_ids(user)
    if obj is None:
        # No object yet: the shared player registry, an import, a new season, a player
        # without a club: any club's organiser. Tournament actions always name one.
        return action in (MANAGE_CLUB, MANAGE_SEASON) and bool(mine)
    if action == REFEREE_TOURNAMENT:
        tournament = tournament_of(obj)
        if tournament is None:
            return False
        # The host club's organisers referee their own tournaments too (asked first: their
        # pages, which ask both, then read no referee list).
        if tournament.host_club_id in mine:
            return True
        return tournament.pk in refereed_tournament_ids(user)
    if action == MANAGE_TOURNAMENT and tournament_of(obj) is None:
        return False
    return bool(mine and _club_ids_of(obj) & mine)


# --- a tournament's officials (swaps of drawn seats, rulings) ------------------------------


def is_official(user: Any, tournament: Any) -> bool:
    """May ``user`` sign for ``tournament`` as one of its officials: approve a swap of drawn
    seats, sign or confirm a ruling? The host club's organisers and the tournament's
    referees (``Tournament.referees``), and superusers (who may do everything, and could
    name themselves a referee). Where two signatures are needed they must be two different
    users (``tournaments.services.fairness``); this says only who may give one."""
    return has_perm(user, REFEREE_TOURNAMENT, tournament)


def sees_hidden_places(user: Any, tournament: Any) -> bool:
    """May ``user`` see the places hidden from the public until the prize ceremony
    (``ceremony.models.CeremonySettings``)? The desk and the referees: the host club's
    organisers, the tournament's referees, superusers. What the public sees instead is
    ``tournaments.selectors.visibility``; the projector, the phones' pages, the read API and
    the season's pages are the public's whoever opens them."""
    return has_perm(user, REFEREE_TOURNAMENT, tournament)


def named_officials(tournament: Any) -> list[Any]:
    """The users the tournament names as its officials: the host club's organisers and its
    referees, by user name (one query). What the pages say when a second signature is
    needed (a superuser who is neither is not listed, though ``is_official``)."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from clubs.models import ClubRole

    tournament = tournament_of(tournament)
    return list(
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(club_roles__club_id=tournament.host_club_id, club_roles__role=ClubRole.Role.ORGANISER)
            | Q(refereed_tournaments=tournament)
        )
        .distinct()
        .order_by("username")
    )


def check(user: Any, action: str, obj: Any) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may do ``action`` to ``obj``."""
    if not has_perm(user, action, obj):
        raise PermissionDenied


# --- a tournament the hall holds (fetched by a venue laptop) ------------------------------


class HeldInHall(PermissionDenied):
    """The tournament was fetched by a venue laptop: its day's content is written there."""


def held_in_hall(tournament: Any) -> bool:
    """On the season server: the tournament was set up here and fetched by a venue laptop
    (``publishing.server.handover``), which writes it from then on. Its registration, draw, results
    and settings are read-only here; only a registration for the hall may still be made
    (``tournaments.services.registration``: kept apart until the laptop takes it)."""
    tournament = tournament_of(tournament)
    return tournament is not None and getattr(tournament, "in_hall_since", None) is not None


def hall_message(tournament: Any) -> str:
    from django.utils import formats
    from django.utils.translation import gettext as _

    tournament = tournament_of(tournament)
    return _(
        "This tournament is run in the hall (fetched by a venue laptop on %(when)s): its "
        "registration, draw and results are changed there and arrive here by themselves."
    ) % {"when": formats.date_format(tournament.in_hall_since, "SHORT_DATETIME_FORMAT")}


def check_not_in_hall(tournament: Any) -> None:
    """Raise ``HeldInHall`` (a 403 with the German message) for a change to the day's
    content of a tournament the hall holds."""
    if held_in_hall(tournament):
        raise HeldInHall(hall_message(tournament))


# --- view decorators ---------------------------------------------------------------------


def refuse(request):
    """Visitors go to the login page; a signed-in user without the right gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def season_scorer_required(view):
    """The association's pages: visitors to the login page, anyone but the season scorer
    (and superusers) 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_season_scorer(request.user):
            return refuse(request)
        return view(request, *args, **kwargs)

    return wrapper


def organiser_required(view):
    """Send visitors to the login page; the object check follows inside the view."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_organiser(request.user):
            return refuse(request)
        return view(request, *args, **kwargs)

    return wrapper


# --- what a user may see of the registry --------------------------------------------------


def registry_players(user: Any, players):
    """Of ``players`` (a queryset), those whose registry record ``user`` may list, search,
    open and see with its personal data (birth year, member number, e-mail, fees): the
    members of the clubs ``user`` runs and the players of no club (the registry's shared
    business, as for editing them); superusers all; anyone else (a referee, someone without
    a role) none. The lists, searches and duplicate offers of the registry go through here."""
    from django.db.models import Q

    from clubs.models import Membership

    if is_superuser(user):
        return players
    mine = organised_club_ids(user)
    if not mine:
        return players.none()
    members = Membership.objects.filter(club_id__in=mine).values("player_id")
    return players.filter(Q(pk__in=members) | ~Q(pk__in=Membership.objects.values("player_id")))


def registry_memberships(user: Any, memberships):
    """Of ``memberships`` (a queryset), those ``user`` may see with member number, status
    and dates: of the clubs ``user`` runs; superusers all. A player who belongs to two clubs
    shows each club only its own membership."""
    if is_superuser(user):
        return memberships
    return memberships.filter(club_id__in=organised_club_ids(user))


def registry_player_ids(user: Any, player_ids: Any) -> frozenset[int]:
    """Of ``player_ids``, those whose personal data ``user`` may see (``registry_players``;
    one query): for pages that name players of every club, such as a duplicate offer or a
    tournament's archive, to show birth year and member number only where allowed."""
    from clubs.models import Player

    ids = frozenset(player_ids)
    if is_superuser(user) or not ids:
        return ids
    return frozenset(
        registry_players(user, Player.objects.filter(pk__in=ids)).values_list("pk", flat=True)
    )


def club_registry_players(club: Any, players):
    """Of ``players`` (a queryset), those whose personal data (birth year, e-mail) a laptop
    of ``club`` may take with the club's publishing token: the club's own members, as its
    organisers see them (``registry_players``). Unlike an organiser's login it does not
    reach the players of no club: a token travels on a laptop and in every backup of it, so
    it carries no more than the club's own (everybody else goes as the public pages show
    them: name, club, category, registry id)."""
    from clubs.models import Membership

    if club is None or getattr(club, "pk", None) is None:
        return players.none()
    return players.filter(pk__in=Membership.objects.filter(club_id=club.pk).values("player_id"))


def club_registry_memberships(club: Any, memberships):
    """Of ``memberships`` (a queryset), those a laptop of ``club`` may take with member
    number, status and dates (``club_registry_players``): the club's own, as for its
    organisers (``registry_memberships``). Of another club's membership it gets only that
    the player plays for that club, as on the public standings."""
    if club is None or getattr(club, "pk", None) is None:
        return memberships.none()
    return memberships.filter(club_id=club.pk)


def exportable_players(user: Any, players):
    """Of ``players`` (a queryset), those a list or export may give ``user`` with their
    personal data (birth year, member number, e-mail): the members of the clubs ``user``
    runs; superusers all. Someone who runs no club (a referee) gets ``PermissionDenied``."""
    if is_superuser(user):
        return players
    mine = organised_club_ids(user)
    if not mine:
        raise PermissionDenied
    return players.filter(memberships__club_id__in=mine).distinct()


def _player_page_open(user: Any, clubs: list[tuple[int, bool]]) -> bool:
    """``clubs``: the player's (club id, club shows player pages publicly)."""
    if is_superuser(user) or any(public for _club, public in clubs):
        return True
    mine = organised_club_ids(user)
    # A player of no club is the registry's shared business: any club's organiser.
    return bool(mine) and (not clubs or any(club in mine for club, _public in clubs))


def may_view_player_page(user: Any, player: Any) -> bool:
    """The player's results page: superusers and the organisers of the player's clubs (any
    club's for a player without one); the public where one of the player's clubs opted in
    (``Club.public_player_pages``, off by default). Not another club's organiser, nor a
    referee, where the club keeps its players' pages private."""
    if is_superuser(user):
        return True  # without reading the player's clubs
    clubs = list(player.memberships.values_list("club_id", "club__public_player_pages"))
    return _player_page_open(user, clubs)


def refuse_player_page(request):
    """What someone gets for a player page ``may_view_player_page`` keeps from them: a visitor
    the login page (an organiser may see it after logging in); a signed-in user without the
    right a 404, as for a player who does not exist: neither the data nor a hint of it."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise Http404


def may_see_registry_of(user: Any, player: Any) -> bool:
    """May ``user`` see ``player``'s personal data (birth year, e-mail, member numbers)?"""
    return player.pk in registry_player_ids(user, [player.pk])


def player_pages_visible(user: Any, player_ids: Any) -> frozenset[int]:
    """Of ``player_ids``, those whose page ``user`` may open (one query for the public)."""
    from clubs.models import Membership  # the models import nothing from here

    ids = frozenset(player_ids)
    if is_superuser(user):
        return ids
    clubs: dict[int, list[tuple[int, bool]]] = {pk: [] for pk in ids}
    for player_id, club_id, public in Membership.objects.filter(player_id__in=ids).values_list(
        "player_id", "club_id", "club__public_player_pages"
    ):
        clubs[player_id].append((club_id, public))
    return frozenset(pk for pk, of in clubs.items() if _player_page_open(user, of))


def public_player_page_ids(player_ids: Any) -> frozenset[int]:
    """Of ``player_ids``, those whose page anyone may open (one of their clubs opted in):
    what a page shown alike to every reader links (the tournament standings, cached by
    revision; a club's choice bumps the revisions of the tournaments showing its players)."""
    return player_pages_visible(None, player_ids)


# --- the first run (``/setup/``) -----------------------------------------------------------


def first_run_open() -> bool:
    """The first-run page exists only while the installation has no account at all."""
    from django.contrib.auth import get_user_model

    return not get_user_model().objects.exists()


def first_run_needs_code(address: str | None, *, through_unknown_proxy: bool = False) -> bool:
    """Who may claim a new installation on ``/setup/``: the laptop itself (a request from
    its loopback address, ``venue.client_ip.client_ip``) needs nothing more; anyone else,
    on the hall's Wi-Fi or the internet, must type the one-time code the server printed in
    its terminal (checked by ``clubs.services.setup``). An unknown address needs the code,
    and so does a loopback address reached through a proxy the settings do not name
    (``venue.client_ip.through_unknown_proxy``: a club server whose ``TRUSTED_PROXY_COUNT``
    was forgotten would otherwise take the whole internet for the laptop)."""
    if not address or through_unknown_proxy:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return True
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 on a dual-stack socket
    return not (mapped or ip).is_loopback


# --- a tournament that also counts for other series (issue 41) -----------------------------


def may_set_series(user: Any, tournament: Any, season: Any) -> bool:
    """May ``user`` make ``tournament`` also count for the series ``season``, or stop it? Both
    sides must agree: the tournament's host (its club's organisers) or the association's
    season scorer, and the series' own side (the organisers of the clubs hosting its own
    tournaments, ``MANAGE_SEASON``) or the season scorer. Superusers always."""
    if not _active(user):
        return False
    if user.is_superuser or is_season_scorer(user):
        return True
    return has_perm(user, MANAGE_TOURNAMENT, tournament) and has_perm(user, MANAGE_SEASON, season)
