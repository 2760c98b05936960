"""The authorisation matrix: every URL of the project × every persona × GET and POST.

The URLs come from the URLconf itself, so a new URL without an entry in ``MATRIX`` fails
``test_every_url_has_a_matrix_entry``. Allowed personas must get their page (200, or a
redirect / 405 where the view says so); refused ones get the login redirect (anonymous) or
403/404 (signed in), and a refused POST changes nothing in the database. An allowed POST
that is meant to change something must change something, so the payloads are real ones.
What an allowed persona then *sees* of each list, search and export: ``test_contents.py``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubs.models import AssociationRole, Club, ClubRole, Membership, Player, Sanction
from publishing.models import Publication, PublishToken
from seasons.models import Appeal, ResultConfirmation, Season
from signups.models import Signup, SignupChange, SignupSheet
from tests.authz.conftest import EINE_WON, PERSONAS, World, client_for
from tests.conftest import WEASYPRINT_URLS, require_weasyprint
from tournaments.models import (
    Announcement,
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    RefereeCall,
    Round,
    RoundChange,
    Ruling,
    Seat,
    SeatSwap,
    SheetTyping,
    Substitution,
    Table,
    Team,
    Tournament,
    TournamentChange,
)

EVERYONE = frozenset(PERSONAS)
MANAGE = frozenset({"organiser", "superuser"})
REFEREE = frozenset({"organiser", "referee", "superuser"})
CREATE = frozenset({"organiser", "gast", "superuser"})
SEASON = frozenset({"organiser", "superuser"})
# Signed in with some role: the club area's lists (what is shown is checked inside).
ANY_ROLE = frozenset({"organiser", "gast", "referee", "other_referee", "superuser"})
CLUB_ORGANISERS = frozenset({"organiser", "gast", "superuser"})
SUPERUSER = frozenset({"superuser"})
# The association's season scorer: appeals, early confirmations.
SCORER = frozenset({"scorer", "superuser"})


@dataclass(frozen=True)
class Spec:
    kwargs: Callable[[World], dict]
    allowed: frozenset[str]
    post: Callable[[World, str], dict] = lambda w, p: {}
    allowed_post: frozenset[str] | None = None  # default: as for GET
    post_only: bool = False
    changes: bool | None = False  # an allowed POST changes the database (None: may or not)
    get_ok: frozenset[int] = field(default_factory=lambda: frozenset({200}))
    get_only: bool = False  # a POST is answered 405 for everyone (the read API)
    # A token API refuses every persona (a session is no token) with these statuses.
    token_refusal: frozenset[int] | None = None


def deal_data(number: int, **extra) -> dict:
    return {
        "number": number,
        **EINE_WON,
        "submission_key": str(uuid.uuid4()),
        **extra,
    }


def tournament_form(world: World, persona: str) -> dict:
    club = world.club_b if persona == "gast" else world.club_a
    return {
        "name": "Neues Turnier",
        "host_club": club.pk,
        "date": "2026-12-05",
        "venue": "Halle",
        "rules_slug": "swm",
        "rounds": 2,
        "deals_per_round": 4,
        "table_sizes": [4],
        "preferred_table_size": 4,
        "entry_mode": "deals",
        "tie_break": "best_round",
        "entry_fee": "8.00",
    }


def edit_form(world: World, persona: str) -> dict:
    data = tournament_form(world, "organiser")
    data["name"] = "Turnier A (geändert)"
    return data


def day(w: World) -> dict:
    return {"pk": w.day.pk}


def round_1(name: str = "round") -> Callable[[World], dict]:
    return lambda w: {"pk": w.day.pk, name: 1}


def token(w: World) -> dict:
    return {"token": w.table.token}


def token_deal(w: World) -> dict:
    return {"token": w.table.token, "deal_pk": w.pending.pk}


def open_call(w: World) -> dict:
    call = RefereeCall.objects.create(tournament=w.day, table=w.table, deal_number=2)
    return {"pk": w.day.pk, "call_pk": call.pk}


def waiting_swap(w: World) -> dict:
    seats = list(w.table.seats.order_by("position")[:2])
    swap = SeatSwap.objects.create(
        tournament=w.day,
        round=w.table.round,
        first=seats[0].entry,
        second=seats[1].entry,
        first_table=w.table.number,
        first_position=0,
        second_table=w.table.number,
        second_position=1,
        reason="Sehbehinderung: näher ans Licht",
        requested_name="Anna Aufsicht",
    )
    return {"pk": w.day.pk, "swap_pk": swap.pk}


def pending_ruling(w: World) -> dict:
    ruling = Ruling.objects.create(
        tournament=w.day,
        round_number=1,
        table_number=w.table.number,
        deal_number=2,
        decision="Spiel 2 wird wie gespielt gewertet",
        needs_two=True,
        first_name="Anna Aufsicht",
    )
    return {"pk": w.day.pk, "ruling_pk": ruling.pk}


def shown_message(w: World) -> dict:
    item = Announcement.objects.create(tournament=w.day, text="Pause bis 15 Uhr")
    return {"pk": w.day.pk, "announcement_pk": item.pk}


def open_appeal(w: World) -> dict:
    appeal = Appeal.objects.create(
        tournament=w.day, appellant="CF A", text="Tisch 1, Spiel 2", received_on=w.day.date
    )
    return {"pk": appeal.pk}


def finished_day(w: World) -> dict:
    from django.utils import timezone

    Tournament.objects.filter(pk=w.day.pk).update(finished_at=timezone.now())
    return {"pk": w.day.pk}


def appeal_data(w: World, persona: str) -> dict:
    from django.utils import timezone

    return {
        "tournament": w.day.pk,
        "appellant": "Cegoclub B",
        "text": "Spiel 2 falsch gewertet",
        "received_on": timezone.localdate().isoformat(),
    }


def live_sanction(w: World) -> dict:
    sanction = Sanction.objects.create(
        player=w.spare.player,
        reason="Turnier verlassen",
        starts_on=w.day.date,
        tournaments=2,
        decided_by="Vorstand",
    )
    return {"pk": sanction.pk}


MATRIX_LINK = "matrix-personal-link"


def photo_of(w: World):
    """A photo of table 1's sheet waiting for the desk, its deal 3 read as Eine won (made once;
    the matrix's POSTs are rolled back)."""
    import cv2
    import numpy as np

    from tournaments.models import SheetPhoto

    page = cv2.imencode(".jpg", np.full((120, 200), 230, np.uint8))[1].tobytes()
    values = {**EINE_WON, "won": None, "after_solo": False}
    photo, _created = SheetPhoto.objects.get_or_create(
        tournament=w.day,
        sha256="0" * 64,
        defaults={
            "table": w.table,
            "via": "desk",
            "photo": page,
            "straightened": page,
            "rows": [
                {
                    "deal": 3,
                    "flags": [],
                    "values": values,
                    "accepted": True,
                    "struck": False,
                    "empty": False,
                    "scores": None,
                    "crop": [0, 20, 200, 40],
                }
            ],
        },
    )
    return photo


def signup_of(w: World):
    """A sign-up for the world's tournament (made once; the matrix's POSTs are rolled back)."""
    from django.utils import timezone

    from signups.models import Signup
    from signups.selectors import token_hash

    signup, _created = Signup.objects.get_or_create(
        tournament=w.day,
        name_key=" matrix anna ",
        defaults={
            "first_name": "Anna",
            "last_name": "Matrix",
            "consent_at": timezone.now(),
            "status": "held",
            "token_hash": token_hash(token=MATRIX_LINK),
        },
    )
    return signup


def signup_kwargs(w: World) -> dict:
    return {"pk": w.day.pk, "signup_pk": signup_of(w).pk}


def simultaneous_day(w: World):
    """A simultaneous day on the world's tournament's date and rules, with it as a hall."""
    from simultaneous.models import Section, SimultaneousDay

    found, _ = SimultaneousDay.objects.get_or_create(
        name="Simultan",
        defaults={
            "date": w.day.date,
            "rules_slug": w.day.rules_slug,
            "rounds": w.day.rounds,
            "deals_per_round": w.day.deals_per_round,
            "created_by": w.users["scorer"],
        },
    )
    Section.objects.get_or_create(
        day=found, tournament=w.day, defaults={"added_by": found.created_by}
    )
    return found


def simday(w: World) -> dict:
    return {"pk": simultaneous_day(w).pk}


MATRIX: dict[str, Spec] = {
    # public pages
    "tournaments:home": Spec(lambda w: {}, EVERYONE),
    "tournaments:standings": Spec(day, EVERYONE),
    "tournaments:projector": Spec(day, EVERYONE),
    "tournaments:my_seat_search": Spec(day, EVERYONE),
    "tournaments:my_seat": Spec(lambda w: {"pk": w.day.pk, "number": 1}, EVERYONE),
    "seasons:season_standings": Spec(lambda w: {"pk": w.season.pk}, EVERYONE),
    "seasons:season_projector": Spec(lambda w: {"pk": w.season.pk}, EVERYONE),
    # the tournament calendar, its feeds and the roll of honour: public, read only
    "seasons:calendar": Spec(lambda w: {}, EVERYONE, get_only=True),
    "seasons:calendar_feed": Spec(lambda w: {}, EVERYONE, get_only=True),
    "seasons:calendar_season_feed": Spec(
        lambda w: {"key": str(w.season.pk)}, EVERYONE, get_only=True
    ),
    "seasons:calendar_club_feed": Spec(
        lambda w: {"key": str(w.club_a.pk)}, EVERYONE, get_only=True
    ),
    "seasons:roll_of_honour": Spec(lambda w: {}, EVERYONE, get_only=True),
    "seasons:season_statistics": Spec(lambda w: {"pk": w.season.pk}, EVERYONE),
    # issue 41: the other series a tournament also counts for (its host and the association)
    "seasons:tournament_series": Spec(day, MANAGE | {"scorer"}, changes=None),
    # the association's season scorer: appeals and early confirmations
    "seasons:appeals": Spec(lambda w: {}, SCORER),
    "seasons:appeal_record": Spec(
        lambda w: {}, SCORER, post=appeal_data, post_only=True, changes=True
    ),
    "seasons:appeal_decide": Spec(
        open_appeal,
        SCORER,
        post=lambda w, p: {
            f"appeal-{Appeal.objects.get().pk}-outcome": "rejected",
            f"appeal-{Appeal.objects.get().pk}-reason": "richtig gewertet",
        },
        post_only=True,
        changes=True,
    ),
    "seasons:results_confirm": Spec(finished_day, SCORER, post_only=True, changes=True),
    # the register of sanctions: the season scorer's alone
    "seasons:sanctions": Spec(lambda w: {}, SCORER),
    "seasons:sanction_record": Spec(
        lambda w: {},
        SCORER,
        post=lambda w, p: {
            "player": w.spare.player_id,
            "starts_on": "2026-12-01",
            "ends_on": "2026-12-31",
            "reason": "Turnier verlassen",
            "decided_by": "Vorstand",
        },
        post_only=True,
        changes=True,
    ),
    "seasons:sanction_lift": Spec(
        live_sanction,
        SCORER,
        post=lambda w, p: {f"lift-{Sanction.objects.get().pk}-lift_reason": "Irrtum"},
        post_only=True,
        changes=True,
    ),
    "tournaments:count_cards": Spec(
        lambda w: {},
        EVERYONE,
        post=lambda w, p: {"count-method": "threes", "count-fives": 3},
        post_only=True,
    ),
    "rules:rule_sources": Spec(lambda w: {}, EVERYONE),
    "handbook:handbook": Spec(lambda w: {}, EVERYONE),  # the handbook is public
    "rules:tariff_card": Spec(lambda w: {"slug": "swm"}, EVERYONE),
    "tournaments:tournament_rules": Spec(day, EVERYONE),
    "printing:tariff_card_pdf": Spec(lambda w: {"slug": "swm"}, EVERYONE),
    "set_language": Spec(
        lambda w: {}, EVERYONE, post=lambda w, p: {"language": "en"}, get_ok=frozenset({302})
    ),
    "login": Spec(
        lambda w: {},
        EVERYONE,
        post=lambda w, p: {"username": "organiser", "password": "wrong"},
        get_ok=frozenset({200, 302}),  # a signed-in user is sent on
    ),
    "logout": Spec(lambda w: {}, EVERYONE, post_only=True),
    # The first-time setup is gone once any account exists: everyone is sent on (visitors
    # to the login page), and a complete claim from the laptop itself creates nothing.
    "clubs:first_run": Spec(
        lambda w: {},
        EVERYONE,
        post=lambda w, p: {
            "username": "eindringling",
            "password": "Kartenspiel-2026",
            "password_again": "Kartenspiel-2026",
            "club_name": "Fremder Verein",
            "club_short_name": "FV",
            "club_town": "Irgendwo",
            "code": "AAAA-AAAA",
        },
        get_ok=frozenset({302}),
    ),
    "admin_login_redirect": Spec(lambda w: {}, EVERYONE, get_ok=frozenset({302})),
    "health": Spec(lambda w: {}, EVERYONE, get_ok=frozenset({200, 503})),
    # the read API: public, GET only; what it holds is checked in tests/api
    "api:index": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:tournaments": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:tournament": Spec(day, EVERYONE, get_only=True),
    "api:seasons": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:season_standings": Spec(lambda w: {"pk": w.season.pk}, EVERYONE, get_only=True),
    "api:season_statistics": Spec(lambda w: {"pk": w.season.pk}, EVERYONE, get_only=True),
    "api:clubs": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:players": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:simultaneous_days": Spec(lambda w: {}, EVERYONE, get_only=True),
    "api:simultaneous_day": Spec(simday, EVERYONE, get_only=True),
    "api:ratings": Spec(lambda w: {}, EVERYONE, get_only=True),
    "ratings:rating_list": Spec(lambda w: {}, EVERYONE, get_only=True),
    "favicon": Spec(lambda w: {}, EVERYONE, get_ok=frozenset({302})),
    # online pre-registration: the public form (the world's tournament has begun: closed,
    # a POST stores nothing) and the personal link's page (a POST without the tick: nothing)
    "signups:form": Spec(
        day,
        EVERYONE,
        post=lambda w, p: {"first_name": "A", "last_name": "B", "club": "other", "consent": "on"},
    ),
    "signups:status": Spec(
        lambda w: {"token": (signup_of(w), MATRIX_LINK)[1]},
        EVERYONE,
        post=lambda w, p: {"action": "cancel"},
        get_ok=frozenset({200}),
    ),
    # the table's phone pages: the token is the key, whoever holds it
    "tournaments:table_entry": Spec(token, EVERYONE),
    "tournaments:table_short_code": Spec(
        lambda w: {"code": w.table.short_code}, EVERYONE, get_ok=frozenset({302})
    ),
    "tournaments:table_entry_seat": Spec(
        token, EVERYONE, post=lambda w, p: {"position": 1}, post_only=True
    ),
    "tournaments:table_entry_leave": Spec(token, EVERYONE, post_only=True),
    # "Schiedsrichter rufen": whoever holds the table's token (a second press adds nothing)
    "tournaments:table_entry_call": Spec(
        token,
        EVERYONE,
        post=lambda w, p: {"deal": "3", "reason": "Streit um einen Stich"},
        post_only=True,
        changes=True,
    ),
    "tournaments:table_entry_preview": Spec(
        token, EVERYONE, post=lambda w, p: deal_data(3), post_only=True
    ),
    "tournaments:table_entry_confirm": Spec(
        token_deal, EVERYONE, post=lambda w, p: {"version": 1}, post_only=True
    ),
    "tournaments:table_entry_revise": Spec(
        token_deal, EVERYONE, post=lambda w, p: deal_data(2), get_ok=frozenset({302})
    ),
    # organisers of the host club
    "tournaments:tournament_create": Spec(lambda w: {}, CREATE, post=tournament_form, changes=True),
    "tournaments:tournament_edit": Spec(day, MANAGE, post=edit_form, changes=True),
    "tournaments:checkin": Spec(day, MANAGE),
    "tournaments:checkin_entry_action": Spec(
        lambda w: {"pk": w.day.pk, "entry_pk": w.spare.pk},
        MANAGE,
        post=lambda w, p: {"action": "pay"},
        post_only=True,
        changes=True,
    ),
    "tournaments:late_entry": Spec(
        day,
        MANAGE,
        post=lambda w, p: {
            "new-first_name": "Neu",
            "new-last_name": "Spät",
            "new-category": "open",
        },
        changes=True,
    ),
    "tournaments:keep_apart": Spec(
        day,
        MANAGE,
        post=lambda w, p: {
            "first": w.spare.pk,
            "second": w.day.entries.order_by("number").first().pk,
        },
        changes=True,
    ),
    "tournaments:keep_apart_remove": Spec(
        lambda w: {"pk": w.day.pk, "pair_pk": w.pair.pk}, MANAGE, post_only=True, changes=True
    ),
    "tournaments:substitute": Spec(
        round_1(),
        MANAGE,
        post=lambda w, p: {
            "seat": w.other_table.seats.get(position=0).pk,
            "entry": w.spare.pk,
            "from_deal": 1,
            "reason": "krank",
        },
        changes=True,
    ),
    "tournaments:round_draw": Spec(
        lambda w: {"pk": w.day.pk, "round": 2},
        MANAGE,
        post=lambda w, p: {"action": "draw", "while_previous_open": "1"},
        changes=True,
    ),
    "tournaments:seat_plan": Spec(round_1(), MANAGE),
    # round 1 is released already: the allowed POST is refused by the service, changing
    # nothing (tests/tournaments/draw/test_release.py releases a held draw)
    "tournaments:round_release": Spec(round_1(), REFEREE, post_only=True),
    "tournaments:round_state": Spec(
        round_1("round_number"),
        MANAGE,
        post=lambda w, p: {"state": "closed", "close_open": "1", "reason": "Zeit um"},
        post_only=True,
        changes=True,
    ),
    "tournaments:table_token": Spec(
        lambda w: {"table_pk": w.table.pk}, MANAGE, post_only=True, changes=True
    ),
    "exports:standings_xlsx": Spec(day, MANAGE),
    "exports:season_standings_xlsx": Spec(lambda w: {"pk": w.season.pk}, SEASON),
    "printing:print_seat_plan": Spec(round_1("round_number"), MANAGE),
    "printing:print_table_cards": Spec(round_1("round_number"), MANAGE),
    "printing:print_score_sheets": Spec(round_1("round_number"), MANAGE),
    "printing:print_standings": Spec(day, MANAGE),
    "printing:print_prizes": Spec(day, MANAGE),
    "printing:print_certificates": Spec(day, MANAGE),
    "tournaments:tournament_log": Spec(day, MANAGE),
    "signups:organiser_list": Spec(
        day, MANAGE, post=lambda w, p: {"is_open": "on", "capacity": "10"}, changes=True
    ),
    "signups:action": Spec(
        signup_kwargs,
        MANAGE,
        post=lambda w, p: {"action": "cancel"},
        post_only=True,
        changes=True,
    ),
    "signups:edit": Spec(
        signup_kwargs,
        MANAGE,
        post=lambda w, p: {
            "first_name": "Anna",
            "last_name": "Matrix",
            "club": "other",
            "email": "a@example.org",
        },
        changes=True,
    ),
    "exports:signups_xlsx": Spec(day, MANAGE),
    "exports:signups_csv": Spec(day, MANAGE),
    "tournaments:round_clock": Spec(
        round_1("round_number"),
        MANAGE,
        post=lambda w, p: {"minutes": 45},
        post_only=True,
        changes=True,
    ),
    "tournaments:desk_table_totals": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 2},
        MANAGE,
        post=lambda w, p: {
            "total_0": 30,
            "total_1": -10,
            "total_2": -10,
            "total_3": -10,
            "submission_key": str(uuid.uuid4()),
        },
        changes=True,
    ),
    # photos of tick-box sheets (issue 42): the desk's upload (a POST without a file is the
    # form again), the confirm page (referees look, organisers confirm), crops, the photo
    "tournaments:desk_photos": Spec(round_1("round_number"), REFEREE, post=lambda w, p: {}),
    "tournaments:desk_table_photo": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 1},
        REFEREE,
        post=lambda w, p: {},
    ),
    "tournaments:desk_photo_confirm": Spec(
        lambda w: {"pk": w.day.pk, "photo_pk": photo_of(w).pk},
        REFEREE,
        post=lambda w, p: {
            "action": "confirm",
            "counts_3": "on",
            "declarer_3": "1",
            "contract_3": "eine",
            "points_3": "41",
        },
        allowed_post=MANAGE,
        changes=True,
    ),
    "tournaments:desk_photo_crop": Spec(
        lambda w: {"pk": w.day.pk, "photo_pk": photo_of(w).pk, "deal": 3}, REFEREE
    ),
    "tournaments:desk_photo_image": Spec(
        lambda w: {"pk": w.day.pk, "photo_pk": photo_of(w).pk}, REFEREE
    ),
    # the table's phone: whoever holds the token (without a seat chosen: to the seat first)
    "tournaments:table_entry_photo": Spec(token, EVERYONE, get_ok=frozenset({302})),
    "tournaments:desk_written": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 2},
        MANAGE,
        post=lambda w, p: {"action": "check"},
    ),
    # Double entry (off in this world): nothing to settle or discard, back to the sheet.
    "tournaments:desk_written_differences": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 2},
        MANAGE,
        post=lambda w, p: {"typing": "1", "choice_1-seat0": "first"},
        get_ok=frozenset({302}),
    ),
    "tournaments:desk_written_discard": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 2},
        MANAGE,
        post=lambda w, p: {"typing": "1", "reason": "falscher Bogen"},
        get_ok=frozenset({302}),
    ),
    "tournaments:tournament_finish": Spec(
        day, MANAGE, post=lambda w, p: {"action": "finish", "confirm": "1"}, post_only=True
    ),
    # the club area (clubs:): registry, imports, fees, seasons, registration, prize money
    "treasury:club_list": Spec(lambda w: {}, ANY_ROLE),
    "clubs:club_create": Spec(
        lambda w: {},
        SUPERUSER,
        post=lambda w, p: {"name": "Neuer Club", "short_name": "NC", "town": "Ort"},
        changes=True,
    ),
    "clubs:club_edit": Spec(
        lambda w: {"pk": w.club_a.pk},
        MANAGE,
        post=lambda w, p: {"name": "Cegofreunde A neu", "short_name": "CF A", "town": "A"},
        changes=True,
    ),
    "seasons:season_list": Spec(lambda w: {}, ANY_ROLE),
    "seasons:season_create": Spec(lambda w: {}, CLUB_ORGANISERS, changes=None),
    "seasons:season_edit": Spec(lambda w: {"pk": w.season.pk}, SEASON, changes=None),
    "treasury:treasurer_latest": Spec(
        lambda w: {"pk": w.club_a.pk}, MANAGE, get_ok=frozenset({200, 302}), changes=None
    ),
    "treasury:treasurer": Spec(
        lambda w: {"pk": w.club_a.pk, "season_pk": w.season.pk}, MANAGE, changes=None
    ),
    "exports:treasurer_xlsx": Spec(
        lambda w: {"pk": w.club_a.pk, "season_pk": w.season.pk}, MANAGE, changes=None
    ),
    "treasury:fee_edit": Spec(
        lambda w: {
            "pk": w.club_a.pk,
            "season_pk": w.season.pk,
            "membership_pk": w.membership.pk,
        },
        MANAGE,
        changes=None,
    ),
    "treasury:fee_paid_cash": Spec(
        lambda w: {
            "pk": w.club_a.pk,
            "season_pk": w.season.pk,
            "membership_pk": w.membership.pk,
        },
        MANAGE,
        post_only=True,
        changes=None,
    ),
    "clubs:player_list": Spec(lambda w: {}, ANY_ROLE),
    "clubs:player_create": Spec(lambda w: {}, ANY_ROLE, changes=None),
    "clubs:player_detail": Spec(lambda w: {"pk": w.membership.player_id}, MANAGE),
    "clubs:player_edit": Spec(lambda w: {"pk": w.membership.player_id}, MANAGE, changes=None),
    "clubs:player_merge": Spec(
        lambda w: {"pk": w.membership.player_id}, MANAGE, post_only=True, changes=None
    ),
    # Lists with birth years, member numbers and e-mails: for those who run a club (each gets
    # only its own members: test_exports_hold_only_the_users_own_members).
    "exports:player_export_xlsx": Spec(lambda w: {}, CLUB_ORGANISERS),
    "printing:player_export_pdf": Spec(lambda w: {}, CLUB_ORGANISERS),
    "clubs:player_import": Spec(lambda w: {}, CLUB_ORGANISERS, changes=None),
    "tournaments:registration": Spec(day, MANAGE, changes=None),
    "tournaments:register_many": Spec(day, MANAGE, post_only=True, changes=None),
    "tournaments:unregister": Spec(
        lambda w: {"pk": w.day.pk, "entry_pk": w.spare.pk}, MANAGE, post_only=True, changes=None
    ),
    "treasury:prize_money": Spec(day, MANAGE, changes=None),
    # the press report: a POST downloads the text as edited, nothing changes
    "seasons:tournament_press": Spec(day, MANAGE),
    # the prize ceremony's settings and its start (ceremony/views.py)
    "ceremony:settings": Spec(
        day,
        MANAGE,
        post=lambda w, p: {"action": "save", "hide": "top", "top": 3, "from_round": 2},
        changes=True,
    ),
    # a simultaneous Cego day (simultaneous/views.py): the association creates it and its
    # halls; its rankings are public
    "simultaneous:days": Spec(lambda w: {}, EVERYONE, get_only=True),
    "simultaneous:day_create": Spec(
        lambda w: {},
        SCORER,
        post=lambda w, p: {
            "name": "Simultan-Cego",
            "date": "2026-11-28",
            "rules_slug": "swm",
            "rounds": 2,
            "deals_per_round": 4,
        },
        changes=True,
    ),
    "simultaneous:day_manage": Spec(
        simday,
        SCORER,
        post=lambda w, p: {
            "action": "remove",
            "section": simultaneous_day(w).sections.get().pk,
        },
        changes=True,
    ),
    "simultaneous:day_edit": Spec(
        simday,
        SCORER,
        # renamed, the rest as it was (it still fits its hall, the world's tournament)
        post=lambda w, p: {
            "action": "save",
            "name": "Simultan umbenannt",
            "date": w.day.date.isoformat(),
            "rules_slug": w.day.rules_slug,
            "rounds": w.day.rounds,
            "deals_per_round": w.day.deals_per_round,
        },
        changes=True,
    ),
    "simultaneous:day_ranking": Spec(simday, EVERYONE, get_only=True),
    "simultaneous:section": Spec(
        lambda w: {"pk": simultaneous_day(w).pk, "section": simultaneous_day(w).sections.get().pk},
        EVERYONE,
        get_only=True,
    ),
    "simultaneous:day_projector": Spec(simday, EVERYONE, get_only=True),
    "simultaneous:day_feed": Spec(simday, EVERYONE, get_only=True),
    "simultaneous:overall_json": Spec(
        lambda w: {"archive_id": simultaneous_day(w) and w.day.archive_id}, EVERYONE, get_only=True
    ),
    "simultaneous:hall_projector": Spec(day, EVERYONE, get_only=True),
    "ceremony:projector": Spec(day, EVERYONE),  # only what the desk has shown, after the reveal
    "ceremony:remote": Spec(day, MANAGE),
    "ceremony:step": Spec(
        day, MANAGE, post=lambda w, p: {"direction": "next"}, post_only=True, changes=None
    ),
    "ceremony:raffle": Spec(day, MANAGE, post_only=True, changes=None),
    "tournaments:results_import": Spec(day, MANAGE, changes=None),
    # teams, seasons, player pages, archives (main's season10b)
    "tournaments:teams": Spec(day, MANAGE, changes=None),
    "tournaments:team_edit": Spec(
        lambda w: {"pk": w.day.pk, "team_pk": w.team.pk}, MANAGE, changes=None
    ),
    # the day's first round is drawn, so its teams are fixed: the service refuses politely
    "tournaments:team_delete": Spec(
        lambda w: {"pk": w.day.pk, "team_pk": w.team.pk}, MANAGE, post_only=True, changes=None
    ),
    "tournaments:keep_teams_apart": Spec(day, MANAGE, post_only=True, changes=None),
    "tournaments:archive_download": Spec(day, MANAGE),
    "tournaments:archive_upload": Spec(lambda w: {}, ANY_ROLE, changes=None),
    # publishing: the API wants a club's token, never a login (tests/publishing); the
    # organisers' pages
    "publishing:publish": Spec(
        lambda w: {}, frozenset(), token_refusal=frozenset({401, 405}), post_only=True
    ),
    "publishing:publish_changes": Spec(
        lambda w: {}, frozenset(), token_refusal=frozenset({401, 405}), post_only=True
    ),
    "publishing:publish_state": Spec(
        lambda w: {"archive_id": w.day.archive_id},
        frozenset(),
        token_refusal=frozenset({401, 405}),
    ),
    "publishing:publish_take": Spec(
        lambda w: {"archive_id": w.day.archive_id},
        frozenset(),
        token_refusal=frozenset({401, 405}),
        post_only=True,
    ),
    "publishing:registry": Spec(lambda w: {}, frozenset(), token_refusal=frozenset({401, 405})),
    # The way back: the season server's list, hand-over and registrations (a token's), and
    # the venue laptop's page that fetches (any club's organiser).
    "publishing:hall_tournaments": Spec(
        lambda w: {}, frozenset(), token_refusal=frozenset({401, 405})
    ),
    "publishing:hall_fetch": Spec(
        lambda w: {"archive_id": str(w.day.archive_id)},
        frozenset(),
        token_refusal=frozenset({401, 405}),
        post_only=True,
    ),
    "publishing:hall_registrations": Spec(
        lambda w: {"archive_id": str(w.day.archive_id)},
        frozenset(),
        token_refusal=frozenset({401, 405}),
    ),
    "publishing:fetch_from_server": Spec(lambda w: {}, CLUB_ORGANISERS),
    "publishing:club_tokens": Spec(
        lambda w: {"pk": w.club_a.pk}, MANAGE, post=lambda w, p: {"label": "Laptop"}, changes=True
    ),
    "publishing:tournament_publication": Spec(
        day,
        MANAGE,
        post=lambda w, p: {"url": "https://saison.example.org", "token": "t"},
        changes=True,
    ),
    # Both versions of an item entered twice: the tournament's organisers choose (a POST
    # naming no conflict changes nothing).
    "publishing:publication_conflicts": Spec(day, MANAGE, changes=False),
    "tournaments:archive_upload_season": Spec(
        lambda w: {"season_pk": w.season.pk}, SEASON, changes=None
    ),
    "printing:season_pdf": Spec(lambda w: {"pk": w.season.pk}, SEASON),
    "seasons:season_rules": Spec(lambda w: {"pk": w.season.pk}, SEASON, changes=None),
    "seasons:season_press": Spec(lambda w: {"pk": w.season.pk}, SEASON),
    # The results page of a player whose club keeps it private: that club's organisers.
    "seasons:player_detail": Spec(lambda w: {"pk": w.membership.player_id}, MANAGE),
    # organisers and the tournament's referees
    "tournaments:tournament_detail": Spec(day, REFEREE),
    "tournaments:desk_round": Spec(round_1("round_number"), REFEREE),
    "tournaments:desk_entry": Spec(
        lambda w: {"pk": w.day.pk, "round_number": 1, "table_number": 1},
        REFEREE,
        post=lambda w, p: deal_data(3),
        allowed_post=MANAGE,  # referees correct; entering is the organisers' job
        changes=True,
    ),
    "tournaments:desk_preview": Spec(
        lambda w: {"table_pk": w.table.pk},
        REFEREE,
        post=lambda w, p: deal_data(3),
        post_only=True,
    ),
    "tournaments:deal_correct": Spec(
        lambda w: {"deal_pk": w.confirmed.pk},
        REFEREE,
        post=lambda w, p: deal_data(
            1, declarer_points=50, expected_version=w.confirmed.version, reason="Tippfehler"
        ),
        changes=True,
    ),
    "tournaments:deal_annul": Spec(
        lambda w: {"deal_pk": w.confirmed.pk},
        REFEREE,
        post=lambda w, p: {"reason": "falsch gegeben", "version": w.confirmed.version},
        post_only=True,
        changes=True,
    ),
    "tournaments:deal_confirm": Spec(
        lambda w: {"deal_pk": w.pending.pk},
        REFEREE,
        post=lambda w, p: {"version": w.pending.version},
        post_only=True,
        changes=True,
    ),
    "tournaments:deal_correct_written": Spec(
        lambda w: {"deal_pk": w.confirmed.pk},
        REFEREE,
        post=lambda w, p: {"reason": "Tippfehler", "expected_version": w.confirmed.version},
        changes=None,
    ),
    "tournaments:table_void": Spec(
        lambda w: {"table_pk": w.table.pk},
        REFEREE,
        post=lambda w, p: {"reason": "Zettel verloren"},
        post_only=True,
        changes=True,
    ),
    # the calls for the referee: the organisers and the tournament's referees
    "tournaments:referee_calls": Spec(day, REFEREE),
    "tournaments:referee_calls_banner": Spec(day, REFEREE),
    "tournaments:referee_call_close": Spec(
        open_call,
        REFEREE,
        post=lambda w, p: {"decision": "Spiel 2 gilt wie gespielt", "deal": "2"},
        post_only=True,
        changes=True,
    ),
    # swaps of drawn seats: asked for by one official, approved by another (any official)
    "tournaments:seat_swaps": Spec(day, REFEREE),
    "tournaments:seat_swap_decide": Spec(
        waiting_swap,
        REFEREE,
        post=lambda w, p: {"action": "refuse", "note": "nicht nötig"},
        post_only=True,
        changes=True,
    ),
    # rulings: a referee's ruling about conduct without a call, and the second signature
    # (any official but the first: the matrix's ruling was signed by someone else)
    "tournaments:ruling_add": Spec(
        day,
        REFEREE,
        post=lambda w, p: {"decision": "Verwarnung wegen Beleidigung", "round": "1"},
        post_only=True,
        changes=True,
    ),
    "tournaments:ruling_confirm": Spec(pending_ruling, REFEREE, post_only=True, changes=True),
    # the announcements on the projector and the players' pages: the organisers
    "tournaments:announcement_add": Spec(
        day, MANAGE, post=lambda w, p: {"text": "Pause bis 15 Uhr"}, post_only=True, changes=True
    ),
    "tournaments:announcement_remove": Spec(shown_message, MANAGE, post_only=True, changes=True),
    "tournaments:standings_draw_lots": Spec(
        day,
        REFEREE,
        post=lambda w, p: {"confirm_open": "1", "reason": "Gleichstand"},
        post_only=True,
        changes=None,
    ),
}


def _walk(patterns, prefix: str = "") -> set[str]:
    names: set[str] = set()
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue  # the Django admin: test_admin_is_for_superusers_only
            namespace = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            names |= _walk(entry.url_patterns, namespace)
        elif isinstance(entry, URLPattern):
            # An unnamed URL cannot be reversed here: it fails the test below as "<unnamed>".
            names.add(f"{prefix}{entry.name}" if entry.name else f"{prefix}<unnamed {entry}>")
    return names


def project_url_names() -> set[str]:
    return _walk(get_resolver().url_patterns)


def test_every_url_has_a_matrix_entry():
    names = project_url_names()
    assert not names - set(MATRIX), "URLs without an entry in the authorisation matrix"
    assert not set(MATRIX) - names, "matrix entries for URLs that no longer exist"


def fingerprint() -> dict:
    """Everything a POST could change, as plain values (sessions and login attempts aside)."""
    from django.contrib.auth import get_user_model

    from simultaneous.models import Section, SimultaneousDay

    models = [
        SimultaneousDay,
        Section,
        Club,
        ClubRole,
        AssociationRole,
        Appeal,
        ResultConfirmation,
        Sanction,
        Player,
        Membership,
        Season,
        Tournament,
        Tournament.referees.through,
        Entry,
        KeepApart,
        Round,
        Table,
        Seat,
        Substitution,
        Team,
        Deal,
        DealChange,
        RoundChange,
        TournamentChange,
        SheetTyping,
        LotDraw,
        RefereeCall,
        Announcement,
        SeatSwap,
        Ruling,
        PublishToken,
        Publication,
        Signup,
        SignupSheet,
        SignupChange,
        get_user_model(),
    ]
    # Each table's rows as the database holds them, read without the ORM: building and
    # ordering 36 querysets took most of the matrix's time (50 ms a fingerprint, 16 a URL).
    prints = {}
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(model._meta.db_table)}")
            rows = [
                tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
                for row in cursor.fetchall()
            ]
            prints[model._meta.label] = sorted(rows, key=repr)
    return prints


def refused(
    response, persona: str, *, post_only_get: bool = False, token: frozenset[int] | None = None
) -> bool:
    if token is not None:
        return response.status_code in token
    if persona == "anonymous":
        return response.status_code == 302 and response["Location"].startswith("/login/")
    # A GET of a POST-only address may also be answered 405 before any object is looked at.
    return response.status_code in ((403, 404, 405) if post_only_get else (403, 404))


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_authorisation_matrix(world, name):
    spec = MATRIX[name]
    if name in WEASYPRINT_URLS:
        require_weasyprint()  # its allowed personas get the PDF
    url = reverse(name, kwargs=spec.kwargs(world))
    problems: list[str] = []
    for persona in PERSONAS:
        client = client_for(world, persona)
        # GET
        response = client.get(url)
        if persona in spec.allowed:
            wanted = {405} if spec.post_only else spec.get_ok
            if response.status_code not in wanted:
                problems.append(f"GET {persona}: {response.status_code}, wanted {sorted(wanted)}")
        elif not refused(response, persona, post_only_get=spec.post_only, token=spec.token_refusal):
            problems.append(f"GET {persona}: {response.status_code} is not a refusal")
        # POST, inside a savepoint that is rolled back: every persona meets the same world.
        allowed_post = spec.allowed if spec.allowed_post is None else spec.allowed_post
        before = fingerprint()
        with transaction.atomic():
            response = client.post(url, spec.post(world, persona))
            after = fingerprint()
            transaction.set_rollback(True)
        if spec.get_only:
            if response.status_code != 405 or after != before:
                problems.append(f"POST {persona}: {response.status_code}, wanted 405, no change")
        elif persona in allowed_post:
            if response.status_code not in (200, 302):
                problems.append(f"POST {persona}: {response.status_code}, wanted 200 or 302")
            if spec.changes is True and after == before:
                problems.append(f"POST {persona}: allowed, but nothing changed")
            if spec.changes is False and after != before:
                problems.append(f"POST {persona}: changed the database")
        else:
            if not refused(response, persona, token=spec.token_refusal):
                problems.append(f"POST {persona}: {response.status_code} is not a refusal")
            if after != before:
                problems.append(f"POST {persona}: refused, but the database changed")
    assert not problems, f"{name} ({url}):\n" + "\n".join(problems)


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_admin_is_for_superusers_only(world, persona):
    client = client_for(world, persona)
    response = client.get(reverse("admin:index"))
    if persona == "superuser":
        assert response.status_code == 200
    elif persona == "anonymous":
        assert response.status_code == 302
        assert "/login/" in response["Location"]
    else:  # signed in: a page saying why (it looped between the logins, issue 28)
        assert response.status_code == 403
        assert "nur für Administratoren" in response.content.decode()


@pytest.mark.django_db
def test_admin_cannot_change_the_tournament_day(world):
    """The issue's case: the admin moved a seat with recorded deals to another player."""
    client = client_for(world, "superuser")
    seat = world.table.seats.get(position=0)
    before = fingerprint()
    for model, obj in [
        ("seat", seat),
        ("entry", world.spare),
        ("table", world.table),
        ("round", world.table.round),
        ("keepapart", world.pair),
        ("deal", world.confirmed),
    ]:
        change_url = reverse(f"admin:tournaments_{model}_change", args=[obj.pk])
        page = client.get(change_url)
        assert page.status_code == 200, model  # shown, read-only
        assert b'type="submit"' not in page.content or b'name="_save"' not in page.content
        client.post(change_url, {"entry": world.spare.pk, "position": 3, "number": 9})
        delete_url = reverse(f"admin:tournaments_{model}_delete", args=[obj.pk])
        assert client.post(delete_url, {"post": "yes"}).status_code == 403, model
        add_url = reverse(f"admin:tournaments_{model}_add")
        assert client.get(add_url).status_code == 403, model
    assert fingerprint() == before


def test_exports_hold_only_the_users_own_members(world):
    """Another club's organiser exporting the player list without a club filter got every
    club's members with birth year, member number and e-mail; now only her own club's."""
    import io

    from openpyxl import load_workbook

    own = world.membership.player
    for persona, sees_own in (("organiser", True), ("gast", False), ("superuser", True)):
        client = client_for(world, persona)
        sheet = load_workbook(
            io.BytesIO(client.get(reverse("exports:player_export_xlsx")).content)
        ).active
        names = {row[0] for row in sheet.iter_rows(min_row=2, values_only=True)}
        assert (own.last_name in names) is sees_own, persona
