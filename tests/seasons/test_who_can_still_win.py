"""Who can still win (issue 41 item 1): the pure arithmetic (``seasons.ranking.chances``),
held by properties against the season's own scoring (``season_score``), whatever the rule."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from seasons import ranking
from seasons.ranking import Contender, SeasonRule

FINAL = "F"
EARLIER = ("t1", "t2", "t3", "t4")


@st.composite
def fields(draw, scoring: str):
    """A season's rule and 2–6 players with results in up to four earlier tournaments and
    perhaps a result so far in the final."""
    min_tournaments = draw(st.integers(1, 3))
    if scoring == ranking.BEST_N:
        rule = SeasonRule(scoring, best_of=draw(st.integers(1, 3)), min_tournaments=min_tournaments)
    elif scoring == ranking.CUP:
        table = tuple(
            sorted(draw(st.lists(st.integers(0, 30), min_size=1, max_size=5)), reverse=True)
        )
        rule = SeasonRule(scoring, cup_points=table, min_tournaments=min_tournaments)
    else:
        rule = SeasonRule(scoring, min_tournaments=min_tournaments)
    during = draw(st.booleans())
    players = []
    for key in range(draw(st.integers(2, 6))):
        played = draw(st.lists(st.sampled_from(EARLIER), unique=True, max_size=4))
        results = {t: draw(st.integers(-150, 150)) for t in played}
        places = {t: draw(st.integers(1, 7)) for t in played}
        final_total = draw(st.none() | st.integers(-80, 80)) if during else None
        final_place = draw(st.integers(1, 7)) if final_total is not None else None
        can_play = draw(st.booleans()) if during else True
        players.append(Contender(key, results, places, final_total, final_place, can_play or False))
    return rule, players


def after(players, rule, outcome: dict):
    """Every player's season score after the final: ``outcome`` maps a player to their
    final result (total, place); the others keep what they have so far (they score nothing
    more)."""
    scores = {}
    for p in players:
        total, place = outcome.get(p.key, (p.final_total, p.final_place))
        results = dict(p.results)
        places = dict(p.places)
        if total is not None:
            results[FINAL] = total
            places[FINAL] = place if place is not None else 99
        scores[p.key] = ranking.season_score(results, rule, places)
    return scores


def passes(scores, key, leaders) -> bool:
    """Ranked, and above every leader (equal scores share the place: a tie does not pass)."""
    return scores[key].ranked and all(scores[key].score > scores[k].score for k in leaders)


def told(players, rule):
    result = ranking.chances(players, rule, final_key=FINAL)
    assume(result)
    leaders = [c.key for c in result if c.kind == ranking.LEADER]
    return result, leaders


@settings(max_examples=300)
@given(fields(ranking.SUM), st.data())
def test_sum_needs_x_more_than_the_leader_and_one_less_does_not_pass(field, data):
    rule, players = field
    result, leaders = told(players, rule)
    by_key = {p.key: p for p in players}
    for chance in result:
        if chance.kind != ranking.NEEDS:
            continue
        me = by_key[chance.key]
        # each leader who can scores something more in the rest of the final
        rests = {k: data.draw(st.integers(-60, 60)) if by_key[k].can_play else 0 for k in leaders}
        if not me.can_play:  # then every leader can: they must lose it
            rests = {k: -chance.points - data.draw(st.integers(0, 5)) for k in leaders}
        outcome = {
            k: ((by_key[k].final_total or 0) + r, None)
            for k, r in rests.items()
            if by_key[k].can_play
        }
        best_rest = max(rests.values())
        if me.can_play:
            own = me.final_total or 0
            for extra in (chance.points, chance.points + 1):
                outcome[chance.key] = (own + best_rest + extra, None)
                assert passes(after(players, rule, outcome), chance.key, leaders)
            outcome[chance.key] = (own + best_rest + chance.points - 1, None)
            assert not passes(after(players, rule, outcome), chance.key, leaders)
        else:
            assert passes(after(players, rule, outcome), chance.key, leaders)
            worst = {k: ((by_key[k].final_total or 0) - chance.points + 1, None) for k in leaders}
            assert not passes(after(players, rule, worst), chance.key, leaders)


@settings(max_examples=300)
@given(fields(ranking.BEST_N), st.integers(-100, 100))
def test_best_n_needs_x_if_the_leader_does_not_improve(field, anything):
    rule, players = field
    result, leaders = told(players, rule)
    by_key = {p.key: p for p in players}
    for chance in result:
        own = by_key[chance.key].final_total or 0
        if chance.kind == ranking.NEEDS:
            for extra in (chance.points, chance.points + 1):
                scores = after(players, rule, {chance.key: (own + extra, None)})
                assert passes(scores, chance.key, leaders)
            scores = after(players, rule, {chance.key: (own + chance.points - 1, None)})
            assert not passes(scores, chance.key, leaders)
        elif chance.kind == ranking.ANY_RESULT:
            scores = after(players, rule, {chance.key: (own + anything, None)})
            assert passes(scores, chance.key, leaders)


@settings(max_examples=300)
@given(fields(ranking.CUP))
def test_cup_points_bounded_by_the_table(field):
    rule, players = field
    result, leaders = told(players, rule)
    by_key = {p.key: p for p in players}

    def cup(place):
        return ranking.cup_points_for(place or 0, rule.cup_points)

    def in_final(key):  # a place in the final can still change
        return by_key[key].can_play or by_key[key].final_place is not None

    places = range(1, len(rule.cup_points) + 2)  # the last one is beyond the table: nothing
    for chance in result:
        if chance.kind not in (ranking.NEEDS, ranking.OUT_OF_REACH) or chance.bound is None:
            continue
        me = by_key[chance.key]
        any_pass = False
        for mine in places if in_final(chance.key) else [None]:
            for theirs in places:
                outcome = {k: (0, theirs) for k in leaders if in_final(k)}
                if mine is not None:
                    outcome[chance.key] = (0, mine)
                ok = passes(after(players, rule, outcome), chance.key, leaders)
                any_pass |= ok
                if chance.kind == ranking.OUT_OF_REACH:
                    assert not ok
                    continue
                gained = cup(mine) - cup(me.final_place) if mine is not None else 0
                lost = min(
                    cup(by_key[k].final_place) - (cup(theirs) if in_final(k) else 0)
                    for k in leaders
                )
                # X more than the leader (both sides' change counted) passes, less does not
                assert ok is (gained + lost >= chance.points)
        if chance.kind == ranking.NEEDS:
            assert any_pass  # and it can happen


@settings(max_examples=200)
@given(st.sampled_from([ranking.SUM, ranking.BEST_N, ranking.CUP]).flatmap(fields), st.data())
def test_out_of_reach_cannot_pass_whatever_the_final_gives(field, data):
    rule, players = field
    result, leaders = told(players, rule)
    by_key = {p.key: p for p in players}
    for chance in result:
        if chance.kind != ranking.OUT_OF_REACH:
            continue
        player = by_key[chance.key]
        total = data.draw(st.integers(-1000, 1000))
        outcome = {k: (None, None) for k in leaders if by_key[k].can_play}
        if player.can_play:
            outcome[chance.key] = (total, 1)
        # the leaders score nothing (no result at all where they had none)
        outcome = {
            k: (by_key[k].final_total, by_key[k].final_place) if k in leaders else v
            for k, v in outcome.items()
        }
        if rule.scoring == ranking.CUP:
            outcome.update({k: (0, 99) for k in leaders if by_key[k].can_play})
        assert not passes(after(players, rule, outcome), chance.key, leaders)


def test_the_leader_and_a_shared_first_place():
    rule = SeasonRule(ranking.SUM)
    players = [
        Contender("a", {"t1": 100}, {}),
        Contender("b", {"t1": 100}, {}),
        Contender("c", {"t1": 60}, {}),
    ]
    result = ranking.chances(players, rule, final_key=FINAL)
    assert [(c.key, c.kind, c.points) for c in result] == [
        ("a", ranking.LEADER, None),
        ("b", ranking.LEADER, None),
        ("c", ranking.NEEDS, 41),
    ]


def test_too_few_tournaments_or_not_in_the_final_is_out_of_reach():
    rule = SeasonRule(ranking.SUM, min_tournaments=3)
    players = [
        Contender("a", {"t1": 10, "t2": 10, "t3": 10}, {}),
        Contender("one", {"t1": 500}, {}),  # 2 tournaments at most: never ranked
        Contender("two", {"t1": 5, "t2": 5}, {}),  # ranked with the final
        Contender("gone", {"t1": 5, "t2": 5, "t3": 5}, {}, can_play=False),
    ]
    # under the sum the leader may still lose points: "gone" needs the leader to lose 16
    kinds = {c.key: (c.kind, c.points) for c in ranking.chances(players, rule, final_key=FINAL)}
    assert kinds["gone"] == (ranking.NEEDS, 16)
    players[0] = Contender("a", {"t1": 10, "t2": 10, "t3": 10}, {}, can_play=False)
    kinds = {c.key: (c.kind, c.points) for c in ranking.chances(players, rule, final_key=FINAL)}
    assert kinds == {
        "a": (ranking.LEADER, None),
        "one": (ranking.OUT_OF_REACH, None),
        "two": (ranking.NEEDS, 21),
        "gone": (ranking.OUT_OF_REACH, None),
    }


def test_cup_out_of_reach_and_bound_said():
    rule = SeasonRule(ranking.CUP, cup_points=(25, 20, 16))
    players = [
        Contender("a", {"t1": 0}, {"t1": 1}),  # 25
        Contender("b", {"t1": 0}, {"t1": 2}),  # 20: needs 6 of at most 25
        Contender("c", {"t1": 0, "t2": 0}, {"t1": 4, "t2": 4}),  # 0: needs 26 > 25
    ]
    result = {c.key: c for c in ranking.chances(players, rule, final_key=FINAL)}
    assert (result["b"].kind, result["b"].points, result["b"].bound) == (ranking.NEEDS, 6, 25)
    assert (result["c"].kind, result["c"].bound) == (ranking.OUT_OF_REACH, 25)


def test_best_n_replaces_the_weakest_counted_result():
    rule = SeasonRule(ranking.BEST_N, best_of=2)
    players = [
        Contender("a", {"t1": 100, "t2": 80}, {}),  # 180
        Contender("b", {"t1": 120, "t2": 40, "t3": 10}, {}),  # 160: x replaces the 40
    ]
    result = {c.key: c for c in ranking.chances(players, rule, final_key=FINAL)}
    assert (result["b"].kind, result["b"].points) == (ranking.NEEDS, 61)


def test_nobody_ranked_nobody_told():
    rule = SeasonRule(ranking.SUM, min_tournaments=5)
    assert ranking.chances([Contender("a", {"t1": 1}, {})], rule, final_key=FINAL) == []


def test_the_words_in_german():
    from django.utils import translation

    from seasons.words import chance_text

    one = ("Anna Maier",)
    two = ("Anna Maier", "Bert Hall")
    cases = [
        (ranking.Chance("a", ranking.LEADER, 10), one, "sum", False, "Spitzenreiter"),
        (ranking.Chance("a", ranking.LEADER, 10), two, "sum", False, "Spitzenreiter (geteilt)"),
        (
            ranking.Chance("c", ranking.NEEDS, 9, points=41),
            one,
            "sum",
            False,
            "braucht 41 Punkte mehr als Anna Maier",
        ),
        (
            ranking.Chance("c", ranking.NEEDS, 9, points=1),
            two,
            "sum",
            False,
            "braucht 1 Punkt mehr als Anna Maier und Bert Hall",
        ),
        (
            # not ranked yet, ahead of the leader: a result in the final, not too far below
            ranking.Chance("c", ranking.NEEDS, 99, points=-5),
            one,
            "sum",
            False,
            "braucht ein Ergebnis im Finale, höchstens 5 Punkte unter dem von Anna Maier",
        ),
        (
            ranking.Chance("c", ranking.NEEDS, 9, points=61),
            one,
            "best_n",
            False,
            "braucht 61 Punkte im Finale, wenn Anna Maier sich nicht verbessert",
        ),
        (
            ranking.Chance("c", ranking.NEEDS, 9, points=61),
            one,
            "best_n",
            True,
            "braucht noch 61 Punkte, wenn Anna Maier sich nicht verbessert",
        ),
        (
            ranking.Chance("c", ranking.NEEDS, 9, points=6, bound=25),
            one,
            "cup",
            False,
            "braucht 6 Cup-Punkte mehr als Anna Maier (höchstens 25 möglich)",
        ),
        (
            ranking.Chance("c", ranking.OUT_OF_REACH, 9, bound=25),
            one,
            "cup",
            False,
            "nicht mehr einholbar",
        ),
        (
            ranking.Chance("c", ranking.ANY_RESULT, 9),
            one,
            "best_n",
            False,
            "ein Ergebnis im Finale genügt",
        ),
    ]
    with translation.override("de"):
        for chance, leaders, scoring, during, words in cases:
            assert chance_text(chance, leaders=leaders, scoring=scoring, during=during) == words
