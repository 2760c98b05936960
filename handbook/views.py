"""The handbook ("Hilfe"): the organiser's day in German, one page with a section per chapter.

Public and static: prose in the template, screenshots the browser tests take
(``tests/browser/test_handbook.py``) in ``handbook/static/handbook/screens/``. Nothing is
loaded from outside the app, so it reads at the venue without the internet.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

# The chapters in order: (anchor, title). The pages of the day link to these anchors.
CHAPTERS = [
    ("einrichten", "Einrichten"),
    ("erster-start", "Erster Start"),
    ("import", "Mitgliederliste importieren"),
    ("turnier", "Turnier anlegen, Voranmeldung und Anmeldung"),
    ("auslosung", "Auslosung"),
    ("spielblaetter", "Spielblätter drucken"),
    ("handys", "Handys an den Tischen"),
    ("runde", "Runde abschließen"),
    ("preise", "Preise und Preisgeld"),
    ("sicherung", "Datensicherung"),
    ("saison", "Saisonwertung und Finale"),
    ("saisonserver", "Der Saisonserver: Online-Anmeldung, Live-Ergebnisse, Kalender, Wertungszahl"),
    ("einsprueche", "Einsprüche und Sperren (Verband)"),
    ("fotos", "Ankreuzbogen drucken und Fotos lesen"),
]

# The pictures the handbook shows (``screens/<name>.png``), all taken by
# ``tests/browser/test_handbook_screens.py``; the page test checks the two lists agree.
SCREENS = (
    "start-hinweis",
    "erster-start",
    "erster-start-code",
    "naechste-schritte",
    "import-vereine",
    "import-fertig",
    "turnier-anlegen",
    "anmeldung",
    "einlass",
    "auslosung-spielerzahl",
    "auslosung",
    "uebersicht",
    "spielblatt",
    "handy-platz",
    "handy-spiel",
    "handy-bestaetigen",
    "runde-offen",
    "runde",
    "preisgeld",
    "abschluss",
)


def handbook(request: HttpRequest) -> HttpResponse:
    context = {"chapters": CHAPTERS, "in_german": (get_language() or "de").startswith("de")}
    return render(request, "handbook/handbook.html", context)
