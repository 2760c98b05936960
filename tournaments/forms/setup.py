"""Forms of the organiser's setup, check-in and draw pages. They only parse input; the
services in ``tournaments.services`` validate the rest and change state."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club
from clubs.permissions import manageable_clubs
from rules.registry import tournament_rule_sources
from seasons.models import Season
from tournaments.models import FAIRNESS_TEXT_LENGTH, Entry, Seat, Tournament
from tournaments.presets import PRESETS

TABLE_SIZE_CHOICES = [(3, _("3 players")), (4, _("4 players")), (5, _("5 players"))]


class CapitalisedForm(forms.Form):
    """Form labels start with a capital letter (the messages stay lower-case for reuse)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if field.label:
                field.label = capfirst(field.label)


def rule_source_options() -> list[tuple[str, str]]:
    """Rule sources by name, each with a line of description (where the rules come from)."""
    return [
        (
            source.slug,
            format_html(
                '<span class="rule-name">{}</span><br><small class="rule-description">{}</small>',
                _rule_name(source),
                source.citation.source,
            ),
        )
        for source in tournament_rule_sources()
    ]


def _rule_name(source) -> str:
    from tournaments.contract_names import rule_source_name

    return rule_source_name(source)


class TournamentForm(CapitalisedForm):
    name = forms.CharField(label=_("name"), max_length=160)
    host_club = forms.ModelChoiceField(label=_("host club"), queryset=Club.objects.all())
    season = forms.ModelChoiceField(
        label=_("season"), queryset=Season.objects.all(), required=False
    )
    # A text box in the language's own format (28.11.2026; 2026-11-28 in English): a native
    # date picker shows whatever the browser's locale says, e.g. 11/28/2026.
    date = forms.DateField(
        label=_("date"),
        widget=forms.DateInput(attrs={"placeholder": _("YYYY-MM-DD"), "autocomplete": "off"}),
    )
    venue = forms.CharField(label=_("venue"), max_length=160, required=False)
    rules_slug = forms.ChoiceField(label=_("rule source"), widget=forms.RadioSelect)
    rounds = forms.IntegerField(label=_("rounds"), min_value=1, max_value=20)
    deals_per_round = forms.IntegerField(label=_("deals per round"), min_value=1, max_value=99)
    table_sizes = forms.TypedMultipleChoiceField(
        label=_("allowed table sizes"),
        choices=TABLE_SIZE_CHOICES,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only sizes the rule source is played at."),
    )
    preferred_table_size = forms.TypedChoiceField(
        label=_("preferred table size"), choices=TABLE_SIZE_CHOICES, coerce=int
    )
    entry_mode = forms.ChoiceField(label=_("result entry"), choices=Tournament.EntryMode.choices)
    tie_break = forms.ChoiceField(label=_("tie-break"), choices=Tournament.TieBreak.choices)
    entry_fee = forms.DecimalField(
        label=_("entry fee (€)"), min_value=Decimal("0"), max_digits=7, decimal_places=2
    )
    last_round_raeuber = forms.BooleanField(
        label=_("last round's Räuber at the higher amount"),
        required=False,
        help_text=_("Dreierles, by agreement: a Räuber in the last round is worth 4 instead of 2."),
    )
    review_draws = forms.BooleanField(
        label=_("check each draw before the players see it"),
        required=False,
        help_text=_(
            "A new round's seats are shown on phones and public pages only once an organiser "
            "or referee has pressed “Release draw”."
        ),
    )
    double_entry = forms.BooleanField(
        label=_("type paper sheets twice"),
        required=False,
        help_text=_(
            "A paper sheet typed at the desk counts only once a second person has typed it "
            "again without seeing the first typing; differences are settled cell by cell."
        ),
    )
    two_referee_rulings = forms.BooleanField(
        label=_("rulings by two referees"),
        required=False,
        help_text=_(
            "A ruling counts only once a second referee (or organiser) has confirmed it; "
            "until then it is pending."
        ),
    )

    referees = forms.ModelMultipleChoiceField(
        label=_("referees"),
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "They may correct, annul and void results and draw lots in this tournament, "
            "each with a reason; with the host club's organisers they are its officials, two "
            "of whom approve a seat swap."
        ),
    )

    def __init__(
        self, *args, rules_locked: bool = False, clubs=None, with_referees: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["rules_slug"].choices = rule_source_options()
        if clubs is not None:
            # Only clubs the signed-in organiser runs (clubs.permissions.manageable_clubs).
            self.fields["host_club"].queryset = clubs
        if with_referees:
            self.fields["referees"].queryset = (
                get_user_model()
                .objects.filter(is_active=True, is_superuser=False)
                .order_by("username")
            )
        else:
            del self.fields["referees"]
        # one host club, one season: nothing to choose, so preselect them
        if not self.is_bound:
            club_choices = self.fields["host_club"].queryset
            clubs = list(club_choices.values_list("pk", flat=True)[:2])
            if len(clubs) == 1 and not self.initial.get("host_club"):
                self.initial["host_club"] = clubs[0]
            seasons = list(Season.objects.values_list("pk", flat=True)[:2])
            if len(seasons) == 1 and not self.initial.get("season"):
                self.initial["season"] = seasons[0]
        if rules_locked:
            self.fields["rules_slug"].disabled = True
            self.fields["rules_slug"].help_text = _(
                "Fixed: a round has been drawn under this rule source."
            )

    @staticmethod
    def initial_from_preset(slug: str | None) -> dict:
        preset = PRESETS.get(slug or "")
        if preset is None:
            return {
                "table_sizes": [4],
                "preferred_table_size": 4,
                "rounds": 2,
                "deals_per_round": 24,
                "entry_fee": Decimal("8.00"),
                "review_draws": True,
            }
        return {
            "name": str(preset.name),
            "rules_slug": preset.rules_slug,
            "rounds": preset.rounds,
            "deals_per_round": preset.deals_per_round,
            "table_sizes": sorted(preset.table_sizes),
            "preferred_table_size": preset.preferred_table_size,
            "entry_fee": Decimal("8.00"),
            "review_draws": True,
        }

    @staticmethod
    def initial_from_tournament(tournament: Tournament) -> dict:
        return {
            "name": tournament.name,
            "host_club": tournament.host_club_id,
            "season": tournament.season_id,
            "date": tournament.date,
            "venue": tournament.venue,
            "rules_slug": tournament.rules_slug,
            "rounds": tournament.rounds,
            "deals_per_round": tournament.deals_per_round,
            "table_sizes": sorted(tournament.allowed_table_sizes),
            "preferred_table_size": tournament.preferred_table_size,
            "entry_mode": tournament.entry_mode,
            "tie_break": tournament.tie_break,
            "entry_fee": Decimal(tournament.entry_fee_cents) / 100,
            "last_round_raeuber": tournament.last_round_raeuber,
            "review_draws": tournament.review_draws,
            "double_entry": tournament.double_entry,
            "two_referee_rulings": tournament.two_referee_rulings,
            "referees": list(tournament.referees.values_list("pk", flat=True)),
        }

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["table_sizes"] = frozenset(data["table_sizes"])
        data["entry_fee_cents"] = int(data.pop("entry_fee") * 100)
        return data


class RegistrationFilterForm(CapitalisedForm):
    FILTERS = [
        ("all", _("all")),
        ("not_checked_in", _("not checked in")),
        ("not_paid", _("not paid")),
        ("withdrawn", _("withdrawn")),
    ]
    q = forms.CharField(label=_("name or start number"), required=False)
    show = forms.ChoiceField(label=_("show"), choices=FILTERS, required=False)


class WithdrawForm(CapitalisedForm):
    after_round = forms.IntegerField(label=_("withdrawn after round"), min_value=0, max_value=20)


class NewPlayerForm(CapitalisedForm):
    first_name = forms.CharField(label=_("first name"), max_length=60)
    last_name = forms.CharField(label=_("last name"), max_length=60)
    category = forms.ChoiceField(label=_("category"), choices=Category.choices)
    club = forms.ModelChoiceField(
        label=_("club membership"),
        queryset=Club.objects.none(),
        required=False,
        help_text=_(
            "Only clubs you run are offered. Leave it blank for a guest from another club: "
            "the player is entered without a membership, and that club adds them to its members."
        ),
    )
    fee_paid = forms.BooleanField(label=_("entry fee paid"), required=False)

    def __init__(self, *args, user=None, youth_entry_free: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # A membership is the club's business: only the clubs this user runs are offered.
        self.fields["club"].queryset = manageable_clubs(user).order_by("name")
        if youth_entry_free:
            self.fields["fee_paid"].help_text = _(
                "Youth play free in this tournament: no fee is recorded for a youth player."
            )


class ExistingPlayerForm(CapitalisedForm):
    player = forms.IntegerField(widget=forms.HiddenInput)
    fee_paid = forms.BooleanField(label=_("entry fee paid"), required=False)


def entry_choices(tournament: Tournament):
    """The tournament's entries for a choice list, in German alphabetical order (the
    player's ``sort_key``: "Ähnle" before "Bauer", "Müller" before "Muster")."""
    return tournament.entries.select_related("player").order_by("player__sort_key", "number")


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return f"{obj.player.last_name}, {obj.player.first_name} ({obj.number})"


class KeepApartForm(CapitalisedForm):
    first = EntryChoiceField(label=_("first player"), queryset=Entry.objects.none())
    second = EntryChoiceField(label=_("second player"), queryset=Entry.objects.none())
    reason = forms.CharField(label=_("reason"), max_length=120, required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = entry_choices(tournament)
        self.fields["second"].queryset = entry_choices(tournament)


class SeatChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Seat) -> str:
        return _("Table %(table)s, seat %(seat)s: %(name)s") % {
            "table": obj.table.number,
            "seat": obj.position + 1,
            "name": obj.entry.player.full_name,
        }


class SubstitutionForm(CapitalisedForm):
    seat = SeatChoiceField(label=_("seat"), queryset=Seat.objects.none())
    entry = EntryChoiceField(label=_("replacement"), queryset=Entry.objects.none())
    from_deal = forms.IntegerField(label=_("from deal"), min_value=1)
    reason = forms.CharField(label=_("reason"), max_length=200, required=False)

    def __init__(self, *args, round, **kwargs):  # noqa: A002
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = (
            Seat.objects.filter(round=round)
            .select_related("table", "entry__player")
            .order_by("table__number", "position")
        )
        self.fields["entry"].queryset = entry_choices(round.tournament)
        self.fields["from_deal"].widget.attrs["max"] = round.tournament.deals_per_round


class SwapForm(CapitalisedForm):
    """Ask for a swap of two players' drawn seats (a second official approves it)."""

    first = EntryChoiceField(label=_("first player"), queryset=Entry.objects.none())
    second = EntryChoiceField(label=_("second player"), queryset=Entry.objects.none())
    reason = forms.CharField(
        label=_("reason"),
        max_length=FAIRNESS_TEXT_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("Why the drawn seats should change: it goes into the log."),
    )

    def __init__(self, *args, round, **kwargs):  # noqa: A002
        super().__init__(*args, **kwargs)
        seated = entry_choices(round.tournament).filter(seats__round=round)
        self.fields["first"].queryset = seated
        self.fields["second"].queryset = seated
