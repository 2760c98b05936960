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
    only the items whose digest differs (``publishing.outbox``)."""

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
    sent_revision = models.PositiveIntegerField(_("revision sent"), null=True, blank=True)
    sent_hash = models.CharField(_("content sent"), max_length=64, blank=True)
    sent_digests = models.JSONField(_("items sent"), default=dict, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # The server refused this revision for a reason sending again cannot mend (shown to the
    # organiser); tried again once the tournament changes, or when the organiser asks.
    refused_revision = models.PositiveIntegerField(_("revision refused"), null=True, blank=True)
    # What the server said the organiser should know (no season holds the date, a club it
    # does not know), shown on the tournament's page here.
    server_notes = models.JSONField(_("notes from the server"), default=list, blank=True)
    failures = models.PositiveIntegerField(_("failed attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    # A tournament fetched from this server (``publishing.fetching``): the id of the last
    # registration made there since that this laptop has taken (``HallRegistration``);
    # None: not fetched from there (nothing to ask for).
    registrations_after = models.PositiveIntegerField(
        _("registrations taken"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("publication")
        verbose_name_plural = _("publications")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "url"], name="publication_once_per_url"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} → {self.url}"
