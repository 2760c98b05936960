"""Photos of tick-box sheets at the desk (issue 42, items 2 and 5): the upload reads and keeps
the photo, every bad input is refused in words with nothing stored, and only the desk's
confirmation counts the sheet, through the typed sheet's service and checks (under double
entry as its first typing)."""

import pytest
from django.utils import translation

from tests.factories import TournamentFactory
from tests.tournaments.results.conftest import seat_table
from tests.tournaments.sheet_photos import (
    blurred,
    darkened,
    not_a_sheet,
    resaved,
    tick_photo,
)
from tournaments.models import Deal, DealChange, SheetPhoto, SheetTyping, Tournament
from tournaments.services import double_entry, sheet_photos
from tournaments.services.paper_sheets import WrittenRow
from tournaments.services.results_common import ResultError
from tournaments.services.sheet_photos import ConfirmedRow, PhotoRefused

pytestmark = pytest.mark.pdf  # the blank sheet is rendered with pdftoppm

CODES = ("PHOTO4", "PHOTO5")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def tables(swm_tournament):
    """Round 1 of a swm tournament: tables 1 and 2 of four, their addresses fixed (the
    photos are made once per address)."""
    one = seat_table(tournament=swm_tournament, table_number=1)
    two = seat_table(tournament=swm_tournament, table_number=2)
    for table, code in zip((one, two), CODES, strict=True):
        table.short_code = code
        table.save(update_fields=["short_code"])
    return one, two


def upload(table, data, *, user=None, whole_round=False):
    return sheet_photos.upload_sheet_photo(
        round_=table.round,
        table=None if whole_round else table,
        data=data,
        user=user,
        via=SheetPhoto.Via.DESK,
    )


def confirmed_rows(photo):
    """What the desk confirms without changing anything: every row read whole."""
    return [
        ConfirmedRow(
            number=row["deal"],
            contract=row["values"]["contract"],
            declarer=row["values"]["declarer"],
            declarer_points=row["values"]["declarer_points"],
            won=row["values"]["won"],
            after_solo=row["values"]["after_solo"],
        )
        for row in photo.rows
        if row["accepted"]
    ]


def test_an_upload_is_read_and_kept_and_counts_nothing(tables, organiser):
    table = tables[0]
    data, truths = tick_photo(table)
    photo = upload(table, data, user=organiser, whole_round=True)
    assert photo.table == table and photo.state == SheetPhoto.State.READ
    assert photo.uploaded_by == organiser and len(photo.sha256) == 64
    assert len(photo.rows) == 24 and bytes(photo.photo)[:2] == b"\xff\xd8"
    # the row with two contracts ticked is flagged, never guessed
    assert any(flag.startswith("several:contract") for flag in photo.rows[1]["flags"])
    assert not photo.rows[1]["accepted"]
    # every row accepted is what the players ticked
    for row, truth in zip(photo.rows, truths, strict=True):
        if row["accepted"]:
            assert truth.kind == "deal"
            assert row["values"]["contract"] == truth.record["contract"]
            assert row["values"]["declarer"] == truth.record["declarer"]
    assert not Deal.objects.filter(table=table).exists()


def test_confirming_counts_the_rows_as_a_typed_sheet(tables, organiser):
    table = tables[0]
    photo = upload(table, tick_photo(table)[0], user=organiser)
    rows = confirmed_rows(photo)
    assert rows
    sheet_photos.confirm_sheet_photo(photo=photo, rows=rows, user=organiser)
    deals = {deal.number: deal for deal in Deal.objects.filter(table=table)}
    assert set(deals) == {row.number for row in rows}
    by_number = {row["deal"]: row for row in photo.rows}
    for number, deal in deals.items():
        assert deal.as_written and deal.status == Deal.Status.CONFIRMED
        assert [s for s in deal.scores if s is not None] == by_number[number]["scores"]
    change = DealChange.objects.filter(deal__table=table).first()
    assert change.changed_by == organiser and f"photo {photo.pk}" in change.reason
    photo.refresh_from_db()
    assert photo.state == SheetPhoto.State.CONFIRMED and photo.decided_by == organiser


def test_a_corrected_row_is_checked_by_the_engine_and_refused_like_a_typed_one(tables, organiser):
    table = tables[0]
    photo = upload(table, tick_photo(table)[0], user=organiser)
    rows = confirmed_rows(photo)
    # the flagged row (two contracts) corrected to a Halbe with impossible card points
    wrong = ConfirmedRow(number=2, contract="halbe", declarer=1, declarer_points=131)
    with pytest.raises(ResultError) as refused:
        sheet_photos.confirm_sheet_photo(photo=photo, rows=[*rows, wrong], user=organiser)
    assert refused.value.message.startswith("Deal 2: ")
    assert not Deal.objects.filter(table=table).exists()
    photo.refresh_from_db()
    assert photo.state == SheetPhoto.State.READ
    # corrected rightly, it counts
    right = ConfirmedRow(number=2, contract="halbe", declarer=1, declarer_points=70)
    sheet_photos.confirm_sheet_photo(photo=photo, rows=[*rows, right], user=organiser)
    deal = Deal.objects.get(table=table, number=2)
    assert deal.contract == "halbe" and deal.declarer_position == 1


def test_a_row_typed_as_written_counts_through_the_written_check(tables, organiser):
    table = tables[0]
    photo = upload(table, tick_photo(table)[0], user=organiser)
    typed = ConfirmedRow(number=2, contract="halbe", declarer=1, amounts=(None, 60, None, None))
    sheet_photos.confirm_sheet_photo(photo=photo, rows=[typed], user=organiser)
    assert Deal.objects.get(table=table, number=2).scores[:4] == [-20, 60, -20, -20]


def test_a_number_entered_meanwhile_refuses_the_whole_sheet(tables, organiser):
    table = tables[0]
    photo = upload(table, tick_photo(table)[0], user=organiser)
    rows = confirmed_rows(photo)
    first = rows[0]
    sheet_photos.confirm_sheet_photo  # noqa: B018 - the typed sheet's service refuses
    from tournaments.services import paper_sheets

    paper_sheets.enter_written_deals(
        table=table,
        rows=[WrittenRow(first.number, "halbe", 0, (60, None, None, None))],
        user=organiser,
    )
    with pytest.raises(ResultError) as refused:
        sheet_photos.confirm_sheet_photo(photo=photo, rows=rows, user=organiser)
    assert refused.value.code == "deal_taken"
    assert Deal.objects.filter(table=table).count() == 1


def test_under_double_entry_the_photo_is_the_first_typing(swm_tournament, tables, organiser):
    Tournament.objects.filter(pk=swm_tournament.pk).update(double_entry=True)
    table = tables[0]
    table.round.tournament.refresh_from_db()
    photo = upload(table, tick_photo(table)[0], user=organiser)
    rows = confirmed_rows(photo)
    photo = sheet_photos.confirm_sheet_photo(photo=photo, rows=rows, user=organiser)
    typing = photo.typing
    assert typing.state == SheetTyping.State.AWAITING_SECOND
    assert not Deal.objects.filter(table=table).exists()  # nothing counts after one typing
    # the second typing by hand, as written: the engine's rows of the first
    second = [
        WrittenRow(r["number"], r["contract"], r["declarer"], tuple(r["scores"]))
        for r in typing.first_rows
    ]
    typing = double_entry.type_sheet(
        table=table, rows=second, user=organiser, typist="CD", expected_typing=typing.pk
    )
    assert typing.state == SheetTyping.State.COUNTED
    assert Deal.objects.filter(table=table).count() == len(rows)


def test_under_double_entry_a_differing_second_typing_is_settled(swm_tournament, tables, organiser):
    Tournament.objects.filter(pk=swm_tournament.pk).update(double_entry=True)
    table = tables[0]
    table.round.tournament.refresh_from_db()
    photo = upload(table, tick_photo(table)[0], user=organiser)
    photo = sheet_photos.confirm_sheet_photo(
        photo=photo, rows=confirmed_rows(photo), user=organiser
    )
    first = photo.typing.first_rows
    second = [
        WrittenRow(r["number"], r["contract"], r["declarer"], tuple(r["scores"]))
        for r in first[1:]  # the second typist missed a line
    ]
    typing = double_entry.type_sheet(
        table=table, rows=second, user=organiser, typist="CD", expected_typing=photo.typing.pk
    )
    assert typing.state == SheetTyping.State.DIFFERENCES


@pytest.mark.parametrize(
    ("make", "code", "words"),
    [
        (lambda photo: b"", "empty", "Choose a photo"),
        (lambda photo: b"GIF89a no picture at all", "not_image", "not a picture"),
        (lambda photo: not_a_sheet(), "no_markers", "No Cego sheet can be seen"),
        (lambda photo: darkened(photo), "blurred", "with more light"),
        (lambda photo: blurred(photo), "blurred", "with more light"),
    ],
)
def test_bad_photos_are_refused_in_words_and_nothing_is_stored(
    tables, organiser, make, code, words
):
    table = tables[0]
    with pytest.raises(PhotoRefused) as refused:
        upload(table, make(tick_photo(table)[0]), user=organiser)
    assert refused.value.code == code and words in refused.value.message
    assert not SheetPhoto.objects.exists()


def test_a_file_over_the_limit_is_refused_before_reading(tables, organiser, monkeypatch):
    def never(**kwargs):
        raise AssertionError("read")

    monkeypatch.setattr(sheet_photos, "read_photo", never)
    with pytest.raises(PhotoRefused) as refused:
        upload(tables[0], b"\xff\xd8" + b"0" * (sheet_photos.MAX_BYTES + 1), user=organiser)
    assert refused.value.code == "too_large" and "20 MB" in refused.value.message
    assert not SheetPhoto.objects.exists()


def test_the_same_photo_twice_is_refused_and_a_retake_waits_for_the_first(tables, organiser):
    table = tables[0]
    data = tick_photo(table)[0]
    upload(table, data, user=organiser)
    with pytest.raises(PhotoRefused) as refused:
        upload(table, data, user=organiser)
    assert refused.value.code == "duplicate" and "uploaded already" in refused.value.message
    with pytest.raises(PhotoRefused) as waiting:
        upload(table, resaved(data), user=organiser)
    assert waiting.value.code == "waiting"
    assert SheetPhoto.objects.count() == 1


def test_a_discarded_photo_makes_room_for_a_retake_but_stays_refused(tables, organiser):
    table = tables[0]
    data = tick_photo(table)[0]
    photo = upload(table, data, user=organiser)
    with pytest.raises(ResultError):
        sheet_photos.discard_sheet_photo(photo=photo, user=organiser, reason=" ")
    sheet_photos.discard_sheet_photo(photo=photo, user=organiser, reason="unscharf")
    with pytest.raises(PhotoRefused):
        upload(table, data, user=organiser)
    retake = upload(table, resaved(data), user=organiser)
    assert retake.state == SheetPhoto.State.READ
    with pytest.raises(ResultError) as decided:
        sheet_photos.confirm_sheet_photo(photo=photo, rows=confirmed_rows(retake), user=organiser)
    assert decided.value.code == "photo_decided"


def test_another_tables_sheet_is_refused_with_its_number(tables, organiser):
    one, two = tables
    with pytest.raises(PhotoRefused) as refused:
        upload(one, tick_photo(two)[0], user=organiser)
    assert refused.value.code == "other_table"
    assert "table 2, not table 1" in refused.value.message
    assert not SheetPhoto.objects.exists()


def test_another_rounds_sheet_is_refused(swm_tournament, tables, organiser):
    later = seat_table(tournament=swm_tournament, round_number=2, table_number=1)
    with pytest.raises(PhotoRefused) as refused:
        upload(later, tick_photo(tables[0])[0], user=organiser, whole_round=True)
    assert refused.value.code == "other_round"
    assert "round 1, table 1, not round 2" in refused.value.message


def test_another_tournaments_sheet_is_refused(tables, organiser):
    other = TournamentFactory(rules_slug="swm", deals_per_round=24, name="Fasnetsturnier")
    elsewhere = seat_table(tournament=other)
    with pytest.raises(PhotoRefused) as refused:
        upload(elsewhere, tick_photo(tables[0])[0], user=organiser, whole_round=True)
    assert refused.value.code == "other_tournament"
    assert f"another tournament ({tables[0].round.tournament.name})" in refused.value.message


def test_a_closed_round_takes_no_photo(tables, organiser):
    from tournaments.models import Round

    table = tables[0]
    Round.objects.filter(pk=table.round_id).update(state=Round.State.CLOSED)
    table.round.refresh_from_db()
    with pytest.raises(ResultError) as refused:
        upload(table, tick_photo(table)[0], user=organiser)
    assert refused.value.code == "round_closed"
    assert not SheetPhoto.objects.exists()


def test_a_table_of_five_where_the_dealer_sits_out_counts_every_row_read(organiser):
    """Schwärzehof at five: the dealer sits out each deal (and pays as a defender); the
    engine's complete rows pass the written check of a typed sheet."""
    tournament = TournamentFactory(rules_slug="schwaerzehof", deals_per_round=24)
    table = seat_table(tournament=tournament, size=5)
    table.short_code = "FIVE55"
    table.save(update_fields=["short_code"])
    photo = upload(table, tick_photo(table, seed=11)[0], user=organiser)
    rows = confirmed_rows(photo)
    assert len(rows) >= 15
    sheet_photos.confirm_sheet_photo(photo=photo, rows=rows, user=organiser)
    deals = Deal.objects.filter(table=table)
    assert deals.count() == len(rows)
    for deal in deals:
        row = next(r for r in photo.rows if r["deal"] == deal.number)
        assert deal.scores[:5] == row["scores"]


def test_a_sheet_typed_once_by_hand_takes_no_photo_as_its_second_typing(
    swm_tournament, tables, organiser
):
    Tournament.objects.filter(pk=swm_tournament.pk).update(double_entry=True)
    table = tables[0]
    table.round.tournament.refresh_from_db()
    double_entry.type_sheet(
        table=table,
        rows=[WrittenRow(1, "halbe", 1, (None, 60, None, None))],
        user=organiser,
        typist="AB",
        expected_typing=None,
    )
    photo = upload(table, tick_photo(table)[0], user=organiser)
    with pytest.raises(ResultError) as refused:
        sheet_photos.confirm_sheet_photo(photo=photo, rows=confirmed_rows(photo), user=organiser)
    assert refused.value.code == "typed_already"
    assert "only ever its first typing" in refused.value.message
    photo.refresh_from_db()
    assert photo.state == SheetPhoto.State.READ
    assert SheetTyping.objects.get().first_rows[0]["number"] == 1
