"""Import pages: upload, preview (nothing written), confirm (one transaction).

The preview carries the file along in the confirm form (base64), so the server keeps no
state between the two steps; on confirm the rows are planned again and then written. The
member list's choices for unknown club names travel the same way (``unknown-<i>-key``,
``-choice``, ``-short``) and are checked again by the service on confirm.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _

from clubs.forms import ImportForm, add_service_errors
from clubs.models import Club
from clubs.permissions import (
    MANAGE_CLUB,
    check,
    is_superuser,
    manageable_clubs,
    organiser_required,
)
from clubs.services import imports as services
from clubs.services.imports import CREATE, MAP, NO_CLUB, ClubChoice, Plan
from clubs.tabular import TabularError, read_table

# The confirm step sends the file back as base64 (4/3 of its size): this keeps that form
# under Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB). A member list of 1,500 rows is ~100 kB.
MAX_UPLOAD_BYTES = 1536 * 1024
MAX_UNKNOWN_CLUBS = 500  # choices read from one confirm form


def _uploaded(request, form: ImportForm) -> tuple[bytes, str] | None:
    """The file of this request: uploaded now, or carried along from the preview."""
    if request.POST.get("content"):
        try:
            return base64.b64decode(request.POST["content"], validate=True), request.POST.get(
                "filename", ""
            )
        except (binascii.Error, ValueError):
            form.add_error(None, _("The file was damaged on the way; upload it again."))
            return None
    upload = request.FILES.get("file")
    if upload is None:
        if "file" not in form.errors:
            form.add_error("file", _("Choose a file."))
        return None
    if upload.size > MAX_UPLOAD_BYTES:
        form.add_error("file", _("The file is larger than 1.5 MB."))
        return None
    return upload.read(), upload.name


def _club(request) -> Club | None:
    pk = request.POST.get("club") or ""
    if not pk.isdigit():
        return None
    club = get_object_or_404(Club, pk=pk)
    check(request.user, MANAGE_CLUB, club)
    return club


def _club_choices(post) -> dict[str, ClubChoice] | None:
    """The choices posted for the unknown club names (None: none posted, the first preview).
    Anything unreadable becomes a choice the service refuses with a message."""
    if "unknown-0-key" not in post:
        return None
    choices = {}
    for index in range(MAX_UNKNOWN_CLUBS):
        key = post.get(f"unknown-{index}-key")
        if key is None:
            break
        value = post.get(f"unknown-{index}-choice", "")
        if value.startswith("club-") and value[5:].isdigit():
            choice = ClubChoice(MAP, club_id=int(value[5:]))
        elif value == CREATE:
            choice = ClubChoice(CREATE, short_name=post.get(f"unknown-{index}-short", ""))
        elif value == NO_CLUB:
            choice = ClubChoice(NO_CLUB)
        else:
            choice = ClubChoice("")
        choices[key] = choice
    return choices


def _club_blocks(plan: Plan | None, user) -> list[dict]:
    """Each unknown club name with its options, the chosen one selected (for the template)."""
    if plan is None or not plan.unknown_clubs:
        return []
    own = list(manageable_clubs(user))
    blocks = []
    for index, unknown in enumerate(plan.unknown_clubs):
        choice = unknown.choice or unknown.default
        options = []
        clubs = own
        if unknown.suggestion_usable:
            clubs = [unknown.suggestion, *(c for c in own if c.pk != unknown.suggestion.pk)]
        for club in clubs:
            label = club.name
            if unknown.suggestion_usable and club.pk == unknown.suggestion.pk:
                label = _("%(club)s (suggested)") % {"club": club.name}
            options.append(
                {
                    "value": f"club-{club.pk}",
                    "label": label,
                    "selected": choice.action == MAP and choice.club_id == club.pk,
                }
            )
        options.append(
            {
                "value": CREATE,
                "label": _("create as new club “%(name)s”") % {"name": unknown.name},
                "selected": choice.action == CREATE,
            }
        )
        options.append(
            {"value": NO_CLUB, "label": _("no club"), "selected": choice.action == NO_CLUB}
        )
        blocks.append(
            {
                "index": index,
                "unknown": unknown,
                "options": options,
                "short_name": choice.short_name if choice.action == CREATE else unknown.short_name,
            }
        )
    return blocks


def created_clubs_note(plan: Plan | None, user) -> str:
    """What the preview says before clubs are created from a list: which, and who will run
    them (an administrator runs every club; an organiser does not run a club she creates:
    it has no organisers until an administrator names them)."""
    if plan is None:
        return ""
    names = [
        f"{u.name} ({u.choice.short_name})"
        for u in plan.unknown_clubs
        if u.choice is not None and u.choice.action == CREATE
    ]
    if not names:
        return ""
    clubs = ", ".join(names)
    if is_superuser(user):
        return _(
            "Created on import: %(clubs)s. You will run them, as an administrator runs every "
            "club (members, fees, tournaments); name their organisers in the administration."
        ) % {"clubs": clubs}
    return _(
        "Created on import: %(clubs)s. You will not run them: a new club has no organisers "
        "until an administrator names them. Until then you cannot change them, their "
        "members or their fees."
    ) % {"clubs": clubs}


def import_page(
    request, *, template: str, context: dict, plan_fn, apply_fn, club_names: bool = False
):
    """``club_names``: the member list's way with clubs (choices for unknown names, the
    importer's clubs only, decided by the service); otherwise every club a row names is
    checked here. Returns None once the import is done (the caller redirects), else the page:
    the form, or the preview of what the file would do."""
    # Bound on every POST, even an empty one (an unbound form cannot take errors).
    posted = request.method == "POST"
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    form.fields["file"].required = not request.POST.get("content")
    plan = data = None
    name = ""
    if posted:
        form.is_valid()  # errors are added to a validated form only (else a server error)
        uploaded = _uploaded(request, form)
        club = _club(request)
        if uploaded is not None:
            data, name = uploaded
            try:
                table = read_table(data, name)
            except TabularError as error:
                form.add_error("file" if "file" in request.FILES else None, str(error))
            else:
                plan, extra = _preview(request, table, club, plan_fn, club_names=club_names)
                if request.POST.get("commit") == "1" and _commit(
                    request, form, apply_fn, table=table, club=club, extra=extra
                ):
                    return None
    return render(
        request,
        template,
        {
            **context,
            "form": form,
            "plan": plan,
            "plan_counts": {status: plan.count(status) for status in services.STATUSES}
            if plan is not None
            else {},
            "content": base64.b64encode(data).decode("ascii") if plan is not None else "",
            "filename": name,
            "club_pk": request.POST.get("club", ""),
            "club_blocks": _club_blocks(plan, request.user) if club_names else [],
            "created_clubs_note": created_clubs_note(plan, request.user) if club_names else "",
        },
    )


def _preview(request, table, club, plan_fn, *, club_names: bool) -> tuple[Any, dict]:
    """What the file would do, and what the apply needs besides (the club choices)."""
    if not club_names:
        plan = plan_fn(table=table, club=club)
        # Rows may name other clubs: the organiser must be allowed to manage each.
        for named in {row.club for row in plan.rows if row.club is not None}:
            check(request.user, MANAGE_CLUB, named)
        return plan, {}
    choices = _club_choices(request.POST)
    plan = plan_fn(table=table, club=club, user=request.user, club_choices=choices)
    if choices is None and plan.unknown_clubs:
        # The first preview: show the rows as the offered choices make them.
        choices = {u.key: u.default for u in plan.unknown_clubs}
        plan = plan_fn(table=table, club=club, user=request.user, club_choices=choices)
    return plan, {"club_choices": choices}


def _commit(request, form, apply_fn, *, table, club, extra: dict) -> bool:
    """Apply the import; True when done (its outcome told), False with the form's errors."""
    try:
        outcome = apply_fn(
            table=table,
            club=club,
            skip_errors=request.POST.get("skip_errors") == "1",
            user=request.user,
            **extra,
        )
    except ValidationError as error:
        add_service_errors(form, error)
        return False
    messages.success(
        request,
        _(
            "Import done: %(created)s new, %(updated)s completed, "
            "%(unchanged)s unchanged, %(skipped)s skipped."
        )
        % outcome.__dict__,
    )
    if getattr(outcome, "clubs_created", 0) or getattr(outcome, "spellings_remembered", 0):
        messages.info(
            request,
            _(
                "Clubs created: %(clubs_created)s. Club spellings "
                "remembered for the next import: %(spellings_remembered)s."
            )
            % outcome.__dict__,
        )
    return True


@organiser_required
def player_import(request):
    check(request.user, MANAGE_CLUB, None)
    response = import_page(
        request,
        template="clubs/import_players.html",
        context={},
        plan_fn=services.plan_players,
        apply_fn=services.apply_players,
        club_names=True,
    )
    return response or redirect("clubs:player_list")


urlpatterns = [
    path("players/import/", player_import, name="player_import"),
]
