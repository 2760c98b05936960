"""The tournament: its settings, its rule source and its revision."""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.signals import revision_committed


class Tournament(models.Model):
    is_tournament = True  # how clubs.permissions tells a tournament (it imports no model here)

    class EntryMode(models.TextChoices):
        DEALS = "deals", _("every deal")
        TOTALS = "totals", _("round totals only")

    class TieBreak(models.TextChoices):
        # What decides between equal totals, before the final draw by lot.
        BEST_ROUND = "best_round", _("best single round, then draw by lot")
        MOST_WON = "most_won", _("most deals won as declarer, then draw by lot")
        LOT = "lot", _("draw by lot only")

    name = models.CharField(_("name"), max_length=160)
    season = models.ForeignKey(
        "seasons.Season",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("season"),
    )
    host_club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("host club")
    )
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    # The rule source is copied in when the tournament is created: editing a club's
    # house rules later never changes results already played under it.
    rules_slug = models.CharField(_("rule source"), max_length=60)
    rules_snapshot = models.JSONField(_("rule source snapshot"), editable=False)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=2, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals per round"), default=24, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    preferred_table_size = models.PositiveSmallIntegerField(
        _("preferred table size"),
        default=4,
        validators=[MinValueValidator(3), MaxValueValidator(5)],
    )
    tables_of_3 = models.BooleanField(_("tables of 3 allowed"), default=False)
    tables_of_4 = models.BooleanField(_("tables of 4 allowed"), default=True)
    tables_of_5 = models.BooleanField(_("tables of 5 allowed"), default=False)
    # A rule source played at four only (swm) may still seat five by the tournament's
    # agreement: the dealer sits out and pays or receives like a defender. While it is on, the
    # pinned snapshot carries that table rule (tournaments.seating.with_five_table_agreement).
    five_table_agreement = models.BooleanField(
        _("tournament agreement: tables of five"),
        default=False,
        help_text=_(
            "Tables of five although the rule source plays at four: the dealer sits out and "
            "pays or receives like the defenders."
        ),
    )
    entry_mode = models.CharField(
        _("result entry"), max_length=10, choices=EntryMode.choices, default=EntryMode.DEALS
    )
    tie_break = models.CharField(
        _("tie-break"), max_length=20, choices=TieBreak.choices, default=TieBreak.BEST_ROUND
    )
    entry_fee_cents = models.PositiveIntegerField(_("entry fee (cents)"), default=800)
    # Dreierles, by agreement (REFERENCE 4.5): the last round's Räuber is worth 4 instead of 2
    last_round_raeuber = models.BooleanField(
        _("last round's Räuber at the higher amount"),
        default=False,
        help_text=_("Dreierles, by agreement: a Räuber in the last round is worth 4 instead of 2."),
    )
    youth_entry_free = models.BooleanField(_("youth play free"), default=True)
    # The entry-fee pot shared out by place: [3000, 2000, 1000] = 30 € for 1st, 20 € for 2nd …
    prize_shares_cents = models.JSONField(
        _("prize money per place (cents)"), default=list, blank=True
    )
    keep_teams_apart = models.BooleanField(
        _("keep teammates apart in the draw"),
        default=True,
        help_text=_("The seat draw avoids putting two players of one team at one table."),
    )
    # A new round's draw stays with the organisers (draw page, printouts) until one of them
    # releases it (Round.awaiting_release); only then do phones, the players' pages and the
    # projector show its seats. On for tournaments created since; the migration left it off
    # for those that existed (their days went on as before).
    review_draws = models.BooleanField(
        _("check each draw before the players see it"),
        default=True,
        help_text=_(
            "A new round's seats are shown on phones and public pages only once an organiser "
            "or referee has pressed “Release draw”."
        ),
    )
    # A paper sheet typed at the desk counts only once a second typing agrees with the first
    # (SheetTyping; tournaments.services.double_entry). Off: one typing counts, as before.
    double_entry = models.BooleanField(
        _("type paper sheets twice"),
        default=False,
        help_text=_(
            "A paper sheet typed at the desk counts only once a second person has typed it "
            "again without seeing the first typing; differences are settled cell by cell."
        ),
    )
    # A ruling (Ruling) counts once a second, different referee or organiser has confirmed it
    # (the association's rule: both referees decide a disputed game). Off: one signs it.
    two_referee_rulings = models.BooleanField(
        _("rulings by two referees"),
        default=False,
        help_text=_(
            "A ruling counts only once a second referee (or organiser) has confirmed it; "
            "until then it is pending."
        ),
    )
    # Identifies the tournament across servers: importing its archive twice gives one copy.
    archive_id = models.UUIDField(_("archive id"), default=uuid.uuid4, unique=True, editable=False)
    # Imported from an archive: the revision and content hash it had on the server it came
    # from (a newer revision replaces this copy; an older one is refused).
    archive_revision = models.PositiveIntegerField(
        _("archive revision"), null=True, blank=True, editable=False
    )
    archive_hash = models.CharField(_("archive hash"), max_length=64, blank=True, editable=False)
    # On the season server: the tables ("r2-t5") where the hall's laptop holds another
    # version of a deal than this server (a restored or second laptop) until its desk
    # chooses; the standings say they are provisional (``publishing.server.inbox``).
    provisional_tables = models.JSONField(
        _("provisional tables"), default=list, blank=True, editable=False
    )
    # On the season server: set up here, then fetched by a venue laptop (``fetch_tournament``),
    # which writes it from then on; the day's content is read-only here
    # (``clubs.permissions.held_in_hall``). When, and by which token.
    in_hall_since = models.DateTimeField(_("in the hall since"), null=True, blank=True)
    in_hall_by = models.CharField(_("fetched by"), max_length=120, blank=True)
    # Referees may correct, annul and void results and draw lots in this tournament only.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tournaments",
        verbose_name=_("referees"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The "finished" step after the last round: final standings and prizes, and a lock.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("finished by"),
    )
    # Counts every change that a public page or printout shows (tournaments.services.revision):
    # cached standings and PDFs are keyed on it.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)
    # Its other series (seasons.SeriesMembership) were chosen once: an archive then names them
    # even when none is left ("series": []), so that removing the last one travels to the
    # season server; a tournament never in one keeps the archive it had (issue 41).
    series_chosen = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["host_club", "date", "name"], name="tournament_unique_per_day"
            ),
            models.CheckConstraint(condition=Q(rounds__range=(1, 20)), name="tournament_rounds"),
            models.CheckConstraint(
                condition=Q(deals_per_round__range=(1, 99)), name="tournament_deals_per_round"
            ),
            models.CheckConstraint(
                condition=Q(preferred_table_size__range=(3, 5)),
                name="tournament_preferred_table_size",
            ),
            models.CheckConstraint(
                condition=(
                    Q(preferred_table_size=3, tables_of_3=True)
                    | Q(preferred_table_size=4, tables_of_4=True)
                    | Q(preferred_table_size=5, tables_of_5=True)
                ),
                name="tournament_preferred_size_allowed",
            ),
            models.CheckConstraint(
                condition=Q(entry_mode__in=["deals", "totals"]), name="tournament_entry_mode"
            ),
            models.CheckConstraint(condition=~Q(rules_slug=""), name="tournament_rules_set"),
            models.CheckConstraint(
                condition=Q(five_table_agreement=False) | Q(tables_of_5=True),
                name="tournament_five_table_agreement_allows_five",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def save(self, *args, **kwargs) -> None:
        # Saving a stored tournament (a service, the admin) is a new revision; writing back
        # the number read earlier could hand an old cache key to new content.
        if self._state.adding:
            super().save(*args, **kwargs)
            return
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:  # e.g. the prize money, the finished step
            kwargs["update_fields"] = {*update_fields, "revision"}
        self.revision = models.F("revision") + 1
        super().save(*args, **kwargs)
        self.refresh_from_db(fields=["revision"])
        pk = self.pk
        transaction.on_commit(lambda: revision_committed.send(sender=Tournament, tournament_id=pk))

    @property
    def provisional_table_numbers(self) -> list[tuple[int, int]]:
        """The provisional tables as (round, table) numbers, for the standings' note."""
        numbers = []
        for label in self.provisional_tables or []:
            round_part, _sep, table_part = str(label).partition("-t")
            if round_part[1:].isdigit() and table_part.isdigit():
                numbers.append((int(round_part[1:]), int(table_part)))
        return numbers

    @property
    def allowed_table_sizes(self) -> frozenset[int]:
        flags = {3: self.tables_of_3, 4: self.tables_of_4, 5: self.tables_of_5}
        return frozenset(size for size, allowed in flags.items() if allowed)
