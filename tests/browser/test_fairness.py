"""Issue 39, item 8 in a real browser (Debian's Chromium via Playwright), at 390 and 1280 px:
the desk asks for a seat swap on the draw page, the second official approves it at the same
laptop with their own user name and password, a referee records a ruling about conduct, and
the public standings list the approved swap and the ruling (the swap's reason only for the
officials). Nothing is wider than the screen; the screenshots go to ``test-artifacts``."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole
from tests.browser.test_day_without_friction import SIZES
from tests.browser.test_phone_and_desk import shot
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Ruling, Seat, SeatSwap
from tournaments.services.draws import draw_next_round
from tournaments.services.setup import register_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def signed_in(browser, live_server, size, username, password):
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_swap_approved_by_a_second_official_and_a_ruling_on_the_public_page(
    browser, live_server, django_user_model, size
):
    tournament = TournamentFactory(name="Fairnesspokal Bräunlingen", rules_slug="swm", rounds=2)
    for index in range(8):
        entry = register_player(
            tournament=tournament,
            player=PlayerFactory(
                first_name=f"Gertrud{index}", last_name=f"Kienzler-Hättich{index}"
            ),
        )
        entry.checked_in = True
        entry.save()
    round_ = draw_next_round(tournament=tournament, number=1, seed=5)
    first = Seat.objects.get(round=round_, table__number=1, position=0).entry
    second = Seat.objects.get(round=round_, table__number=2, position=3).entry
    leader = django_user_model.objects.create_user(
        "leitung", password="geheim-1", first_name="Lea", last_name="Leiterin"
    )
    ClubRole.objects.create(user=leader, club=tournament.host_club)
    referee = django_user_model.objects.create_user(
        "schiri", password="geheim-2", first_name="Sepp", last_name="Schiedsrichter"
    )
    tournament.referees.add(referee)

    desk = signed_in(browser, live_server, size, "leitung", "geheim-1")
    desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/draw/")
    desk.select_option("#id_first", str(first.pk))
    desk.select_option("#id_second", str(second.pk))
    desk.fill("#id_reason", "Rollstuhl: Tisch am Eingang")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Platztausch beantragen").click()
    assert "Platztausch beantragt" in desk.locator(".messages").inner_text()
    swap = SeatSwap.objects.get()
    item = desk.locator(f"#swap-{swap.pk}")
    assert "Platztausch beantragt" in item.inner_text()
    assert desk.evaluate(SIDEWAYS)
    shot(desk, f"fairness-swap-requested-{size}")
    # the second official at the same laptop: their own user name and password
    item.locator("input[name$=username]").fill("schiri")
    item.locator("input[name$=password]").fill("geheim-2")
    button = item.get_by_role("button", name="Als zweiter Offizieller genehmigen")
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= SIZES[size]["width"]
    with desk.expect_navigation():
        button.click()
    assert "genehmigt von Sepp Schiedsrichter" in desk.locator(".messages").inner_text()
    swap.refresh_from_db()
    assert swap.state == SeatSwap.State.APPROVED and swap.decided_by == referee
    assert Seat.objects.get(round=round_, entry=first).table.number == 2
    assert desk.evaluate(SIDEWAYS)
    shot(desk, f"fairness-swap-approved-{size}")

    # a ruling about conduct, without a call, on the referee's page
    desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/referee/#conduct")
    form = desk.locator("form.ruling-form").last
    form.locator("#id_decision").fill("Verwarnung wegen unhöflichen Verhaltens")
    form.locator("#id_round").fill("1")
    form.locator("#id_table").fill("2")
    form.locator("#id_penalty").fill("Verwarnung, beim nächsten Mal Ausschluss")
    with desk.expect_navigation():
        form.get_by_role("button", name="Entscheidung eintragen").click()
    assert Ruling.objects.get().is_final
    assert desk.evaluate(SIDEWAYS)
    shot(desk, f"fairness-referee-page-{size}")

    # the public page: the swap with both officials, the ruling; the reason for officials
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    public = context.new_page()
    public.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    section = public.locator("#fairness")
    text = section.inner_text()
    assert "Platztausch Tisch 1 ↔ Tisch 2" in text
    assert "beantragt von Lea Leiterin, genehmigt von Sepp Schiedsrichter" in text
    assert "Runde 1, Tisch 2" in text and "Verwarnung wegen unhöflichen Verhaltens" in text
    assert "Rollstuhl" not in text
    assert section.bounding_box()["width"] <= SIZES[size]["width"]
    assert public.evaluate(SIDEWAYS)
    section.scroll_into_view_if_needed()
    shot(public, f"fairness-public-{size}")
    desk.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    assert "Rollstuhl: Tisch am Eingang" in desk.locator("#fairness").inner_text()
