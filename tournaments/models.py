"""Tournaments and every deal played in them (the season: ``seasons.models``).

Invariants that the database can express live in constraints here; the ones it cannot
(a table has 3 to 5 seats, a deal's seat indices exist at its table) are kept by the
service layer in ``tournaments.services``.
"""

import secrets
import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, Length, Upper
from django.db.models.lookups import Exact
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club, Player
from tournaments.signals import revision_committed

MAX_SEATS = 5
# No deal and no round total comes anywhere near this; beyond it a number is a typing error
# (and a database integer overflow, a server error, further on).
SCORE_LIMIT = 1_000_000
SCORE_FIELDS = tuple(f"score_{i}" for i in range(MAX_SEATS))
# A call for the referee's reason and an announcement: short, as read across the hall.
CALL_REASON_LENGTH = 120
ANNOUNCEMENT_LENGTH = 200


def new_table_token() -> str:
    return secrets.token_urlsafe(18)


# A table's short code, typed by a player whose phone cannot scan the QR code: no 0/O, 1/I/L,
# read case-insensitively. 31**6, about 900 million codes; the token stays the real key.
SHORT_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
SHORT_CODE_LENGTH = 6


def random_short_code() -> str:
    return "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))


def new_short_codes(count: int) -> list[str]:
    """``count`` short codes no table has yet (one query per round of drawing)."""
    codes: set[str] = set()
    while len(codes) < count:
        fresh = {random_short_code() for _ in range(count - len(codes))} - codes
        taken = set(Table.objects.filter(short_code__in=fresh).values_list("short_code", flat=True))
        codes |= fresh - taken
    return sorted(codes)


def new_short_code() -> str:
    return new_short_codes(1)[0]


def normalise_short_code(text: str) -> str:
    """What a player typed, as stored (codes are read case-insensitively)."""
    return text.strip().upper()


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
    # chooses; the standings say they are provisional (``publishing.inbox``).
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


class Team(models.Model):
    """Up to four entries of one tournament who are ranked together (the sum of their totals).

    Across a season, teams of the same name are the same team.
    """

    SIZE = 4

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(_("team name"), max_length=80)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="teams",
        verbose_name=_("club"),
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered for a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    number = models.PositiveIntegerField(_("start number"))
    category = models.CharField(
        _("category"), max_length=10, choices=Category.choices, default=Category.OPEN
    )
    fee_paid = models.BooleanField(_("entry fee paid"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"),
        null=True,
        blank=True,
        help_text=_("Empty while the player is in the tournament; 0 = withdrawn before round 1."),
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # A tournament played on paper and imported as one total per player (totals-only mode).
    paper_total = models.IntegerField(_("total from the paper list"), null=True, blank=True)
    # A member of the host club who made the count fit at the draw (Ersatzspieler): seated and
    # scored like anyone, plays free, listed after the ranked players without a place.
    fill_in = models.BooleanField(_("fill-in"), default=False)
    # "bleibt am Tisch": a player who cannot move easily keeps one table all day; the draw
    # seats them at the table they sat at in the latest earlier round (tournaments.draw).
    stays_at_table = models.BooleanField(
        _("stays at the table"),
        default=False,
        help_text=_("The player keeps the same table number in every round."),
    )
    # The service (tournaments.services.teams) keeps a team to its own tournament and to four.
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="entry_number_positive"),
            models.CheckConstraint(
                condition=Q(category__in=Category.values), name="entry_category_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.player.full_name}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    @property
    def plays_free(self) -> bool:
        """No entry fee to take: a fill-in, or youth where the tournament lets youth play free."""
        from tournaments.money import plays_free

        return self.fill_in or plays_free(tournament=self.tournament, category=self.category)


class KeepApart(models.Model):
    """Two entries the seat draw must not put at one table (couples, clubmates on request)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="keep_apart_pairs",
        verbose_name=_("tournament"),
    )
    first = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("first player")
    )
    second = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("second player")
    )
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("keep-apart pair")
        verbose_name_plural = _("keep-apart pairs")
        constraints = [
            # Stored in id order so that a pair cannot be entered twice the other way round.
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="keep_apart_ordered"),
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="keep_apart_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class Round(models.Model):
    class State(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAWN)
    draw_seed = models.BigIntegerField(
        _("draw seed"), help_text=_("The random seed of the seat draw; it reproduces the draw.")
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    # The round clock: the organiser sets a time limit; pages count down to ``ends_at``.
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit (minutes)"), null=True, blank=True
    )
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    # The draw under review (Tournament.review_draws): its seats are not shown to players
    # until released. Rounds drawn without review, and those imported, are shown at once.
    awaiting_release = models.BooleanField(_("draw awaiting release"), default=False)
    released_at = models.DateTimeField(_("draw released at"), null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("draw released by"),
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(state__in=["drawn", "playing", "closed"]), name="round_state_valid"
            ),
            models.CheckConstraint(condition=Q(draw_seed__gte=0), name="round_seed_positive"),
            models.CheckConstraint(
                condition=Q(time_limit_minutes__isnull=True)
                | Q(time_limit_minutes__range=(1, 600)),
                name="round_time_limit_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {_('round')} {self.number}"


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    # Opens this table's entry page on a phone (printed as a QR code on the score sheet).
    token = models.CharField(_("entry token"), max_length=40, unique=True, default=new_table_token)
    # Typed instead of scanning: /t/<code> redirects to the token's page.
    short_code = models.CharField(
        _("short code"), max_length=SHORT_CODE_LENGTH, unique=True, default=new_short_code
    )
    voided = models.BooleanField(_("voided"), default=False)
    void_reason = models.CharField(_("reason for voiding"), max_length=200, blank=True)
    # Since when the table's open call for the referee waits (RefereeCall; None: no open
    # call). Kept on the table, read with it, so the phone's page needs no query more.
    referee_called_at = models.DateTimeField(_("referee called at"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(voided=False) | ~Q(void_reason=""), name="table_void_needs_reason"
            ),
            # Six characters, upper case (no REGEXP: plain sqlite3 tools must read the file).
            models.CheckConstraint(
                condition=Q(Exact(Length("short_code"), Value(SHORT_CODE_LENGTH)))
                & Q(Exact(F("short_code"), Upper("short_code"))),
                name="table_short_code_shape",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number} ({_('round')} {self.round.number})"


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # Kept on the seat as well so that the database can refuse a player seated twice in a round.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    position = models.PositiveSmallIntegerField(
        _("position"), help_text=_("Place in playing order, from 0.")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.CheckConstraint(
                condition=Q(position__range=(0, MAX_SEATS - 1)), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position + 1}: {self.entry}"


class Substitution(models.Model):
    """A player who takes over a seat during a round, from a given deal on."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="substitutions", verbose_name=_("seat")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="substitutions", verbose_name=_("player")
    )
    from_deal = models.PositiveSmallIntegerField(_("from deal"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["seat", "from_deal"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "from_deal"], name="substitution_once_per_deal"
            ),
            models.CheckConstraint(
                condition=Q(from_deal__gte=1), name="substitution_deal_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.entry} ({_('from deal')} {self.from_deal})"


def _zero_sum_condition() -> Exact:
    total = Coalesce(F(SCORE_FIELDS[0]), Value(0))
    for name in SCORE_FIELDS[1:]:
        total = total + Coalesce(F(name), Value(0))
    return Exact(total, Value(0))


class Deal(models.Model):
    """One deal at one table, or a table's round total in totals-only tournaments.

    The rule inputs are the deal-record fields of ``shared/spec/deal-record.md``: the
    common ones are columns, the contract-specific rest lives in ``details``.
    """

    class Kind(models.TextChoices):
        DEAL = "deal", _("deal")
        TOTAL = "total", _("round total")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        ANNULLED = "annulled", _("annulled")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="deals", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.DEAL)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.CONFIRMED
    )
    dealer_position = models.PositiveSmallIntegerField(_("dealer"), null=True, blank=True)
    contract = models.CharField(_("contract"), max_length=40, blank=True)
    declarer_position = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)
    declarer_points = models.PositiveSmallIntegerField(_("card points"), null=True, blank=True)
    won = models.BooleanField(_("won"), null=True, blank=True)
    # Typed in from a paper sheet as written (contract, declarer, amounts): scored as written,
    # without card points; statistics that need card points skip it.
    as_written = models.BooleanField(_("as written on the sheet"), default=False)
    details = models.JSONField(_("further rule inputs"), default=dict, blank=True)
    score_0 = models.IntegerField(_("score seat 1"), null=True, blank=True)
    score_1 = models.IntegerField(_("score seat 2"), null=True, blank=True)
    score_2 = models.IntegerField(_("score seat 3"), null=True, blank=True)
    score_3 = models.IntegerField(_("score seat 4"), null=True, blank=True)
    score_4 = models.IntegerField(_("score seat 5"), null=True, blank=True)
    # A key chosen by the entering device: the same submission arriving twice stores one deal.
    submission_key = models.UUIDField(_("submission key"), null=True, blank=True, unique=True)
    entered_via = models.CharField(_("entered via"), max_length=10, default="desk")
    # The seat whose player entered it at the table: a different seat must confirm it.
    entered_by_position = models.PositiveSmallIntegerField(
        _("entered by seat"), null=True, blank=True
    )
    # The device that entered (or last revised) the deal at the table, and the one that
    # confirmed it: the same phone must not do both.
    entered_device = models.CharField(_("entered on device"), max_length=40, blank=True)
    confirmed_device = models.CharField(_("confirmed on device"), max_length=40, blank=True)
    # Address and browser of the device that entered (or last revised) it at the table, as a
    # hash (``Device.client``): the same phone with its cookie deleted must not confirm either.
    entered_client = models.CharField(_("entered from client"), max_length=32, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=_zero_sum_condition(), name="deal_scores_sum_zero"),
            models.CheckConstraint(
                condition=Q(declarer_position__isnull=True)
                | Q(declarer_position__range=(0, MAX_SEATS - 1)),
                name="deal_declarer_position_range",
            ),
            models.CheckConstraint(
                condition=Q(dealer_position__isnull=True)
                | Q(dealer_position__range=(0, MAX_SEATS - 1)),
                name="deal_dealer_position_range",
            ),
            models.CheckConstraint(
                condition=Q(declarer_points__isnull=True) | Q(declarer_points__lte=80),
                name="deal_declarer_points_range",
            ),
            models.CheckConstraint(
                condition=Q(kind="total") | ~Q(contract=""), name="deal_has_contract"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "annulled"]),
                name="deal_status_valid",
            ),
            models.CheckConstraint(condition=Q(kind__in=["deal", "total"]), name="deal_kind_valid"),
            models.CheckConstraint(
                condition=Q(as_written=False) | Q(kind="deal", declarer_points__isnull=True),
                name="deal_as_written_has_no_card_points",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__isnull": True})
                    | Q(**{f"{name}__range": (-SCORE_LIMIT, SCORE_LIMIT)}),
                    name=f"deal_{name}_bounded",
                )
                for name in SCORE_FIELDS
            ],
        ]

    def __str__(self) -> str:
        return f"{self.table}, {_('deal')} {self.number}"

    @property
    def scores(self) -> list[int | None]:
        return [getattr(self, name) for name in SCORE_FIELDS]

    def set_scores(self, scores: "list[int] | tuple[int, ...]") -> None:
        if len(scores) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} scores")
        padded = list(scores) + [None] * (MAX_SEATS - len(scores))
        for name, value in zip(SCORE_FIELDS, padded, strict=True):
            setattr(self, name, value)

    @property
    def counts(self) -> bool:
        return self.status == self.Status.CONFIRMED and not self.table.voided

    @property
    def same_device(self) -> bool:
        """Entered and confirmed on one phone: the organiser should look at it."""
        return bool(self.entered_device) and self.entered_device == self.confirmed_device


class AppendOnly(models.Model):
    """A history row: written once, never changed or deleted."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"{type(self).__name__}: the history is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{type(self).__name__}: the history is append-only.")


class DealChange(AppendOnly):
    """Append-only history of a deal: every creation, confirmation, correction, annulment."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        CORRECTED = "corrected", _("corrected")
        ANNULLED = "annulled", _("annulled")
        RESTORED = "restored", _("restored")

    deal = models.ForeignKey(
        Deal, on_delete=models.PROTECT, related_name="changes", verbose_name=_("deal")
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    # Now, unless written with the time of the original change (an archive, a batch).
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now, editable=False)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    actor = models.CharField(
        _("actor"), max_length=120, blank=True, help_text=_("Who, when no login was used.")
    )
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # The phone that made the change (a random id in a long-lived cookie) and its address.
    device = models.CharField(_("device"), max_length=40, blank=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal change")
        verbose_name_plural = _("deal history")
        ordering = ["deal", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=["created", "confirmed", "corrected", "annulled", "restored"]
                ),
                name="deal_change_action_valid",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["created", "confirmed"]) | ~Q(reason=""),
                name="deal_change_reason_required",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: {self.get_action_display()}"


class LotDraw(models.Model):
    """A draw by lot the app performed, e.g. to separate players tied in the standings."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="lot_draws", verbose_name=_("tournament")
    )
    purpose = models.CharField(_("purpose"), max_length=40, default="tie_break")
    seed = models.BigIntegerField(_("seed"))
    # Entry ids in the order the lot put them (first = better place).
    order = models.JSONField(_("order"))
    performed_at = models.DateTimeField(_("performed at"), auto_now_add=True)
    performed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("performed by"),
    )

    class Meta:
        verbose_name = _("draw by lot")
        verbose_name_plural = _("draws by lot")
        ordering = ["tournament", "performed_at"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.purpose} ({self.performed_at:%d.%m.%Y %H:%M})"


class RoundChange(AppendOnly):
    """Append-only log of what the organiser did to a round or one of its tables, and why."""

    class Action(models.TextChoices):
        CLOSED = "closed", _("round closed")
        REOPENED = "reopened", _("round reopened")
        TABLE_VOIDED = "table_voided", _("table's round voided")
        TABLE_RESTORED = "table_restored", _("table counts again")
        RELEASED = "released", _("draw released")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="changes", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="changes",
        verbose_name=_("table"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.TextField(_("reason"), blank=True)
    # Now, unless written with the time of the original change (an archive, a batch).
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now, editable=False)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )

    class Meta:
        verbose_name = _("round change")
        verbose_name_plural = _("round history")
        ordering = ["round", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=["closed", "reopened", "table_voided", "table_restored", "released"]
                ),
                name="round_change_action_valid",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["closed", "released"]) | ~Q(reason=""),
                name="round_change_reason_required",
            ),
            models.CheckConstraint(
                condition=Q(action__in=["closed", "reopened", "released"]) | Q(table__isnull=False),
                name="round_change_table_given",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.get_action_display()}"


class TournamentChange(AppendOnly):
    """Append-only log of everything else done to a tournament: check-in, fees, withdrawals,
    late entries, substitutions, keep-apart pairs, draws, swaps, settings, lots, tokens.

    Written only through ``tournaments.services.changelog.record``, inside the service's
    transaction. Deals and rounds keep their own histories (``DealChange``, ``RoundChange``).
    """

    class Action(models.TextChoices):
        CREATED = "created", _("tournament created")
        EDITED = "edited", _("settings changed")
        REFEREES = "referees", _("referees changed")
        CHECKED_IN = "checked_in", _("checked in")
        CHECK_IN_UNDONE = "check_in_undone", _("check-in undone")
        FEE_PAID = "fee_paid", _("entry fee paid")
        FEE_UNDONE = "fee_undone", _("payment undone")
        WITHDRAWN = "withdrawn", _("withdrawn")
        WITHDRAWAL_UNDONE = "withdrawal_undone", _("withdrawal undone")
        REGISTERED = "registered", _("registered")
        SUBSTITUTED = "substituted", _("substitute")
        KEEP_APART_ADDED = "keep_apart_added", _("keep-apart pair added")
        KEEP_APART_REMOVED = "keep_apart_removed", _("keep-apart pair removed")
        ROUND_DRAWN = "round_drawn", _("round drawn")
        ROUND_REDRAWN = "round_redrawn", _("round drawn again")
        SWAPPED = "swapped", _("players swapped")
        LOTS_DRAWN = "lots_drawn", _("lots drawn")
        TOKEN_REISSUED = "token_reissued", _("table token re-issued")
        CLOCK_SET = "clock_set", _("round clock set")
        FINISHED = "finished", _("tournament finished")
        ARCHIVE_IMPORTED = "archive_imported", _("imported from an archive")
        ARCHIVE_REPLACED = "archive_replaced", _("replaced by a newer archive")
        HANDED_TO_HALL = "handed_to_hall", _("fetched by a venue laptop")
        SHEET_TYPED = "sheet_typed", _("paper sheet typed (first typing)")
        SHEET_RETYPED = "sheet_retyped", _("paper sheet typed again (second typing)")
        SHEET_SETTLED = "sheet_settled", _("differences of a paper sheet settled")
        SHEET_DISCARDED = "sheet_discarded", _("typing of a paper sheet discarded")
        STAYS_AT_TABLE = "stays_at_table", _("stays at the table")
        MAY_MOVE = "may_move", _("no longer stays at the table")
        REFEREE_CALLED = "referee_called", _("referee called")
        REFEREE_CALL_CLOSED = "referee_call_closed", _("referee call closed")
        ANNOUNCED = "announced", _("announcement shown")
        ANNOUNCEMENT_REMOVED = "announcement_removed", _("announcement removed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="changes", verbose_name=_("tournament")
    )
    action = models.CharField(_("action"), max_length=30, choices=Action.choices)
    subject = models.CharField(
        _("concerns"), max_length=200, blank=True, help_text=_("Who or what was changed.")
    )
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    actor = models.CharField(
        _("actor"), max_length=120, blank=True, help_text=_("Who, when no login was used.")
    )

    class Meta:
        verbose_name = _("tournament change")
        verbose_name_plural = _("tournament log")
        ordering = ["tournament", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=[
                        "created",
                        "edited",
                        "referees",
                        "checked_in",
                        "check_in_undone",
                        "fee_paid",
                        "fee_undone",
                        "withdrawn",
                        "withdrawal_undone",
                        "registered",
                        "substituted",
                        "keep_apart_added",
                        "keep_apart_removed",
                        "round_drawn",
                        "round_redrawn",
                        "swapped",
                        "lots_drawn",
                        "token_reissued",
                        "clock_set",
                        "finished",
                        "archive_imported",
                        "archive_replaced",
                        "handed_to_hall",
                        "sheet_typed",
                        "sheet_retyped",
                        "sheet_settled",
                        "sheet_discarded",
                        "stays_at_table",
                        "may_move",
                        "referee_called",
                        "referee_call_closed",
                        "announced",
                        "announcement_removed",
                    ]
                ),
                name="tournament_change_action_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_action_display()}"


class RefereeCall(models.Model):
    """A table's call for the referee, from its phone page ("Schiedsrichter rufen"): seen at
    the desk and by the tournament's referees until one of them closes it with a note (both
    written to the tournament's log). One open call per table: pressing again while it is
    open changes nothing (``tournaments.services.hall``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="referee_calls",
        verbose_name=_("tournament"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("table")
    )
    deal_number = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=CALL_REASON_LENGTH, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    # Who pressed: the player's name at the table as their phone says, and the phone.
    called_by = models.CharField(_("called by"), max_length=120, blank=True)
    device = models.CharField(_("device"), max_length=40, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("call for the referee")
        verbose_name_plural = _("calls for the referee")
        ordering = ["tournament", "called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(closed_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | ~Q(note=""),
                name="referee_call_closed_with_note",
            ),
            models.CheckConstraint(
                condition=Q(deal_number__isnull=True) | Q(deal_number__range=(1, 99)),
                name="referee_call_deal_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.called_at:%H:%M}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Announcement(models.Model):
    """A short message the desk puts on the projector and the players' own pages ("Mein
    Platz") until it is removed or its time runs out (``shown_until``)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="announcements",
        verbose_name=_("tournament"),
    )
    text = models.CharField(_("message"), max_length=ANNOUNCEMENT_LENGTH)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    shown_until = models.DateTimeField(_("shown until"), null=True, blank=True)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("removed by"),
    )

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["tournament", "-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="announcement_text_not_empty"),
        ]

    def __str__(self) -> str:
        return self.text


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
    outbox reads only what changed since its last batch (``publishing.outbox``)."""

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
    # while it is only pre-registered (``publishing.fetching``).
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


class SheetTyping(models.Model):
    """A table's paper sheet typed twice at the desk (``Tournament.double_entry``).

    The first typing waits here, counting for nothing, until a second typing of the same
    sheet (made without seeing the first) arrives. Equal cell by cell: the lines are stored as
    deals (``results.enter_written_deals``) and the typing is ``counted``. Different: the desk
    settles each differing cell, then the lines count. Written only through
    ``tournaments.services.double_entry``. Each row of ``first_rows`` / ``second_rows`` is
    ``{"number", "contract", "declarer", "amounts" (as typed, null for a blank cell),
    "scores" (the complete row the engine made of it)}``. A sheet of round totals only
    (``kind = totals``) is one such row: number 1 (the line a ``Deal.Kind.TOTAL`` takes),
    contract "" and declarer null, amounts and scores the totals typed; it counts through
    ``results.enter_totals``.
    """

    class Kind(models.TextChoices):
        DEALS = "deals", _("the deals as written")
        TOTALS = "totals", _("round totals")

    class State(models.TextChoices):
        AWAITING_SECOND = "awaiting", _("waiting for the second typing")
        DIFFERENCES = "differences", _("differences to settle")
        COUNTED = "counted", _("counted")
        DISCARDED = "discarded", _("discarded")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="typings", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=6, choices=Kind.choices, default=Kind.DEALS)
    state = models.CharField(
        _("state"), max_length=12, choices=State.choices, default=State.AWAITING_SECOND
    )
    first_rows = models.JSONField(_("first typing"))
    first_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("first typed by"),
    )
    first_typist = models.CharField(_("first typist"), max_length=40, blank=True)
    first_at = models.DateTimeField(_("first typed at"), auto_now_add=True)
    second_rows = models.JSONField(_("second typing"), null=True, blank=True)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second typed by"),
    )
    second_typist = models.CharField(_("second typist"), max_length=40, blank=True)
    second_at = models.DateTimeField(_("second typed at"), null=True, blank=True)
    # Same login and same typist's name (or none) both times: nobody else checked the sheet.
    same_person = models.BooleanField(_("both typings by the same person"), default=False)
    settlement = models.JSONField(_("settled cells"), null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("settled by"),
    )
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("typing of a paper sheet")
        verbose_name_plural = _("typings of paper sheets")
        ordering = ["table", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["awaiting", "differences", "counted", "discarded"]),
                name="sheet_typing_state_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["deals", "totals"]), name="sheet_typing_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["awaiting", "discarded"]) | Q(second_rows__isnull=False),
                name="sheet_typing_second_before_counting",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(state__in=["awaiting", "differences"]),
                name="sheet_typing_one_open_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_state_display()}"

    @property
    def is_open(self) -> bool:
        return self.state in (self.State.AWAITING_SECOND, self.State.DIFFERENCES)
