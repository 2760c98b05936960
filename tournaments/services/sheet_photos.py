"""Photos of tick-box score sheets (issue 42): uploaded at the desk or from the table's phone,
read by ``sheetreading.reader``, kept as ``SheetPhoto`` and counted only when the desk
confirms them.

Upload (:func:`upload_sheet_photo`): the file's size and the same file twice are refused
before anything is read; the reader straightens the photo and reads the QR code, whose short
address names the table (``Table.short_code``): a sheet of another tournament, round or table
is refused with the reason. A photo that is blurred, dark, not a sheet or not an image is
refused in words the desk can act on. Nothing is stored on a refusal.

Confirmation (:func:`confirm_sheet_photo`): the desk's rows (as read, or corrected) become the
lines of a typed paper sheet: each row's ticks scored by the engine into the complete row,
or the amounts the desk typed as written for a row it completes (a Räuber, a penalty); then
the same service as a typed sheet stores them (``paper_sheets.enter_written_deals``, its
checks: the table open, numbers not taken, the engine's check of every line), or under double
entry the sheet becomes the first typing (``double_entry.type_sheet``), compared with the
second typing by hand as usual. All or nothing.

The reader (OpenCV) is imported on first use: the rest of the day needs none of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import (
    Round,
    Seat,
    SheetPhoto,
    SheetTyping,
    Table,
    Tournament,
    normalise_short_code,
)
from tournaments.rule_snapshot import rule_source_of
from tournaments.seating import sitting_out_position
from tournaments.services import double_entry, paper_sheets
from tournaments.services.paper_sheets import WrittenRow
from tournaments.services.results_common import (
    DealConflict,
    ResultError,
    _check_deals_table,
    _check_open,
    _locked_table,
    compute_scores,
    table_facts,
)

MAX_BYTES = 20 * 1024 * 1024  # a phone's photo is 2-8 MB; a scan of one page less
KEPT_SIDE = 2400  # the kept copy's long side, px
SHORT_ADDRESS = "/t/"


class PhotoRefused(ResultError):
    """The photo is not taken: ``message`` says why and what to do, ``code`` which case."""


def refusal(code: str, **values: Any) -> PhotoRefused:
    """The refusal ``code`` in words (the page shows the message beside the upload field)."""
    messages = {
        "empty": _("Choose a photo of the sheet first."),
        "too_large": _(
            "The file is larger than %(limit)s MB. Take the photo again or send a smaller "
            "one (a phone's photo has 2 to 8 MB)."
        ),
        "not_image": _(
            "This file is not a picture. Upload a photo of the sheet (JPEG or PNG) or take one."
        ),
        "no_markers": _(
            "No Cego sheet can be seen in the photo. Photograph the whole tick-box sheet, all "
            "four black corner squares in the picture."
        ),
        "no_qr": _(
            "The sheet's QR code (top right) cannot be read. Please take the photo again, "
            "with the whole sheet in the picture and more light."
        ),
        "blurred": _("The photo is blurred or too dark. Please try again, with more light."),
        "not_ours": _(
            "The QR code on this sheet is not one of this program's score sheets. Photograph "
            "the tick-box sheet printed for this round."
        ),
        "other_tournament": _(
            "This sheet belongs to another tournament (%(name)s), not to this one. Nothing was "
            "saved."
        ),
        "unknown_table": _(
            "This sheet belongs to no table of this tournament (it was printed for another "
            "tournament or its table's address was renewed). Nothing was saved."
        ),
        "other_round": _(
            "This sheet is round %(sheet_round)s, table %(sheet_table)s, not round %(round)s. "
            "Nothing was saved."
        ),
        "other_table": _(
            "This sheet is table %(sheet_table)s, not table %(table)s. Nothing was saved."
        ),
        "wrong_page": _("This page does not belong to the table's sheet. Nothing was saved."),
        "duplicate": _(
            "This photo was uploaded already (round %(round)s, table %(table)s, %(state)s). "
            "Nothing was saved."
        ),
        "waiting": _(
            "A photo of this sheet is waiting for the desk already: confirm or discard it first."
        ),
        "not_deals": _("This tournament records round totals only: type the sheet's totals."),
    }
    return PhotoRefused(messages[code] % values, code=code, field="photo")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _duplicate(tournament_id: int, digest: str) -> SheetPhoto | None:
    return (
        SheetPhoto.objects.filter(tournament_id=tournament_id, sha256=digest)
        .select_related("table__round")
        .only("state", "table__number", "table__round__number")
        .first()
    )


def _duplicate_refusal(photo: SheetPhoto) -> PhotoRefused:
    return refusal(
        "duplicate",
        round=photo.table.round.number,
        table=photo.table.number,
        state=photo.get_state_display(),
    )


def table_of_sheet(*, qr_text: str, round_: Round, table: Table | None) -> Table:
    """The table the sheet's QR code names (its short address), or the refusal saying whose
    sheet it is: another tournament, round or (where ``table`` is given) table."""
    if SHORT_ADDRESS not in qr_text:
        raise refusal("not_ours")
    code = qr_text.rstrip("/").rsplit("/", 1)[-1]
    found = (
        Table.objects.select_related("round__tournament")
        .filter(short_code=normalise_short_code(code))
        .first()
    )
    if found is None:
        raise refusal("unknown_table")
    if found.round.tournament_id != round_.tournament_id:
        raise refusal("other_tournament", name=found.round.tournament.name)
    if found.round_id != round_.pk:
        raise refusal(
            "other_round",
            sheet_round=found.round.number,
            sheet_table=found.number,
            round=round_.number,
        )
    if table is not None and found.pk != table.pk:
        raise refusal("other_table", sheet_table=found.number, table=table.number)
    return found


@dataclass
class _Read:
    table: Table
    page: int
    rows: list[dict[str, Any]]
    straightened: bytes
    seconds: float


def read_photo(*, data: bytes, round_: Round, table: Table | None) -> _Read:
    """Read the photo (nothing stored): the sheet's table and its rows, or PhotoRefused."""
    from sheetreading import desk_rows
    from sheetreading.layout import sheet_layouts
    from sheetreading.reader import Unreadable, read_sheet

    tournament = round_.tournament
    rules = rule_source_of(tournament)
    found: dict[str, Table] = {}

    def layout_for(qr_text: str, page: int):
        sheet_table = table_of_sheet(qr_text=qr_text, round_=round_, table=table)
        size = Seat.objects.filter(table=sheet_table).count()
        layouts = sheet_layouts(rules=rules, table_size=size, deals=tournament.deals_per_round)
        if not 0 <= page < len(layouts):
            raise refusal("wrong_page")
        found["table"] = sheet_table

        def sitting_out(deal: int) -> int | None:
            return sitting_out_position(rules=rules, table_size=size, deal_number=deal)

        return layouts[page], rules, sitting_out

    try:
        reading = read_sheet(data, layout_for=layout_for)
    except Unreadable as error:
        known = ("not_image", "no_qr", "blurred", "no_markers")
        code = error.code if error.code in known else "blurred" if error.code == "dark" else ""
        code = code or "no_markers"
        raise refusal(code) from error
    return _Read(
        table=found["table"],
        page=reading.page,
        rows=desk_rows.reading_rows(reading),
        straightened=desk_rows.page_jpeg(reading),
        seconds=reading.seconds,
    )


def upload_sheet_photo(
    *,
    round_: Round,
    table: Table | None,
    data: bytes,
    user: User | None,
    via: str,
    uploader: str = "",
) -> SheetPhoto:
    """Read a photo of a tick-box sheet of ``round_`` (of ``table``, where the page was
    opened for one) and keep it for the desk; raises PhotoRefused and stores nothing."""
    from sheetreading import desk_rows

    tournament = round_.tournament
    if not data:
        raise refusal("empty")
    if len(data) > MAX_BYTES:
        raise refusal("too_large", limit=MAX_BYTES // (1024 * 1024))
    if tournament.entry_mode != Tournament.EntryMode.DEALS:
        raise refusal("not_deals")
    digest = _sha256(data)
    earlier = _duplicate(tournament.pk, digest)
    if earlier is not None:
        raise _duplicate_refusal(earlier)
    read = read_photo(data=data, round_=round_, table=table)
    try:
        kept, kind = desk_rows.kept_copy(data, longest=KEPT_SIDE)
    except ValueError as error:  # decoded once by the reader: not expected
        raise refusal("not_image") from error
    try:
        return _store(
            read=read, digest=digest, kept=kept, kind=kind, user=user, via=via, uploader=uploader
        )
    except IntegrityError:  # the same file, or another reading of the page, at the same time
        earlier = _duplicate(tournament.pk, digest)
        if earlier is not None:
            raise _duplicate_refusal(earlier) from None
        raise refusal("waiting") from None


@transaction.atomic
def _store(
    *,
    read: _Read,
    digest: str,
    kept: bytes,
    kind: str,
    user: User | None,
    via: str,
    uploader: str,
) -> SheetPhoto:
    table = _locked_table(read.table.pk)
    _check_deals_table(table)
    _check_open(table)
    if SheetPhoto.objects.filter(table=table, page=read.page, state=SheetPhoto.State.READ).exists():
        raise refusal("waiting")
    earlier = _duplicate(table.round.tournament_id, digest)
    if earlier is not None:
        raise _duplicate_refusal(earlier)
    with transaction.atomic():  # a savepoint: an IntegrityError leaves the outer usable
        return SheetPhoto.objects.create(
            tournament_id=table.round.tournament_id,
            table=table,
            page=read.page,
            via=via,
            sha256=digest,
            photo=kept,
            photo_type=kind,
            straightened=read.straightened,
            rows=read.rows,
            seconds=read.seconds,
            uploaded_by=user if user is not None and user.is_authenticated else None,
            uploader=uploader[:120],
        )


@dataclass(frozen=True)
class ConfirmedRow:
    """One row of the sheet as the desk confirms it: the ticks' values (read or corrected),
    or ``amounts`` typed as written where the desk completes the deal itself."""

    number: int
    contract: str
    declarer: int | None
    declarer_points: int | None = None
    won: bool | None = None
    after_solo: bool = False
    amounts: tuple[int | None, ...] | None = None


def written_rows(*, table: Table, rows: Sequence[ConfirmedRow]) -> list[WrittenRow]:
    """The confirmed rows as lines of a typed sheet: a row of ticks scored by the engine
    (its complete row of amounts), a row typed as written taken as it is. Raises
    ResultError naming the deal."""
    facts = table_facts(table)
    lines = []
    for row in rows:
        if not row.contract:
            raise ResultError(
                _("Deal %(number)s: choose the contract.") % {"number": row.number},
                code="contract_missing",
            )
        if row.declarer is None:
            raise ResultError(
                _("Deal %(number)s: say who played.") % {"number": row.number},
                code="declarer_missing",
            )
        if row.amounts is not None:
            lines.append(WrittenRow(row.number, row.contract, row.declarer, row.amounts))
            continue
        inputs: dict[str, Any] = {
            "contract": row.contract,
            "declarer": row.declarer,
            "declarer_points": row.declarer_points,
            "won": row.won,
        }
        if row.after_solo:
            inputs["after_solo"] = True
        try:
            _record, scores = compute_scores(facts=facts, number=row.number, inputs=inputs)
        except ResultError as error:
            raise ResultError(
                _("Deal %(number)s: %(error)s") % {"number": row.number, "error": error.message},
                field=error.field,
                code=error.code,
            ) from error
        lines.append(WrittenRow(row.number, row.contract, row.declarer, tuple(scores)))
    return lines


def _locked_photo(photo: SheetPhoto) -> tuple[Table, SheetPhoto]:
    table = _locked_table(photo.table_id)
    locked = SheetPhoto.objects.select_for_update().get(pk=photo.pk)
    if locked.state != SheetPhoto.State.READ:
        raise DealConflict(
            _("This photo was confirmed or discarded meanwhile; nothing was changed."),
            code="photo_decided",
        )
    return table, locked


@transaction.atomic
def confirm_sheet_photo(
    *, photo: SheetPhoto, rows: Sequence[ConfirmedRow], user: User
) -> SheetPhoto:
    """The desk confirms the sheet read from ``photo`` with ``rows`` (the rows it counts; a
    row left out, struck or empty, is not among them). Stored as a typed sheet is, or under
    double entry as the first typing; raises ResultError (a row the engine refuses, a
    number taken, a closed round …) and nothing changes."""
    table, locked = _locked_photo(photo)
    tournament = table.round.tournament
    if not rows:
        raise ResultError(
            _("No row of the sheet is counted: tick “counts” on a row or discard the photo."),
            code="sheet_empty",
        )
    lines = written_rows(table=table, rows=rows)
    reason = _("Read from a photo of the sheet (photo %(photo)s), confirmed at the desk.") % {
        "photo": locked.pk
    }
    if tournament.double_entry and tournament.entry_mode == Tournament.EntryMode.DEALS:
        waiting = SheetTyping.objects.filter(
            table=table,
            state__in=[SheetTyping.State.AWAITING_SECOND, SheetTyping.State.DIFFERENCES],
        ).exists()
        if waiting:
            raise ResultError(
                _(
                    "This sheet has been typed once already: a photo is only ever its first "
                    "typing. Type the sheet a second time by hand, or discard the first typing."
                ),
                code="typed_already",
            )
        locked.typing = double_entry.type_sheet(
            table=table,
            rows=lines,
            user=user,
            typist=_("photo %(photo)s") % {"photo": locked.pk},
            expected_typing=None,
        )
    else:
        paper_sheets.enter_written_deals(table=table, rows=lines, user=user, reason=reason)
    locked.state = SheetPhoto.State.CONFIRMED
    locked.decided_by = user
    locked.decided_at = timezone.now()
    locked.save(update_fields=["state", "decided_by", "decided_at", "typing"])
    return locked


@transaction.atomic
def discard_sheet_photo(*, photo: SheetPhoto, user: User, reason: str) -> SheetPhoto:
    """Set a photo aside unconfirmed (the wrong sheet, a retake follows), with a reason; it
    stays on record, and the same file is still refused again."""
    if not reason.strip():
        raise ResultError(_("Give a reason."), field="reason", code="reason_required")
    _table, locked = _locked_photo(photo)
    locked.state = SheetPhoto.State.DISCARDED
    locked.decided_by = user
    locked.decided_at = timezone.now()
    locked.reason = reason.strip()[:200]
    locked.save(update_fields=["state", "decided_by", "decided_at", "reason"])
    return locked
