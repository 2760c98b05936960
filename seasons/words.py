"""How a season's rule and its side rankings are named: on the page, the notice board and in the
workbook alike."""

from __future__ import annotations

from django.utils.translation import gettext as _


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
