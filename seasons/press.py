"""The press report (issue 41 item 3): the paragraph the regional papers print after a
tournament (Südkurier, Schwarzwälder Bote) and after the season's final, built from plain
facts (``TournamentFacts``, ``SeasonFacts``; gathered by ``seasons.selectors.press``). Pure:
no database; the words in the page's language (German, or English where the site is).

Every part beyond the winner is optional and left out without its facts: 2nd and 3rd place,
the best woman, the women, youth and seniors among the players (by their categories), the
youngest and the oldest player (only those who agreed to be named for their age, by the rule
of ``clubs.ages``; never their birth year), the last place, the season's leader and the gap
after this tournament, the next tournament."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext


@dataclass(frozen=True)
class Placed:
    place: int
    name: str
    club: str  # the club (its village), "" unknown
    points: int


@dataclass(frozen=True)
class NextStop:
    name: str  # the tournament's name, or the calendar's note for a planned date
    date: dt.date
    venue: str = ""  # the hall
    host: str = ""  # the host club


@dataclass(frozen=True)
class SeasonLead:
    season: str
    leaders: tuple[Placed, ...]  # first place (several where equal)
    gap: int | None  # points ahead of the next one (None: nobody behind)
    runner_up: str = ""
    cup: bool = False  # cup points, not game points


@dataclass(frozen=True)
class TournamentFacts:
    name: str
    date: dt.date
    venue: str = ""
    host: str = ""
    podium: tuple[Placed, ...] = ()  # places 1-3 (all who share them)
    players: int = 0
    women: int = 0
    youth: int = 0
    seniors: int = 0
    best_woman: Placed | None = None  # not on the podium already
    youngest: tuple[Placed, ...] = ()  # who agreed to be named for it (several: one year)
    oldest: tuple[Placed, ...] = ()
    last: Placed | None = None
    season: SeasonLead | None = None
    next_stop: NextStop | None = None


@dataclass(frozen=True)
class SeasonFacts:
    season: str
    decided: bool  # the final is played and finished (else: the standings so far)
    tournaments: int
    players: int  # ranked players
    podium: tuple[Placed, ...] = ()
    gap: int | None = None
    best_woman: Placed | None = None
    cup: bool = False
    final: str = ""  # the final's name
    final_winner: Placed | None = None
    women: int = 0


def points_words(points: int, *, cup: bool = False, after_with: bool = True) -> str:
    """ "412 points" ("mit 412 Punkten" after "with" in German, "85 Punkte vor …" else)."""
    number = number_format(points, force_grouping=True).replace("-", "−")
    n = abs(points)
    if cup and after_with:
        text = npgettext("after with", "%(n)s cup point", "%(n)s cup points", n)
    elif cup:
        text = npgettext("an amount", "%(n)s cup point", "%(n)s cup points", n)
    elif after_with:
        text = npgettext("after with", "%(n)s point", "%(n)s points", n)
    else:
        text = npgettext("an amount", "%(n)s point", "%(n)s points", n)
    return text % {"n": number}


def _who(placed: Placed) -> str:
    return f"{placed.name} ({placed.club})" if placed.club else placed.name


def _day(day: dt.date) -> str:
    return _("%(weekday)s, %(date)s") % {
        "weekday": date_format(day, "l"),
        "date": date_format(day, pgettext("press report's date", "j F Y")),
    }


def _joined(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def _by_place(podium: Sequence[Placed]) -> list[list[Placed]]:
    groups: list[list[Placed]] = []
    for placed in podium:
        if groups and groups[-1][0].place == placed.place:
            groups[-1].append(placed)
        else:
            groups.append([placed])
    return groups


def _podium_sentences(podium: Sequence[Placed], *, cup: bool = False) -> list[str]:
    sentences = []
    for group in _by_place(podium):
        place = group[0].place
        points = points_words(group[0].points, cup=cup)
        if place == 1:
            continue  # the lead sentence names the winner(s)
        if len(group) > 1:
            sentences.append(
                _("Place %(place)s was shared by %(names)s with %(points)s each.")
                % {"place": place, "names": _joined([_who(p) for p in group]), "points": points}
            )
        elif place == 2:
            sentences.append(
                _("Second was %(name)s with %(points)s.")
                % {"name": _who(group[0]), "points": points}
            )
        else:
            sentences.append(
                _("Third was %(name)s with %(points)s.")
                % {"name": _who(group[0]), "points": points}
            )
    return sentences


def tournament_headline(facts: TournamentFacts) -> str:
    winners = [p for p in facts.podium if p.place == 1]
    if len(winners) == 1:
        return _("%(name)s wins the Cego tournament “%(tournament)s”") % {
            "name": winners[0].name,
            "tournament": facts.name,
        }
    return _("Cego tournament “%(tournament)s”") % {"tournament": facts.name}


def tournament_report(facts: TournamentFacts) -> str:
    """The paragraph, headline first, as the papers print it."""
    sentences = []
    setting = _("At the Cego tournament “%(name)s”%(details)s on %(day)s") % {
        "name": facts.name,
        "details": _details(venue=facts.venue, host=facts.host),
        "day": _day(facts.date),
    }
    winners = [p for p in facts.podium if p.place == 1]
    if len(winners) == 1:
        sentences.append(
            _("%(setting)s, %(name)s won with %(points)s.")
            % {
                "setting": setting,
                "name": _who(winners[0]),
                "points": points_words(winners[0].points),
            }
        )
    elif winners:
        sentences.append(
            _("%(setting)s, %(names)s shared first place with %(points)s each.")
            % {
                "setting": setting,
                "names": _joined([_who(p) for p in winners]),
                "points": points_words(winners[0].points),
            }
        )
    else:
        sentences.append(_("%(setting)s, no result has been entered yet.") % {"setting": setting})
    sentences += _podium_sentences(facts.podium)
    if facts.best_woman:
        sentences.append(
            _("Best woman was %(name)s in place %(place)s with %(points)s.")
            % {
                "name": _who(facts.best_woman),
                "place": facts.best_woman.place,
                "points": points_words(facts.best_woman.points),
            }
        )
    if facts.players:
        among = []
        if facts.women:
            among.append(ngettext("%(n)s woman", "%(n)s women", facts.women) % {"n": facts.women})
        if facts.youth:
            among.append(
                ngettext("%(n)s young player", "%(n)s young players", facts.youth)
                % {"n": facts.youth}
            )
        if facts.seniors:
            among.append(
                ngettext("%(n)s senior", "%(n)s seniors", facts.seniors) % {"n": facts.seniors}
            )
        took_part = ngettext("%(n)s player took part", "%(n)s players took part", facts.players) % {
            "n": facts.players
        }
        if among:
            took_part = _("%(took_part)s, among them %(among)s") % {
                "took_part": took_part,
                "among": _joined(among),
            }
        sentences.append(f"{took_part}.")
    if facts.youngest:
        sentences.append(
            ngettext(
                "The youngest player was %(names)s.",
                "The youngest players were %(names)s.",
                len(facts.youngest),
            )
            % {"names": _joined([_who(p) for p in facts.youngest])}
        )
    if facts.oldest:
        sentences.append(
            ngettext(
                "The oldest player was %(names)s.",
                "The oldest players were %(names)s.",
                len(facts.oldest),
            )
            % {"names": _joined([_who(p) for p in facts.oldest])}
        )
    if facts.last:
        sentences.append(
            _("Last place went to %(name)s with %(points)s.")
            % {"name": _who(facts.last), "points": points_words(facts.last.points)}
        )
    if facts.season and facts.season.leaders:
        sentences.append(season_lead_sentence(facts.season))
    if facts.next_stop:
        sentences.append(next_stop_sentence(facts.next_stop))
    return f"{tournament_headline(facts)}\n\n" + " ".join(sentences)


def season_lead_sentence(lead: SeasonLead) -> str:
    leaders = lead.leaders
    points = points_words(leaders[0].points, cup=lead.cup)
    if len(leaders) > 1:
        return _(
            "In the season standings %(season)s, %(names)s share the lead after this "
            "tournament with %(points)s each."
        ) % {"season": lead.season, "names": _joined([p.name for p in leaders]), "points": points}
    if lead.gap is None or not lead.runner_up:
        return _("In the season standings %(season)s, %(name)s leads with %(points)s.") % {
            "season": lead.season,
            "name": leaders[0].name,
            "points": points,
        }
    return _(
        "In the season standings %(season)s, %(name)s leads after this tournament with "
        "%(points)s, %(gap)s ahead of %(runner_up)s."
    ) % {
        "season": lead.season,
        "name": leaders[0].name,
        "points": points,
        "gap": points_words(lead.gap, cup=lead.cup, after_with=False),
        "runner_up": lead.runner_up,
    }


def _details(*, venue: str, host: str) -> str:
    """ " (host: …, venue: …)", or nothing where neither is known."""
    parts = []
    if host:
        parts.append(_("host: %(host)s") % {"host": host})
    if venue:
        parts.append(_("venue: %(venue)s") % {"venue": venue})
    return f" ({', '.join(parts)})" if parts else ""


def next_stop_sentence(stop: NextStop) -> str:
    return _("The next tournament of the season, “%(name)s”%(details)s, is on %(day)s.") % {
        "name": stop.name,
        "details": _details(venue=stop.venue, host=stop.host),
        "day": _day(stop.date),
    }


def season_report(facts: SeasonFacts) -> str:
    """The season's paragraph: after the final, its winner; before, the standings so far."""
    winners = [p for p in facts.podium if p.place == 1]
    if facts.decided and len(winners) == 1:
        headline = _("%(name)s wins the season standings %(season)s") % {
            "name": winners[0].name,
            "season": facts.season,
        }
    else:
        headline = _("Season standings %(season)s") % {"season": facts.season}
    sentences = []
    played = ngettext("after %(n)s tournament", "after %(n)s tournaments", facts.tournaments) % {
        "n": facts.tournaments
    }
    if winners and len(winners) == 1:
        lead = (
            _(
                "The season standings %(season)s are decided %(played)s: %(name)s wins with %(points)s"
            )
            if facts.decided
            else _("In the season standings %(season)s, %(name)s leads %(played)s with %(points)s")
        ) % {
            "season": facts.season,
            "played": played,
            "name": _who(winners[0]),
            "points": points_words(winners[0].points, cup=facts.cup),
        }
        if facts.gap is not None and len(facts.podium) > 1:
            lead = _("%(lead)s, %(gap)s ahead of %(name)s") % {
                "lead": lead,
                "gap": points_words(facts.gap, cup=facts.cup, after_with=False),
                "name": facts.podium[1].name,
            }
        sentences.append(f"{lead}.")
    elif winners:
        sentences.append(
            _(
                "In the season standings %(season)s, %(names)s share first place %(played)s with %(points)s each."
            )
            % {
                "season": facts.season,
                "played": played,
                "names": _joined([_who(p) for p in winners]),
                "points": points_words(winners[0].points, cup=facts.cup),
            }
        )
    sentences += _podium_sentences(facts.podium, cup=facts.cup)
    if facts.final and facts.final_winner:
        sentences.append(
            _("The final, “%(final)s”, was won by %(name)s with %(points)s.")
            % {
                "final": facts.final,
                "name": _who(facts.final_winner),
                "points": points_words(facts.final_winner.points),
            }
        )
    if facts.best_woman:
        sentences.append(
            _("Best woman of the season was %(name)s in place %(place)s with %(points)s.")
            % {
                "name": _who(facts.best_woman),
                "place": facts.best_woman.place,
                "points": points_words(facts.best_woman.points, cup=facts.cup),
            }
        )
    if facts.players:
        ranked = ngettext("%(n)s player is ranked", "%(n)s players are ranked", facts.players) % {
            "n": facts.players
        }
        if facts.women:
            ranked = _("%(ranked)s, among them %(women)s") % {
                "ranked": ranked,
                "women": ngettext("%(n)s woman", "%(n)s women", facts.women) % {"n": facts.women},
            }
        sentences.append(f"{ranked}.")
    return f"{headline}\n\n" + " ".join(sentences)
