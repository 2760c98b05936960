"""Publishing a tournament from the venue laptop to the season server.

On the season server: ``PublishToken``, one per club and purpose, stored as a hash only.
On the laptop: ``Publication``, the queue of what is to be sent where (it survives restarts).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.models import Tournament


class PublishToken(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="publish_tokens", verbose_name=_("club")
    )
    label = models.CharField(_("label"), max_length=80, blank=True)
    # SHA-256 of the token: the token itself is shown once and kept nowhere here.
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("publishing token")
        verbose_name_plural = _("publishing tokens")
        ordering = ["club", "-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(token_hash=""), name="publish_token_hash_set"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.label or self.pk}"


class Publication(models.Model):
    """On the laptop: a tournament to be sent to a season server, and how far it got.

    The position is what the server acknowledged last: the tournament's revision, its state
    (the digest of all its archive items) and each item's digest, so that the next batch holds
    only the items whose digest differs (``publishing.laptop.outbox``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="publications",
        verbose_name=_("tournament"),
    )
    url = models.URLField(_("season server"), max_length=300)
    token = models.CharField(_("token"), max_length=100)
    # Sent and acknowledged by the server: the revision, the state digest ("" = the server
    # holds nothing we know of: the next batch is a snapshot) and the digest of each item.
    # The digest of each item: ``PublishedItem`` rows (``publishing.laptop.position``).
    sent_revision = models.PositiveIntegerField(_("revision sent"), null=True, blank=True)
    sent_hash = models.CharField(_("content sent"), max_length=64, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # The revision of its tournament whose items this laptop last digested (its own digests,
    # ``PublishedItem.local``), so that the next batch reads only the tables changed since
    # (``tournaments.models.RevisionScope``), not the whole tournament.
    local_revision = models.PositiveIntegerField(_("revision read"), null=True, blank=True)
    # The items in open conflict the server was last told of (its standings show their
    # tables as provisional): a change of these alone is a batch too.
    conflicts_told = models.JSONField(_("conflicts told"), default=list, blank=True)
    # The server refused this revision for a reason sending again cannot mend (shown to the
    # organiser); tried again once the tournament changes, or when the organiser asks.
    refused_revision = models.PositiveIntegerField(_("revision refused"), null=True, blank=True)
    # What the server said the organiser should know (no season holds the date, a club it
    # does not know), shown on the tournament's page here.
    server_notes = models.JSONField(_("notes from the server"), default=list, blank=True)
    failures = models.PositiveIntegerField(_("failed attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    # A tournament fetched from this server (``publishing.laptop.fetching``): the id of the last
    # registration made there since that this laptop has taken (``HallRegistration``);
    # None: not fetched from there (nothing to ask for).
    registrations_after = models.PositiveIntegerField(
        _("registrations taken"), null=True, blank=True
    )
    # This copy's publishing history, drawn at the first batch and again after a restore
    # (``restore`` clears it): the server lets a batch delete only what it acknowledged to
    # the same epoch.
    epoch = models.UUIDField(_("epoch"), null=True, blank=True)
    # When the server last answered at all (acknowledged, refused or said it holds more).
    last_contact_at = models.DateTimeField(_("last contact"), null=True, blank=True)
    # The last time the laptop took back what only the server held (a restored or second
    # laptop): when, and how many items of each kind, for the publishing page and the start.
    taken_back_at = models.DateTimeField(_("taken back at"), null=True, blank=True)
    taken_back = models.JSONField(_("taken back"), default=dict, blank=True)

    class Meta:
        verbose_name = _("publication")
        verbose_name_plural = _("publications")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "url"], name="publication_once_per_url"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} → {self.url}"


class PublishedItem(models.Model):
    """On the laptop: one item of a publication's position (``publishing.laptop.position``): the
    digest the server acknowledged (``sent``, "" where it holds none) and this laptop's own
    digest at the publication's ``local_revision`` (``local``, "" where it has none). They
    differ only where a batch is on its way or the desk has a conflict to settle. A row per
    item, so that a batch writes only the items it changed, whatever the tournament's size."""

    publication = models.ForeignKey(
        Publication,
        on_delete=models.CASCADE,
        related_name="items",
        verbose_name=_("publication"),
    )
    key = models.CharField(_("key"), max_length=200)
    sent = models.CharField(_("digest acknowledged"), max_length=64, blank=True)
    local = models.CharField(_("digest here"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("published item")
        verbose_name_plural = _("published items")
        constraints = [
            models.UniqueConstraint(fields=["publication", "key"], name="published_item_once"),
            models.CheckConstraint(
                condition=~models.Q(sent="", local=""), name="published_item_somewhere"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.publication_id}: {self.key}"


class AcknowledgedState(models.Model):
    """On the season server: a state of a tournament this server held and said so to a
    laptop, with the laptop copy's publishing history (``epoch``) it was said to.

    The server's own record of what each laptop has seen, so that nothing a laptop declares
    is taken on trust: a batch may delete only items of a state acknowledged to its own
    epoch (``publishing.server.inbox``), and a laptop's merge base is known to the server or not
    (a server restored from an older backup does not know the laptop's newer states).
    ``how``: the state a batch made, or the state a laptop took back before publishing on
    top of it."""

    class How(models.TextChoices):
        APPLIED = "applied", _("applied")
        TAKEN_BACK = "taken_back", _("taken back")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="acknowledged_states",
        verbose_name=_("tournament"),
    )
    state = models.CharField(_("state"), max_length=64)
    epoch = models.UUIDField(_("epoch"), null=True, blank=True)
    how = models.CharField(_("how"), max_length=12, choices=How.choices, default=How.APPLIED)
    laptop_revision = models.PositiveIntegerField(_("laptop's revision"), null=True, blank=True)
    # The items the laptop said wait for the desk's choice between two versions (the
    # server's kept meanwhile): their tables are shown as provisional.
    open_conflicts = models.JSONField(_("open conflicts"), default=list, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("acknowledged state")
        verbose_name_plural = _("acknowledged states")
        indexes = [
            models.Index(fields=["tournament", "state"], name="ack_state_by_state"),
            models.Index(fields=["tournament", "epoch", "state"], name="ack_state_by_epoch"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(state=""), name="ack_state_set"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.state[:12]} ({self.epoch})"


class PublishConflict(models.Model):
    """On the laptop: an item entered differently here and on the season server since the
    last state both knew (a restored or second laptop). Both versions are kept: the laptop's
    in its tables, the server's here; neither is sent over the other until the desk chooses
    (``publishing.laptop.merging.settle``), and the server shows the table as provisional."""

    class Choice(models.TextChoices):
        LAPTOP = "laptop", _("this laptop's version")
        SERVER = "server", _("the season server's version")

    publication = models.ForeignKey(
        Publication,
        on_delete=models.CASCADE,
        related_name="conflicts",
        verbose_name=_("publication"),
    )
    key = models.CharField(_("item"), max_length=200)
    server_digest = models.CharField(_("server's digest"), max_length=64, blank=True)
    server_item = models.JSONField(_("server's version"), null=True, blank=True)
    laptop_digest = models.CharField(_("laptop's digest"), max_length=64, blank=True)
    found_at = models.DateTimeField(_("found at"), auto_now_add=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("settled by"),
    )
    choice = models.CharField(_("choice"), max_length=8, choices=Choice.choices, blank=True)

    class Meta:
        verbose_name = _("publishing conflict")
        verbose_name_plural = _("publishing conflicts")
        ordering = ["publication", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["publication", "key"],
                condition=Q(settled_at__isnull=True),
                name="publish_conflict_open_once",
            ),
            models.CheckConstraint(
                condition=Q(settled_at__isnull=True, choice="")
                | (Q(settled_at__isnull=False) & ~Q(choice="")),
                name="publish_conflict_settled_with_choice",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.publication_id}: {self.key}"
