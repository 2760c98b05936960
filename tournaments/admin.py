from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Deal,
    DealChange,
    Entry,
    KeepApart,
    LotDraw,
    Round,
    RoundChange,
    Season,
    Seat,
    Substitution,
    Table,
    Tournament,
)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on"]
    search_fields = ["name"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["number", "player", "category", "fee_paid", "checked_in", "withdrawn_after_round"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
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
    autocomplete_fields = ["host_club", "season"]
    readonly_fields = ["rules_snapshot", "created_at"]
    inlines = [EntryInline]

    def get_readonly_fields(self, request, obj=None):
        # The rule source is pinned when the tournament is created.
        if obj is not None:
            return [*self.readonly_fields, "rules_slug"]
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        if not change:
            from rules.registry import rule_source_data

            obj.rules_snapshot = rule_source_data(obj.rules_slug)
        super().save_model(request, obj, form, change)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["number", "player", "tournament", "category", "fee_paid", "checked_in"]
    list_filter = ["tournament", "category", "fee_paid", "checked_in"]
    search_fields = ["player__last_name", "player__first_name", "number"]
    autocomplete_fields = ["player", "tournament"]
    list_select_related = ["player", "tournament"]


@admin.register(KeepApart)
class KeepApartAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]
    list_filter = ["tournament"]
    autocomplete_fields = ["first", "second"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "voided", "void_reason"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "state", "draw_seed", "drawn_at"]
    list_filter = ["state", "tournament"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["entry"]
    fields = ["position", "entry", "round"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["number", "round", "voided"]
    list_filter = ["voided", "round__tournament"]
    search_fields = ["round__tournament__name"]
    readonly_fields = ["token"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "entry"]
    list_filter = ["round__tournament"]
    search_fields = ["entry__player__last_name"]
    autocomplete_fields = ["entry"]
    list_select_related = ["table__round__tournament", "entry__player"]


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    list_display = ["seat", "entry", "from_deal", "reason"]
    autocomplete_fields = ["entry"]


class DealChangeInline(admin.TabularInline):
    model = DealChange
    extra = 0
    can_delete = False
    fields = ["changed_at", "action", "changed_by", "actor", "reason", "before", "after"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
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
    # Deals change only through the result-entry service, which scores them and keeps history.
    readonly_fields = [f.name for f in Deal._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HistoryAdmin(admin.ModelAdmin):
    """History is written by the services only: the admin reads it."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DealChange)
class DealChangeAdmin(HistoryAdmin):
    list_display = ["deal", "action", "changed_at", "changed_by", "actor", "reason"]
    list_filter = ["action"]
    search_fields = ["reason", "actor"]
    date_hierarchy = "changed_at"


@admin.register(RoundChange)
class RoundChangeAdmin(HistoryAdmin):
    list_display = ["round", "table", "action", "changed_at", "changed_by", "reason"]
    list_filter = ["action"]
    search_fields = ["reason"]


@admin.register(LotDraw)
class LotDrawAdmin(admin.ModelAdmin):
    list_display = ["tournament", "purpose", "seed", "performed_at", "performed_by"]
    list_filter = ["purpose"]
    readonly_fields = ["tournament", "purpose", "seed", "order", "performed_at", "performed_by"]

    def has_add_permission(self, request):
        return False


admin.site.site_header = _("Cego Club administration")
admin.site.site_title = _("Cego Club")
admin.site.index_title = _("Clubs, players and tournaments")
