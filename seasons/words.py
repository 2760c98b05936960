"""How a season's rule and its side rankings are named: on the page, the notice board and in the
workbook alike."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext


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
    Turniere", or "nicht mehr erreichbar" when the season's plan has too few tournaments left
    (never while the plan is unknown: then how many are missing)."""
    if qualification.qualified:
        return str(_("qualified"))
    if qualification.reachable is False:
        return str(_("out of reach"))
    return str(
        ngettext("%(count)s more tournament", "%(count)s more tournaments", qualification.missing)
        % {"count": qualification.missing}
    )


def plan_text(plan) -> str:
    """What the final's column assumes (a ``ranking.SeasonPlan``), said under the table:
    "Angenommen: 13 geplante Turniere, davon 1 gespielt, 12 noch offen." or, without a plan,
    "Planung unbekannt: …"."""
    if plan.known:
        parts = [
            ngettext("%(count)s played", "%(count)s played", plan.played) % {"count": plan.played}
        ]
        if plan.lapsed:
            parts.append(
                ngettext(
                    "%(count)s over without results",
                    "%(count)s over without results",
                    plan.lapsed,
                )
                % {"count": plan.lapsed}
            )
        parts.append(
            ngettext("%(count)s still to come", "%(count)s still to come", plan.to_come)
            % {"count": plan.to_come}
        )
        head = ngettext(
            "Assumed: %(count)s planned tournament",
            "Assumed: %(count)s planned tournaments",
            plan.planned,
        ) % {"count": plan.planned}
        return str(_("%(head)s, of which %(parts)s.") % {"head": head, "parts": ", ".join(parts)})
    if plan.to_come is None:
        played = ngettext(
            "%(count)s tournament played so far",
            "%(count)s tournaments played so far",
            plan.played,
        ) % {"count": plan.played}
        return str(
            _(
                "Plan unknown: %(played)s. The season names no planned tournaments, so the "
                "final's column says how many tournaments are missing, never “out of reach”."
            )
            % {"played": played}
        )
    return str(
        ngettext(
            "The season is over: %(count)s tournament played.",
            "The season is over: %(count)s tournaments played.",
            plan.played,
        )
        % {"count": plan.played}
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


def _names(names) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return str(_("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]})


def chance_text(chance, *, leaders, scoring: str, during: bool) -> str:
    """A ``ranking.Chance`` in words: "Spitzenreiter", "braucht 41 Punkte mehr als Anna
    Maier", "braucht 6 Cup-Punkte mehr als …, höchstens 25 möglich", "nicht mehr einholbar".
    ``leaders``: the leaders' names."""
    kind = chance.kind
    if kind == "leader":
        if len(leaders) > 1:
            return str(_("leader (shared)"))
        return str(_("leader"))
    if kind == "out_of_reach":
        return str(pgettext("the season's leader", "out of reach"))
    if kind == "any_result":
        return str(_("a result in the final is enough"))
    leader = _names(leaders)
    points = chance.points
    if scoring == "cup":
        return str(
            ngettext(
                "needs %(points)s cup point more than %(leader)s (at most %(bound)s possible)",
                "needs %(points)s cup points more than %(leader)s (at most %(bound)s possible)",
                max(points, 1),
            )
            % {"points": max(points, 0), "leader": leader, "bound": chance.bound}
        )
    if scoring == "best_n":
        if points <= 0:
            return str(_("a result in the final is enough"))
        template = (
            ngettext(
                "needs %(points)s more point if %(leader)s does not improve",
                "needs %(points)s more points if %(leader)s does not improve",
                points,
            )
            if during
            else ngettext(
                "needs %(points)s point in the final if %(leader)s does not improve",
                "needs %(points)s points in the final if %(leader)s does not improve",
                points,
            )
        )
        return str(template % {"points": points, "leader": leader})
    if points <= 0:
        return str(
            _("needs a result in the final at most %(points)s points below %(leader)s’s")
            % {"points": -points, "leader": leader}
        )
    return str(
        ngettext(
            "needs %(points)s point more than %(leader)s",
            "needs %(points)s points more than %(leader)s",
            points,
        )
        % {"points": points, "leader": leader}
    )


def chances_note(chances) -> str:
    """Under the list: what "pass" means and whether the final's points are bounded."""
    tie = _("Equal season scores share the place: to pass the leader takes more points.")
    if chances.cup_max is not None:
        bound = ngettext(
            "The final gives at most %(count)s cup point (the best place); while it is played "
            "its places, and so its cup points, may still change.",
            "The final gives at most %(count)s cup points (the best place); while it is played "
            "its places, and so its cup points, may still change.",
            chances.cup_max,
        ) % {"count": chances.cup_max}
    elif chances.rule.scoring == "best_n":
        bound = _(
            "Points in the final are not bounded. A result in the final counts only if it is "
            "among a player's best %(count)s."
        ) % {"count": chances.rule.best_of}
    else:
        bound = _(
            "Points in the final are not bounded: “more than” means in the final, whatever the "
            "leader scores in it."
        )
    return f"{tie} {bound}"
