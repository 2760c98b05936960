import datetime as dt

import factory

from clubs.models import Club, Membership, Player
from rules.builtin_sources import builtin_data
from seasons.models import Season
from tournaments.models import Entry, Tournament


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Cegoclub {n}")
    short_name = factory.Sequence(lambda n: f"CC{n}")
    town = "Bräunlingen"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Vorname{n}")
    last_name = factory.Sequence(lambda n: f"Nachname{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    name = factory.Sequence(lambda n: f"Saison {n}")
    starts_on = dt.date(2026, 11, 1)
    ends_on = dt.date(2027, 4, 30)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Turnier {n}")
    host_club = factory.SubFactory(ClubFactory)
    date = dt.date(2026, 11, 28)
    rules_slug = "swm"
    rules_snapshot = factory.LazyAttribute(lambda o: builtin_data(o.rules_slug))
    # Draws shown at once, as before the release step; tests of the release turn it on.
    review_draws = False


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    number = factory.Sequence(lambda n: n + 1)


def two_officials(tournament: Tournament) -> tuple:
    """Two officials of ``tournament`` (``clubs.permissions.is_official``): an organiser of
    its host club and a referee it names (made once; the same two on a second call)."""
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    users = get_user_model().objects
    organiser, _ = users.get_or_create(
        username=f"leiter-{tournament.host_club_id}", defaults={"first_name": "Lea"}
    )
    ClubRole.objects.get_or_create(user=organiser, club_id=tournament.host_club_id)
    referee, _ = users.get_or_create(
        username=f"schiri-{tournament.pk}", defaults={"first_name": "Sepp"}
    )
    tournament.referees.add(referee)
    return organiser, referee


def approved_swap(*, round, first, second, reason: str = "Rollstuhl: Tisch am Eingang"):  # noqa: A002
    """Two players' drawn seats swapped as the hall does it: asked for by one official,
    approved by another (``tournaments.services.fairness``)."""
    from tournaments.services import fairness

    asking, approving = two_officials(round.tournament)
    swap = fairness.request_swap(
        round=round, first=first, second=second, reason=reason, user=asking
    )
    return fairness.approve_swap(swap=swap, user=approving)
