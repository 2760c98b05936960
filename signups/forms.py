"""The public sign-up form, the organisers' settings and their edit of a sign-up."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club
from signups.selectors import club_choices

OTHER = "other"
# The side rankings' categories, "" for not said (the open class then, unless the registry
# knows better).
CATEGORY_CHOICES = [("", _("– not said –")), *Category.choices]


class PersonFields(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=60)
    last_name = forms.CharField(label=_("Last name"), max_length=60)
    club = forms.ChoiceField(label=_("Club"))
    club_text = forms.CharField(
        label=_("Other club (or none)"),
        max_length=120,
        required=False,
        help_text=_("Only if you chose “other club / no club” above."),
    )
    category = forms.ChoiceField(
        label=_("Category (optional)"),
        choices=CATEGORY_CHOICES,
        required=False,
        help_text=_("For the side rankings: women, youth, seniors."),
    )
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("For your personal link and a message if you move up from the waiting list."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clubs = {str(c.pk): c for c in club_choices()}
        self.fields["club"].choices = [
            ("", _("– please choose –")),
            *[(pk, club.name) for pk, club in self._clubs.items()],
            (OTHER, _("other club / no club")),
        ]
        self.fields["first_name"].widget.attrs["autocomplete"] = "given-name"
        self.fields["last_name"].widget.attrs["autocomplete"] = "family-name"
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def chosen_club(self) -> Club | None:
        return self._clubs.get(self.cleaned_data.get("club") or "")


class SignupForm(PersonFields):
    consent = forms.BooleanField(
        label=_(
            "I agree that my name, club and (if given) category and e-mail address are stored "
            "for this tournament. The organisers see them; the list of players on the day "
            "shows name and club, the side rankings the category. I can withdraw this consent "
            "at any time by cancelling with my personal link; the sign-up is then cancelled."
        ),
        required=True,
        error_messages={
            "required": _("Please agree to the use of your data; without it we cannot sign you up.")
        },
    )
    # The honeypot: hidden from people by the stylesheet, filled in by bots.
    website = forms.CharField(label=_("Leave this field empty"), required=False)


class EditForm(PersonFields):
    pass


class SheetForm(forms.Form):
    is_open = forms.BooleanField(label=_("Online sign-up open"), required=False)
    capacity = forms.IntegerField(
        label=_("Seats"),
        required=False,
        min_value=1,
        max_value=2000,
        help_text=_("Empty: no limit. Beyond it people land on the waiting list."),
    )
    closes_at = forms.DateTimeField(
        label=_("Sign-up closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%d.%m.%Y %H:%M"],
        help_text=_("Empty: open until the tournament's day."),
    )
