from functools import wraps

from django.contrib import admin
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Ruling,
    Seat,
    SeatSwap,
    Substitution,
    Table,
    Tournament,
    TournamentChange,
)
from tournaments.services.setup import set_referees


class ReadOnlyAdmin(admin.ModelAdmin):
    """Tournament-day objects change only through the services, which check the rules and
    write the log: the admin shows them and changes nothing (a seat with 20 recorded deals
    moved to another tournament's player was the reason)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ["number", "player", "category", "fee_paid", "checked_in", "withdrawn_after_round"]
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Shown read-only except its referees (named through the service, which logs it).
    Tournaments are created and edited on the app's own pages."""

    list_display = [
        "name",
        "date",
        "host_club",
        "season",
        "rules_slug",
        "rounds",
        "deals_per_round",
    ]
    list_filter = ["season", "host_club", "rules_slug", "entry_mode"]
    search_fields = ["name", "venue", "host_club__name"]
    date_hierarchy = "date"
    filter_horizontal = ["referees"]
    inlines = [EntryInline]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Tournament._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        pass  # nothing but the referees can change here; they are saved in save_related

    def save_related(self, request, form, formsets, change):
        for formset in formsets:  # read-only inlines: nothing to save, but the admin's log
            self.save_formset(request, form, formset, change=change)  # reads their results
        set_referees(
            tournament=form.instance, referees=form.cleaned_data["referees"], user=request.user
        )


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["number", "player", "tournament", "category", "fee_paid", "checked_in"]
    list_filter = ["tournament", "category", "fee_paid", "checked_in"]
    search_fields = ["player__last_name", "player__first_name", "number"]
    list_select_related = ["player", "tournament"]


@admin.register(KeepApart)
class KeepApartAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "first", "second", "reason"]
    list_filter = ["tournament"]


@admin.register(SeatSwap)
class SeatSwapAdmin(ReadOnlyAdmin):
    """Swaps of drawn seats: asked for, approved, refused or withdrawn only on the app's page
    "Platztausch" (``tournaments.services.fairness``)."""

    list_display = ["tournament", "round", "first", "second", "state", "requested_name"]
    list_filter = ["tournament", "state"]
    list_select_related = ["tournament", "round", "first__player", "second__player"]


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    """Referees' rulings, written and confirmed only on the referee's page."""

    list_display = ["tournament", "round_number", "table_number", "deal_number", "decision"]
    list_filter = ["tournament", "conduct"]


class TableInline(ReadOnlyInline):
    model = Table
    fields = ["number", "voided", "void_reason"]
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "state", "draw_seed", "drawn_at"]
    list_filter = ["state", "tournament"]
    inlines = [TableInline]


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["position", "entry", "round"]
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["number", "round", "voided"]
    list_filter = ["voided", "round__tournament"]
    search_fields = ["round__tournament__name"]
    # The token is the table's key: not shown here (the desk page re-issues it).
    exclude = ["token"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "position", "entry"]
    list_filter = ["round__tournament"]
    search_fields = ["entry__player__last_name"]
    list_select_related = ["table__round__tournament", "entry__player"]


@admin.register(Substitution)
class SubstitutionAdmin(ReadOnlyAdmin):
    list_display = ["seat", "entry", "from_deal", "reason"]


class DealChangeInline(ReadOnlyInline):
    model = DealChange
    show_change_link = False
    fields = [
        "changed_at",
        "action",
        "changed_by",
        "actor",
        "device",
        "ip_address",
        "reason",
        "before",
        "after",
    ]
    readonly_fields = fields


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "number",
        "contract",
        "declarer_position",
        "declarer_points",
        "status",
        "score_0",
        "score_1",
        "score_2",
        "score_3",
        "score_4",
    ]
    list_filter = ["status", "kind", "contract", "table__round__tournament"]
    search_fields = ["table__round__tournament__name", "contract"]
    list_select_related = ["table__round__tournament"]
    inlines = [DealChangeInline]


class HistoryAdmin(ReadOnlyAdmin):
    """History is written by the services only: the admin reads it."""


@admin.register(DealChange)
class DealChangeAdmin(HistoryAdmin):
    list_display = ["deal", "action", "changed_at", "changed_by", "actor", "device", "reason"]
    list_filter = ["action"]
    search_fields = ["reason", "actor", "device"]
    date_hierarchy = "changed_at"


@admin.register(RoundChange)
class RoundChangeAdmin(HistoryAdmin):
    list_display = ["round", "table", "action", "changed_at", "changed_by", "reason"]
    list_filter = ["action"]
    search_fields = ["reason"]


@admin.register(TournamentChange)
class TournamentChangeAdmin(HistoryAdmin):
    list_display = ["tournament", "action", "subject", "changed_at", "changed_by", "reason"]
    list_filter = ["action", "tournament"]
    search_fields = ["subject", "reason"]
    date_hierarchy = "changed_at"


@admin.register(LotDraw)
class LotDrawAdmin(HistoryAdmin):
    list_display = ["tournament", "purpose", "seed", "performed_at", "performed_by"]
    list_filter = ["purpose"]


def _superusers_only(request) -> bool:
    # The admin is for superusers; organisers and referees work on the app's own pages.
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _superusers_only
_admin_view = admin.site.admin_view


def _signed_in_users_are_told(view, cacheable=False):
    """Django's admin sends whoever may not enter it to its login page; the app's login sends
    a signed-in user back to ``next``, the admin: an endless loop for a signed-in organiser.
    Signed in without being a superuser, the admin answers 403 with the reason instead."""
    guarded = _admin_view(view, cacheable)

    @wraps(view)
    def inner(request, *args, **kwargs):
        user = request.user
        if user.is_authenticated and not _superusers_only(request):
            return render(
                request,
                "403.html",
                {
                    "reason": gettext(
                        "The administration is for administrators (superusers) only. "
                        "Organisers and referees work on the app's own pages."
                    )
                },
                status=403,
            )
        return guarded(request, *args, **kwargs)

    return inner


admin.site.admin_view = _signed_in_users_are_told
admin.site.site_header = _("Cego Club administration")
admin.site.site_title = _("Cego Club")
admin.site.index_title = _("Clubs, players and tournaments")
