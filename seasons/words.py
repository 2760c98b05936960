"""How a season's rule and its side rankings are named: on the page, the notice board and in the
workbook alike."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def season_rule_text(season) -> str:
    if season.scoring == "best_n":
        text = _("sum of the best %(count)s results") % {"count": season.best_of}
    elif season.scoring == "cup":
        text = _("cup points per place: %(table)s") % {
            "table": ", ".join(str(p) for p in season.cup_points) or "–"
        }
    else:
        text = _("sum of all results, negative ones included")
    return str(text)


def side_label(key: str) -> str:
    labels = {
        "woman": _("Women"),
        "youth": _("Youth"),
        "senior": _("Seniors"),
        "last": _("Last place"),
    }
    return str(labels.get(key, key))


def qualification_text(qualification) -> str:
    """A ``ranking.Qualification`` in words: "qualifiziert", "noch 1 Turnier", "noch 2
    Turniere", or "nicht mehr erreichbar" when the season has too few tournaments left."""
    if qualification.qualified:
        return str(_("qualified"))
    if not qualification.reachable:
        return str(_("out of reach"))
    return str(
        ngettext("%(count)s more tournament", "%(count)s more tournaments", qualification.missing)
        % {"count": qualification.missing}
    )


def movement_text(movement) -> str:
    """A ``ranking.Movement`` in words, for screen readers and the workbook."""
    if movement.kind == "new":
        return str(_("new in the ranking"))
    if movement.kind == "same":
        return str(_("same place as after the previous tournament"))
    if movement.kind == "up":
        return str(
            ngettext("up %(count)s place", "up %(count)s places", movement.by)
            % {"count": movement.by}
        )
    return str(
        ngettext("down %(count)s place", "down %(count)s places", movement.by)
        % {"count": movement.by}
    )


def movement_symbol(movement) -> str:
    """▲2, ▼1, "neu" or "±0": what the eye reads (beside the words, never colour alone)."""
    if movement.kind == "new":
        return str(_("new"))
    if movement.kind == "same":
        return "±0"
    return f"{'▲' if movement.kind == 'up' else '▼'}{movement.by}"


def movement_html(movement) -> str:
    """The change of rank after the rank: the symbol shown, the words read out."""
    return format_html(
        ' <span class="move move-{}" title="{}"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        movement.kind,
        movement_text(movement),
        movement_symbol(movement),
        movement_text(movement),
    )


def season_rule_label(scoring: str) -> str:
    """The season rule's short name (the roll of honour: the points beside a winner are cup
    points, a sum, or the best N results)."""
    labels = {"sum": _("points"), "best_n": _("points (best results)"), "cup": _("cup points")}
    return str(labels.get(scoring, ""))
