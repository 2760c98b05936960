"""The deal form, built from the tournament's rule source and the table's seating.

One form serves the desk and the phone: it offers only the contracts, bonuses and options
the rule source has, and turns what was typed into the deal-record inputs of the engine.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring import RuleSource
from tournaments.contract_names import proper_name
from tournaments.deal_words import PENALTY_KINDS
from tournaments.forms.card_count import CardCountForm
from tournaments.forms.rendering import PlainRenderer

YES_NO = [("", "—"), ("1", _("won")), ("0", _("lost"))]


# DealForm's fields by (language, rule source, players, deals per round, version required):
# a table's phones and the desk build the same form deal after deal.
_BUILT: dict[tuple, tuple[dict[str, forms.Field], dict[str, str]]] = {}
_BUILT_SIZE = 512


def localized(names: Any) -> str:
    return proper_name(names)


class DealForm(forms.Form):
    """Fields named after the deal record; per-seat fields are ``points_0`` … ``points_4``."""

    # Django's HTML, written in Python: the phone page renders this form on every deal.
    default_renderer = PlainRenderer()

    number = forms.IntegerField(label=_("Deal"), min_value=1)
    contract = forms.ChoiceField(label=_("Contract"))
    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int)
    declarer_points = forms.IntegerField(label=_("Card points"), required=False, min_value=0)
    no_trick = forms.BooleanField(label=_("Declarer took no trick"), required=False)
    after_solo = forms.BooleanField(label=_("After a Solo bid"), required=False)
    won = forms.TypedChoiceField(
        label=_("Result"),
        choices=YES_NO,
        required=False,
        coerce=lambda v: v == "1",
        empty_value=None,
    )
    ouvert = forms.BooleanField(label=_("Played open (ouvert)"), required=False)
    last_trick = forms.TypedChoiceField(
        label=_("Last trick taken by"), coerce=int, required=False, empty_value=None
    )
    knocks = forms.IntegerField(label=_("Knocks"), required=False, min_value=0)
    penalty_seat = forms.TypedChoiceField(
        label=_("Penalty against"), coerce=int, required=False, empty_value=None
    )
    penalty_kind = forms.ChoiceField(label=_("Penalty for"), required=False)
    submission_key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    # Required where a deal is changed (``require_version``): no stale write over a newer one.
    expected_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args: Any,
        rules: RuleSource,
        player_names: list[str],
        sitting_out: int | None = None,
        deals_per_round: int,
        require_version: bool = False,
        **kwargs: Any,
    ) -> None:
        key = (get_language(), rules.source_json, tuple(player_names), deals_per_round)
        key += (require_version,)
        built = _BUILT.get(key)
        if built is None:
            built = self._build_fields(
                rules=rules,
                player_names=player_names,
                deals_per_round=deals_per_round,
                require_version=require_version,
            )
            if len(_BUILT) >= _BUILT_SIZE:
                _BUILT.clear()
            _BUILT[key] = built
        # The fields built for this key once, shared (nobody changes a field after it is
        # built): Django's own __init__ would deep-copy the declared fields on every form.
        self.base_fields = {}  # type: ignore[misc]
        super().__init__(*args, **kwargs)
        fields, self.contract_kinds = built
        self.fields = dict(fields)
        self.rules = rules
        self.table_size = len(player_names)
        self.seat_choices = list(enumerate(player_names))
        self.sitting_out = sitting_out
        if not self.is_bound and not self.initial.get("submission_key"):
            self.initial["submission_key"] = uuid.uuid4()

    @classmethod
    def _build_fields(
        cls,
        *,
        rules: RuleSource,
        player_names: list[str],
        deals_per_round: int,
        require_version: bool,
    ) -> tuple[dict[str, forms.Field], dict[str, str]]:
        """The form's fields for these rules, players and language, and the contracts' kinds
        (built once per such key, see ``_BUILT``)."""
        fields = copy.deepcopy(cls.base_fields)
        fields["expected_version"].required = require_version
        table_size = len(player_names)
        seats = [(position, name) for position, name in enumerate(player_names)]
        fields["number"].max_value = deals_per_round
        fields["number"].widget.attrs.update({"max": deals_per_round, "inputmode": "numeric"})
        table_rule = rules.tables.get(table_size)
        forbidden = table_rule.forbidden if table_rule else frozenset()
        contract_kinds = {
            slug: contract.kind
            for slug, contract in rules.contracts.items()
            if slug not in forbidden
        }
        fields["contract"].choices = [("", "—")] + [
            (slug, localized(contract.names))
            for slug, contract in rules.contracts.items()
            if slug not in forbidden
        ]
        fields["contract"].widget.attrs["autofocus"] = True
        fields["declarer"].choices = [("", "—")] + seats
        fields["last_trick"].choices = [("", "—")] + seats
        fields["penalty_seat"].choices = [("", "—")] + seats
        points_total = table_rule.entered_total if table_rule else rules.counting.total
        fields["declarer_points"].max_value = points_total
        fields["declarer_points"].widget.attrs.update({"max": points_total, "inputmode": "numeric"})
        fields["declarer_points"].help_text = _("0 to %(total)s, as counted at the table") % {
            "total": points_total
        }
        if rules.knocking is None:
            del fields["knocks"]
        else:
            # the highest any contract allows (Dreierles: 3 in a Räuber); the engine checks
            # the contract's own limit
            fields["knocks"].max_value = max(
                rules.knocking.max, *rules.knocking.max_by_contract.values()
            )
        if rules.ouvert_multiplier is None:
            del fields["ouvert"]
        if rules.penalty is None:
            del fields["penalty_seat"], fields["penalty_kind"]
        else:
            fields["penalty_kind"].choices = [("", "—")] + [
                (kind, PENALTY_KINDS.get(kind, kind)) for kind in sorted(rules.penalty.kinds)
            ]
        # Räuber: every player's own card points (and, optionally, tricks); each box has a
        # label a screen reader reads ("Anna Maier: card points").
        for position, name in seats:
            fields[f"points_{position}"] = forms.IntegerField(
                label=name,
                required=False,
                min_value=0,
                max_value=rules.counting.total,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "aria-label": _("%(name)s: card points") % {"name": name},
                    }
                ),
            )
            fields[f"tricks_{position}"] = forms.IntegerField(
                label=name,
                required=False,
                min_value=0,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "aria-label": _("%(name)s: tricks") % {"name": name},
                    }
                ),
            )
        # In a Räuber the "declarer" is forehand, who announced it: the page relabels the
        # field and preselects forehand (the player after the dealer) for the deal number.
        fields["declarer"].widget.attrs.update(
            {
                "data-table-size": table_size,
                "data-label": str(_("Declarer")),
                "data-raeuber-label": str(_("Forehand (announced it)")),
            }
        )
        # Dreierles bonuses: who claims it; team bonuses also whether it was made.
        for kind, bonus in rules.bonuses.items():
            fields[f"bonus_{kind}"] = forms.TypedChoiceField(
                label=localized(bonus.names),
                coerce=int,
                required=False,
                empty_value=None,
                choices=[("", "—")] + seats,
            )
            if bonus.scope == "team":
                fields[f"bonus_{kind}_won"] = forms.TypedChoiceField(
                    label=_("Made"),
                    choices=YES_NO,
                    required=False,
                    coerce=lambda v: v == "1",
                    empty_value=None,
                )
        return fields, contract_kinds

    @property
    def card_count_form(self) -> forms.Form:
        return CardCountForm(prefix="count")

    @property
    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"points_{p}"], self[f"tricks_{p}"]) for p, _ in self.seat_choices]

    @property
    def bonus_fields(self) -> list[tuple[forms.BoundField, forms.BoundField | None]]:
        return [
            (self[f"bonus_{kind}"], self[f"bonus_{kind}_won"] if bonus.scope == "team" else None)
            for kind, bonus in self.rules.bonuses.items()
        ]

    def forehand(self, number: int) -> int:
        """Forehand of deal ``number``: the player after the dealer (seat 0 deals deal 1)."""
        return number % self.table_size

    def kind(self) -> str | None:
        return self.contract_kinds.get(self.cleaned_data.get("contract", ""))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        kind = self.contract_kinds.get(cleaned.get("contract", ""))
        if (
            kind == "normal"
            and cleaned.get("declarer_points") is None
            and not cleaned.get("no_trick")
        ):
            self.add_error("declarer_points", _("Enter the declarer's card points."))
        if kind == "fixed" and cleaned.get("won") is None:
            self.add_error("won", _("Say whether the declarer made the game."))
        if kind == "drescher" and cleaned.get("last_trick") is None:
            self.add_error("last_trick", _("Say who took the last trick."))
        if kind == "raeuber":
            for position, _name in self.seat_choices:
                if position != self.sitting_out and cleaned.get(f"points_{position}") is None:
                    self.add_error(f"points_{position}", _("Enter every player's card points."))
        if (cleaned.get("penalty_seat") is None) != (not cleaned.get("penalty_kind")):
            self.add_error("penalty_kind", _("A penalty needs both the player and the reason."))
        return cleaned

    def deal_inputs(self) -> dict[str, Any]:
        """The deal-record inputs for the engine: only the fields the contract uses."""
        data = self.cleaned_data
        kind = self.kind()
        inputs: dict[str, Any] = {"contract": data["contract"], "declarer": data["declarer"]}
        if kind == "normal":
            if data.get("no_trick"):
                inputs["declarer_tricks"] = 0
                inputs["declarer_points"] = data.get("declarer_points") or 0
            else:
                inputs["declarer_points"] = data["declarer_points"]
            if data.get("after_solo"):
                inputs["after_solo"] = True
        elif kind == "fixed":
            inputs["won"] = data["won"]
            if data.get("ouvert"):
                inputs["ouvert"] = True
        elif kind == "raeuber":
            inputs["points"] = [data.get(f"points_{p}") or 0 for p, _ in self.seat_choices]
            tricks = [data.get(f"tricks_{p}") for p, _ in self.seat_choices]
            if any(t is not None for t in tricks):
                inputs["tricks"] = [t or 0 for t in tricks]
        elif kind == "drescher":
            inputs["last_trick"] = data["last_trick"]
        if data.get("knocks"):
            inputs["knocks"] = data["knocks"]
        bonuses = []
        for bonus_kind, bonus in self.rules.bonuses.items():
            seat = data.get(f"bonus_{bonus_kind}")
            if seat is None:
                continue
            entry: dict[str, Any] = {"kind": bonus_kind, "seat": seat}
            if bonus.scope == "team":
                entry["won"] = bool(data.get(f"bonus_{bonus_kind}_won"))
            bonuses.append(entry)
        if bonuses:
            inputs["bonuses"] = bonuses
        if data.get("penalty_seat") is not None and data.get("penalty_kind"):
            inputs["penalty"] = {"seat": data["penalty_seat"], "kind": data["penalty_kind"]}
        return inputs


def initial_from_inputs(inputs: dict[str, Any]) -> dict[str, Any]:
    """Form values that show a stored deal again (for corrections)."""
    initial: dict[str, Any] = {
        "contract": inputs.get("contract"),
        "declarer": inputs.get("declarer"),
        "declarer_points": inputs.get("declarer_points"),
        "no_trick": inputs.get("declarer_tricks") == 0,
        "after_solo": bool(inputs.get("after_solo")),
        "ouvert": bool(inputs.get("ouvert")),
        "last_trick": inputs.get("last_trick"),
        "knocks": inputs.get("knocks"),
    }
    if inputs.get("won") is not None:
        initial["won"] = "1" if inputs["won"] else "0"
    for position, points in enumerate(inputs.get("points") or []):
        initial[f"points_{position}"] = points
    for position, tricks in enumerate(inputs.get("tricks") or []):
        initial[f"tricks_{position}"] = tricks
    for bonus in inputs.get("bonuses") or []:
        initial[f"bonus_{bonus['kind']}"] = bonus["seat"]
        if "won" in bonus:
            initial[f"bonus_{bonus['kind']}_won"] = "1" if bonus["won"] else "0"
    if inputs.get("penalty"):
        initial["penalty_seat"] = inputs["penalty"]["seat"]
        initial["penalty_kind"] = inputs["penalty"]["kind"]
    return initial
