import io
import subprocess

import pytest
from django.conf import settings
from pypdf import PdfReader

from clubs.models import Category
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Round, Seat, Substitution, Table

# Realistic names: umlauts, hyphens, long ones, to see how the printouts cope.
NAMES = [
    ("Faller", "Hans-Peter"),
    ("Blümle", "Anna"),
    ("Schwarzwälder-Kirschbaum", "Maximilian"),
    ("Öhler", "Eva"),
    ("Baumann", "Karl"),
    ("Zähringer", "Lena"),
    ("Ackermann", "Jörg"),
    ("Maier", "Sepp"),
    ("Kuner", "Theresia"),
    ("Duffner", "Franz"),
    ("Straub", "Rosa"),
    ("Hättich", "Markus"),
    ("Gißler", "Ute"),
]


def seat_round(tournament, entries, sizes, *, number=1):
    """Round ``number`` with tables of ``sizes``, seating ``entries`` in order."""
    round_ = Round.objects.create(tournament=tournament, number=number, draw_seed=7)
    it = iter(entries)
    tables = []
    for table_number, size in enumerate(sizes, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=p, entry=next(it)) for p in range(size)
        )
        tables.append(table)
    return round_, tables


def numbered_entries(tournament, count, *, first_name="Eva", digits=3):
    """``count`` entries numbered 1, 2, ... named Spieler001, Spieler002, ... (``digits``)."""
    return [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            player=PlayerFactory(last_name=f"Spieler{i + 1:0{digits}d}", first_name=first_name),
        )
        for i in range(count)
    ]


@pytest.fixture
def cego_round(db):
    """13 players at tables of 4, 4 and 5 (Schwärzehof rules), one substitution at table 3."""
    tournament = TournamentFactory(
        name="Bräunlinger Cego-Turnier",
        venue="Stadthalle Bräunlingen",
        rules_slug="schwaerzehof",
        tables_of_5=True,
        deals_per_round=24,
    )
    categories = {1: Category.WOMAN, 3: Category.WOMAN, 5: Category.YOUTH}
    entries = [
        EntryFactory(
            tournament=tournament,
            number=i + 1,
            category=categories.get(i, Category.OPEN),
            player=PlayerFactory(last_name=last, first_name=first),
        )
        for i, (last, first) in enumerate(NAMES)
    ]
    round_, tables = seat_round(tournament, entries, [4, 4, 5])
    substitute = EntryFactory(
        tournament=tournament,
        number=14,
        player=PlayerFactory(last_name="Ersatzmann", first_name="Otto"),
    )
    seat = Seat.objects.get(table=tables[2], position=1)
    Substitution.objects.create(seat=seat, entry=substitute, from_deal=13, reason="ill")
    return {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "entries": entries,
        "substitute": substitute,
        "substituted_seat": seat,
    }


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("chef", "chef@example.org", "pw")
    client.force_login(user)
    # These tests read English labels; test_german_printouts checks the German default.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def pdf_pages(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def pdf_text(pdftotext: str, content: bytes, *, layout: bool = False) -> str:
    args = [pdftotext, *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(args, input=content, capture_output=True, check=True).stdout.decode()


def page_texts(pdftotext: str, content: bytes) -> list[str]:
    return pdf_text(pdftotext, content).split("\f")[: pdf_pages(content)]
