"""What the desk sees of publishing: where each publication stands in plain German ("live",
"N Änderungen unterwegs", "seit 14:02 keine Verbindung", what was taken back), the page to
choose between two versions of an item entered twice, and what a restore says."""

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from publishing.laptop import outbox
from publishing.laptop.receivers import start_lines
from publishing.laptop.selectors import sync_states
from publishing.models import Publication, PublishConflict
from tests.tournaments.standings.conftest import cego
from tournaments.models import Deal, TournamentChange
from tournaments.selectors.archive import tournament_items
from tournaments.services.phone_entry import enter_deal


@pytest.fixture
def publication(laptop):
    tournament, _table = laptop
    return Publication.objects.create(
        tournament=tournament, url="https://saison.example.org", token="t"
    )


def state_of(publication):
    (state,) = sync_states(tournament_id=publication.tournament_id)
    return state


@pytest.mark.django_db
def test_each_publication_says_where_it_stands(publication, laptop):
    _tournament, table = laptop
    assert state_of(publication).text == "noch nicht geschickt"
    outbox.acknowledge(batch=outbox.next_batch(publication=publication))
    assert (state_of(publication).kind, state_of(publication).text) == ("live", "live")
    enter_deal(table=table, number=4, inputs=cego(3, 45))
    enter_deal(table=table, number=5, inputs=cego(3, 45))
    assert state_of(publication).text == "2 Änderungen unterwegs"
    heard = timezone.make_aware(dt.datetime(2026, 11, 28, 14, 2))
    Publication.objects.filter(pk=publication.pk).update(
        failures=3, last_error="timed out", last_contact_at=heard
    )
    assert state_of(publication).kind == "offline"
    assert "keine Verbindung" in state_of(publication).text and (
        "14:02" in state_of(publication).text
    )
    Publication.objects.filter(pk=publication.pk).update(
        taken_back_at=heard, taken_back={"items": {"deal": 12, "table": 1}, "conflicts": 1}
    )
    words = state_of(publication).taken_back
    assert words.startswith("vom Saisonserver zurückgeholt: 12 Spiele, 1 Tische, 1 zur Wahl")


@pytest.mark.django_db
def test_the_desk_chooses_the_servers_version_and_the_log_says_who(
    client, publication, laptop, django_user_model
):
    tournament, table = laptop
    organiser = django_user_model.objects.create_superuser("orga", "", "pw")
    client.force_login(organiser)
    server_item = dict(tournament_items(tournament=tournament)["deal:r1-t1-d2"])
    server_item["record"] = {**server_item["record"], "declarer_points": 45, "declarer": 3}
    server_item["scores"] = [-10, -10, -10, 30]  # what the rules give: checked when taken
    conflict = PublishConflict.objects.create(
        publication=publication, key="deal:r1-t1-d2", server_item=server_item
    )
    url = reverse("publishing:publication_conflicts", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Runde 1, Tisch 1, Spiel 2" in page and "Fassung des Saisonservers übernehmen" in page
    assert "Augen des Alleinspielers" in page and ">45<" in page  # what differs, both values
    before = list(Deal.objects.get(table=table, number=2).scores)

    answer = client.post(url, {"conflict": conflict.pk, "choice": "server"}, follow=True)
    assert "Gewählt" in answer.content.decode(), answer.content.decode()[-3000:]
    conflict.refresh_from_db()
    assert conflict.choice == "server" and conflict.settled_by == organiser
    after = Deal.objects.get(table=table, number=2)
    assert list(after.scores) != before and after.declarer_points == 45
    assert TournamentChange.objects.filter(
        tournament=tournament, changed_by=organiser, subject__contains="deal:r1-t1-d2"
    ).exists()
    again = client.post(url, {"conflict": conflict.pk, "choice": "laptop"}, follow=True)
    assert "schon entschieden" in again.content.decode()
    conflict.refresh_from_db()
    assert conflict.choice == "server"
    assert "Nichts wartet auf eine Wahl" in client.get(url).content.decode()


@pytest.mark.django_db
def test_the_publishing_page_shows_the_state_and_the_conflicts(
    client, publication, laptop, django_user_model
):
    tournament, _table = laptop
    client.force_login(django_user_model.objects.create_superuser("orga", "", "pw"))
    PublishConflict.objects.create(publication=publication, key="deal:r1-t1-d2", server_item={})
    page = client.get(reverse("publishing:tournament_publication", args=[tournament.pk]))
    text = page.content.decode()
    assert 'data-sync="waiting"' in text
    assert "1 Eintrag wurde hier und auf dem Saisonserver verschieden erfasst." in text
    assert reverse("publishing:publication_conflicts", args=[tournament.pk]) in text


@pytest.mark.django_db(transaction=True)
def test_a_restore_starts_a_new_epoch_and_says_what_happens_next(publication, tmp_path):
    outbox.acknowledge(batch=outbox.next_batch(publication=publication))
    outbox.ensure_epoch(publication=publication)
    out = StringIO()
    call_command("backup", "--output", str(tmp_path), "--format", "json", stdout=out)
    backup = out.getvalue().strip().splitlines()[-1]
    said = StringIO()
    call_command("restore", backup, "--force", "--allow-older", stdout=said)
    assert "holt dieser Laptop zuerst zurück, was nur der Saisonserver hat" in said.getvalue()
    restored = Publication.objects.get(url=publication.url)
    assert restored.epoch is None and restored.taken_back == {"restored": True}
    assert any("Diese Daten kommen aus einer Sicherung" in line for line in start_lines())
