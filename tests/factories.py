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
