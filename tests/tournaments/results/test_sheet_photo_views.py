"""The pages of sheet photos (issue 42): the desk's upload per round and per table, the
confirm page with each row's crop and the flagged rows' reasons, the table's phone upload, and
the refusals in words with nothing stored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.tournaments.results.conftest import seat_table
from tests.tournaments.sheet_photos import not_a_sheet, tick_photo
from tournaments.models import Deal, SheetPhoto
from tournaments.services.sheet_photos import MAX_BYTES
from tournaments.views.photos import LimitedUpload

pytestmark = pytest.mark.pdf

CODES = ("VIEWP4", "VIEWP5")


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def tables(swm_tournament):
    one = seat_table(tournament=swm_tournament, table_number=1)
    two = seat_table(tournament=swm_tournament, table_number=2)
    for table, code in zip((one, two), CODES, strict=True):
        table.short_code = code
        table.save(update_fields=["short_code"])
    return one, two


@pytest.fixture
def desk(client, organiser):
    client.force_login(organiser)
    return client


def _file(data: bytes, name: str = "bogen.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def confirm_data(photo: SheetPhoto) -> dict:
    """What the confirm page's form posts unchanged."""
    data = {"action": "confirm"}
    for row in photo.rows:
        n, values = row["deal"], row["values"]
        if row["accepted"]:
            data[f"counts_{n}"] = "on"
        data[f"declarer_{n}"] = "" if values["declarer"] is None else str(values["declarer"])
        data[f"contract_{n}"] = values["contract"] or ""
        points = values["declarer_points"]
        data[f"points_{n}"] = "" if points is None else str(points)
        won = values["won"]
        data[f"won_{n}"] = "" if won is None else ("1" if won else "0")
        if values["after_solo"]:
            data[f"after_solo_{n}"] = "on"
    return data


def test_the_round_upload_reads_the_sheet_and_shows_flagged_rows_with_crops(desk, tables):
    table = tables[1]
    url = reverse("tournaments:desk_photos", args=[table.round.tournament_id, 1])
    page = desk.get(url)
    assert page.status_code == 200
    assert b'accept="image/*"' in page.content and b'capture="environment"' in page.content
    response = desk.post(url, {"photo": _file(tick_photo(table)[0])})
    photo = SheetPhoto.objects.get()
    assert photo.table == table  # the QR code said which table
    confirm_url = reverse("tournaments:desk_photo_confirm", args=[photo.tournament_id, photo.pk])
    assert response.status_code == 302 and response.url == confirm_url
    page = desk.get(confirm_url)
    text = page.content.decode()
    assert "Two or more ticks: Contract" in text
    assert 'id="row-2" class="photo-row flagged' in text
    crop = reverse("tournaments:desk_photo_crop", args=[photo.tournament_id, photo.pk, 2])
    assert crop in text
    png = desk.get(crop)
    assert png.status_code == 200 and png["Content-Type"] == "image/png"
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    kept = desk.get(reverse("tournaments:desk_photo_image", args=[photo.tournament_id, photo.pk]))
    assert kept.status_code == 200 and kept.content[:2] == b"\xff\xd8"


def test_confirming_on_the_page_counts_the_deals(desk, tables):
    table = tables[0]
    pk = table.round.tournament_id
    desk.post(
        reverse("tournaments:desk_table_photo", args=[pk, 1, 1]),
        {"photo": _file(tick_photo(table)[0])},
    )
    photo = SheetPhoto.objects.get()
    url = reverse("tournaments:desk_photo_confirm", args=[pk, photo.pk])
    response = desk.post(url, confirm_data(photo))
    assert response.status_code == 302
    assert response.url == reverse("tournaments:desk_entry", args=[pk, 1, 1])
    counted = sum(1 for row in photo.rows if row["accepted"])
    assert Deal.objects.filter(table=table).count() == counted > 0
    photo.refresh_from_db()
    assert photo.state == SheetPhoto.State.CONFIRMED


def test_a_wrong_correction_is_refused_on_the_page_and_nothing_counts(desk, tables):
    table = tables[0]
    pk = table.round.tournament_id
    desk.post(
        reverse("tournaments:desk_table_photo", args=[pk, 1, 1]),
        {"photo": _file(tick_photo(table)[0])},
    )
    photo = SheetPhoto.objects.get()
    data = confirm_data(photo)
    data.update({"counts_2": "on", "contract_2": "halbe", "declarer_2": "1", "points_2": "131"})
    response = desk.post(reverse("tournaments:desk_photo_confirm", args=[pk, photo.pk]), data)
    assert response.status_code == 400
    assert "Deal 2" in response.content.decode()
    assert not Deal.objects.filter(table=table).exists()


def test_the_table_page_refuses_another_tables_sheet(desk, tables):
    one, two = tables
    response = desk.post(
        reverse("tournaments:desk_table_photo", args=[one.round.tournament_id, 1, 1]),
        {"photo": _file(tick_photo(two)[0])},
    )
    assert response.status_code == 400
    assert "This sheet is table 2, not table 1." in response.content.decode()
    assert not SheetPhoto.objects.exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"%PDF-1.4 not a photo", "not a picture"),
        (None, "No Cego sheet can be seen"),
    ],
)
def test_bad_files_get_words_on_the_page(desk, tables, data, words):
    url = reverse("tournaments:desk_photos", args=[tables[0].round.tournament_id, 1])
    response = desk.post(url, {"photo": _file(data if data is not None else not_a_sheet())})
    assert response.status_code == 400 and words in response.content.decode()
    assert not SheetPhoto.objects.exists()


def test_a_post_without_a_file_asks_for_one(desk, tables):
    url = reverse("tournaments:desk_photos", args=[tables[0].round.tournament_id, 1])
    response = desk.post(url, {})
    assert response.status_code == 200 and "Choose a photo" in response.content.decode()
    assert not SheetPhoto.objects.exists()


def test_a_file_over_the_limit_is_refused_before_the_body_is_read(desk, tables):
    url = reverse("tournaments:desk_photos", args=[tables[0].round.tournament_id, 1])
    big = b"\xff\xd8" + bytes(50 * 1024 * 1024)  # 50 MB
    response = desk.post(url, {"photo": _file(big)})
    assert response.status_code == 413
    assert "larger than 20 MB" in response.content.decode()
    assert not SheetPhoto.objects.exists()


def test_the_upload_handler_drops_a_body_that_grows_past_the_limit():
    handler = LimitedUpload()
    chunk = bytes(1024 * 1024)
    from django.core.files.uploadhandler import SkipFile

    with pytest.raises(SkipFile):
        for start in range(0, MAX_BYTES + 2 * len(chunk), len(chunk)):
            handler.receive_data_chunk(chunk, start)
    assert handler.too_large


def test_a_referee_sees_the_page_but_only_the_organisers_confirm(client, tables, organiser):
    from django.contrib.auth.models import User

    from tournaments.services import sheet_photos

    table = tables[0]
    tournament = table.round.tournament
    referee = User.objects.create_user("schiri", password="pw")
    tournament.referees.add(referee)
    photo = sheet_photos.upload_sheet_photo(
        round_=table.round, table=table, data=tick_photo(table)[0], user=organiser, via="desk"
    )
    client.force_login(referee)
    url = reverse("tournaments:desk_photo_confirm", args=[tournament.pk, photo.pk])
    page = client.get(url)
    assert page.status_code == 200 and "The organisers confirm the sheet." in page.content.decode()
    assert client.post(url, confirm_data(photo)).status_code == 403
    assert not Deal.objects.filter(table=table).exists()


def test_the_tables_phone_uploads_after_choosing_its_seat(client, tables):
    table = tables[0]
    url = reverse("tournaments:table_entry_photo", args=[table.token])
    response = client.get(url)
    assert response.status_code == 302  # no seat chosen: the seat first
    client.post(reverse("tournaments:table_entry_seat", args=[table.token]), {"position": 2})
    page = client.get(url)
    assert page.status_code == 200 and b'capture="environment"' in page.content
    response = client.post(url, {"photo": _file(tick_photo(table)[0])})
    assert response.status_code == 302
    photo = SheetPhoto.objects.get()
    assert photo.via == SheetPhoto.Via.PHONE and photo.uploaded_by is None
    assert f"table {table.number} (phone)" in photo.uploader
    assert not Deal.objects.filter(table=table).exists()  # the desk confirms
    again = client.get(url)
    assert "waiting for the desk" in again.content.decode()


def test_the_phone_of_another_table_cannot_send_this_tables_sheet(client, tables):
    one, two = tables
    client.post(reverse("tournaments:table_entry_seat", args=[two.token]), {"position": 0})
    response = client.post(
        reverse("tournaments:table_entry_photo", args=[two.token]),
        {"photo": _file(tick_photo(one)[0])},
    )
    assert response.status_code == 400
    assert "This sheet is table 1, not table 2." in response.content.decode()
    assert not SheetPhoto.objects.exists()


def test_a_second_confirmation_of_the_same_photo_changes_nothing(desk, tables):
    table = tables[0]
    pk = table.round.tournament_id
    desk.post(
        reverse("tournaments:desk_table_photo", args=[pk, 1, 1]),
        {"photo": _file(tick_photo(table)[0])},
    )
    photo = SheetPhoto.objects.get()
    url = reverse("tournaments:desk_photo_confirm", args=[pk, photo.pk])
    data = confirm_data(photo)
    assert desk.post(url, data).status_code == 302
    counted = Deal.objects.filter(table=table).count()
    again = desk.post(url, data)  # the same form, sent again from another tab
    assert again.status_code == 409
    assert "confirmed or discarded meanwhile" in again.content.decode()
    assert Deal.objects.filter(table=table).count() == counted


def test_discarding_needs_a_reason_and_keeps_the_photo_on_record(desk, tables):
    table = tables[0]
    pk = table.round.tournament_id
    desk.post(
        reverse("tournaments:desk_table_photo", args=[pk, 1, 1]),
        {"photo": _file(tick_photo(table)[0])},
    )
    photo = SheetPhoto.objects.get()
    url = reverse("tournaments:desk_photo_confirm", args=[pk, photo.pk])
    refused = desk.post(url, {"action": "discard", "reason": ""})
    assert refused.status_code == 400 and "Give a reason." in refused.content.decode()
    response = desk.post(url, {"action": "discard", "reason": "Bogen von Tisch 3"})
    assert response.status_code == 302
    photo.refresh_from_db()
    assert photo.state == SheetPhoto.State.DISCARDED and photo.reason == "Bogen von Tisch 3"
    assert not Deal.objects.filter(table=table).exists()


def test_the_site_starts_without_opencv():
    """The photo pages import the reader on first use: the URLs load without OpenCV or NumPy
    (the venue's first click stays as quick as before)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import os, sys, django\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'cego_club.test_settings'\n"
        "django.setup()\n"
        "from django.urls import get_resolver\n"
        "get_resolver().url_patterns\n"
        "import tournaments.views.photos\n"
        "print(sorted(m for m in ('cv2', 'numpy') if m in sys.modules))\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_every_flag_the_reader_writes_has_the_desks_words():
    """Each kind of flag in sheetreading.reader reaches the desk in words, none as the
    reader's code (a new kind without words would show "cancelled_alone:after_solo")."""
    import re
    from pathlib import Path

    from rules.registry import get_rule_source
    from sheetreading import reader
    from tournaments.views.photos import flag_words

    source = Path(reader.__file__).read_text()
    kinds = set(re.findall(r'flags\.append\(f?"([a-z_]+)', source))
    assert {"doubtful", "cancelled_alone", "several", "missing", "impossible"} <= kinds
    rules = get_rule_source("swm")
    with translation.override("de"):
        for kind in sorted(kinds):
            words = flag_words(f"{kind}:after_solo", rules)
            assert kind not in words, (kind, words)
        assert "allein in seiner Spalte" in flag_words("cancelled_alone:after_solo", rules)
