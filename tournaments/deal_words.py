"""A deal in plain words, with the players' names: "Solo, declarer Bernd Maier, 50 card
points: −40 / −40 / +120 / −40". The change log, the phone's "already entered" notice and the
preview's penalty note say a deal this way; contract names as on every page
(``contract_names``).

A deal's name (``deal_title``) is its contract's, or for a penalty (stored as the game it
interrupted, with ``details["penalty"] = {"seat", "kind"}``, scored as the penalty instead)
"Penalty against Paul W., −120 points (revoke …), instead of Cego": the phone's waiting
deals, the running sheet at the desk and on the phone, the log and the season workbook all
name a deal this way, so a penalty is never shown as the game it replaced."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import RuleSource
from tournaments.contract_names import contract_name

PENALTY_KINDS = {
    "revoke": gettext_lazy("revoke or wrong discard"),
    "schinden": gettext_lazy("holding back a Solo (Schinden)"),
    "false_challenge": gettext_lazy("false accusation"),
}
MINUS = "\u2212"  # the typographic minus: −40, not a hyphen


def signed(score: int) -> str:
    return f"+{score}" if score > 0 else f"{MINUS}{-score}" if score < 0 else "0"


def scores_text(scores: Sequence[int | None]) -> str:
    return " / ".join(signed(score) for score in scores if score is not None)


def _name(names: Sequence[str], position: Any) -> str:
    if isinstance(position, int) and 0 <= position < len(names):
        return names[position]
    return _("seat %(number)s") % {"number": int(position) + 1} if position is not None else ""


def penalty_text(*, penalty: Mapping[str, Any], names: Sequence[str]) -> str:
    kind = penalty.get("kind", "")
    return _("penalty against %(name)s (%(reason)s)") % {
        "name": _name(names, penalty.get("seat")),
        "reason": PENALTY_KINDS.get(kind, kind),
    }


def penalty_of(details: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The penalty a stored deal's ``details`` (or a deal record) carries, else None."""
    penalty = (details or {}).get("penalty")
    return penalty if isinstance(penalty, Mapping) and penalty.get("kind") else None


def deal_title(
    *,
    rules: RuleSource,
    contract: str,
    penalty: Mapping[str, Any] | None,
    names: Sequence[str],
    scores: Sequence[int | None] = (),
    short: bool = False,
) -> str:
    """What a deal is called on every page and export: the contract's name, or for a penalty
    "Penalty against Paul W., −120 points (revoke or wrong discard), instead of Cego" (the
    offender's points where the scores are known); ``short``, for a sheet's narrow column
    whose seat columns show the points: "Penalty against Paul W."."""
    name = contract_name(rules, contract) if contract else ""
    if not penalty:
        return name
    seat = penalty.get("seat")
    kind = penalty.get("kind", "")
    values = {"name": _name(names, seat), "reason": PENALTY_KINDS.get(kind, kind)}
    if short:
        return _("Penalty against %(name)s") % values
    points = (
        scores[seat]
        if isinstance(seat, int) and 0 <= seat < len(scores) and scores[seat] is not None
        else None
    )
    if points is None:
        text = _("Penalty against %(name)s (%(reason)s)") % values
    else:
        text = _("Penalty against %(name)s, %(points)s points (%(reason)s)") % {
            **values,
            "points": signed(points),
        }
    return (
        _("%(penalty)s, instead of %(contract)s") % {"penalty": text, "contract": name}
        if name
        else text
    )


def deal_parts(
    *,
    rules: RuleSource,
    inputs: Mapping[str, Any],
    names: Sequence[str],
    labelled: bool = True,
    scores: Sequence[int | None] = (),
) -> list[str]:
    """The deal's inputs, each a short phrase: its name (``deal_title``: the contract, or the
    penalty first, with the offender's points where ``scores`` are given), declarer, card
    points or result. ``labelled``: "declarer Bernd Maier" (the log), else the bare name (the
    phone)."""
    slug = inputs.get("contract", "")
    contract = rules.contracts.get(slug)
    kind = contract.kind if contract is not None else ""
    penalty = penalty_of(inputs)
    parts = (
        [deal_title(rules=rules, contract=slug, penalty=penalty, names=names, scores=scores)]
        if slug or penalty
        else []
    )
    declarer = inputs.get("declarer")
    if declarer is not None:
        name = _name(names, declarer)
        if not labelled:
            parts.append(name)
        elif kind == "raeuber":
            parts.append(_("announced by %(name)s") % {"name": name})
        else:
            parts.append(_("declarer %(name)s") % {"name": name})
    if inputs.get("declarer_points") is not None:
        parts.append(_("%(points)s card points") % {"points": inputs["declarer_points"]})
    if inputs.get("declarer_tricks") == 0:
        parts.append(_("no trick"))
    if inputs.get("won") is not None:
        parts.append(_("won") if inputs["won"] else _("lost"))
    if inputs.get("ouvert"):
        parts.append(_("open"))
    points = inputs.get("points") or ()
    if points:
        parts.append(
            _("card points %(list)s")
            % {
                "list": ", ".join(
                    f"{_name(names, position)} {value}" for position, value in enumerate(points)
                )
            }
        )
    if inputs.get("last_trick") is not None:
        parts.append(_("last trick %(name)s") % {"name": _name(names, inputs["last_trick"])})
    if inputs.get("knocks"):
        parts.append(_("%(count)s knocks") % {"count": inputs["knocks"]})
    return parts


STATUS_WORDS = {
    "pending": (gettext_lazy("waiting for confirmation"), gettext_lazy("waited for confirmation")),
    "confirmed": (gettext_lazy("confirmed"), gettext_lazy("confirmed")),
    "annulled": (gettext_lazy("annulled"), gettext_lazy("annulled")),
}


def status_change_text(before: str | None, after: str | None) -> str:
    """ "waited for confirmation → confirmed", or the one status where it did not change."""
    if after is None:
        return ""
    now = str(STATUS_WORDS.get(after, (after, after))[0])
    if before is None or before == after:
        return now
    return f"{STATUS_WORDS.get(before, (before, before))[1]} → {now}"


def snapshot_text(
    *, rules: RuleSource, snapshot: Mapping[str, Any] | None, names: Sequence[str]
) -> str:
    """A logged deal (``results_common._snapshot``) in words, with its scores; no status."""
    if not snapshot:
        return ""
    values = snapshot.get("scores") or ()
    scores = scores_text(values)
    if snapshot.get("kind") == "total":
        return _("round totals: %(scores)s") % {"scores": scores}
    parts = deal_parts(rules=rules, inputs=snapshot.get("inputs") or {}, names=names, scores=values)
    if snapshot.get("as_written"):
        parts.append(_("as written on the sheet"))
    text = ", ".join(str(part) for part in parts)
    return f"{text}: {scores}" if scores else text


def change_texts(
    *,
    rules: RuleSource,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    names: Sequence[str],
) -> tuple[str, str]:
    """A deal's log line as (before, after): the deal as it stands afterwards with the change
    of its status; what it was before only where that differs (a correction)."""
    content = snapshot_text(rules=rules, snapshot=after, names=names)
    before_text = snapshot_text(rules=rules, snapshot=before, names=names)
    status = status_change_text((before or {}).get("status"), (after or {}).get("status"))
    after_text = f"{content}; {status}" if content and status else content or status
    return ("" if before_text == content else before_text), after_text
