"""axe-core (tests/browser/vendor/axe.min.js, 4.14.1) on every page type, as the persona who
uses it, at phone and laptop size: no critical or serious violation, and nothing the
Content-Security-Policy refused (issue 28: every script and style is the site's own file).

The world is the authorisation tests' small tournament day (tests/authz/conftest.py): a
round drawn, a deal confirmed and one waiting at table 1, a team, a season.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.authz.conftest import World, make_world
from tournaments.services.hall import announce, call_referee

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
BLOCKING = {"critical", "serious"}
# and these, whatever their impact: every page has its main landmark, every table head says
# what its column holds, a table that scrolls can be reached by keyboard
ALSO = {"landmark-one-main", "empty-table-header", "scrollable-region-focusable"}

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.length, first: v.nodes[0].target.join(" "),
  }));
}"""


def entered_twice(w: World) -> None:
    """A deal of the day the season server holds in another version (the desk's choice)."""
    from publishing.models import Publication, PublishConflict
    from tournaments.selectors.archive import tournament_items

    items = tournament_items(tournament=w.day)
    key = next(k for k in sorted(items) if k.startswith("deal:"))
    publication = Publication.objects.create(
        tournament=w.day, url="https://saison.example.org", token="t"
    )
    server_item = {**items[key], "status": "annulled"}
    PublishConflict.objects.create(publication=publication, key=key, server_item=server_item)


def differing_sheet(w: World) -> None:
    """Double entry on, and table 2's sheet typed twice with a difference."""
    from tournaments.models import Tournament
    from tournaments.services import double_entry
    from tournaments.services.paper_sheets import WrittenRow

    Tournament.objects.filter(pk=w.day.pk).update(double_entry=True)
    user = w.users["organiser"]
    first = double_entry.type_sheet(
        table=w.other_table,
        rows=[WrittenRow(1, "halbe", 1, (None, 60, None, None))],
        user=user,
        expected_typing=None,
    )
    double_entry.type_sheet(
        table=w.other_table,
        rows=[WrittenRow(1, "halbe", 1, (None, -120, None, None))],
        user=user,
        expected_typing=first.pk,
    )


def public_player(w: World) -> int:
    """A player of the table at club B, which opens its players' pages to the public (so the
    standings link the name too)."""
    from clubs.models import Membership

    seat = w.table.seats.exclude(entry__player_id=w.membership.player_id).first()
    Membership.objects.get_or_create(player_id=seat.entry.player_id, club=w.club_b)
    type(w.club_b).objects.filter(pk=w.club_b.pk).update(public_player_pages=True)
    return seat.entry.player_id


def signup_pages(w: World) -> tuple[str, str, str]:
    """An upcoming tournament of the world's club with its online sign-up open, two people
    signed up (a guest with a seat, one on the waiting list): its public form, a personal
    link, the organisers' list (with the guests named and the categories to choose)."""
    import datetime as dt

    from django.utils import timezone

    from signups.services import signups
    from tests.factories import TournamentFactory

    upcoming = TournamentFactory(
        host_club=w.club_a, name="Frühjahrsturnier", date=timezone.localdate() + dt.timedelta(14)
    )
    signups.set_sheet(tournament=upcoming, user=None, is_open=True, capacity=1, closes_at=None)
    signups.sign_up(  # a guest of a club typed as text: the list names her as one
        tournament=upcoming,
        first_name="Anna",
        last_name="Arnold",
        club_text="Cegofreunde St. Georgen",
        category="woman",
        consent=True,
    )
    waiting = signups.sign_up(
        tournament=upcoming, first_name="Bernd", last_name="Baum", consent=True
    )
    return (
        reverse("signups:form", args=[upcoming.pk]),
        reverse("signups:status", args=[waiting.token]),
        reverse("signups:organiser_list", args=[upcoming.pk]),
    )


def pages(w: World) -> list[tuple[str, str, str]]:
    """(what, persona, address) for every page type."""
    differing_sheet(w)
    entered_twice(w)
    day, season = w.day.pk, w.season.pk
    signup_form, signup_status, signup_list = signup_pages(w)
    player, club = w.membership.player_id, w.club_a.pk
    public = public_player(w)

    def url(name: str, *args) -> str:
        return reverse(name, args=args)

    return [
        ("home", "anonymous", url("tournaments:home")),
        ("login", "anonymous", url("login")),
        ("phone entry", "anonymous", url("tournaments:table_entry", w.table.token)),
        ("standings", "anonymous", url("tournaments:standings", day)),
        ("projector", "anonymous", url("tournaments:projector", day)),
        ("my seat search", "anonymous", url("tournaments:my_seat_search", day) + "?q=a"),
        (
            "my seat",
            "anonymous",
            url("tournaments:my_seat", day, w.table.seats.first().entry.number),
        ),
        ("season standings", "anonymous", url("seasons:season_standings", season)),
        ("season projector", "anonymous", url("seasons:season_projector", season)),
        ("press report", "organiser", url("seasons:tournament_press", day)),
        ("season press report", "organiser", url("seasons:season_press", season)),
        ("ratings", "anonymous", url("ratings:rating_list")),
        ("provisional ratings", "anonymous", url("ratings:rating_list") + "?list=provisional"),
        ("tournament calendar", "anonymous", url("seasons:calendar")),
        ("roll of honour", "anonymous", url("seasons:roll_of_honour")),
        ("season statistics", "anonymous", url("seasons:season_statistics", season)),
        ("public player results", "anonymous", url("seasons:player_detail", public)),
        ("tournament rules", "anonymous", url("tournaments:tournament_rules", day)),
        ("rule sources", "anonymous", url("rules:rule_sources")),
        ("tariff card", "anonymous", url("rules:tariff_card", "swm")),
        ("handbook", "anonymous", url("handbook:handbook")),
        ("sign-up form", "anonymous", signup_form),
        ("sign-up closed", "anonymous", url("signups:form", day)),
        ("sign-up status", "anonymous", signup_status),
        ("online sign-ups", "organiser", signup_list),
        ("tournament page", "organiser", url("tournaments:tournament_detail", day)),
        ("season server", "organiser", url("publishing:tournament_publication", day)),
        ("entered twice", "organiser", url("publishing:publication_conflicts", day)),
        ("new tournament", "organiser", url("tournaments:tournament_create")),
        ("tournament settings", "organiser", url("tournaments:tournament_edit", day)),
        ("registration", "organiser", url("tournaments:registration", day)),
        ("check-in", "organiser", url("tournaments:checkin", day)),
        ("late entry", "organiser", url("tournaments:late_entry", day)),
        ("draw", "organiser", url("tournaments:round_draw", day, 2)),
        ("seat plan", "organiser", url("tournaments:seat_plan", day, 1)),
        ("desk round", "organiser", url("tournaments:desk_round", day, 1)),
        ("desk entry", "organiser", url("tournaments:desk_entry", day, 1, 1)),
        ("paper sheet", "organiser", url("tournaments:desk_written", day, 1, 1)),
        (
            "paper sheet differences",
            "organiser",
            url("tournaments:desk_written_differences", day, 1, 2),
        ),
        ("teams", "organiser", url("tournaments:teams", day)),
        ("prize money", "organiser", url("treasury:prize_money", day)),
        ("prize ceremony", "organiser", url("ceremony:settings", day)),
        ("ceremony remote", "organiser", url("ceremony:remote", day)),
        ("ceremony projector", "anonymous", url("ceremony:projector", day)),
        ("change log", "organiser", url("tournaments:tournament_log", day)),
        ("results import", "organiser", url("tournaments:results_import", day)),
        ("archive upload", "organiser", url("tournaments:archive_upload")),
        ("clubs", "organiser", url("treasury:club_list")),
        ("club", "organiser", url("clubs:club_edit", club)),
        ("fees", "organiser", url("treasury:treasurer", club, season)),
        ("players", "organiser", url("clubs:player_list")),
        ("player", "organiser", url("clubs:player_detail", player)),
        ("player edit", "organiser", url("clubs:player_edit", player)),
        ("player results", "organiser", url("seasons:player_detail", player)),
        ("player import", "organiser", url("clubs:player_import")),
        ("seasons", "organiser", url("seasons:season_list")),
        ("season settings", "organiser", url("seasons:season_edit", season)),
        ("season rules", "organiser", url("seasons:season_rules", season)),
        ("new club", "superuser", url("clubs:club_create")),
        ("appeals", "superuser", url("seasons:appeals")),
        ("sanctions", "superuser", url("seasons:sanctions") + "?q=a"),
        ("referee and announcements", "organiser", url("tournaments:referee_calls", day)),
        ("seat swaps", "organiser", url("tournaments:seat_swaps", day)),
    ]


# Put in before the page's own scripts (an init script is not subject to the page's CSP):
# every refusal of the Content-Security-Policy is counted.
WATCH_CSP = """window.__cspRefused = [];
document.addEventListener("securitypolicyviolation", e => window.__cspRefused.push(
  e.effectiveDirective + " refused " + (e.blockedURI || "inline") + " at " +
  (e.sourceFile || "the page") + ":" + e.lineNumber));"""


def axe_violations(page, address: str, calls_from: str | None = None) -> list[dict]:
    if not getattr(page, "_watches_csp", False):
        page.add_init_script(WATCH_CSP)
        page._watches_csp = True
    response = page.goto(address)
    # the page itself, not a login page or an error the persona was sent to
    assert response.status == 200 and page.url == address, (address, response.status, page.url)
    assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
    # axe through the DevTools protocol: an injected <script> would be refused by the policy
    # the banner of open calls for the referee is fetched by the page's script: checked too
    # (on the pages of the tournament with the open call; another one, the sign-ups', has none)
    region = page.locator("#referee-calls[data-calls-url]")
    if calls_from and region.count() and calls_from in region.get_attribute("data-calls-url"):
        page.wait_for_selector("#referee-calls .calls-banner", timeout=10000)
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING or v["id"] in ALSO]
    page.wait_for_timeout(50)  # a refusal is reported as an event, after the fact
    refused = page.evaluate("window.__cspRefused")
    if refused:
        found.append(
            {
                "id": "content-security-policy",
                "impact": "serious",
                "help": "refused by the Content-Security-Policy",
                "nodes": len(refused),
                "first": refused[0],
            }
        )
    return found


def contexts(browser, live_server, world: World, size: str) -> dict:
    width, height = SIZES[size]
    out = {}
    for persona in ("anonymous", "organiser", "superuser"):
        context = browser.new_context(viewport={"width": width, "height": height})
        if persona != "anonymous":
            client = Client()
            client.force_login(world.users[persona])
            cookie = client.cookies["sessionid"]
            context.add_cookies(
                [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
            )
        out[persona] = context
    return out


def fairness_records(world: World) -> None:
    """Issue 39: a seat swap waiting for a second official and one approved, a ruling
    waiting for its second referee and one that counts (the swap and referee pages' forms,
    the public standings' list)."""
    from django.utils import timezone

    from tournaments.models import Ruling, SeatSwap

    seats = list(world.table.seats.order_by("position"))
    for state, first, second in (("requested", 0, 1), ("approved", 2, 3)):
        SeatSwap.objects.create(
            tournament=world.day,
            round=world.table.round,
            first=seats[first].entry,
            second=seats[second].entry,
            first_table=world.table.number,
            first_position=first,
            second_table=world.table.number,
            second_position=second,
            reason="Sehbehinderung: näher ans Licht",
            state=state,
            requested_name="Anna Aufsicht",
            decided_at=timezone.now() if state == "approved" else None,
            decided_name="Sepp Schiri" if state == "approved" else "",
        )
    for needs_two in (True, False):
        Ruling.objects.create(
            tournament=world.day,
            round_number=1,
            table_number=world.table.number,
            deal_number=2,
            decision="Spiel 2 wird wie gespielt gewertet",
            penalty="Verwarnung",
            needs_two=needs_two,
            first_name="Anna Aufsicht",
            decided_at=None if needs_two else timezone.now(),
        )


def report(found: dict[str, list[dict]]) -> str:
    return "\n".join(
        f"{what}: {v['impact']} {v['id']} ×{v['nodes']} ({v['help']}) at {v['first']}"
        for what, violations in found.items()
        for v in violations
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_no_serious_accessibility_violation_on_any_page(browser, live_server, size):
    world = make_world()
    # a table calls the referee and the desk shows a message: the banner on the organisers'
    # pages, the phone's notice, the projector's and the players' pages' announcement
    call_referee(table=world.table, deal_number=2, reason="Farbe nicht bedient?")
    announce(tournament=world.day, text="Die zweite Runde beginnt um 15 Uhr.", user=None)
    fairness_records(world)
    by_persona = contexts(browser, live_server, world, size)
    tabs = {persona: context.new_page() for persona, context in by_persona.items()}
    found = {}
    for what, persona, address in pages(world):
        violations = axe_violations(
            tabs[persona],
            live_server.url + address,
            calls_from=reverse("tournaments:referee_calls_banner", args=[world.day.pk]),
        )
        if violations:
            found[what] = violations
    for context in by_persona.values():
        context.close()
    assert not found, "\n" + report(found)


def test_no_serious_accessibility_violation_on_the_first_run_page(browser, live_server):
    """The first-time setup, on a database without accounts."""
    assert not get_user_model().objects.exists()
    found = {}
    for size, (width, height) in SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        violations = axe_violations(page, live_server.url + reverse("clubs:first_run"))
        if violations:
            found[f"setup ({size})"] = violations
        page.close()
    assert not found, "\n" + report(found)


@pytest.mark.parametrize("size", list(SIZES))
def test_calendar_final_column_and_roll_of_honour_with_content(browser, live_server, size):
    """The calendar with coming tournaments, a season's standings with the final's column and
    changes of place, the roll of honour with a past season (tests/browser/test_season_extras)."""
    from tests.browser.test_season_extras import make_extras

    extras = make_extras()
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    found = {}
    for what, address in (
        ("calendar", reverse("seasons:calendar")),
        ("season with final", reverse("seasons:season_standings", args=[extras["running"].pk])),
        ("roll of honour", reverse("seasons:roll_of_honour")),
    ):
        violations = axe_violations(page, live_server.url + address)
        if violations:
            found[what] = violations
    page.close()
    assert not found, "\n" + report(found)


@pytest.mark.parametrize("width", [360, 390])
def test_wide_standings_on_a_phone_scroll_by_keyboard(browser, live_server, width):
    """Five rounds of long names, a season of four tournaments, on a phone: the season's table
    scrolls sideways and the keyboard reaches it (a focusable, named region); the
    tournament's fits (and passes too)."""
    from tests.browser.test_phone_standings import long_names

    tournament = long_names.__wrapped__()  # the phone standings' own fixture, built here
    page = browser.new_page(viewport={"width": width, "height": 800})
    found, scrolling = {}, []
    for what, address in (
        ("standings", reverse("tournaments:standings", args=[tournament.pk])),
        ("season", reverse("seasons:season_standings", args=[tournament.season_id])),
    ):
        violations = axe_violations(page, live_server.url + address)
        if page.evaluate(
            "() => [...document.querySelectorAll('.table-container, .table-scroll')]"
            ".some(box => box.scrollWidth > box.clientWidth)"
        ):
            scrolling.append(what)
        if violations:
            found[what] = violations
    page.close()
    assert "season" in scrolling  # else the check would prove nothing
    assert not found, "\n" + report(found)
