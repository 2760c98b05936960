"""A laptop's archive uploaded on the season's page, in a real browser at phone width (390 px)
and on a laptop (1280 px): the preview names the unfinished tournament, the unknown club and
the namesake; chosen and ticked, the tournament joins the season. And a club's publishing
tokens: created (shown once) and revoked.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

import json
import uuid

import pytest

from clubs.models import Club, ClubRole, Membership, Player
from publishing.models import PublishToken
from tests.browser.test_club_pages import SIZES, fits, shots_dir
from tests.factories import EntryFactory, PlayerFactory, SeasonFactory, TournamentFactory
from tests.tournaments.standings.conftest import cego, table_of
from tournaments.models import Tournament
from tournaments.selectors.archive import tournament_archive
from tournaments.services.phone_entry import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def laptop_archive() -> bytes:
    """A tournament as a laptop exported it: another id, a club and a player this server does
    not know, one player who has a namesake here."""
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    tournament = TournamentFactory(host_club=club, name="Herbstturnier", deals_per_round=4)
    entries = []
    for index, (first, last) in enumerate(
        [("Anna", "Faller"), ("Hans", "Mueller"), ("Lena", "Schwär"), ("Otto", "Kern")]
    ):
        player = Player.objects.create(first_name=first, last_name=last)
        Membership.objects.create(player=player, club=club, member_number=f"M{index}")
        entries.append(EntryFactory(tournament=tournament, player=player, number=index + 1))
    table = table_of(tournament=tournament, entries=entries)
    for number, declarer in enumerate((0, 1, 2), start=1):
        enter_deal(table=table, number=number, inputs=cego(declarer, 45))
    archive = json.loads(json.dumps(tournament_archive(tournament=tournament)))
    archive["archive_id"] = str(uuid.uuid4())
    archive["tournament"]["name"] = "Herbstturnier vom Laptop"
    archive["clubs"].append({"name": "Cegoclub Vöhrenbach", "short_name": "CC Vö", "town": "Vö"})
    archive["players"][3].update(club="CC Vö", uuid=str(uuid.uuid4()), member_number="")
    archive["players"][1].update(uuid=str(uuid.uuid4()), member_number="")
    return json.dumps(archive).encode()


def sign_in(browser, live_server, django_user_model, size, next_url):
    django_user_model.objects.create_superuser("orga", "", "geheim")
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next={next_url}")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_an_archive_joins_the_season_after_the_preview(
    browser, live_server, django_user_model, tmp_path, size
):
    raw = laptop_archive()
    namesake = PlayerFactory(first_name="Hans", last_name="Müller")  # another Hans, no club
    season = SeasonFactory(name="Schwarzwald-Cup 2026/27")
    context, page = sign_in(
        browser, live_server, django_user_model, size, f"/seasons/{season.pk}/standings/"
    )
    out = shots_dir(tmp_path)
    with page.expect_navigation():
        page.click("text=Turnierarchiv einlesen")
    assert "Schwarzwald-Cup 2026/27" in page.inner_text("main")
    page.set_input_files(
        "input[type=file]", {"name": "a.json", "mimeType": "application/json", "buffer": raw}
    )
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    text = page.inner_text("main")
    assert "nicht abgeschlossen" in text and "Cegoclub Vöhrenbach" in text
    assert "Zu prüfende Spieler" in text and "Mueller, Hans" in text
    assert page.locator("select[name=club-0-choice]").input_value() == ""  # nobody chose yet
    assert fits(page)
    page.screenshot(path=str(out / f"archive-preview-{size}.png"), full_page=True)

    with page.expect_navigation():
        page.click("button[name=step][value=confirm]")
    assert "Kreuzen Sie „Einlesen, obwohl nicht abgeschlossen“ an" in page.inner_text("main")
    page.check("input[name=allow_unfinished]")
    with page.expect_navigation():
        page.click("button[name=step][value=confirm]")
    assert "Unbekannter Verein „Cegoclub Vöhrenbach“" in page.inner_text("main")
    assert not Tournament.objects.filter(name="Herbstturnier vom Laptop").exists()

    page.select_option("select[name=club-0-choice]", "create")
    page.check(f"input[name=player-p2][value='{namesake.pk}']")
    with page.expect_navigation():
        page.click("button[name=step][value=confirm]")
    imported = Tournament.objects.get(name="Herbstturnier vom Laptop")
    assert imported.season == season and f"/tournaments/{imported.pk}/standings/" in page.url
    assert imported.entries.get(number=2).player == namesake
    assert Club.objects.get(short_name="CC Vö").name == "Cegoclub Vöhrenbach"
    assert fits(page)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_club_creates_and_revokes_a_publishing_token(
    browser, live_server, django_user_model, tmp_path, size
):
    club = Club.objects.create(name="Cegofreunde Bräunlingen", short_name="CF Br", town="Br")
    context, page = sign_in(browser, live_server, django_user_model, size, "/clubs/")
    page.goto(f"{live_server.url}/clubs/{club.pk}/publishing-tokens/")
    page.fill("input[name=label]", "Laptop Festhalle")
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    token = page.inner_text("code.publish-token")
    assert len(token) > 30 and PublishToken.objects.get().label == "Laptop Festhalle"
    assert fits(page)
    page.screenshot(path=str(shots_dir(tmp_path) / f"tokens-{size}.png"), full_page=True)
    with page.expect_navigation():
        page.click("button[name=revoke]")
    assert "widerrufen" in page.inner_text("main")
    assert PublishToken.objects.get().revoked_at is not None
    context.close()


def test_a_host_organiser_is_told_before_the_import_that_she_cannot_map_to_another_club(
    browser, live_server, django_user_model, tmp_path
):
    """An organiser of the host club only, at 390 px: the archive's "Cegofreunde Triberg" is
    probably Cegoclub Triberg, which she does not run. The preview says so in German and offers
    only her own club to map to; "kein Verein" imports, and the log says what happened."""
    archive = json.loads(laptop_archive())
    archive["clubs"][-1].update(name="Cegofreunde Triberg", short_name="CF Tr", town="Triberg")
    archive["players"][3]["club"] = "CF Tr"
    triberg = Club.objects.create(name="Cegoclub Triberg", short_name="CC Triberg", town="Tr")
    host = Club.objects.get(short_name="CF Br")
    user = django_user_model.objects.create_user("gastgeber", "", "geheim")
    ClubRole.objects.create(user=user, club=host)
    context = browser.new_context(locale="de-DE", viewport=SIZES["phone"])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/tournaments/import-archive/")
    page.fill("#id_username", "gastgeber")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    page.set_input_files(
        "input[type=file]",
        {"name": "a.json", "mimeType": "application/json", "buffer": json.dumps(archive).encode()},
    )
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    warning = page.locator(".unknown-club .not-your-club")
    assert warning.is_visible()
    assert "Sie führen den Verein „Cegoclub Triberg“ nicht" in warning.inner_text()
    assert "ohne Vereinszugehörigkeit" in warning.inner_text()
    offered = page.locator("select[name=club-0-choice] option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    assert f"map:{host.pk}" in offered and f"map:{triberg.pk}" not in offered
    assert fits(page)
    page.screenshot(
        path=str(shots_dir(tmp_path) / "archive-not-your-club-phone.png"), full_page=True
    )

    page.select_option("select[name=club-0-choice]", "none")
    page.check("input[name=allow_unfinished]")
    with page.expect_navigation():
        page.click("button[name=step][value=confirm]")
    imported = Tournament.objects.get(name="Herbstturnier vom Laptop")
    assert not imported.entries.get(number=4).player.memberships.exists()
    notes = imported.changes.values_list("subject", flat=True)
    assert any("Cegofreunde Triberg" in note for note in notes)
    context.close()
