"""Between the hall's laptop and the season server: the items an archive held, what each
revision touched, the registrations that arrive after the laptop fetched the tournament."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Table
from tournaments.models.tournament import Tournament


class ArchiveItem(models.Model):
    """What this server holds of a tournament that came from elsewhere, item by item
    (``tournaments.archive_format``): the digest of every item as it arrived, so that the
    next archive or batch is compared digest by digest instead of reading the tournament.
    Written only by ``tournaments.services.archive_write``. The tournament and club items
    keep their content too (``data``): a batch without them still finds the host and the
    players' clubs."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="archive_items",
        verbose_name=_("tournament"),
    )
    key = models.CharField(_("key"), max_length=200)
    digest = models.CharField(_("digest"), max_length=64)
    data = models.JSONField(_("content"), null=True, blank=True)

    class Meta:
        verbose_name = _("archive item")
        verbose_name_plural = _("archive items")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="archive_item_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.key}"


class RevisionScope(models.Model):
    """What the change that made a tournament's ``revision`` touched, written by
    ``services.revision.bump_revision`` in the change's own transaction: one row per table
    (the table, its deals and its round's item). A revision without a row may have changed
    anything (the service did not say), so a reader that finds a gap reads the whole
    tournament; a deleted table takes its rows with it, which is such a gap. The laptop's
    outbox reads only what changed since its last batch (``publishing.laptop.outbox``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="revision_scopes",
        verbose_name=_("tournament"),
    )
    revision = models.PositiveIntegerField(_("revision"))
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )

    class Meta:
        verbose_name = _("revision scope")
        verbose_name_plural = _("revision scopes")
        indexes = [models.Index(fields=["tournament", "revision"], name="revision_scope_since")]

    def __str__(self) -> str:
        return f"{self.tournament_id}@{self.revision}: table {self.table_id}"


class HallRegistration(models.Model):
    """On the season server: a player registered for a tournament after a venue laptop
    fetched it (``Tournament.in_hall_since``). Not an entry here: the laptop asks for these
    rows while it is online and no round is drawn, registers the players itself, and they
    come back as entries with its next batch (``delivered_at`` set then). The row's id is
    the stable id the laptop remembers (``Publication.registrations_after``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="hall_registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registered by"),
    )
    delivered_at = models.DateTimeField(_("arrived in the hall"), null=True, blank=True)
    # Taken back on the server (an online sign-up cancelled): the laptop removes the entry
    # while it is only pre-registered (``publishing.laptop.fetching``).
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        verbose_name = _("registration for the hall")
        verbose_name_plural = _("registrations for the hall")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="hall_registration_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.player_id}"
