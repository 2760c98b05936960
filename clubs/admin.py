from django.contrib import admin

from clubs.models import (
    AssociationRole,
    Club,
    ClubAlias,
    ClubRole,
    FirstRun,
    Membership,
    Player,
)
from clubs.services.players import place_named_guests


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["club"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "short_name", "town"]
    search_fields = ["name", "short_name", "town"]


@admin.register(ClubAlias)
class ClubAliasAdmin(admin.ModelAdmin):
    """Spellings remembered by imports; a wrong one is deleted here (by a superuser)."""

    list_display = ["alias", "club", "added_by", "added_at"]
    list_filter = ["club"]
    search_fields = ["alias", "club__name"]
    autocomplete_fields = ["club"]
    readonly_fields = ["added_by", "added_at"]

    def save_model(self, request, obj, form, change):
        """A spelling mapped here by the association: the guests who typed it when signing
        up are shown with its club from now on (``place_named_guests``)."""
        if not change:
            obj.added_by = request.user
        super().save_model(request, obj, form, change)
        place_named_guests(club=obj.club, keys=[obj.key])


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "birth_year", "category", "email", "guest_club_name"]
    list_filter = ["category", "memberships__club", "guest_club"]
    search_fields = ["last_name", "first_name", "email", "guest_club_name"]
    autocomplete_fields = ["guest_club"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "member_number", "since", "status"]
    list_filter = ["club", "status"]
    search_fields = ["player__last_name", "player__first_name", "member_number"]
    autocomplete_fields = ["player", "club"]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    """Who organises which club: given here by a superuser (see docs/architecture/security.md)."""

    list_display = ["user", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["club"]
    raw_id_fields = ["user"]


@admin.register(AssociationRole)
class AssociationRoleAdmin(admin.ModelAdmin):
    """Who is the association's season scorer (appeals, early confirmations, sanctions):
    given here by a superuser (see docs/architecture/security.md)."""

    list_display = ["user", "role"]
    list_filter = ["role"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(FirstRun)
class FirstRunAdmin(admin.ModelAdmin):
    """Who set the installation up, when and how: shown, never edited (the one-time code
    is not shown at all)."""

    list_display = ["claimed_at", "claimed_by", "via", "claimed_from"]
    fields = ["claimed_at", "claimed_by", "via", "claimed_from", "wrong_codes"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
