"""The desk's warning about a banned player (the association's register of sanctions, on a
venue laptop the season server's copy taken with the registry): shown at registration and
check-in, never a refusal (the organisers decide whether the player plays), with the ban's
terms only, never its reason."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib import messages
from django.utils.translation import gettext as _

from clubs.models import Player
from tournaments.models import Tournament
from tournaments.selectors.sanctions import in_force


def ban_words(*, tournament: Tournament, player_ids: Iterable[int]) -> dict[int, str]:
    """Of ``player_ids``, those banned on the tournament's date, with the ban's terms."""
    return {
        player_id: terms.words()
        for player_id, terms in in_force(player_ids=player_ids, on=tournament.date).items()
    }


def warn_if_banned(request, *, tournament: Tournament, players: Iterable[Player]) -> None:
    people = {player.pk: player for player in players}
    for player_id, words in ban_words(tournament=tournament, player_ids=people).items():
        messages.warning(
            request,
            _(
                "Note: %(name)s is banned from the association's tournaments (%(terms)s). "
                "Whether they play is your decision."
            )
            % {"name": people[player_id].full_name, "terms": words},
        )
