"""A computer where WeasyPrint cannot be loaded (a Windows laptop without Pango): the server
starts, every tournament-day printout is served (they are drawn with ReportLab), and the three
documents made with WeasyPrint (season notice board, player list, tariff card) answer with a
German page that says why (503). WeasyPrint's import is made to fail; nothing is uninstalled."""

import importlib.abc
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.urls import reverse

from printing import pdf
from tests.factories import SeasonFactory
from tests.printing.conftest import pdf_text
from tests.printing.test_standings_printouts import played  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


class NoPango(importlib.abc.MetaPathFinder):
    """WeasyPrint installed, Pango not: its import fails as cffi fails to open the library."""

    def find_spec(self, name, path=None, target=None):
        if name == "weasyprint" or name.startswith("weasyprint."):
            raise OSError("cannot load library 'libgobject-2.0-0': error 0x7e")
        return None


@pytest.fixture(params=["not installed", "no Pango"])
def no_weasyprint(request, monkeypatch):
    pdf._html_class.cache_clear()
    for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    if request.param == "not installed":
        monkeypatch.setitem(sys.modules, "weasyprint", None)  # import raises ImportError
    else:
        monkeypatch.setattr(sys, "meta_path", [NoPango(), *sys.meta_path])
    with pytest.raises((ImportError, OSError)):
        import weasyprint  # noqa: F401
    yield request.param
    monkeypatch.undo()
    pdf._html_class.cache_clear()


@pytest.fixture
def german_organiser(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("chefin", "", None))
    return client


def test_the_weasyprint_downloads_say_so_in_german(german_organiser, no_weasyprint):
    season = SeasonFactory()
    for url in (
        reverse("printing:season_pdf", args=[season.pk]),
        reverse("printing:player_export_pdf"),
        reverse("printing:tariff_card_pdf", args=["swm"]),
    ):
        response = german_organiser.get(url)
        assert response.status_code == 503, url
        assert response["Content-Type"].startswith("text/html")
        page = response.content.decode()
        assert "Dieses PDF kann auf diesem Computer nicht erstellt werden" in page
        assert "Pango" in page and "Strg+P" in page
        assert "Spielblätter, Sitzplan, Tischkarten, Rangliste und Preisliste" in page


def test_every_tournament_day_printout_without_weasyprint(
    german_organiser,
    played,  # noqa: F811
    no_weasyprint,
    pdftotext,
):
    tournament = played["tournament"]
    expected = {
        "print_score_sheets": "Spielblatt",
        "print_seat_plan": "Sitzplan",
        "print_table_cards": "TISCH",
        "print_standings": "Rangliste",
        "print_prizes": "Preisliste",
    }
    for name, word in expected.items():
        args = (
            [tournament.pk] if name in ("print_standings", "print_prizes") else [tournament.pk, 1]
        )
        response = german_organiser.get(reverse(f"printing:{name}", args=args))
        assert response.status_code == 200, name
        assert response["Content-Type"] == "application/pdf"
        assert word in pdf_text(pdftotext, response.content), name
    assert "weasyprint" not in sys.modules or sys.modules["weasyprint"] is None


@pytest.mark.pdf
def test_a_fresh_server_without_weasyprint_serves_every_tournament_day_printout(tmp_path):
    """A new process whose WeasyPrint cannot be imported at all: Django starts, every URL and
    the venue command load, a round is drawn and each printout is fetched as the organiser."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["weasyprint"] = None  # any import of it fails
        import django
        django.setup()
        from django.core.management import call_command, load_command_class
        from django.urls import get_resolver
        get_resolver().url_patterns  # every view module imported
        load_command_class("venue", "venue")
        call_command("migrate", verbosity=0)
        from django.contrib.auth import get_user_model
        from django.test import Client
        from tests.factories import EntryFactory, TournamentFactory
        from tournaments.services import draws
        tournament = TournamentFactory(rules_slug="swm")
        for number in range(1, 9):
            EntryFactory(tournament=tournament, number=number, checked_in=True)
        draws.draw_next_round(tournament=tournament, number=1, seed=1)
        client = Client()
        client.force_login(get_user_model().objects.create_superuser("chef", "", None))
        for path in ("rounds/1/print/score-sheets.pdf", "rounds/1/print/seat-plan.pdf",
                     "rounds/1/print/table-cards.pdf", "print/standings.pdf", "print/prizes.pdf"):
            response = client.get(f"/tournaments/{tournament.pk}/{path}")
            assert response.status_code == 200, (path, response.status_code)
            assert response.content.startswith(b"%PDF"), path
            sys.stdout.buffer.write(response.content[-40:].strip() + b"\\n")
        print("weasyprint imported:", sys.modules["weasyprint"] is not None)
        """
    )
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cego_club.settings",
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'venue.sqlite3'}",
        "ALLOWED_HOSTS": "testserver",
        "PYTHONPATH": str(ROOT),
    }
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert sum("%%EOF" in line for line in lines) == 5  # five whole PDFs
    assert "weasyprint imported: False" in lines


@pytest.fixture
def pango_missing(monkeypatch):
    """WeasyPrint itself imported, cffi failing to open Pango's libraries (a Windows laptop):
    WeasyPrint's own code runs, prints its English banner and raises."""
    import cffi

    saved = {m: sys.modules[m] for m in list(sys.modules) if m.split(".")[0] == "weasyprint"}
    for name in saved:
        del sys.modules[name]
    pdf._html_class.cache_clear()

    def no_library(self, name, flags=0):
        raise OSError(f"cannot load library '{name}': error 0x7e")

    monkeypatch.setattr(cffi.FFI, "dlopen", no_library)
    yield
    monkeypatch.undo()
    for name in [m for m in sys.modules if m.split(".")[0] == "weasyprint"]:
        del sys.modules[name]
    sys.modules.update(saved)
    pdf._html_class.cache_clear()


def test_weasyprint_s_english_banner_stays_out_of_the_secretary_s_window(
    german_organiser, pango_missing, capsys
):
    for _attempt in range(2):  # each request tries the import again
        response = german_organiser.get(reverse("printing:tariff_card_pdf", args=["swm"]))
        assert response.status_code == 503
        assert (
            "Dieses PDF kann auf diesem Computer nicht erstellt werden" in response.content.decode()
        )
    printed = capsys.readouterr()
    assert pdf.BANNER not in printed.out + printed.err
    assert "courtbouillon" not in printed.out + printed.err


def test_other_output_during_the_import_is_handed_on(capsys):
    pdf._hand_on(
        "vorher\n\n-----\n\nWeasyPrint could not import some external libraries. Please "
        "carefully follow https://doc.courtbouillon.org/ \n\n-----\n\nnachher\n"
    )
    assert capsys.readouterr().out == "vorher\nnachher\n"
