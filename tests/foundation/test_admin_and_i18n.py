import io

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from clubs.models import Player
from tournaments.models import Deal, Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_data():
    """A little of everything, so that every admin list has rows to show."""
    from tests.factories import MembershipFactory, PlayerFactory, TournamentFactory
    from tests.tournaments.results.conftest import seat_table
    from tournaments.models import LotDraw, Substitution
    from tournaments.services.phone_entry import enter_deal

    tournament = TournamentFactory(name="Herbstturnier")
    table = seat_table(tournament=tournament)
    MembershipFactory(player=PlayerFactory(last_name="Faller"), club=tournament.host_club)
    enter_deal(
        table=table, number=1, inputs={"contract": "cego", "declarer": 0, "declarer_points": 45}
    )
    seat = table.seats.first()
    substitute = tournament.entries.exclude(seats__table=table).first() or seat.entry
    Substitution.objects.create(seat=seat, entry=substitute, from_deal=5, reason="krank")
    LotDraw.objects.create(tournament=tournament, seed=1, order=[])


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "pw")
    client.force_login(user)
    return client


def admin_urls():
    for model in admin.site._registry:
        opts = model._meta
        yield pytest.param(
            opts.app_label, opts.model_name, id=f"{opts.app_label}.{opts.model_name}"
        )


@pytest.mark.parametrize(("app_label", "model_name"), list(admin_urls()))
def test_every_admin_changelist_renders(staff_client, demo_data, app_label, model_name):
    response = staff_client.get(reverse(f"admin:{app_label}_{model_name}_changelist"))
    assert response.status_code == 200
    listed = response.context["cl"]  # the model's own list, counted as its admin sees it
    assert listed.model._meta.label_lower == f"{app_label}.{model_name}"
    assert listed.result_count == listed.model_admin.get_queryset(response.wsgi_request).count()
    assert len(response.context["cl"].result_list) == min(listed.result_count, listed.list_per_page)


@pytest.mark.parametrize(("app_label", "model_name"), list(admin_urls()))
def test_every_admin_search_and_add_renders(staff_client, demo_data, app_label, model_name):
    model_admin = next(
        a for m, a in admin.site._registry.items() if m._meta.model_name == model_name
    )
    changelist = reverse(f"admin:{app_label}_{model_name}_changelist")
    if model_admin.search_fields:
        searched = staff_client.get(changelist, {"q": "Faller"})
        assert searched.status_code == 200 and searched.context["cl"].query == "Faller"
        if model_name == "player":  # the demo's Faller is found, and no one else
            assert [str(p) for p in searched.context["cl"].result_list] == [
                str(Player.objects.get(last_name="Faller"))
            ]
    add = staff_client.get(reverse(f"admin:{app_label}_{model_name}_add"))
    assert add.status_code in (200, 403)  # 403 where history or deals may not be added by hand


def test_admin_change_pages_render_for_demo_rows(staff_client, demo_data):
    tournament = Tournament.objects.get(name="Herbstturnier")
    entry = Entry.objects.first()
    player = Player.objects.first()
    for name, pk in [
        ("tournaments_tournament", tournament.pk),
        ("tournaments_entry", entry.pk),
        ("clubs_player", player.pk),
    ]:
        response = staff_client.get(reverse(f"admin:{name}_change", args=[pk]))
        assert response.status_code == 200, name
        assert response.context["original"].pk == pk, name  # that row's form, filled in
        assert escape(str(response.context["original"])) in response.content.decode(), name


def test_admin_is_german_by_default(staff_client, demo_data):
    response = staff_client.get(reverse("admin:tournaments_tournament_changelist"))
    content = response.content.decode()
    assert 'lang="de"' in content
    assert "Turniere" in content  # the model's German plural, from our message catalogue


def test_anonymous_user_is_sent_to_login(client):
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_language_switch_to_english_and_back(client):
    home = reverse("tournaments:home")
    assert "Turniere" in client.get(home).content.decode()
    response = client.post(reverse("set_language"), {"language": "en", "next": home})
    assert response.status_code == 302
    english = client.get(home).content.decode()
    assert 'lang="en"' in english
    assert "Tournaments" in english and "Turniere" not in english
    client.post(reverse("set_language"), {"language": "de", "next": home})
    assert 'lang="de"' in client.get(home).content.decode()


def test_an_english_browser_gets_german_until_the_switch_says_english(client):
    # German is the product's language: the browser's Accept-Language does not choose it
    home = reverse("tournaments:home")
    content = client.get(home, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert 'lang="de"' in content and "Turniere" in content
    client.post(reverse("set_language"), {"language": "en", "next": home})
    content = client.get(home, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="en"' in content  # the switch's choice is remembered (its cookie)


def snapshot():
    return {
        "players": sorted(Player.objects.values_list("first_name", "last_name", "category")),
        "entries": sorted(Entry.objects.values_list("number", "player__last_name")),
        "tournaments": list(Tournament.objects.values_list("name", "rules_slug")),
        "deals": Deal.objects.count(),
    }


def test_load_demo_twice_gives_the_same_data(django_user_model):
    call_command("load_demo", stdout=io.StringIO())
    first = snapshot()
    call_command("load_demo", stdout=io.StringIO())
    assert snapshot() == first
    assert len(first["players"]) >= 40
    finished = Tournament.objects.get(name__startswith="1. Turnier")
    upcoming = Tournament.objects.get(name__startswith="2. Turnier")
    assert finished.entries.count() == upcoming.entries.count() == 40
    # two rounds of 24 deals at ten tables
    assert Deal.objects.filter(table__round__tournament=finished).count() == 2 * 10 * 24
    # The season: five tournaments at four host clubs, three more finished ones with teams
    # (two rounds of 12 deals at six tables), and teams registered for the upcoming one.
    season = finished.season
    assert season.tournaments.count() == 5
    assert season.tournaments.values("host_club").distinct().count() == 4
    assert first["deals"] == 2 * 10 * 24 + 3 * 2 * 6 * 12
    assert all(t.teams.count() >= 6 for t in season.tournaments.exclude(pk=finished.pk))
    assert not finished.round_set.exclude(state="closed").exists()
    # Roles open the app, not the staff flag: no demo login reaches the Django admin.
    assert not django_user_model.objects.filter(is_superuser=True).exists()
    assert not django_user_model.objects.filter(is_staff=True).exists()
    assert set(django_user_model.objects.values_list("username", flat=True)) == {
        "organisator",
        "gast",
        "schiri",
    }


def test_load_demo_refuses_outside_debug_mode(db, django_user_model, settings):
    """Under production settings it made the demo logins, with the published password, on a
    real database."""
    settings.DEMO_DATA_ALLOWED = False
    with pytest.raises(CommandError, match="debug mode only"):
        call_command("load_demo", stdout=io.StringIO())
    assert not django_user_model.objects.exists()
