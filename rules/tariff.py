"""The tariff card of a rule source: every value it scores with, as sections of rows.

:func:`tariff_card` is a pure function of the :class:`scoring.RuleSource` and a language code
(no database); the page and the one-page PDF both render what it returns. Labels are English
source strings through ``gettext`` (the active language); names and assumption texts come from
the rule source's data, in ``de`` or ``en``.

Every assumption ([D]) of the source is numbered and attached to the row showing the value it
concerns (the row whose parameter path is the assumption's ``param`` or its closest parent);
one that concerns no shown row is attached to the card's header, so none is ever left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import RuleSource
from scoring.rulesource import (
    Contract,
    DreierlesStepsModel,
    DrescherContract,
    FachModel,
    FactorBandsModel,
    FixedContract,
    Names,
    NormalContract,
    PointsOver35Model,
    RaeuberContract,
)

MINUS = "\u2212"


@dataclass
class Note:
    """An assumption: a project default where the sources are silent."""

    number: int
    param: str
    text: str


@dataclass
class Row:
    cells: list[str]
    params: tuple[str, ...] = ()
    notes: list[Note] = field(default_factory=list)
    header: bool = False  # a row of column headings inside a table (e.g. the band table)


@dataclass
class Section:
    key: str
    title: str
    headers: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    rules: list[Row] = field(default_factory=list)  # one-cell rows of text above the table
    wide: bool = False  # spans the page's width in the PDF

    @property
    def columns(self) -> int:
        return max([len(self.headers), *(len(row.cells) for row in self.rows)], default=1)


@dataclass
class TariffCard:
    slug: str
    language: str
    name: str
    citation_source: str
    citation_based_on: str
    unit: str
    facts: list[Row]
    sections: list[Section]
    assumptions: list[Note]
    contract_names: dict[str, str]
    practice_only: bool = False

    @property
    def dense(self) -> bool:
        """Many assumptions: the PDF sets the card in a smaller type to keep it on one page."""
        return len(self.assumptions) > 16

    def layout(self) -> list[tuple[str, list[list[Section]]]]:
        """The sections in print order: full-width ones (``wide``: one column) between runs of
        the others split into two columns (``columns``: left, right) of about equal height."""
        blocks: list[tuple[str, list[Section]]] = []
        for section in self.sections:
            kind = "wide" if section.wide else "columns"
            if blocks and blocks[-1][0] == kind == "columns":
                blocks[-1][1].append(section)
            else:
                blocks.append((kind, [section]))
        return [
            (kind, _two_columns(sections) if kind == "columns" else [sections])
            for kind, sections in blocks
        ]

    def assumption_columns(self) -> list[list[Note]]:
        """The numbered assumptions in two columns of about equal text length."""
        lengths = [len(note.text) + 40 for note in self.assumptions]
        total, running = sum(lengths), 0
        for cut, length in enumerate(lengths):
            if running + length / 2 > total / 2:
                return [self.assumptions[:cut], self.assumptions[cut:]]
            running += length
        return [self.assumptions, []]


def _height(section: Section) -> int:
    """A rough height in lines: a heading, its rule lines, its rows (long texts wrap)."""
    lines = 2 + (1 if section.headers else 0)
    for row in (*section.rules, *section.rows):
        lines += 1 + sum(len(cell) for cell in row.cells) // 70
    return lines


def _two_columns(sections: list[Section]) -> list[list[Section]]:
    """Split in order: the left column takes sections while that keeps it the taller one
    by the least."""
    heights = [_height(s) for s in sections]
    total = sum(heights)
    best, best_cut = None, len(sections)
    for cut in range(1, len(sections) + 1):
        left = sum(heights[:cut])
        score = abs(total - 2 * left)
        if best is None or score < best:
            best, best_cut = score, cut
    return [sections[:best_cut], sections[best_cut:]]


def number(value: int) -> str:
    """An integer with a real minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def times(value: int) -> str:
    return f"×{value}"


def span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def unit_label(unit: str) -> str:
    return {
        "points": _("points"),
        "cents": _("cents"),
        "pfennig": _("Pfennig"),
        "game_points": _("game points"),
    }.get(unit, unit)


def tariff_card(source: RuleSource, language: str = "de") -> TariffCard:
    """The tariff card of ``source`` in ``language`` (de or en): labels, names, assumptions."""
    lang = "de" if language.lower().startswith("de") else "en"
    with translation.override(lang):
        return _tariff_card(source, lang)


def _tariff_card(source: RuleSource, lang: str) -> TariffCard:

    def name(names: Names) -> str:
        return getattr(names, lang) or names.en or names.de

    def game_name(names: Names) -> str:
        # Cego's game names are proper names: German in every language, glossed in English
        if lang == "en" and names.en and names.en != names.de:
            return f"{names.de} ({names.en})"
        return names.de

    contract_names = {key: game_name(contract.names) for key, contract in source.contracts.items()}
    facts = _facts(source)
    sections = [
        _counting(source, contract_names),
        _normal_games(source, contract_names),
        _amounts(source, contract_names),
        _specials(source, contract_names, name),
        _penalty_knocks_bonuses(source, name),
    ]
    if source.variants:
        sections.append(_variants(source, name))
    sections = [section for section in sections if section.rows or section.rules]
    assumptions = [
        Note(index, a.param, getattr(a, lang) or a.en)
        for index, a in enumerate(source.assumptions, start=1)
    ]
    _attach(assumptions, facts, sections)
    return TariffCard(
        slug=source.slug,
        language=lang,
        name=name(source.names),
        citation_source=source.citation.source,
        citation_based_on=source.citation.based_on,
        unit=unit_label(source.unit),
        facts=facts,
        sections=sections,
        assumptions=assumptions,
        contract_names=contract_names,
        practice_only=source.practice_only,
    )


# --------------------------------------------------------------------------- sections


def _facts(source: RuleSource) -> list[Row]:
    if source.distribution == "each_defender":
        distribution = _(
            "won: the declarer receives the amount from each defender; lost: pays it to each"
        )
    else:
        distribution = _("only the declarer scores: plus or minus the amount")
    facts = [
        Row(
            [_("Source"), f"{source.citation.source} · {source.citation.based_on}"],
            ("name", "citation", "schema", "slug"),
        ),
        Row([_("Unit"), unit_label(source.unit)], ("unit",)),
        Row([_("Who pays whom"), distribution], ("distribution",)),
    ]
    if source.practice_only:
        facts.append(
            Row(
                [_("Use"), _("a practice game for club evenings; not offered for tournaments")],
                ("practice_only",),
            )
        )
    return facts


def _counting(source: RuleSource, names: dict[str, str]) -> Section:
    counting = source.counting
    method = _("in threes") if counting.method == "threes" else _("in pairs")
    if counting.win_at * 2 > counting.total + 1:
        tie = _("%(half)s:%(half)s is the defenders' win") % {"half": counting.total // 2}
    else:
        tie = _("there is no tie")
    rows = [
        Row(
            [
                _("Counting"),
                _(
                    "%(method)s, %(total)s card points in all; the declarer wins with %(win)s or more"
                )
                % {"method": method, "total": counting.total, "win": counting.win_at}
                + f" ({tie})",
            ],
            ("counting.method", "counting.total", "counting.win_at"),
        ),
        Row(
            [
                _("Declarer without a trick"),
                _("has 0 points; the blind counts to the defenders")
                if counting.no_trick_zero
                else _("keeps the points counted"),
            ],
            ("counting.no_trick_zero",),
        ),
    ]
    if counting.method == "pairs" or counting.leftover_deduction != 1:
        rows.append(
            Row(
                [
                    _("Leftover cards"),
                    _("a leftover group smaller than a full one counts its values minus %(n)s")
                    % {"n": counting.leftover_deduction},
                ],
                ("counting.leftover_deduction",),
            )
        )
    for seats in source.table_sizes:
        table = source.tables[seats]
        parts = [
            ngettext("%(n)s player plays", "%(n)s players play", table.active) % {"n": table.active}
        ]
        if table.active < table.seats:
            if table.sitting_out_scores == "defender":
                parts.append(_("the dealer sits out and pays or receives like a defender"))
            else:
                parts.append(_("the dealer sits out and scores nothing"))
        if table.declarer_bonus:
            parts.append(
                _("the declarer's points are entered as 0..%(entered)s, the engine adds %(bonus)s")
                % {"entered": table.entered_total, "bonus": table.declarer_bonus}
            )
        if table.tricks is not None:
            parts.append(
                ngettext("%(n)s trick a deal", "%(n)s tricks a deal", table.tricks)
                % {"n": table.tricks}
            )
        if table.forbidden:
            forbidden = ", ".join(names[c] for c in source.contracts if c in table.forbidden)
            parts.append(_("not played: %(contracts)s") % {"contracts": forbidden})
        if table.penalty_as_no_trick:
            kinds = ", ".join(
                _PENALTY_KINDS[k]() for k in _PENALTY_KINDS if k in table.penalty_as_no_trick
            )
            parts.append(
                _(
                    "%(kinds)s: the offender pays the game as lost without a trick to each "
                    "other player"
                )
                % {"kinds": kinds}
            )
        rows.append(
            Row(
                [_("Table of %(seats)s") % {"seats": seats}, "; ".join(parts)],
                (f"tables.{seats}",),
            )
        )
    return Section("counting", _("Counting and tables"), rows=rows)


def _normal_contracts(source: RuleSource) -> list[tuple[str, NormalContract]]:
    normal = {k: c for k, c in source.contracts.items() if isinstance(c, NormalContract)}
    ordered = [k for k in source.normal.ladder if k in normal]
    ordered += [k for k in normal if k not in source.normal.ladder]
    return [(k, normal[k]) for k in ordered]


def _normal_games(source: RuleSource, names: dict[str, str]) -> Section:
    rows = []
    for key, contract in _normal_contracts(source):
        rows.append(
            Row(
                [
                    names[key],
                    str(contract.value),
                    times(contract.win_multiplier),
                    times(contract.loss_multiplier),
                ],
                (f"contracts.{key}",),
            )
        )
    rules: list[Row] = []
    normal = source.normal
    if normal.ladder:
        after = []
        for ladder_name, target in normal.after_solo_as.items():
            after.append(
                _("%(contract)s counts as %(other)s")
                % {"contract": names[ladder_name], "other": names[target]}
            )
        if normal.after_solo_raise:
            after.append(
                _("every other ladder game is worth %(raise)s more")
                % {"raise": normal.after_solo_raise}
            )
        else:
            after.append(_("the other ladder values stay the same"))
        ladder = " < ".join(names[k] for k in normal.ladder)
        rules.append(Row([_("Ladder (ascending)") + ": " + ladder], ("normal.ladder",)))
        rules.append(
            Row(
                [_("After a Solo bid") + ": " + "; ".join(after)],
                ("normal.after_solo_raise", "normal.after_solo_as"),
            )
        )
    return Section(
        "normal",
        _("Normal games"),
        headers=[_("Contract"), _("Value"), _("won"), _("lost")],
        rows=rows,
        rules=rules,
    )


_MODEL_PARAMS = (
    "normal.model",
    "normal.over",
    "normal.step_points",
    "normal.per_step",
    "normal.round_up_to",
    "normal.multiplier_order",
    "normal.pivot",
    "normal.tie_amount",
    "normal.tie_steps",
    "normal.bands",
)


def _amounts(source: RuleSource, names: dict[str, str]) -> Section:
    model = source.normal.model
    if isinstance(model, FactorBandsModel):
        return _bands_section(source, model)
    if isinstance(model, PointsOver35Model):
        return _over_35_section(source, model)
    return _steps_section(source, model, names)


def _order_text(order: str) -> str:
    if order == "after_rounding":
        return _("won/lost multipliers (e.g. Solo won ×2) are applied after rounding")
    return _("won/lost multipliers (e.g. Solo won ×2) are applied before rounding")


def _steps_section(
    source: RuleSource, model: FachModel | DreierlesStepsModel, names: dict[str, str]
) -> Section:
    """Fach (or Dreierles steps) by the winning side's points, and the amount for each value."""
    counting = source.counting
    fach = isinstance(model, FachModel)
    step_name = _("Fach") if fach else _("steps")
    if fach:
        rules = [
            Row(
                [
                    _(
                        "Fach = ⌈(W − %(over)s) ÷ %(step)s⌉, W = the points of the winning side; "
                        "amount per defender = Fach × %(per_step)s × value, rounded up to a "
                        "multiple of %(round)s"
                    )
                    % {
                        "over": model.over,
                        "step": model.step_points,
                        "per_step": model.per_step,
                        "round": model.round_up_to,
                    }
                    + "; "
                    + _order_text(model.multiplier_order)
                ],
                _MODEL_PARAMS,
            )
        ]
    else:
        rules = [
            Row(
                [
                    _(
                        "steps = ⌈(W − %(over)s) ÷ %(step)s⌉, W = the points of the winning side "
                        "(%(over)s:%(over)s: %(tie)s); amount per opponent = steps × factor"
                    )
                    % {"over": model.over, "step": model.step_points, "tie": model.tie_steps}
                ],
                _MODEL_PARAMS,
            )
        ]
    columns = _amount_columns(source, names)
    headers = [_("W (winning side)"), step_name] + [label for label, _v, _m in columns]
    rows: list[Row] = []
    groups: list[tuple[int, int, int]] = []  # (low, high, steps)
    for winner in range(counting.min_winning_points, counting.total + 1):
        steps = _steps(model, winner)
        if groups and groups[-1][2] == steps:
            groups[-1] = (groups[-1][0], winner, steps)
        else:
            groups.append((winner, winner, steps))
    for low, high, steps in groups:
        declarer_points = high if high >= counting.win_at else counting.total - high
        cells = [span(low, high), str(steps)]
        for _label, value, multiplier in columns:
            amount = model.per_defender(counting, declarer_points, value, multiplier)
            cells.append(str(abs(amount)))
        rows.append(Row(cells))
    return Section(
        "amounts",
        _("Amount per defender") if fach else _("Game points per opponent"),
        headers=headers,
        rows=rows,
        rules=rules,
        wide=True,
    )


def _steps(model: FachModel | DreierlesStepsModel, winner: int) -> int:
    if isinstance(model, DreierlesStepsModel) and winner <= model.over:
        return model.tie_steps
    return -(-(winner - model.over) // model.step_points)


def _amount_columns(source: RuleSource, names: dict[str, str]) -> list[tuple[str, int, int]]:
    """(heading, value, multiplier): one column per contract value, one per multiplier."""
    by_value: dict[int, list[str]] = {}
    extra: list[tuple[str, int, int]] = []
    for key, contract in _normal_contracts(source):
        by_value.setdefault(contract.value, []).append(names[key])
        if contract.win_multiplier > 1:
            extra.append(
                (
                    _("%(contract)s won") % {"contract": names[key]}
                    + f" ({contract.value}{times(contract.win_multiplier)})",
                    contract.value,
                    contract.win_multiplier,
                )
            )
        if contract.loss_multiplier > 1:
            extra.append(
                (
                    _("%(contract)s lost") % {"contract": names[key]}
                    + f" ({contract.value}{times(contract.loss_multiplier)})",
                    contract.value,
                    contract.loss_multiplier,
                )
            )
    columns = [
        (f"{times(value)}: {', '.join(contracts)}", value, 1)
        for value, contracts in sorted(by_value.items())
    ]
    return columns + extra


def _bands_section(source: RuleSource, model: FactorBandsModel) -> Section:
    header = Row([_("declarer's points")] + [span(b.low, b.high) for b in model.bands], header=True)
    factors = Row([_("factor")] + [number(b.factor) for b in model.bands], ("normal.bands",))
    rules = [
        Row(
            [
                _(
                    "amount per defender = value × factor (× the won/lost multiplier), the factor "
                    "by the declarer's points; a negative factor: the declarer pays"
                )
            ],
            _MODEL_PARAMS,
        )
    ]
    return Section(
        "amounts", _("Amount per defender"), rows=[header, factors], rules=rules, wide=True
    )


def _over_35_section(source: RuleSource, model: PointsOver35Model) -> Section:
    pivot = model.pivot
    rules = [
        Row(
            [
                _(
                    "won: (points − %(pivot)s) × value, rounded up to a multiple of %(round)s, "
                    "from each defender"
                )
                % {"pivot": pivot, "round": model.round_up_to}
            ],
            ("normal.model", "normal.round_up_to"),
        ),
        Row(
            [
                _(
                    "lost: (%(pivot)s − points) × value, rounded up to a multiple of %(round)s, "
                    "to each defender; an exact multiple stays"
                )
                % {"pivot": pivot, "round": model.round_up_to}
            ],
            ("normal.pivot",),
        ),
        Row(
            [
                _(
                    "%(pivot)s:%(pivot)s (Bürgermeister): whatever the game, each defender "
                    "receives %(amount)s"
                )
                % {"pivot": pivot, "amount": model.tie_amount}
            ],
            ("normal.tie_amount",),
        ),
        Row([_order_text(model.multiplier_order)], ("normal.multiplier_order",)),
    ]
    return Section("amounts", _("Amount per defender"), rules=rules, wide=True)


def _specials(source: RuleSource, names: dict[str, str], name: Callable[[Names], str]) -> Section:
    rows: list[Row] = []
    for key, contract in source.contracts.items():
        if isinstance(contract, NormalContract):
            continue
        rows.append(
            Row(
                [names[key], str(contract.amount), _special_text(source, key, contract)],
                (f"contracts.{key}",),
            )
        )
    if source.unpriced:  # one row for all: Trio, Quarto, Quinto
        rows.append(
            Row(
                [
                    ", ".join(name(names_) for names_ in source.unpriced.values()),
                    "—",
                    _("no amount printed: a club sets one in its house rules"),
                ],
                tuple(f"unpriced_contracts.{key}" for key in source.unpriced),
            )
        )
    if source.ouvert_multiplier:
        ouvert = _("a special game played open (ouvert) scores %(times)s") % {
            "times": times(source.ouvert_multiplier)
        }
    else:
        ouvert = _("specials are not played open (ouvert)")
    rules = [Row([_("Ouvert") + ": " + ouvert], ("ouvert_multiplier",))]
    if any(isinstance(c, FixedContract) for c in source.contracts.values()):
        rules.insert(0, Row([_("Fixed amounts: won, from each opponent; lost, to each opponent")]))
    return Section(
        "specials",
        _("Special games"),
        headers=[_("Contract"), _("Amount"), _("Rule")],
        rows=rows,
        rules=rules,
    )


def _special_text(source: RuleSource, key: str, contract: Contract) -> str:
    parts: list[str] = []
    if isinstance(contract, RaeuberContract):
        parts.append(_("the player with the most points pays the amount to each other player"))
        if contract.announcer_multiplier > 1:
            parts.append(
                _("%(times)s when the announcer loses")
                % {"times": times(contract.announcer_multiplier)}
            )
        if contract.no_trick_doubling == "per_player":
            parts.append(_("doubled for each player who took no trick"))
        elif contract.no_trick_doubling == "once":
            parts.append(_("doubled once if anyone took no trick"))
        if contract.no_trick_from_points:
            parts.append(_("0 points means no trick"))
        parts.append(
            {
                "announcer_loses": _("a tie with the announcer: the announcer loses"),
                "announcer_loses_single": _(
                    "a tie with the announcer: the announcer loses and pays single"
                ),
                "as_other_ties": _("a tie with the announcer counts like any tie"),
            }[contract.tie_with_announcer]
        )
        parts.append(
            {
                "tied_pay_single": _(
                    "other ties: each tied player pays the single amount to each player not tied"
                ),
                "pay_jointly": _(
                    "other ties: the tied players share the amount (rounded up) paid to each "
                    "player not tied"
                ),
            }[contract.ties]
        )
        if contract.tie_with_announcer == "as_other_ties":
            # elsewhere the announcer is always among an all-way tie, and loses it
            parts.append(_("everybody tied: nobody pays"))
        if contract.last_round_amount is not None:
            parts.append(
                _("%(amount)s in the last round, if the tournament agrees")
                % {"amount": contract.last_round_amount}
            )
    elif isinstance(contract, DrescherContract):
        parts.append(_("whoever takes the last trick pays the amount to each other player"))
        if contract.declarer_multiplier > 1:
            parts.append(
                _("%(times)s if that is the declarer")
                % {"times": times(contract.declarer_multiplier)}
            )
    forbidden = [str(s) for s in source.table_sizes if key in source.tables[s].forbidden]
    if forbidden:
        parts.append(_("not at tables of %(sizes)s") % {"sizes": ", ".join(forbidden)})
    return "; ".join(parts)


_PENALTY_KINDS = {
    "revoke": lambda: _("revoke"),
    "schinden": lambda: _("holding back a Solo (Schinden)"),
    "false_challenge": lambda: _("false accusation"),
}


def _penalty_knocks_bonuses(source: RuleSource, name) -> Section:
    penalty = source.penalty
    if penalty is None:
        text = _("no penalty scoring")
    elif penalty.model == "fixed":
        kinds = ", ".join(_PENALTY_KINDS[k]() for k in _PENALTY_KINDS if k in penalty.kinds)
        text = _("%(kinds)s: the offender pays %(amount)s to each other player") % {
            "kinds": kinds,
            "amount": penalty.amount,
        }
    else:
        # one sentence per multiplier: e.g. a revoke loses the game, a Schinden eightfold
        groups: dict[int, list[str]] = {}
        for kind in _PENALTY_KINDS:
            if kind in penalty.kinds:
                groups.setdefault(penalty.multiplier_for(kind), []).append(_PENALTY_KINDS[kind]())
        sentences = []
        for multiplier, labels in groups.items():
            kinds = ", ".join(labels)
            if penalty.model == "lost_game" and multiplier == 1:
                sentences.append(
                    _(
                        "%(kinds)s: the offender loses the game and pays its single amount (one "
                        "Fach or factor step) to each other player"
                    )
                    % {"kinds": kinds}
                )
            else:
                sentences.append(
                    _(
                        "%(kinds)s: the offender pays %(times)s the game's single amount (one "
                        "Fach or factor step) to each other player"
                    )
                    % {"kinds": kinds, "times": f"{multiplier}×"}
                )
        text = "; ".join(sentences)
    rows = [Row([_("Penalty"), text], ("penalty",))]
    if source.knocking is not None:
        knocking = source.knocking
        text = ngettext(
            "at most %(max)s knock; it doubles the game",
            "at most %(max)s knocks; each doubles the game",
            knocking.max,
        ) % {"max": knocking.max}
        for contract_key, limit in knocking.max_by_contract.items():
            text += "; " + _("%(contract)s: at most %(max)s") % {
                "contract": name(source.contracts[contract_key].names),
                "max": limit,
            }
        text += "; " + (
            _("bonuses are doubled too")
            if knocking.doubles_bonuses
            else _("bonuses are not doubled")
        )
        rows.append(Row([_("Knocking"), text], ("knocking",)))
    for key, bonus in source.bonuses.items():
        if bonus.scope == "personal":
            text = _("%(amount)s from each other player to the holder") % {"amount": bonus.amount}
        else:
            text = _(
                "%(amount)s from each opponent to the side that makes it; lost: to the other side"
            ) % {"amount": bonus.amount}
        for other in sorted(bonus.excludes):
            text += "; " + _("not together with %(other)s") % {
                "other": name(source.bonuses[other].names)
            }
        rows.append(Row([_("Bonus") + ": " + name(bonus.names), text], (f"bonuses.{key}",)))
    return Section("other", _("Penalties, knocks and bonuses"), rows=rows)


def _variants(source: RuleSource, name) -> Section:
    rows = [
        Row(
            [name(variant.names), _("on") if variant.enabled else _("off")],
            (f"variants.{index}",),
        )
        for index, variant in enumerate(source.variants)
    ]
    return Section("variants", _("Variants"), headers=[_("Variant"), _("played")], rows=rows)


# --------------------------------------------------------------------------- assumptions


def _attach(notes: list[Note], facts: list[Row], sections: list[Section]) -> None:
    """Put every note on the row whose parameter is the note's param or its closest parent
    (else a row below it; else the card's first fact)."""
    rows = facts + [row for section in sections for row in (*section.rules, *section.rows)]
    for note in notes:
        best: tuple[int, int] | None = None
        best_row = facts[0]
        for order, row in enumerate(rows):
            for param in row.params:
                if note.param == param or note.param.startswith(param + "."):
                    rank = (2, len(param))  # the value itself, or the closest parent
                elif param.startswith(note.param + "."):
                    rank = (1, -order)  # a part of the assumed parameter: its first row
                else:
                    continue
                if best is None or rank > best:
                    best, best_row = rank, row
        best_row.notes.append(note)
