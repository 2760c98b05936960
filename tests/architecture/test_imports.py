"""The map in docs/ARCHITECTURE.md, held against the code's imports.

Every module of the project gets a layer (what kind of code it is) and an area (which room of
the product it lives in). The rules:

1. No circle: no module imports itself through others (imports inside functions and under
   ``TYPE_CHECKING`` count too).
2. No import climbs a layer: a module imports only modules of its own layer or below.
3. No import climbs an area: a module imports only modules of its own area or of an area
   below it, except where ``MAY_ALSO_IMPORT`` says why.

A new module must be placed here (layer by its name, area by its package) or this test fails
and names it. Run it alone: ``python -m pytest tests/architecture``.
"""

from __future__ import annotations

import graphlib
from fnmatch import fnmatchcase

import grimp
import pytest

# The project's packages, each an area. Bottom to top: an area may import those before it.
AREAS = [
    "venue",  # the laptop in the hall: its data folder, addresses, backups (imports no area)
    "scoring",  # the engine: pure Python, no Django
    "sheetreading",  # tick-box score sheets read from photos: layout, reader, test set; no Django
    "rules",  # rule sources as data, tariff cards
    "clubs",  # the registry: clubs, players, memberships, fees, roles, who may do what
    "tournaments",  # the tournament day
    "seasons",  # a season's rules, standings, pages; a player's results across seasons
    "ratings",  # the rating across seasons (openskill): stored, on player pages, a list
    "publishing",  # laptops send tournaments to the season server: tokens, queue, registry
    "signups",  # online pre-registration: the public form, waiting list, organisers' list
    "treasury",  # entry fees, prize money, the treasurer's view
    "ceremony",  # the prize ceremony: places hidden until it, its steps on the projector
    "simultaneous",  # a simultaneous Cego day: several halls, one live overall ranking
    "printing",  # every PDF and its download
    "exports",  # every Excel workbook and its download
    "api",  # the read API (/api/v1/): JSON documents of tournaments, seasons, names
    "handbook",  # the handbook (/hilfe/): prose and screenshots; only links to the others
]

# Imports that go up an area on purpose, with the reason.
MAY_ALSO_IMPORT = {
    ("tournaments", "seasons.models"): (
        "a tournament belongs to a season (its foreign key), and its results are final by the "
        "season's appeal window and appeals (selectors.finality)"
    ),
    ("tournaments", "ceremony.models"): (
        "what the public sees of the standings depends on the places hidden until the prize "
        "ceremony (selectors.visibility), and every public document asks there"
    ),
}

# Bottom to top. A module's layer is the first pattern it matches (fnmatch on the dotted name).
LAYERS: list[tuple[str, list[str]]] = [
    (
        "platform",  # settings and what runs before or below every app; imports no area
        [
            "cego_club",
            "cego_club.settings",
            "cego_club.test_settings",
            "venue.environment",
            "venue.client_ip",
            "venue.backups",
            "venue.serving",
            "venue.spectators",
            "venue.laptop",
            "venue.sessions",
            "venue.tokens",
            "venue.versions",
            "cego_club.platform",
            "cego_club.platform.*",  # the SQLite backend, the venue's front, CSP, language …
        ],
    ),
    (
        "domain",  # pure rules and helpers: no model imported
        [
            "scoring",
            "scoring.*",
            "rules.builtin_sources",
            "rules.tariff",
            "clubs.cells",
            "clubs.search",
            "clubs.categories",
            "clubs.ages",
            "clubs.tabular",
            "tournaments.addresses",
            "tournaments.agreements",
            "tournaments.archive_format",
            "tournaments.contract_names",
            "tournaments.deal_words",
            "tournaments.draw",
            "tournaments.finality",
            "tournaments.presets",
            "tournaments.ranking",
            "tournaments.scoring_messages",
            "tournaments.seating",
            "tournaments.sheet_compare",
            "tournaments.signals",
            "seasons.charts",
            "seasons.ical",
            "seasons.ranking",
            "seasons.words",
            "seasons.press",
            "simultaneous.ranking",
            "ratings.rating",
            "sheetreading",
            "sheetreading.*",
            "printing.drawing",
            "printing.pdf",
            "printing.qr_codes",
            "exports.xlsx",
            "exports.xlsx_rows",
            "publishing.laptop.client",
            "publishing.bodies",
            "publishing.laptop.registry_answer",
            "publishing.laptop.merge_plan",
        ],
    ),
    (
        "models",  # the database's shape and what it needs to save a row
        [
            "*.models",
            "*.models.*",
            "*.migrations",
            "*.migrations.*",
            "*.signals",
            "rules.registry",
            "tournaments.money",
            "tournaments.rule_snapshot",
        ],
    ),
    ("permissions", ["clubs.permissions"]),
    ("selectors", ["*.selectors", "*.selectors.*", "tournaments.caching"]),
    (
        "services",
        [
            "*.services",
            "seasons.services_series",  # issue 41: a tournament in several series
            "*.services.*",
            "publishing.laptop.outbox",
            "publishing.laptop.position",
            "publishing.server.inbox",
            "publishing.laptop.sender",
            "publishing.laptop.merging",
            "publishing.server.handover",
            "publishing.laptop.fetching",
            "simultaneous.follower",
        ],
    ),
    ("forms", ["*.forms", "*.forms.*"]),
    (
        "documents",  # PDFs, workbooks and ranking tables, built from selectors
        [
            "printing.printouts",
            "printing.score_sheets",
            "printing.tick_sheets",
            "printing.seat_plan",
            "printing.table_cards",
            "printing.standings_list",
            "printing.prize_list",
            "printing.certificates",
            "exports.season",
            "exports.standings",
            "exports.treasurer",
            "exports.signups",
            "api.documents",
            "simultaneous.documents",
            "clubs.exports",
            "tournaments.tables",
            "tournaments.tables_standings",
        ],
    ),
    ("receivers", ["*.receivers"]),  # what an area does when another tells it something
    ("views", ["*.views", "*.views.*", "*.templatetags", "*.templatetags.*", "cego_club.health"]),
    (
        "entry",  # what Django or a person starts: URLs, admin, commands, demo data
        [
            "*.urls",
            "*.admin",
            "*.apps",
            "*.demo",
            "*.management",
            "*.management.*",
            "cego_club.wsgi",
            "cego_club.cli",  # the cego-club command
            "cego_club.__main__",  # python -m cego_club
            "cego_club.catalogues",  # python -m cego_club.catalogues; at start (apps, cli)
        ],
    ),
]
LAYER_NAMES = [name for name, _patterns in LAYERS]


def layer_of(module: str) -> str | None:
    """The layer of ``module``; None for a package's face (an ``__init__`` importing nothing)."""
    for name, patterns in LAYERS:
        if any(fnmatchcase(module, pattern) for pattern in patterns):
            return name
    return None


def area_of(module: str) -> str:
    top = module.split(".")[0]
    if top == "cego_club":
        return "platform" if layer_of(module) == "platform" else "entry"
    return top


AREA_RANK = {"platform": -1, **{area: rank for rank, area in enumerate(AREAS)}, "entry": 99}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*AREAS, "cego_club", exclude_type_checking_imports=False)


def _imports(graph: grimp.ImportGraph) -> list[tuple[str, str, int]]:
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            details = graph.get_import_details(importer=importer, imported=imported)
            found.append((importer, imported, details[0]["line_number"] if details else 0))
    return found


def _is_package_face(graph: grimp.ImportGraph, module: str) -> bool:
    return not graph.find_modules_directly_imported_by(module)


def test_every_module_has_a_layer(graph):
    unplaced = sorted(
        module
        for module in graph.modules
        if layer_of(module) is None and not _is_package_face(graph, module)
    )
    assert not unplaced, f"place these in LAYERS (tests/architecture/test_imports.py): {unplaced}"


def test_no_import_circle(graph):
    sorter = graphlib.TopologicalSorter(
        {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    )
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import circle: {' -> '.join(error.args[1])}")


def test_no_import_climbs_a_layer(graph):
    rank = {name: index for index, name in enumerate(LAYER_NAMES)}
    climbing = [
        f"{importer}:{line} ({layer_of(importer)}) imports {imported} ({layer_of(imported)})"
        for importer, imported, line in _imports(graph)
        if layer_of(importer) in rank
        and layer_of(imported) in rank
        and rank[layer_of(imported)] > rank[layer_of(importer)]
    ]
    assert not climbing, "\n".join(climbing)


def test_no_import_climbs_an_area(graph):
    climbing = []
    for importer, imported, line in _imports(graph):
        source, target = area_of(importer), area_of(imported)
        if AREA_RANK[target] <= AREA_RANK[source]:
            continue
        if any(
            source == area and (imported == allowed or imported.startswith(allowed + "."))
            for (area, allowed) in MAY_ALSO_IMPORT
        ):
            continue
        climbing.append(f"{importer}:{line} ({source}) imports {imported} ({target})")
    assert not climbing, "\n".join(climbing)


# The project's own package: the platform below every area, the entry points above them.
PLATFORM = ["cego_club", "cego_club.settings", "cego_club.test_settings", "cego_club.platform"]


def _in_platform(module: str) -> bool:
    return module in PLATFORM or module.startswith("cego_club.platform.")


def test_the_platform_imports_no_area_app(graph):
    """``cego_club.platform`` (and the settings that name it) runs before or below every app:
    it imports nothing of the areas and nothing of the entry points at the top of
    ``cego_club`` (urls, wsgi, cli), so a picture of the packages shows no import climbing."""
    platform = [module for module in graph.modules if _in_platform(module)]
    assert "cego_club.platform.front" in platform and "cego_club.platform.sqlite.base" in platform
    reaching = [
        f"{importer}:{line} imports {imported}"
        for importer, imported, line in _imports(graph)
        if _in_platform(importer) and not _in_platform(imported)
    ]
    assert not reaching, "\n".join(reaching)


def test_the_top_of_cego_club_holds_only_entry_points(graph):
    """Outside ``cego_club.platform`` and the settings, every module of ``cego_club`` is an
    entry point (what Django or a person starts) or the health view: they may import any
    area, and nothing below imports them."""
    misplaced = sorted(
        module
        for module in graph.modules
        if module.split(".")[0] == "cego_club"
        and not _in_platform(module)
        and layer_of(module) not in ("entry", "views")
    )
    assert not misplaced, misplaced
    reaching = [
        f"{importer}:{line} imports {imported}"
        for importer, imported, line in _imports(graph)
        if imported.split(".")[0] == "cego_club"
        and not _in_platform(imported)
        and importer.split(".")[0] != "cego_club"
    ]
    assert not reaching, "\n".join(reaching)


def test_the_registry_knows_nothing_of_the_areas_above_it(graph):
    """``clubs`` is the ground the day stands on: a model link or an import from it into the
    tournament day, the seasons, the money or the documents would make it climb again."""
    above = [area for area in AREAS if AREAS.index(area) > AREAS.index("clubs")]
    reaching = [
        f"{importer} imports {imported}"
        for importer, imported, _line in _imports(graph)
        if importer.startswith("clubs") and imported.split(".")[0] in above
    ]
    assert not reaching, "\n".join(reaching)


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("tournaments.models", "models"),
        ("tournaments.models.deals", "models"),
        ("tournaments.views.entry", "views"),
        ("seasons.selectors.standings", "selectors"),
        ("tournaments.services.phone_entry", "services"),
        ("printing.printouts", "documents"),
        ("scoring.engine", "domain"),
        ("cego_club.urls", "entry"),
        ("tournaments.views", "views"),
    ],
)
def test_layers_are_read_from_the_names(module, layer):
    assert layer_of(module) == layer


def test_a_climbing_import_would_be_caught():
    """The checks above read real imports: a made-up one from a model into a view fails."""
    rank = {name: index for index, name in enumerate(LAYER_NAMES)}
    assert rank[layer_of("tournaments.views.entry")] > rank[layer_of("tournaments.models")]
    assert AREA_RANK[area_of("tournaments.models")] > AREA_RANK[area_of("clubs.models")]


def test_the_laptop_and_the_server_sides_of_publishing_import_nothing_of_each_other(graph):
    """``publishing.laptop`` (the hall's outbox, sender, merge, fetch and pages) and
    ``publishing.server`` (the season server's API, inbox, hand-over and token page) meet only
    in what they share at the top of ``publishing`` (models, bodies) and over HTTP."""
    sides = ("publishing.laptop", "publishing.server")
    crossing = [
        f"{importer}:{line} imports {imported}"
        for importer, imported, line in _imports(graph)
        for side, other in (sides, sides[::-1])
        if importer.startswith(side + ".") and imported.startswith(other + ".")
    ]
    assert not crossing, "\n".join(crossing)
    assert graph.find_children("publishing.laptop") and graph.find_children("publishing.server")


# An archive's walk (docs/architecture/archives-and-publishing.md, "Archives, item by item"): each step may call the
# ones before it, never a later one.
ARCHIVE_WALK = [
    "tournaments.archive_format",  # parse
    "tournaments.selectors.archive",  # read
    "tournaments.services.archive_deals",  # plan: each deal scored again
    "tournaments.services.archive_players",  # plan: who the clubs and players are here
    "tournaments.services.archive_season",  # plan: the season it joins
    "tournaments.services.archive_diff",  # plan: the action and the items to write
    "tournaments.services.archive_plan",  # plan: the above, put together
    "tournaments.services.archive_records",  # write: the clubs and players the entries need
    "tournaments.services.archive_tournament_rows",  # write: the tournament item's rows
    "tournaments.services.archive_rows",  # write: the items' rows
    "tournaments.services.archive_log",  # write: what changed, in the log
    "tournaments.services.archive_write",  # write
]


def test_the_archive_walk_goes_one_way(graph):
    backwards = [
        f"{module} imports {later}"
        for index, module in enumerate(ARCHIVE_WALK)
        for later in ARCHIVE_WALK[index + 1 :]
        if graph.chain_exists(importer=module, imported=later)
    ]
    assert not backwards, "\n".join(backwards)
    assert graph.chain_exists(
        importer="tournaments.services.archive_write", imported="tournaments.archive_format"
    )
