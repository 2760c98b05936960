"""Clubs, the player registry and memberships: the club's own business.

The tables kept the names they had when these models lived in ``tournaments``
(``tournaments_club`` …): the move was a change of Django's state only.
"""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.search import club_key, name_sort_key, player_key


class Category(models.TextChoices):
    OPEN = "open", _("open")
    WOMAN = "woman", _("woman")
    YOUTH = "youth", _("youth")
    SENIOR = "senior", _("senior")


def category_label(code: str) -> str:
    """The category's name in the page's language; an unknown code as it is."""
    try:
        return str(Category(code).label)
    except ValueError:
        return code


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=20, unique=True)
    town = models.CharField(_("town"), max_length=80)
    # The club's identity across servers (the season server, the laptops in the halls).
    uuid = models.UUIDField(_("registry id"), default=uuid.uuid4, unique=True, editable=False)
    # Whether the public sees the player pages of this club's members (clubs.permissions).
    # db_default too: rows written without the column (older code, raw SQL) read as "off".
    public_player_pages = models.BooleanField(
        _("public player pages"),
        default=False,
        db_default=False,
        help_text=_("Anyone may see the results pages of this club's players."),
    )

    class Meta:
        db_table = "tournaments_club"
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=~Q(short_name=""), name="club_short_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubAlias(models.Model):
    """Another spelling of a club's name, as a member list wrote it ("Cego-Club Bräunlingen"
    for "Cegofreunde Bräunlingen"): remembered when an import maps it, found by its key."""

    alias = models.CharField(_("spelling"), max_length=120)
    key = models.CharField(_("key"), max_length=120, unique=True, editable=False)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="aliases", verbose_name=_("club")
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        verbose_name = _("other spelling of a club")
        verbose_name_plural = _("other spellings of clubs")
        ordering = ["club", "alias"]
        constraints = [
            models.CheckConstraint(condition=~Q(key=""), name="club_alias_key_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.alias} → {self.club}"

    def save(self, *args, **kwargs):
        self.key = club_key(self.alias)
        super().save(*args, **kwargs)


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        # bulk_create skips save(): set the search key here too.
        objs = list(objs)
        for player in objs:
            player.search_key = player_key(player.first_name, player.last_name)
            player.sort_key = name_sort_key(player.first_name, player.last_name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=60)
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    category = models.CharField(
        _("category"),
        max_length=10,
        choices=Category.choices,
        default=Category.OPEN,
        help_text=_("For side rankings such as best woman or best youth."),
    )
    # The player's consent to be named as the youngest or the oldest player of a tournament
    # (the ceremony's side prize, the press report): given once for every tournament, changed
    # at any time in the player's record, off until the player says yes. Without a birth year
    # it has nothing to name (``clubs.ages.youngest_and_oldest``).
    named_for_age = models.BooleanField(
        _("may be named as youngest or oldest"),
        default=False,
        help_text=_(
            "Only with the player's consent: the prize ceremony and the press report may then "
            "name them as the youngest or oldest player of a tournament (from the birth year; "
            "the year itself is never shown). Off unless the player has agreed; it can be "
            "withdrawn at any time."
        ),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    # The player's identity across servers: a laptop that fetched the season's registry keeps
    # it, and an archive's players are matched by it first.
    uuid = models.UUIDField(_("registry id"), default=uuid.uuid4, unique=True, editable=False)
    clubs = models.ManyToManyField(
        Club, through="Membership", related_name="players", verbose_name=_("clubs")
    )
    # A guest without a membership (signed up online naming a club): the club they named,
    # shown beside the name where no membership says it (``tournaments.selectors.standings.
    # home_clubs``); a club of this registry, or the name as typed until the association
    # maps it to one (``clubs.services.players.place_named_guests``). Never a membership:
    # only the club's organisers give those.
    guest_club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="guests",
        verbose_name=_("plays for (without membership)"),
    )
    guest_club_name = models.CharField(
        _("club as named (not on this server)"), max_length=120, blank=True
    )
    # "Müller" and "Mueller" share the key " mueller hans ": searched with LIKE on every database.
    search_key = models.CharField(
        _("search key"), max_length=130, editable=False, db_index=True, default=""
    )

    # German alphabetical order (clubs.search.name_sort_key): "hattich0anna" before "hummel0…"
    sort_key = models.CharField(
        _("sort key"), max_length=250, editable=False, db_index=True, default=""
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        db_table = "tournaments_player"
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["sort_key", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(last_name=""), name="player_last_name_not_empty"),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__range=(1900, 2100)),
                name="player_birth_year_plausible",
            ),
            models.CheckConstraint(
                condition=Q(category__in=Category.values), name="player_category_valid"
            ),
            models.CheckConstraint(
                condition=Q(guest_club__isnull=True) | Q(guest_club_name=""),
                name="player_one_guest_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.last_name}, {self.first_name}"

    def save(self, *args, **kwargs):
        self.search_key = player_key(self.first_name, self.last_name)
        self.sort_key = name_sort_key(self.first_name, self.last_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"first_name", "last_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_key", "sort_key"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Membership(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        PASSIVE = "passive", _("passive")

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    member_number = models.CharField(_("member number"), max_length=20, blank=True)
    since = models.DateField(_("member since"), null=True, blank=True)
    left_on = models.DateField(_("left on"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )

    class Meta:
        db_table = "tournaments_membership"
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="membership_once_per_club"),
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~Q(member_number=""),
                name="membership_number_unique_in_club",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "passive"]), name="membership_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(left_on__isnull=True)
                | Q(since__isnull=True)
                | Q(left_on__gte=models.F("since")),
                name="membership_left_after_joined",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.club.short_name})"


class AnnualFee(models.Model):
    """A member's fee for one season: what is due, and when and how it was paid.

    The row also says whether the member was active or passive in that season (passive
    members usually pay less), so the treasurer's list is one row per member and season.
    """

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        TRANSFER = "transfer", _("bank transfer")

    membership = models.ForeignKey(
        Membership, on_delete=models.CASCADE, related_name="fees", verbose_name=_("membership")
    )
    season = models.ForeignKey(
        "seasons.Season",
        on_delete=models.PROTECT,
        related_name="annual_fees",
        verbose_name=_("season"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Membership.Status.choices, default="active"
    )
    amount_cents = models.PositiveIntegerField(_("amount (cents)"))
    due_on = models.DateField(_("due on"))
    paid_on = models.DateField(_("paid on"), null=True, blank=True)
    method = models.CharField(
        _("paid by"), max_length=10, choices=Method.choices, blank=True, default=""
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    class Meta:
        verbose_name = _("annual fee")
        verbose_name_plural = _("annual fees")
        ordering = ["season", "membership"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership", "season"], name="annual_fee_once_per_season"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "passive"]), name="annual_fee_status_valid"
            ),
            # Paid means: a date and a way; unpaid: neither.
            models.CheckConstraint(
                condition=Q(paid_on__isnull=True, method="")
                | Q(paid_on__isnull=False, method__in=["cash", "transfer"]),
                name="annual_fee_payment_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership} {self.season}"

    @property
    def paid(self) -> bool:
        return self.paid_on is not None


class PlayerMerge(models.Model):
    """Log of a merge: the removed record's data as it was, and where its entries went."""

    kept = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="merges", verbose_name=_("kept player")
    )
    removed_name = models.CharField(_("removed record"), max_length=130)
    removed_data = models.JSONField(_("removed record's data"))
    entries_moved = models.PositiveIntegerField(_("entries moved"))
    memberships_moved = models.PositiveIntegerField(_("memberships moved"))
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged by"),
    )

    class Meta:
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        ordering = ["-merged_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.removed_name} → {self.kept}"


class ClubRole(models.Model):
    """A user's role in a club: today only organiser (runs the club's tournaments, seasons,
    players and fees). Given by a superuser in the Django admin."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="roles", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    class Meta:
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="club_role_once"),
            models.CheckConstraint(condition=Q(role__in=["organiser"]), name="club_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.club.short_name})"


class AssociationRole(models.Model):
    """A user's role for the association that runs this season server, whatever club they
    belong to: today only the season scorer (``Sportwart``), who records and decides appeals
    against results, confirms results early and keeps the register of sanctions
    (``clubs.permissions.is_season_scorer``). Given by a superuser in the Django admin."""

    class Role(models.TextChoices):
        SEASON_SCORER = "season_scorer", _("season scorer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="association_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(
        _("role"), max_length=20, choices=Role.choices, default=Role.SEASON_SCORER
    )

    class Meta:
        verbose_name = _("association role")
        verbose_name_plural = _("association roles")
        ordering = ["user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "role"], name="association_role_once"),
            models.CheckConstraint(
                condition=Q(role__in=["season_scorer"]), name="association_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class Sanction(models.Model):
    """A ban from the association's tournaments, in the register the season scorer keeps on
    the season server: the player, from when, until a date or for a number of championship
    tournaments (those of the seasons on the server dated from the start on,
    ``tournaments.selectors.sanctions``), why and who decided; lifted early with a reason.

    The reason is the association's (``clubs.permissions.KEEP_SANCTIONS``): no public page
    lists sanctions, online sign-up refuses a banned player without saying why, and a venue
    laptop gets the terms only (player, from, until or for N) with the registry; its copies
    are marked ``from_registry`` and replaced at each fetch."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="sanctions", verbose_name=_("player")
    )
    reason = models.TextField(_("reason"), max_length=2000, blank=True)
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until (and including)"), null=True, blank=True)
    tournaments = models.PositiveSmallIntegerField(
        _("for this many tournaments"), null=True, blank=True
    )
    decided_by = models.CharField(_("decided by"), max_length=160, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("lifted by"),
    )
    lift_reason = models.CharField(_("why lifted"), max_length=300, blank=True)
    # On a venue laptop: a copy of the season server's (terms only), replaced at each fetch.
    from_registry = models.BooleanField(_("from the season server"), default=False)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=False) | Q(tournaments__isnull=False),
                name="sanction_has_an_end",
            ),
            # recorded here: until a date or for N tournaments, with reason and decider (a
            # laptop's copy may carry both: N with the last day the server knew)
            models.CheckConstraint(
                condition=Q(from_registry=True)
                | (
                    (Q(ends_on__isnull=True) | Q(tournaments__isnull=True))
                    & ~Q(reason="")
                    & ~Q(decided_by="")
                ),
                name="sanction_recorded_in_full",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="sanction_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(tournaments__isnull=True) | Q(tournaments__gte=1),
                name="sanction_tournaments_positive",
            ),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True, lift_reason="")
                | (Q(lifted_at__isnull=False) & ~Q(lift_reason="")),
                name="sanction_lifted_with_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.starts_on})"


class FirstRun(models.Model):
    """The first run of a new installation: one row (pk 1).

    While no account exists, ``code`` is the one-time code the server prints in its terminal
    (someone on the hall's Wi-Fi must type it on ``/setup/``; the laptop itself needs none),
    and ``wrong_codes`` counts the wrong tries (the code is void after
    ``clubs.services.setup.MAX_WRONG_CODES``). The row is also the lock that lets only one
    of two browsers claim the installation. Once claimed it records who set the app up,
    when, and how (``via``: on the laptop, with the code, or on the command line)."""

    class Via(models.TextChoices):
        LAPTOP = "laptop", _("in the browser on the laptop itself")
        CODE = "code", _("in the browser with the one-time code")
        COMMAND = "command", _("on the command line")

    code = models.CharField(_("one-time code"), max_length=16, blank=True)
    code_issued_at = models.DateTimeField(_("code issued at"), null=True, blank=True)
    wrong_codes = models.PositiveIntegerField(_("wrong codes typed"), default=0)
    claimed_at = models.DateTimeField(_("set up at"), null=True, blank=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("set up by"),
    )
    via = models.CharField(_("set up"), max_length=20, choices=Via.choices, blank=True)
    claimed_from = models.CharField(_("from address"), max_length=45, blank=True)

    class Meta:
        verbose_name = _("first run")
        verbose_name_plural = _("first run")

    def __str__(self) -> str:
        return f"{self.claimed_by or '–'} {self.claimed_at or ''}".strip()
