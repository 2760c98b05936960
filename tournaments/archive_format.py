"""The archive and the batch of changes, declared once: what travels between servers.

Step 1 of an archive's walk (parse → plan → write; ``docs/ARCHITECTURE.md``). Pure Python:
no model, no query. The formats are msgspec Structs: one pass over the decoded JSON checks
every key's type, and an error names where it is (``$.rounds[0].tables[2].number``).

**The archive** (``cego-club/tournament-archive`` version 1; written by
``tournaments.selectors.archive``): ``archive_id``, ``revision``, ``content_hash``,
``tournament`` (settings, rule snapshot, host club, season), ``clubs``, ``players``,
``entries``, ``teams``, ``keep_apart``, ``rounds`` (tables, seats, substitutions, deals with
their history), ``round_history``, ``lot_draws``. ``parse_archive`` returns it as the plain
dict the rest of the code reads. The tournament's final ``rulings`` and approved
``seat_swaps`` (issue 39) are keys of ``tournament``, given only where there are any: the
format's version is strict (another is refused) and a batch's kinds of item are closed
(an unknown one is refused), so a new kind would break every reader before it; a key inside
the tournament part is what version 1 allows ("unknown keys are allowed"). An archive
without them imports as before, with the same content hash.

**Items.** ``archive_items`` cuts an archive into items keyed by stable identities
(``tournament``, ``club:<short name>``, ``entry:<start number>`` with its player,
``team:<name>``, ``keep_apart:<first>-<second>``, ``lot:<n>``, ``round:<n>`` with its round
history, ``table:r<n>-t<m>``, ``deal:r<n>-t<m>-d<k>`` with its history);
``archive_from_items`` puts them together again (the exact inverse for an archive this app
wrote, less ``exported_at``, ``revision`` and ``content_hash``). ``item_digest`` is the
SHA-256 of an item's canonical JSON (keys sorted, compact, UTF-8), ``state_digest`` the
SHA-256 of the sorted ``key digest`` lines: an archive's ``content_hash`` is the state digest
of its items, so "the same content" is the same on the laptop, in a batch and on the server.
An archive written before (its hash made of the whole document) is not trusted for its hash:
the hash is always worked out again (``legacy_archive_hash`` recognises a copy stored that
way).

**The batch** (``cego-club/changes`` version 1; what the laptop sends): ``archive_id``,
``revision``, ``base`` (the state digest the sender believes the server holds; ``None``: a
snapshot, every item), ``state`` (the state digest after applying), ``upserts`` (key → item)
and ``deletes`` (keys). ``parse_batch`` checks it as ``parse_archive`` checks an archive.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Mapping
from typing import Any

import msgspec
from django.utils.translation import gettext as _

ARCHIVE_FORMAT = "cego-club/tournament-archive"
ARCHIVE_VERSION = 1
BATCH_FORMAT = "cego-club/changes"
BATCH_VERSION = 1

# Left out of the content hash and of the items: they change without the tournament changing.
UNHASHED_KEYS = ("exported_at", "revision", "content_hash")
# The keys of an archive the items hold (the rest is the envelope).
_CONTENT_KEYS = (
    "tournament",
    "clubs",
    "players",
    "entries",
    "teams",
    "keep_apart",
    "rounds",
    "round_history",
    "lot_draws",
)

# The kinds of item, in the order a writer applies them (deletes go the other way).
KINDS = ("tournament", "club", "team", "entry", "keep_apart", "lot", "round", "table", "deal")
DIGEST_LENGTH = 32


class ArchiveError(Exception):
    """The archive or batch cannot be read or applied; nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# The archive's shape. Unknown keys are allowed (a newer laptop may add some); every key
# named here is checked for its type.


class _Season(msgspec.Struct):
    name: str
    starts_on: str
    ends_on: str


class _Ruling(msgspec.Struct):
    """A final ruling (``tournaments.models.Ruling``): where, the decision and penalty in
    words, the referees who signed (one, or two where the tournament wanted two)."""

    decision: str
    referees: list[str]
    round: int | None = None
    table: int | None = None
    deal: int | None = None
    conduct: bool = False
    penalty: str = ""
    ruled_at: str | None = None
    decided_at: str | None = None


class _SeatSwap(msgspec.Struct):
    """An approved swap of two players' drawn seats (``tournaments.models.SeatSwap``): the
    players by start number, their seats before it (table, position from 0), the reason and
    the two officials."""

    round: int
    first: int
    second: int
    first_table: int
    first_position: int
    second_table: int
    second_position: int
    reason: str
    requested_by: str
    approved_by: str
    requested_at: str | None = None
    approved_at: str | None = None


class _Ceremony(msgspec.Struct):
    """The places hidden until the prize ceremony (``ceremony.models.CeremonySettings``):
    from which round, how many (None: all), and when the desk revealed them."""

    hide_from_round: int | None = None
    hide_top_n: int | None = None
    revealed_at: str | None = None


class _Tournament(msgspec.Struct):
    name: str
    date: str
    host_club: str
    rules_slug: str
    rules_snapshot: dict[str, Any]
    season: _Season | None = None
    finished_at: str | None = None
    venue: str = ""
    rounds: int = 1
    deals_per_round: int = 1
    entry_fee_cents: int = 0
    prize_shares_cents: list[int] = []
    # Given only where there are any (issue 39): the tournament item of an archive without
    # them keeps its digest, and a reader of version 1 that does not know them passes them by.
    rulings: list[_Ruling] = []
    seat_swaps: list[_SeatSwap] = []
    # Given only where the desk hides places or revealed them: a copy elsewhere (the season
    # server, published live) hides what the hall hides.
    ceremony: _Ceremony | None = None
    # Given only where there are any (issue 41): the other series the tournament also
    # counts for besides its ``season``, named as it is. An archive without the key imports
    # as before and leaves the series it counts for here as they are.
    series: list[_Season] = []


class _Club(msgspec.Struct):
    name: str
    short_name: str
    uuid: str | None = None
    town: str | None = None


class _Player(msgspec.Struct):
    key: str
    first_name: str
    last_name: str
    uuid: str | None = None
    birth_year: int | None = None
    category: str | None = None
    club: str | None = None
    member_number: str | None = None


class _Entry(msgspec.Struct):
    number: int
    player: str
    category: str | None = None
    fee_paid: bool = False
    checked_in: bool = False
    withdrawn_after_round: int | None = None
    paper_total: int | None = None
    fill_in: bool = False
    team: str | None = None


class _Team(msgspec.Struct):
    name: str
    club: str | None = None


class _KeepApart(msgspec.Struct):
    first: int
    second: int
    reason: str = ""


class _LotDraw(msgspec.Struct):
    seed: int
    order: list[int | None]
    purpose: str = "tie_break"
    performed_at: str | None = None


class _History(msgspec.Struct):
    action: str
    changed_at: str | None = None
    changed_by: str | None = ""
    actor: str | None = ""
    reason: str = ""
    before: Any = None
    after: Any = None


class _Deal(msgspec.Struct):
    number: int
    kind: str
    status: str
    scores: list[int | None]
    record: dict[str, Any] | None = None
    dealer: int | None = None
    entered_via: str = "desk"
    entered_by: int | None = None
    version: int = 1
    as_written: bool = False
    history: list[_History] = []


class _Substitution(msgspec.Struct):
    position: int
    entry: int
    from_deal: int
    reason: str = ""


class _Table(msgspec.Struct):
    number: int
    seats: list[int | None]
    deals: list[_Deal]
    voided: bool = False
    void_reason: str = ""
    substitutions: list[_Substitution] = []


class _Round(msgspec.Struct):
    number: int
    tables: list[_Table]
    state: str = "closed"
    draw_seed: int = 0
    time_limit_minutes: int | None = None
    awaiting_release: bool = False  # drawn, not yet shown to the players (given when true)


class _RoundChange(msgspec.Struct):
    round: int
    action: str
    table: int | None = None
    reason: str = ""
    changed_at: str | None = None
    changed_by: str | None = ""


class _Archive(msgspec.Struct):
    archive_id: str
    tournament: _Tournament
    clubs: list[_Club]
    players: list[_Player]
    entries: list[_Entry]
    rounds: list[_Round]
    revision: int = 0
    teams: list[_Team] = []
    keep_apart: list[_KeepApart] = []
    round_history: list[_RoundChange] = []
    lot_draws: list[_LotDraw] = []


# One item of each kind (what ``archive_items`` makes of the archive's parts).


class _TournamentItem(_Tournament):
    archive_id: str = ""


class _EntryItem(msgspec.Struct):
    number: int
    player: _Player


class _RoundItem(msgspec.Struct):
    number: int
    history: list[_RoundChange] = []


class _TableItem(msgspec.Struct):
    round: int
    number: int
    seats: list[int | None]
    voided: bool = False
    void_reason: str = ""
    substitutions: list[_Substitution] = []


class _DealItem(_Deal):
    round: int = 0
    table: int = 0


ITEM_TYPES: dict[str, type] = {
    "tournament": _TournamentItem,
    "club": _Club,
    "team": _Team,
    "entry": _EntryItem,
    "keep_apart": _KeepApart,
    "lot": _LotDraw,
    "round": _RoundItem,
    "table": _TableItem,
    "deal": _DealItem,
}


# The largest revision a batch may name (the server's column is a 32-bit integer).
MAX_REVISION = 2**31 - 1
_STATE = re.compile(r"[0-9a-f]{64}")


class Batch(msgspec.Struct):
    """A batch of changes from the laptop (``parse_batch``); items are plain dicts.

    ``epoch``: the laptop copy's publishing history (a UUID it draws when it starts
    publishing, and again after a restore); None from a laptop before version 0.2.0.
    ``open_conflicts``: the keys whose two versions wait for the desk's choice (the server's
    is kept there meanwhile and shown as provisional)."""

    format: str
    version: int
    archive_id: str
    revision: int
    state: str
    base: str | None = None
    upserts: dict[str, dict[str, Any]] = {}
    deletes: list[str] = []
    epoch: str | None = None
    open_conflicts: list[str] = []

    @property
    def snapshot(self) -> bool:
        return self.base is None


# Reading.


def _decode(raw: bytes | str | Any) -> Any:
    if not isinstance(raw, bytes | str):
        return raw  # decoded already
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as error:
        raise ArchiveError(
            _("The file is not a JSON file: %(error)s") % {"error": error}
        ) from error
    except RecursionError as error:  # no archive nests more than a few levels
        raise ArchiveError(_("The file is nested too deeply for a tournament archive.")) from error


_MISSING = re.compile(r"Object missing required field `(?P<key>[^`]+)`(?: - at `(?P<at>.+)`)?$")
_EXPECTED = re.compile(r"Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`(?: - at `(?P<at>.+)`)?$")


def _validation_error(error: msgspec.ValidationError, where: str) -> ArchiveError:
    """msgspec's error in German (or the language active): what is wrong, and where."""
    text = str(error)
    missing = _MISSING.match(text)
    if missing:
        at = missing["at"] or "$"
        return ArchiveError(
            _("%(where)s lacks %(keys)s.")
            % {"where": where if at == "$" else f"{where} ({at})", "keys": missing["key"]}
        )
    expected = _EXPECTED.match(text)
    if expected:
        return ArchiveError(
            _("%(where)s: %(at)s should be %(expected)s, but is %(found)s.")
            % {
                "where": where,
                "at": expected["at"] or "$",
                "expected": expected["want"],
                "found": expected["got"],
            }
        )
    return ArchiveError(_("%(where)s cannot be read: %(error)s") % {"where": where, "error": text})


def validate_archive(data: Any) -> None:
    """Raise ArchiveError unless ``data`` (a decoded archive) has every key of the format,
    each of its type."""
    if not isinstance(data, Mapping) or data.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError(_("The file is not a Cego Club tournament archive."))
    if data.get("version") != ARCHIVE_VERSION:
        raise ArchiveError(
            _("Archive version %(found)s cannot be read; this server reads version %(version)s.")
            % {"found": data.get("version"), "version": ARCHIVE_VERSION}
        )
    try:
        msgspec.convert(data, _Archive, str_keys=True)
    except msgspec.ValidationError as error:
        raise _validation_error(error, _("the archive")) from error


def parse_archive(raw: bytes | str) -> dict[str, Any]:
    """The archive's JSON as a dict, or an ArchiveError saying what is wrong with the file."""
    data = _decode(raw)
    validate_archive(data)
    return data


def validate_item(key: str, item: Any) -> str:
    """The kind of ``key`` if ``item`` is an item of that kind; else an ArchiveError."""
    kind = key.split(":", 1)[0]
    item_type = ITEM_TYPES.get(kind)
    if item_type is None or (kind == "tournament") != (key == "tournament"):
        raise ArchiveError(_("Unknown item %(key)s.") % {"key": key})
    try:
        msgspec.convert(item, item_type, str_keys=True)
    except msgspec.ValidationError as error:
        raise _validation_error(error, _("item %(key)s") % {"key": key}) from error
    return kind


def parse_batch(raw: bytes | str | Mapping[str, Any]) -> Batch:
    """A batch of changes, every item checked; an ArchiveError saying what is wrong."""
    data = _decode(raw)
    if not isinstance(data, Mapping) or data.get("format") != BATCH_FORMAT:
        raise ArchiveError(_("The data is not a Cego Club batch of changes."))
    if data.get("version") != BATCH_VERSION:
        raise ArchiveError(
            _("Batch version %(found)s cannot be read; this server reads version %(version)s.")
            % {"found": data.get("version"), "version": BATCH_VERSION}
        )
    try:
        batch = msgspec.convert(data, Batch, str_keys=True)
    except msgspec.ValidationError as error:
        raise _validation_error(error, _("the batch")) from error
    for key, item in batch.upserts.items():
        validate_item(key, item)
    for key in batch.deletes:
        _check_key(key)
        if key in batch.upserts:
            raise ArchiveError(_("The batch both changes and deletes %(key)s.") % {"key": key})
    _check_numbers(batch)
    return batch


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return len(value) == 36


def _check_numbers(batch: Batch) -> None:
    """Every number and id the laptop declares, within what this server accepts (the
    answer names the field; nothing reaches the database unchecked)."""
    if not _is_uuid(batch.archive_id):
        raise ArchiveError(
            _("The batch's archive id %(value)s is not a UUID.") % {"value": batch.archive_id[:40]}
        )
    if batch.epoch is not None and not _is_uuid(batch.epoch):
        raise ArchiveError(
            _("The batch's epoch %(value)s is not a UUID.") % {"value": batch.epoch[:40]}
        )
    if not 0 <= batch.revision <= MAX_REVISION:
        raise ArchiveError(
            _("The batch's revision %(value)s lies outside 0 to %(most)s.")
            % {"value": batch.revision, "most": MAX_REVISION}
        )
    for name, value in (("state", batch.state), ("base", batch.base)):
        if value is not None and not _STATE.fullmatch(value):
            raise ArchiveError(
                _("The batch's %(field)s is not a state digest (64 hexadecimal digits).")
                % {"field": name}
            )
    for key in batch.open_conflicts:
        _check_key(key)


def _check_key(key: str) -> None:
    kind = key.split(":", 1)[0]
    if kind not in ITEM_TYPES or kind == "tournament" or ":" not in key:
        raise ArchiveError(_("Unknown item %(key)s.") % {"key": key})


# Items.


def deal_key(round_number: Any, table_number: Any, deal_number: Any) -> str:
    return f"deal:r{round_number}-t{table_number}-d{deal_number}"


def table_key(round_number: Any, table_number: Any) -> str:
    return f"table:r{round_number}-t{table_number}"


def kind_of(key: str) -> str:
    return key.split(":", 1)[0]


def _put(items: dict[str, dict], key: str, item: dict, twice: str) -> None:
    if key in items:
        raise ArchiveError(twice)
    items[key] = item


def _check_seats(round_: Mapping[str, Any]) -> None:
    seated: dict[Any, Any] = {}  # entry -> its table in this round
    for table in round_["tables"]:
        for entry in table["seats"]:
            if entry is not None and entry in seated:
                raise ArchiveError(
                    _(
                        "Round %(round)s: entry %(entry)s sits twice at table %(table)s; "
                        "nothing was imported."
                    )
                    % {"round": round_["number"], "entry": entry, "table": table["number"]}
                    if seated[entry] == table["number"]
                    else _(
                        "Round %(round)s: entry %(entry)s sits at tables %(first)s and "
                        "%(second)s; nothing was imported."
                    )
                    % {
                        "round": round_["number"],
                        "entry": entry,
                        "first": seated[entry],
                        "second": table["number"],
                    }
                )
            seated[entry] = table["number"]


def _twice(what: str) -> str:
    return _("%(what)s is given twice; nothing was imported.") % {"what": what}


def _people_items(archive: Mapping[str, Any], items: dict[str, dict[str, Any]]) -> None:
    """Clubs, entries with their players, teams, keep-apart pairs, draws by lot."""
    for club in archive.get("clubs") or []:
        _put(items, f"club:{club['short_name']}", dict(club), _twice(club["short_name"]))
    players = {player["key"]: player for player in archive.get("players") or []}
    for entry in archive.get("entries") or []:
        player = players.get(entry["player"])
        if player is None:
            raise ArchiveError(
                _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
                % {"key": entry["player"]}
            )
        _put(
            items,
            f"entry:{entry['number']}",
            {**entry, "player": dict(player)},
            _twice(_("start number %(n)s") % {"n": entry["number"]}),
        )
    for team in archive.get("teams") or []:
        _put(items, f"team:{team['name']}", dict(team), _twice(team["name"]))
    for pair in archive.get("keep_apart") or []:
        key = f"keep_apart:{pair['first']}-{pair['second']}"
        _put(items, key, dict(pair), _twice(key))
    for index, draw in enumerate(archive.get("lot_draws") or [], start=1):
        items[f"lot:{index}"] = dict(draw)


def _table_items(number: int, table: Mapping[str, Any], items: dict[str, dict[str, Any]]) -> None:
    """A table of round ``number`` (seats, substitutions) and its deals (with history)."""
    fields = {k: v for k, v in table.items() if k != "deals"}
    # Thousands of tables and deals: the message is made only for a duplicate.
    key = table_key(number, table["number"])
    if key in items:
        raise ArchiveError(
            _twice(
                _("round %(round)s, table %(table)s") % {"round": number, "table": table["number"]}
            )
        )
    items[key] = {"round": number, **fields}
    for deal in table["deals"]:
        key = deal_key(number, table["number"], deal["number"])
        if key in items:
            raise ArchiveError(
                _("Round %(round)s, table %(table)s: deal %(deal)s twice; nothing was imported.")
                % {"round": number, "table": table["number"], "deal": deal["number"]}
            )
        items[key] = {"round": number, "table": table["number"], **deal}


def _round_items(archive: Mapping[str, Any], items: dict[str, dict[str, Any]]) -> None:
    """Rounds with their history, their tables and deals."""
    history: dict[Any, list] = {}
    for change in archive.get("round_history") or []:
        history.setdefault(change["round"], []).append(dict(change))
    for round_ in archive.get("rounds") or []:
        number = round_["number"]
        _check_seats(round_)
        fields = {k: v for k, v in round_.items() if k != "tables"}
        _put(
            items,
            f"round:{number}",
            {**fields, "history": history.pop(number, [])},
            _twice(_("round %(round)s") % {"round": number}),
        )
        for table in round_["tables"]:
            _table_items(number, table, items)
    if history:
        raise ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": _("round %(round)s") % {"round": next(iter(history))}}
        )


def round_items(archive: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Only the rounds (with their history), tables and deals of ``archive``: its
    ``rounds`` and ``round_history``, as ``archive_items`` cuts them."""
    items: dict[str, dict[str, Any]] = {}
    _round_items(archive, items)
    return items


def archive_items(archive: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The archive cut into items by stable identity (see the module's text). An archive
    that names one thing twice (a start number, a deal …) is an ArchiveError."""
    items: dict[str, dict[str, Any]] = {
        "tournament": {"archive_id": str(archive["archive_id"]), **archive["tournament"]}
    }
    _people_items(archive, items)
    _round_items(archive, items)
    return items


def _changed_at(row: Mapping[str, Any]) -> str:
    return str(row.get("changed_at") or "")


def archive_from_items(items: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The archive the items make (without ``exported_at``, ``revision``, ``content_hash``):
    clubs with the host first, then by short name; entries by start number, their players in
    that order; teams by name; keep-apart pairs by start numbers; lots in their order;
    rounds, tables, deals by number; the round history by time, then round."""
    by_kind: dict[str, list[tuple[str, Mapping[str, Any]]]] = {kind: [] for kind in KINDS}
    for key, item in items.items():
        by_kind[kind_of(key)].append((key, item))
    tournament = dict(items["tournament"])
    archive_id = tournament.pop("archive_id")
    host = tournament.get("host_club")
    clubs = sorted(
        (dict(item) for _key, item in by_kind["club"]),
        key=lambda club: (club["short_name"] != host, club["short_name"]),
    )
    entries, players = [], []
    for _key, item in sorted(by_kind["entry"], key=lambda pair: pair[1]["number"]):
        player = dict(item["player"])
        players.append(player)
        entries.append({**item, "player": player["key"]})
    teams = sorted((dict(item) for _key, item in by_kind["team"]), key=lambda t: t["name"])
    keep_apart = sorted(
        (dict(item) for _key, item in by_kind["keep_apart"]),
        key=lambda pair: (pair["first"], pair["second"]),
    )
    lots = [
        dict(item)
        for _key, item in sorted(by_kind["lot"], key=lambda pair: int(pair[0].split(":")[1]))
    ]
    deals_of: dict[tuple, list] = {}
    for _key, item in by_kind["deal"]:
        deal = {k: v for k, v in item.items() if k not in ("round", "table")}
        deals_of.setdefault((item["round"], item["table"]), []).append(deal)
    tables_of: dict[Any, list] = {}
    for _key, item in by_kind["table"]:
        table = {k: v for k, v in item.items() if k != "round"}
        deals = sorted(deals_of.pop((item["round"], item["number"]), []), key=lambda d: d["number"])
        tables_of.setdefault(item["round"], []).append({**table, "deals": deals})
    rounds, round_history = [], []
    for _key, item in sorted(by_kind["round"], key=lambda pair: pair[1]["number"]):
        fields = {k: v for k, v in item.items() if k != "history"}
        tables = sorted(tables_of.pop(item["number"], []), key=lambda t: t["number"])
        rounds.append({**fields, "tables": tables})
        round_history.extend(dict(change) for change in item.get("history") or [])
    if deals_of or tables_of:
        missing = table_key(*next(iter(deals_of))) if deals_of else f"round:{next(iter(tables_of))}"
        raise ArchiveError(
            _("The archive refers to %(key)s, which it does not contain; nothing was imported.")
            % {"key": missing}
        )
    round_history.sort(key=lambda change: (_changed_at(change), change["round"]))
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "archive_id": archive_id,
        "tournament": tournament,
        "clubs": clubs,
        "players": players,
        "entries": entries,
        "teams": teams,
        "keep_apart": keep_apart,
        "rounds": rounds,
        "round_history": round_history,
        "lot_draws": lots,
    }


# Digests.

_encoder = msgspec.json.Encoder(order="sorted")


def canonical_json(value: Any) -> bytes:
    """Keys sorted, no spaces, UTF-8: one text for one content."""
    return _encoder.encode(value)


def item_digest(item: Any) -> str:
    """SHA-256 of the item's canonical JSON, the first 32 hex digits."""
    return hashlib.sha256(canonical_json(item)).hexdigest()[:DIGEST_LENGTH]


def item_digests(items: Mapping[str, Any]) -> dict[str, str]:
    return {key: item_digest(item) for key, item in items.items()}


def state_digest(digests: Mapping[str, str]) -> str:
    """SHA-256 (hex) of the sorted ``key digest`` lines: the state of a set of items."""
    lines = "\n".join(f"{key} {digests[key]}" for key in sorted(digests))
    return hashlib.sha256(lines.encode()).hexdigest()


def archive_hash(data: Mapping[str, Any]) -> str:
    """The archive's content hash: the state digest of its items."""
    return state_digest(item_digests(archive_items(data)))


def legacy_archive_hash(data: Mapping[str, Any]) -> str:
    """The content hash as archives before the items had it (SHA-256 of the whole document's
    canonical JSON without the unhashed keys): a copy stored with it is the same content."""
    content = {key: value for key, value in data.items() if key not in UNHASHED_KEYS}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def diff_digests(
    stored: Mapping[str, str], incoming: Mapping[str, str], *, complete: bool
) -> tuple[list[str], list[str]]:
    """The keys to write (new or another digest) and, where ``incoming`` is every item (a
    snapshot), the keys to delete."""
    upserts = [key for key, digest in incoming.items() if stored.get(key) != digest]
    deletes = [key for key in stored if key not in incoming] if complete else []
    return upserts, deletes
