"""Every change of a tournament's prize ceremony: what is hidden from the public and from
which round, the reveal ("Siegerehrung starten") and, on the projector, how far the ceremony
has got. Each runs in ``transaction.atomic`` with the settings row locked, writes the
tournament's log (who, before, after) and bumps the tournament's revision, so every public
page cached by revision (and the venue's front) shows the change at once."""

from __future__ import annotations

import random
import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ceremony.models import CeremonySettings, RaffleDraw
from tournaments.models import Tournament, TournamentChange
from tournaments.services import changelog
from tournaments.services.revision import bump_revision
from tournaments.signals import copy_changed

MAX_ROUND = 50
MAX_TOP = 500


class CeremonyError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _locked(tournament: Tournament) -> CeremonySettings:
    CeremonySettings.objects.get_or_create(tournament_id=tournament.pk)
    return CeremonySettings.objects.select_for_update().get(tournament_id=tournament.pk)


def _state(settings: CeremonySettings) -> dict:
    return {
        "hide_from_round": settings.hide_from_round,
        "hide_top_n": settings.hide_top_n,
        "revealed": settings.revealed_at is not None,
        "shown_steps": settings.shown_steps,
    }


def _settled(tournament: Tournament) -> None:
    """Tell the areas that work figures out ahead for a finished tournament (the season's
    stored results, the ratings) that what they may show of it changed, as a copy changed in
    place does (``tournaments.signals.copy_changed``; they act after the commit)."""
    tournament.refresh_from_db(fields=["finished_at", "revision"])
    copy_changed.send(sender=Tournament, tournament=tournament)


def _log(tournament: Tournament, user: User | None, subject: str, before: dict, after: dict):
    changelog.record(
        tournament_id=tournament.pk,
        action=TournamentChange.Action.EDITED,
        user=user,
        subject=subject,
        before=before,
        after=after,
    )


def set_hiding(
    *, tournament: Tournament, user: User | None, from_round: int | None, top: int | None
) -> CeremonySettings:
    """Hide the top ``top`` places (None: the whole standings) from round ``from_round`` on
    (None: hide nothing). Setting it again after a reveal hides again."""
    if from_round is not None and not 1 <= from_round <= MAX_ROUND:
        raise CeremonyError(_("The round must be between 1 and %(max)s.") % {"max": MAX_ROUND})
    if top is not None and not 1 <= top <= MAX_TOP:
        raise CeremonyError(
            _("The number of hidden places must be between 1 and %(max)s.") % {"max": MAX_TOP}
        )
    with transaction.atomic():
        settings = _locked(tournament)
        before = _state(settings)
        settings.hide_from_round = from_round
        settings.hide_top_n = top if from_round is not None else None
        if from_round is not None:
            settings.revealed_at = None
            settings.revealed_by = None
            settings.shown_steps = 0
        settings.changed_by = user if user is not None and user.is_authenticated else None
        settings.save()
        _log(tournament, user, "prize ceremony: hidden places", before, _state(settings))
        bump_revision(tournament_id=tournament.pk)
        _settled(tournament)
    return settings


def reveal(*, tournament: Tournament, user: User | None) -> CeremonySettings:
    """ "Siegerehrung starten": the hidden places are everyone's from now on."""
    with transaction.atomic():
        settings = _locked(tournament)
        if settings.revealed_at is not None:
            raise CeremonyError(_("The prize ceremony has already started."))
        before = _state(settings)
        settings.revealed_at = timezone.now()
        settings.revealed_by = user if user is not None and user.is_authenticated else None
        settings.shown_steps = 0
        settings.save()
        _log(tournament, user, "prize ceremony started", before, _state(settings))
        bump_revision(tournament_id=tournament.pk)
        _settled(tournament)
    return settings


def hide_again(*, tournament: Tournament, user: User | None) -> CeremonySettings:
    """Undo a reveal pressed too early: the places are hidden again as set."""
    with transaction.atomic():
        settings = _locked(tournament)
        if settings.revealed_at is None:
            raise CeremonyError(_("The prize ceremony has not started."))
        before = _state(settings)
        settings.revealed_at = None
        settings.revealed_by = None
        settings.shown_steps = 0
        settings.save()
        _log(tournament, user, "prize ceremony withdrawn", before, _state(settings))
        bump_revision(tournament_id=tournament.pk)
        _settled(tournament)
    return settings


def move_step(*, tournament: Tournament, user: User | None, by: int, steps: int) -> int:
    """One step of the ceremony on the projector forwards (``by`` 1) or back (-1), within
    ``steps`` (the programme's length); the new count of shown steps. Only once the ceremony
    has started: before that nothing hidden may reach the projector."""
    with transaction.atomic():
        settings = _locked(tournament)
        if settings.revealed_at is None:
            raise CeremonyError(_("Start the prize ceremony first."))
        before = settings.shown_steps
        settings.shown_steps = max(0, min(steps, before + by))
        if settings.shown_steps != before:
            settings.save(update_fields=["shown_steps", "changed_at"])
            _log(
                tournament,
                user,
                "prize ceremony: step",
                {"shown_steps": before},
                {"shown_steps": settings.shown_steps},
            )
        return settings.shown_steps


def draw_raffle(
    *,
    tournament: Tournament,
    user: User | None,
    candidates: list[tuple[int, int, str]],
    excluded_prize_winners: bool,
    seed: int | None = None,
) -> RaffleDraw:
    """Draw one raffle winner among ``candidates`` ((start number, entry id, name), as
    ``ceremony.selectors.raffle_candidates`` lists them; earlier raffle winners are left out
    here). The seed (a fresh random 63-bit number unless given) and the candidates are kept
    with the result and in the tournament's log: ``random.Random(seed).choice(candidates)``
    in start-number order draws the same winner again."""
    with transaction.atomic():
        _locked(tournament)  # one draw at a time
        earlier = list(RaffleDraw.objects.filter(tournament_id=tournament.pk))
        won = {draw.winner_entry_id for draw in earlier}
        pool = sorted(
            (number, entry_id, name) for number, entry_id, name in candidates if entry_id not in won
        )
        if not pool:
            raise CeremonyError(_("Nobody is left to draw."))
        if seed is None:
            seed = secrets.randbits(63)
        number, entry_id, name = random.Random(seed).choice(pool)  # noqa: S311 - recorded, fair
        draw = RaffleDraw.objects.create(
            tournament_id=tournament.pk,
            number=len(earlier) + 1,
            seed=seed,
            candidates=[list(candidate) for candidate in pool],
            excluded_prize_winners=excluded_prize_winners,
            winner_entry_id=entry_id,
            winner_number=number,
            winner_name=name,
            drawn_by=user if user is not None and user.is_authenticated else None,
        )
        _log(
            tournament,
            user,
            "prize ceremony: raffle",
            {},
            {
                "draw": draw.number,
                "seed": seed,
                "candidates": [candidate[0] for candidate in pool],
                "excluded_prize_winners": excluded_prize_winners,
                "winner": number,
            },
        )
    return draw


def redraw_winner(draw: RaffleDraw) -> int:
    """The start number the draw's seed and candidates give (to show it was fair)."""
    pool = [tuple(candidate) for candidate in draw.candidates]
    return random.Random(draw.seed).choice(pool)[0]  # noqa: S311
