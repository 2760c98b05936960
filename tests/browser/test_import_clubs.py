"""A member list naming clubs its own way, in a real browser at phone width (390 px) and on a
laptop (1280 px): the unknown clubs are listed once each, chosen, previewed again, imported.

Screenshots go to ``$SCREENSHOT_DIR`` when set, else to a temporary directory."""

from pathlib import Path

import pytest

from clubs.models import Club, ClubAlias, ClubRole, Membership, Player
from tests.browser.test_club_pages import SIZES, fits, shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEMBER_LIST = Path(__file__).parents[1] / "clubs" / "data" / "mitgliederliste.csv"


@pytest.mark.parametrize("size", SIZES)
def test_unknown_clubs_chosen_in_the_preview(
    browser, live_server, django_user_model, tmp_path, size
):
    home = Club.objects.create(
        name="Cegofreunde Bräunlingen", short_name="CF Bräunlingen", town="Bräunlingen"
    )
    triberg = Club.objects.create(name="Cegoclub Triberg", short_name="CC Triberg", town="Triberg")
    orga = django_user_model.objects.create_user("orga", password="geheim")
    ClubRole.objects.create(user=orga, club=home)
    context = browser.new_context(locale="de-DE", viewport=SIZES[size])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/players/import/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")
    out = shots_dir(tmp_path)

    page.set_input_files(
        "input[type=file]",
        {"name": "mitglieder.csv", "mimeType": "text/csv", "buffer": MEMBER_LIST.read_bytes()},
    )
    with page.expect_navigation():
        page.click("form.stacked-form button[type=submit]")
    block = page.locator(".unknown-clubs")
    assert page.locator(".unknown-club").count() == 3
    text = block.inner_text()
    assert "Cego-Club Bräunlingen" in text and "4 Zeilen" in text
    assert "Wahrscheinlich Cegoclub Triberg" in text  # not hers: offered as a hint only
    # Offered first: her own club, suggested; no club for Triberg's lines.
    first = page.locator("select[name=unknown-0-choice] option:checked").inner_text()
    assert first == "Cegofreunde Bräunlingen (Vorschlag)"
    assert page.locator("select[name=unknown-1-choice]").input_value() == "none"
    assert fits(page)
    page.screenshot(path=str(out / f"import-clubs-{size}.png"), full_page=True)

    # Vöhrenbach is new: create it with a short name of her own, and look again.
    page.select_option("select[name=unknown-2-choice]", "create")
    page.fill("input[name=unknown-2-short]", "CV Vöhrenbach")
    with page.expect_navigation():
        page.click(".unknown-clubs button[type=submit]")
    assert "CV Vöhrenbach" in page.locator(".import-table").inner_text()
    assert page.locator("select[name=unknown-2-choice]").input_value() == "create"
    assert not Club.objects.filter(short_name="CV Vöhrenbach").exists()  # still a preview
    # before anything is written the preview says who will run the new club (issue 28)
    note = page.locator(".created-clubs-note")
    assert note.is_visible()
    assert "Beim Import neu angelegt: Cego Vöhrenbach e.V. (CV Vöhrenbach)" in note.inner_text()
    assert "Sie führen diese Vereine nicht" in note.inner_text()
    assert fits(page)
    page.screenshot(path=str(out / f"import-clubs-chosen-{size}.png"), full_page=True)

    page.check("input[name=skip_errors]")
    with page.expect_navigation():
        page.click(".confirm-import button[name=commit][value='1']")
    assert "Import fertig: 8 neu" in page.content()
    assert "Neu angelegte Vereine: 1." in page.content()
    assert Player.objects.count() == 8
    assert Membership.objects.filter(club=home).count() == 3
    assert Club.objects.get(short_name="CV Vöhrenbach").memberships.count() == 2
    assert not triberg.memberships.exists()
    assert list(ClubAlias.objects.values_list("alias", "club")) == [
        ("Cego-Club Bräunlingen", home.pk)
    ]
    assert fits(page)
    page.screenshot(path=str(out / f"import-clubs-done-{size}.png"), full_page=True)
    context.close()
