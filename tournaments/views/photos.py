"""Photos of tick-box sheets (issue 42): "Bogen fotografieren / Foto hochladen" at the desk,
for a round (the sheet's QR code says the table) or one table, and on the table's phone after
the round; the desk's confirm page (each row's values beside its crop of the photo, flagged
rows highlighted with the reason) and the crops themselves.

Uploads are bounded before Django reads the body: a request larger than the limit is answered
at once (its ``Content-Length``), and a body that turns out larger is cut off by
:class:`LimitedUpload` while it streams in; both say so in words and store nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from clubs.permissions import MANAGE_TOURNAMENT, REFEREE_TOURNAMENT, has_perm
from scoring import RuleSource
from tournaments.contract_names import contract_choices
from tournaments.models import Deal, Round, SheetPhoto, Table, Tournament
from tournaments.rule_snapshot import rule_source_of
from tournaments.selectors.sheet_photos import latest_photo, round_photos
from tournaments.selectors.table_sheet import table_seating
from tournaments.services import sheet_photos
from tournaments.services.results_common import ResultError
from tournaments.services.sheet_photos import MAX_BYTES, ConfirmedRow
from tournaments.views.access import tournament_permission
from tournaments.views.table_entry import _actor, _is_open, _my_position
from tournaments.views.table_entry import _table as _phone_table
from tournaments.views.written import AmountField

UPLOAD_SLACK = 64 * 1024  # the form's other fields and the multipart's own lines


class LimitedUpload(FileUploadHandler):
    """Counts an uploaded file's bytes as they stream in and drops the file past the limit
    (the view then says it was too large); nothing of it is kept in memory or on disk."""

    def __init__(self, request=None):
        super().__init__(request)
        self.seen = 0
        self.too_large = False

    def receive_data_chunk(self, raw_data, start):
        self.seen += len(raw_data)
        if self.seen > MAX_BYTES:
            self.too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size):
        return None


def _too_large(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    return length > MAX_BYTES + UPLOAD_SLACK


def _too_large_message() -> str:
    return sheet_photos.refusal("too_large", limit=MAX_BYTES // (1024 * 1024)).message


def _bounded(view):
    """An upload view: bounded before the body is read (CSRF is checked after, by
    ``csrf_protect``, as Django's documentation asks where upload handlers change)."""
    protected = csrf_protect(view)

    @csrf_exempt
    def wrapper(request: HttpRequest, *args, **kwargs):
        if request.method == "POST":
            if _too_large(request):
                return view(request, *args, refused=_too_large_message(), **kwargs)
            request.upload_handlers.insert(0, LimitedUpload(request))
        return protected(request, *args, **kwargs)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _uploaded(request: HttpRequest) -> tuple[bytes | None, str]:
    """The posted photo's bytes, or None and why not."""
    limited = next((h for h in request.upload_handlers if isinstance(h, LimitedUpload)), None)
    upload = request.FILES.get("photo")
    if limited is not None and limited.too_large:
        return None, _too_large_message()
    if upload is None:
        return None, sheet_photos.refusal("empty").message
    return upload.read(), ""


# --- the desk ------------------------------------------------------------------------------


def _round(pk: int, round_number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=round_number
    )


def _upload_page(
    request: HttpRequest,
    pk: int,
    round_number: int,
    table_number: int | None = None,
    refused: str = "",
) -> HttpResponse:
    round_ = _round(pk, round_number)
    tournament = round_.tournament
    table = None
    if table_number is not None:
        table = get_object_or_404(Table, round=round_, number=table_number)
        table.round = round_
    error = refused
    if request.method == "POST" and not refused:
        data, error = _uploaded(request)
        if data is not None:
            try:
                photo = sheet_photos.upload_sheet_photo(
                    round_=round_,
                    table=table,
                    data=data,
                    user=request.user,  # type: ignore[arg-type]
                    via=SheetPhoto.Via.DESK,
                )
            except ResultError as refusal:
                error = refusal.message
            else:
                messages.success(request, _read_message(photo))
                return redirect("tournaments:desk_photo_confirm", pk, photo.pk)
    return render(
        request,
        "tournaments/entry/photo_upload.html",
        {
            "tournament": tournament,
            "round": round_,
            "table": table,
            "error": error,
            "photos": round_photos(round=round_, table=table),
            "limit_mb": MAX_BYTES // (1024 * 1024),
            "can_manage": has_perm(request.user, MANAGE_TOURNAMENT, tournament),
        },
        status=_status(error),
    )


def _status(error: str) -> int:
    """A refused photo is a bad request (a file too large: 413); a form sent without a file
    is the form again, asking for one."""
    if not error or error == sheet_photos.refusal("empty").message:
        return 200
    return 413 if error == _too_large_message() else 400


def _read_message(photo: SheetPhoto) -> str:
    flagged = sum(1 for row in photo.rows if row["flags"] and not row["empty"])
    return ngettext(
        "Sheet of table %(table)s read: %(flagged)s row to look at.",
        "Sheet of table %(table)s read: %(flagged)s rows to look at.",
        flagged,
    ) % {"table": photo.table.number, "flagged": flagged}


@never_cache
@tournament_permission(REFEREE_TOURNAMENT)
@_bounded
def desk_photos(request: HttpRequest, pk: int, round_number: int, refused: str = ""):
    """A round's sheets photographed at the desk, one after another: the QR code says the
    table."""
    return _upload_page(request, pk, round_number, refused=refused)


@never_cache
@tournament_permission(REFEREE_TOURNAMENT)
@_bounded
def desk_table_photo(
    request: HttpRequest, pk: int, round_number: int, table_number: int, refused: str = ""
):
    """One table's sheet photographed: a sheet of another table is refused."""
    return _upload_page(request, pk, round_number, table_number, refused=refused)


# --- the confirm page -------------------------------------------------------------------------

GROUP_WORDS = {
    "seat": "Declarer",
    "contract": "Contract",
    "tens": "Points: tens",
    "units": "Points: units",
    "points": "Card points",
    "won": "won or lost",
    "after_solo": "after Solo",
    "special": "other",
    "strike": "strike out",
}


def _group(name: str) -> str:
    return _(GROUP_WORDS.get(name, name))


def flag_words(flag: str, rules: RuleSource) -> str:
    """A reader's flag (``sheetreading.reader.row_from_boxes``) in the desk's words."""
    kind, _sep, detail = flag.partition(":")
    if kind == "doubtful":
        boxes = []
        for item in detail.split(","):
            group, _eq, value = item.partition("=")
            if group == "contract" and value in rules.contracts:
                value = rules.contracts[value].names.de
            elif group == "seat" and value.isdigit():
                value = str(int(value) + 1)
            boxes.append(f"{_group(group)} {value}")
        return _("A mark is unclear: %(boxes)s") % {"boxes": ", ".join(boxes)}
    if kind == "several":
        return _("Two or more ticks: %(group)s") % {"group": _group(detail)}
    if kind == "missing":
        return _("No tick: %(group)s") % {"group": _group(detail)}
    if kind == "cancelled_alone":
        # a box alone in its group, filled completely: a tick struck out, or a heavy tick?
        return _(
            "A box filled completely, alone in its group: %(group)s (struck out or ticked?)"
        ) % {"group": _group(detail)}
    words = {
        "struck": _("The row is struck out"),
        "line_across": _(
            "A line runs through the row, but “strike out” is not ticked: struck out?"
        ),
        "empty": _("The row is empty"),
        "special": _("“Other” is ticked: the desk completes this deal"),
        "points_on_special": _("Card points ticked for a game that has none"),
        "after_solo_on_special": _("“after Solo” ticked for a game without card points"),
        "won_disagrees": _("“won” or “lost” does not agree with the card points"),
    }
    if kind == "desk":
        return _("%(contract)s: the desk completes this deal (each player's amount)") % {
            "contract": rules.contracts[detail].names.de if detail in rules.contracts else detail
        }
    if kind == "impossible":
        return _("The engine refuses this row: %(reason)s") % {"reason": detail}
    return words.get(kind, flag)


@dataclass
class ConfirmLine:
    deal: int
    flags: list[str]
    crop_url: str
    fields: dict[str, forms.BoundField]
    amounts: list[forms.BoundField]
    taken: bool
    accepted: bool
    struck: bool
    empty: bool
    scores: list[int] | None
    errors: list[str] = field(default_factory=list)


class ConfirmForm(forms.Form):
    """Per row ``n``: ``counts_n``, ``declarer_n``, ``contract_n``, ``points_n``, ``won_n``,
    ``after_solo_n`` and, for a row the desk completes, ``amount_n_<seat>`` as written."""

    def __init__(
        self, *args, rows: list[dict[str, Any]], rules: RuleSource, seats, taken, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.rows_read = rows
        self.seats = seats
        total = rules.counting.total
        contracts = [("", "—"), *contract_choices(rules, len(seats))]
        seat_choices = [("", "—")] + [
            (p, f"{p + 1} · {s.last_name or s.name}") for p, s in enumerate(seats)
        ]
        for row in rows:
            n = row["deal"]
            values = row["values"]
            counts = row["accepted"] and n not in taken
            self.fields[f"counts_{n}"] = forms.BooleanField(
                label=_("Deal %(number)s counts") % {"number": n}, required=False, initial=counts
            )
            self.fields[f"declarer_{n}"] = forms.TypedChoiceField(
                label=_("Declarer, deal %(number)s") % {"number": n},
                choices=seat_choices,
                coerce=int,
                required=False,
                empty_value=None,
                initial=values["declarer"],
            )
            self.fields[f"contract_{n}"] = forms.ChoiceField(
                label=_("Contract, deal %(number)s") % {"number": n},
                choices=contracts,
                required=False,
                initial=values["contract"] or "",
            )
            self.fields[f"points_{n}"] = forms.IntegerField(
                label=_("Declarer's card points, deal %(number)s") % {"number": n},
                min_value=0,
                max_value=total,
                required=False,
                initial=values["declarer_points"],
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 3}),
            )
            won = values["won"]
            self.fields[f"won_{n}"] = forms.TypedChoiceField(
                label=_("Won or lost, deal %(number)s") % {"number": n},
                choices=[("", "—"), ("1", _("won")), ("0", _("lost"))],
                coerce=lambda v: v == "1",
                required=False,
                empty_value=None,
                initial="" if won is None else ("1" if won else "0"),
            )
            self.fields[f"after_solo_{n}"] = forms.BooleanField(
                label=_("after Solo, deal %(number)s") % {"number": n},
                required=False,
                initial=values["after_solo"],
            )
            for position, seat in enumerate(seats):
                self.fields[f"amount_{n}_{position}"] = AmountField(
                    label=_("%(name)s, deal %(number)s") % {"name": seat.name, "number": n},
                    required=False,
                    widget=forms.TextInput(
                        attrs={"inputmode": "numeric", "size": 4, "autocomplete": "off"}
                    ),
                )
        for form_field in self.fields.values():
            form_field.widget.attrs["aria-label"] = form_field.label

    def confirmed(self) -> list[ConfirmedRow]:
        rows = []
        for row in self.rows_read:
            n = row["deal"]
            data = self.cleaned_data
            if not data.get(f"counts_{n}"):
                continue
            amounts = tuple(data.get(f"amount_{n}_{p}") for p in range(len(self.seats)))
            rows.append(
                ConfirmedRow(
                    number=n,
                    contract=data.get(f"contract_{n}") or "",
                    declarer=data.get(f"declarer_{n}"),
                    declarer_points=data.get(f"points_{n}"),
                    won=data.get(f"won_{n}"),
                    after_solo=bool(data.get(f"after_solo_{n}")),
                    amounts=None if all(a is None for a in amounts) else amounts,
                )
            )
        return rows


def _photo(pk: int, photo_pk: int, *, defer: bool = True) -> SheetPhoto:
    photos = SheetPhoto.objects.select_related("table__round__tournament")
    if defer:
        photos = photos.defer("photo", "straightened")
    return get_object_or_404(photos, pk=photo_pk, tournament_id=pk)


@never_cache
@tournament_permission(REFEREE_TOURNAMENT, post=MANAGE_TOURNAMENT)
def desk_photo_confirm(request: HttpRequest, pk: int, photo_pk: int) -> HttpResponse:
    """The rows read beside their crops; confirming counts the sheet (as a typed sheet)."""
    photo = _photo(pk, photo_pk)
    table = photo.table
    tournament: Tournament = table.round.tournament
    rules = rule_source_of(tournament)
    seats = table_seating(table=table).seats
    taken = set(Deal.objects.filter(table=table).values_list("number", flat=True))
    waiting = photo.state == SheetPhoto.State.READ
    posted = request.method == "POST" and waiting
    form = ConfirmForm(
        request.POST if posted else None, rows=photo.rows, rules=rules, seats=seats, taken=taken
    )
    error = ""
    if request.method == "POST" and not waiting:  # confirmed or discarded in another tab
        error = _("This photo was confirmed or discarded meanwhile; nothing was changed.")
    if posted and request.POST.get("action") == "discard":
        try:
            sheet_photos.discard_sheet_photo(
                photo=photo,
                user=request.user,  # type: ignore[arg-type]
                reason=request.POST.get("reason", ""),
            )
        except ResultError as refusal:
            error = refusal.message
        else:
            messages.info(request, _("The photo was set aside; nothing of it counts."))
            return redirect("tournaments:desk_photos", pk, table.round.number)
    elif posted and form.is_valid():
        try:
            photo = sheet_photos.confirm_sheet_photo(
                photo=photo,
                rows=form.confirmed(),
                user=request.user,  # type: ignore[arg-type]
            )
        except ResultError as refusal:
            error = refusal.message
        else:
            if photo.typing_id is not None:
                messages.success(
                    request,
                    _(
                        "The sheet read from the photo is saved as its first typing. It counts "
                        "once somebody has typed it a second time by hand."
                    ),
                )
            else:
                messages.success(request, _("The sheet read from the photo counts."))
            return redirect("tournaments:desk_entry", pk, table.round.number, table.number)
    elif posted:
        error = _("Some values cannot be read; see the marked rows.")
    lines = []
    for row in photo.rows:
        n = row["deal"]
        row_fields = {
            name: form[f"{name}_{n}"]
            for name in ("counts", "declarer", "contract", "points", "won", "after_solo")
        }
        lines.append(
            ConfirmLine(
                deal=n,
                flags=[flag_words(f, rules) for f in row["flags"]],
                crop_url=reverse("tournaments:desk_photo_crop", args=[pk, photo.pk, n]),
                fields=row_fields,
                amounts=[form[f"amount_{n}_{p}"] for p in range(len(seats))],
                taken=n in taken,
                accepted=row["accepted"],
                struck=row["struck"],
                empty=row["empty"],
                scores=row["scores"],
                errors=[str(e) for f in row_fields.values() for e in f.errors],
            )
        )
    flagged = sum(1 for line in lines if line.flags and not line.empty)
    return render(
        request,
        "tournaments/entry/photo_confirm.html",
        {
            "tournament": tournament,
            "table": table,
            "photo": photo,
            "lines": lines,
            "seats": seats,
            "error": error,
            "flagged": flagged,
            "waiting": waiting,
            "double_entry": tournament.double_entry,
            "can_manage": has_perm(request.user, MANAGE_TOURNAMENT, tournament),
        },
        status=(409 if not waiting else 400) if error else 200,
    )


@functools.lru_cache(maxsize=4)
def _decoded_page(photo_pk: int, sha256: str) -> Any:
    """A photo's page decoded once for the crops the confirm page asks for in a burst (four
    pages, some 9 MB, are kept). Keyed by the file's SHA-256 too: a restored older backup
    may give another photo the same id."""
    from sheetreading.desk_rows import decode_page

    page = SheetPhoto.objects.filter(pk=photo_pk).values_list("straightened", flat=True).first()
    if page is None:
        raise Http404
    return decode_page(bytes(page))


@tournament_permission(REFEREE_TOURNAMENT)
def desk_photo_crop(request: HttpRequest, pk: int, photo_pk: int, deal: int) -> HttpResponse:
    """One row of the straightened page, as a PNG (cut from the stored page)."""
    from sheetreading.desk_rows import crop_png

    photo = get_object_or_404(
        SheetPhoto.objects.only("rows", "sha256"), pk=photo_pk, tournament_id=pk
    )
    row = next((r for r in photo.rows if r["deal"] == deal), None)
    if row is None:
        raise Http404
    page = _decoded_page(photo.pk, photo.sha256)
    response = HttpResponse(crop_png(page, row["crop"]), "image/png")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@tournament_permission(REFEREE_TOURNAMENT)
def desk_photo_image(request: HttpRequest, pk: int, photo_pk: int) -> HttpResponse:
    """The photo as kept."""
    photo = get_object_or_404(
        SheetPhoto.objects.only("photo", "photo_type"), pk=photo_pk, tournament_id=pk
    )
    response = HttpResponse(bytes(photo.photo), photo.photo_type)
    response["Cache-Control"] = "private, max-age=3600"
    return response


# --- the table's phone ------------------------------------------------------------------------


@never_cache
@_bounded
def phone_photo(request: HttpRequest, token: str, refused: str = "") -> HttpResponse:
    """The table's phone photographs its sheet after the round: the player who chose a seat
    at this table (as for entering its deals); the desk then confirms it."""
    table = _phone_table(token)
    sheet = table_seating(table=table)
    position = _my_position(request, table, sheet)
    if position is None:
        messages.info(request, _("Say which seat you are first."))
        return redirect("tournaments:table_entry", token)
    error = refused
    sent = None
    if request.method == "POST" and not refused:
        data, error = _uploaded(request)
        if data is not None and not _is_open(table):
            error = _("This table's round is closed or voided: bring the sheet to the desk.")
        elif data is not None:
            try:
                sent = sheet_photos.upload_sheet_photo(
                    round_=table.round,
                    table=table,
                    data=data,
                    user=None,
                    via=SheetPhoto.Via.PHONE,
                    uploader=_actor(sheet, position),
                )
            except ResultError as refusal:
                error = refusal.message
            else:
                messages.success(
                    request,
                    _("Thank you: the sheet was read. The desk checks and confirms it."),
                )
                return redirect("tournaments:table_entry_photo", token)
    waiting = latest_photo(table=table)
    return render(
        request,
        "tournaments/entry/phone_photo.html",
        {
            "table": table,
            "tournament": table.round.tournament,
            "error": error,
            "latest": sent or waiting,
            "limit_mb": MAX_BYTES // (1024 * 1024),
            "my_name": sheet.seats[position].name,
        },
        status=_status(error),
    )


urlpatterns = [
    path("tournaments/<int:pk>/rounds/<int:round_number>/photos/", desk_photos, name="desk_photos"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/<int:table_number>/photo/",
        desk_table_photo,
        name="desk_table_photo",
    ),
    path(
        "tournaments/<int:pk>/photos/<int:photo_pk>/",
        desk_photo_confirm,
        name="desk_photo_confirm",
    ),
    path(
        "tournaments/<int:pk>/photos/<int:photo_pk>/rows/<int:deal>.png",
        desk_photo_crop,
        name="desk_photo_crop",
    ),
    path(
        "tournaments/<int:pk>/photos/<int:photo_pk>/photo",
        desk_photo_image,
        name="desk_photo_image",
    ),
    path("t/<str:token>/photo/", phone_photo, name="table_entry_photo"),
]
