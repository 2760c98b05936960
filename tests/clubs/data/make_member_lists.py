"""Writes the member list as clubs send it (``mitgliederliste.csv``, ``mitgliederliste.xlsx``).

Run from the repository root: ``python tests/clubs/data/make_member_lists.py``. The files
are committed; this script says how they were made. 11 lines naming three clubs, none spelt
as the demo spells them ("Cego-Club Bräunlingen" is "Cegofreunde Bräunlingen"), two lines
without a last name, one person twice: 8 players. Anna Kaltenbach and Bernd Faller are demo
players (members of Cegofreunde Bräunlingen).
"""

import datetime as dt
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).parent
TITLE = "Mitgliederliste der Cego-Vereine, Stand 01.11.2026"
HEADER = ["Nr.", "Name", "Vorname", "Verein", "Jahrgang", "Kategorie", "Eintritt", "E-Mail"]
LINES = [
    [1, "Kaltenbach", "Anna", "Cego-Club Bräunlingen", 1945, "Damen", "01.01.1990", ""],
    [2, "Faller", "Bernd", "Cego-Club Bräunlingen", 1952, "", "01.02.1991", ""],
    [3, "Schwär", "Lena", "Cego-Club Bräunlingen", 2010, "Jugend", "15.09.2022", ""],
    [4, "", "Karl", "Cego-Club Bräunlingen", 1966, "", "", ""],
    [5, "Kienzler", "Bernhard", "Cegofreunde Triberg", 1948, "Senioren", "01.03.1975", ""],
    [6, "Dold", "Ursula", "Cegofreunde Triberg", 1972, "Damen", "", "ursula.dold@example.org"],
    [7, "Kienzler", "Bernhard", "Cegofreunde Triberg", 1948, "Senioren", "01.03.1975", ""],
    [8, "Faller", "Otto", "Cegofreunde Triberg", 1965, "", "", ""],
    [9, "Hettich", "Margarete", "Cego Vöhrenbach e.V.", 1958, "Damen", "", ""],
    [10, "Ketterer", "Franz", "Cego Vöhrenbach e.V.", 1983, "", "", ""],
    [11, "", "Gisela", "Cego Vöhrenbach e.V.", 1971, "Damen", "", ""],
]


def write_csv() -> None:
    # As German Excel saves "CSV (Trennzeichen-getrennt)": semicolons, Windows-1252, CRLF.
    rows = [[TITLE] + [""] * (len(HEADER) - 1), HEADER, *LINES]
    text = "\r\n".join(";".join(str(cell) for cell in row) for row in rows) + "\r\n"
    (HERE / "mitgliederliste.csv").write_bytes(text.encode("cp1252"))


def write_xlsx() -> None:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Mitglieder"
    sheet.append([TITLE])
    sheet.append([])
    sheet.append(HEADER)
    for line in LINES:
        since = dt.datetime.strptime(line[6], "%d.%m.%Y") if line[6] else None
        sheet.append([*line[:6], since, line[7] or None])
    workbook.properties.created = dt.datetime(2026, 11, 1)  # the same bytes every run
    workbook.properties.modified = dt.datetime(2026, 11, 1)
    workbook.save(HERE / "mitgliederliste.xlsx")


if __name__ == "__main__":
    write_csv()
    write_xlsx()
