"""A tournament's teams: up to four of its entries under one name and club."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.forms.setup import EntryChoiceField
from tournaments.models import Entry, Team, Tournament


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=80)
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all(), required=False)

    def __init__(self, *args, tournament: Tournament, team: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # Players in no team yet, and this team's own members when it is edited.
        free_or_own = Q(team__isnull=True) | Q(team=team) if team is not None else Q(team=None)
        free = (
            Entry.objects.filter(tournament=tournament)
            .filter(free_or_own)
            .select_related("player")
            .order_by("player__sort_key", "pk")
        )
        for index in range(1, Team.SIZE + 1):
            self.fields[f"member_{index}"] = EntryChoiceField(
                label=_("player %(number)s") % {"number": index},
                queryset=free,
                required=index == 1,
            )

    def members(self) -> list[Entry]:
        return [
            self.cleaned_data[f"member_{i}"]
            for i in range(1, Team.SIZE + 1)
            if self.cleaned_data.get(f"member_{i}")
        ]
