"""Reading tick-box score sheets from photos (issue 42): the project's own test set, measured.

    .venv/bin/python bench/bench_sheet_reading.py --sheets 500 [--seed 1] [--save DIR]
        [--photos DIR [--shard K/N]]

Every sheet has its own random generator (the seed and the sheet's number): the same sheet
comes out whether it is made here or taken from ``--photos`` (a folder of sheets made before,
each photo with what was ticked; missing ones are made and kept there). ``--shard K/N`` only
makes the sheets whose number is K modulo N (several processes fill the folder at once) and
reads none: on a busy machine the photos are made once and two versions of the reader read
the same ones.

Each sheet: a table's tick-box sheet (printing.tick_sheets, drawn as for a tournament) rendered
at 10 px/mm, filled in as people do and photographed (sheetreading.testset: curved, tilted up
to 30°, rotated, shadows, blur, 2 or 12 MP, JPEG 50-95), then read (sheetreading.reader) with
the layout its QR code names. Figures:

- wrong deals accepted without a flag (goal 0): a row accepted whose record differs from what
  the players ticked, or a struck-out or desk-completed row accepted as a deal;
- rows read without a flag (goal >= 98 %): of the rows that are plain deals;
- seconds per sheet (goal < 1 s): the reader alone, from the JPEG's bytes to the rows.

Rule sources and tables rotate: swm at 4, Schwärzehof at 5 (the dealer sits out), Baumann &
Blümle at 3, CSG at 4. The CPU is shared with other work: the time is indicative.
"""

from __future__ import annotations

import argparse
import datetime
import os
import pickle
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cego_club.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.utils import translation  # noqa: E402

from printing.tick_sheets import tick_sheets_pdf  # noqa: E402
from rules.builtin_sources import load_builtin  # noqa: E402
from sheetreading import layout as L  # noqa: E402
from sheetreading import testset  # noqa: E402
from sheetreading.reader import Unreadable, read_sheet  # noqa: E402
from tournaments.selectors.sheets import (  # noqa: E402
    DealRow,
    Occupant,
    RoundSheets,
    SeatColumn,
    SheetPlayer,
    TableSheet,
)

TABLES = (("swm", 4), ("schwaerzehof", 5), ("bb2013", 3), ("csg2012", 4))
NAMES = ("Faller", "Blümle", "Schwarzwälder", "Öhler", "Baumann")
URL = "http://192.168.1.20:8000/t/K7M3Q{size}"


def blank_sheet(slug: str, size: int, deals: int = 24):
    rules = load_builtin(slug)
    table_rule = rules.tables[size]
    sits_out = table_rule.active < size
    seats = tuple(
        SeatColumn(position=i, occupants=(Occupant(SheetPlayer(i + 1, "Eva", NAMES[i]), 1),))
        for i in range(size)
    )
    rows = tuple(
        DealRow(
            number=n,
            dealer_position=(n - 1) % size,
            dealer=seats[(n - 1) % size].player,
            sits_out=sits_out,
            cells=(),
        )
        for n in range(1, deals + 1)
    )
    token = f"{slug}-{size}"
    table = TableSheet(
        number=size,
        token=token,
        entry_path=f"/t/{token}/",
        short_code=f"K7M3Q{size}",
        short_path=f"/t/K7M3Q{size}",
        voided=False,
        seats=seats,
        deals=rows,
        dealer_sits_out=sits_out,
        sitting_out_scores=table_rule.sitting_out_scores,
    )
    tournament = SimpleNamespace(
        name="Testturnier", date=datetime.date(2026, 11, 28), venue="", deals_per_round=deals
    )
    sheets = RoundSheets(
        tournament=tournament,
        round=SimpleNamespace(number=1),
        rules=rules,
        totals_only=False,
        tables=(table,),
    )
    with translation.override("de"):
        pdf = tick_sheets_pdf(sheets=sheets, base_url="http://192.168.1.20:8000", rules_name="x")
    layout = L.sheet_layouts(rules=rules, table_size=size, deals=deals)[0]

    def sitting_out(deal: int) -> int | None:
        return (deal - 1) % size if sits_out else None

    return rules, layout, testset.render_blank(pdf), sitting_out, URL.format(size=size)


def flag_key(flag: str) -> str:
    head, _colon, rest = flag.partition(":")
    if head in ("missing", "several", "desk"):
        return f"{head}:{rest}"
    if head == "doubtful":  # the groups with a doubtful box
        return "doubtful:" + "+".join(sorted({part.split("=")[0] for part in rest.split(",")}))
    return head


def describe_fills(row, truth) -> str:
    """The boxes that hold ink or were ticked: group=value fill/evenness state (truly)."""
    parts = []
    for b in row.boxes:
        mark = truth.marks.get((b.group, b.value))
        if b.state != "empty" or mark or b.fill >= 0.03:
            parts.append(
                f"{b.group}={b.value} {b.fill:.2f}/{b.evenness:.2f} {b.state}"
                + (f" (truly {mark})" if mark else "")
            )
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="keep every photo (and the misread rows) in this folder")
    parser.add_argument("--photos", help="sheets made before (made and kept when missing)")
    parser.add_argument("--shard", help="K/N: only make the sheets numbered K modulo N")
    args = parser.parse_args()
    blanks = [blank_sheet(slug, size) for slug, size in TABLES]
    photos = Path(args.photos) if args.photos else None
    if photos:
        photos.mkdir(parents=True, exist_ok=True)

    def sheet(number: int):
        """The photo of sheet ``number``, what its rows truly say and how it was taken."""
        kept = photos / f"sheet{args.seed}-{number:04d}.pickle" if photos else None
        if kept and kept.exists():
            return pickle.loads(kept.read_bytes())
        rng = np.random.default_rng([args.seed, number])
        rules, layout, blank, sitting_out, _url = blanks[number % len(blanks)]
        filled, truths = testset.fill_sheet(
            blank, rules=rules, layout=layout, rng=rng, sitting_out=sitting_out
        )
        settings = testset.random_settings(rng)
        made = (testset.photograph(filled, settings, rng), truths, settings)
        if kept:
            part = kept.with_suffix(f".{os.getpid()}.part")
            part.write_bytes(pickle.dumps(made))
            part.rename(kept)  # whole or not at all, whoever makes it first
        return made

    if args.shard:
        k, n = (int(part) for part in args.shard.split("/"))
        for number in range(k, args.sheets, n):
            sheet(number)
        return
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    counts = dict(
        rows=0, deals=0, accepted=0, wrong=0, struck_ok=0, desk_ok=0, impossible_ok=0, unreadable=0
    )
    flags: dict[str, int] = {}
    deal_flags: dict[str, int] = {}  # plain deals only: rows flagged for this reason
    doubtful: dict[str, int] = {}  # plain deals' doubtful boxes: group and what was truly there
    verbose = bool(os.environ.get("SHEET_BENCH_VERBOSE"))
    seconds = []
    for number in range(args.sheets):
        rules, layout, _blank, sitting_out, url = blanks[number % len(blanks)]
        photo, truths, settings = sheet(number)
        if save:
            (save / f"sheet{number:04d}.jpg").write_bytes(photo)

        def layout_for(text: str, page: int, url=url, layout=layout, rules=rules, so=sitting_out):
            if text != url or page != 0:
                raise Unreadable("wrong_sheet", text)
            return layout, rules, so

        start = time.perf_counter()
        try:
            reading = read_sheet(photo, layout_for=layout_for)
        except Unreadable as error:
            seconds.append(time.perf_counter() - start)
            counts["unreadable"] += 1
            counts["rows"] += len(truths)
            counts["deals"] += sum(t.kind == "deal" for t in truths)
            print(f"sheet {number}: unreadable ({error}) {settings}")
            continue
        seconds.append(time.perf_counter() - start)
        for truth, row in zip(truths, reading.rows, strict=True):
            counts["rows"] += 1
            counts["deals"] += truth.kind == "deal"
            if row.accepted:
                if truth.kind != "deal" or row.record != truth.record:
                    counts["wrong"] += 1
                    print(f"sheet {number} deal {truth.deal}: WRONG ACCEPT {settings}")
                    print(f"  true ({truth.kind}): {truth.record} {truth.notes}")
                    print(f"  read: {row.record}")
                    print(f"  {describe_fills(row, truth)}")
                else:
                    counts["accepted"] += 1
            else:
                if truth.kind == "deal":
                    # why a plain deal was flagged: each reason once per row
                    for key in {flag_key(flag) for flag in row.flags}:
                        deal_flags[key] = deal_flags.get(key, 0) + 1
                    for b in row.boxes:
                        if b.state == "doubtful":
                            mark = truth.marks.get((b.group, b.value), "empty")
                            key = f"{b.group}:{mark}"
                            doubtful[key] = doubtful.get(key, 0) + 1
                for flag in row.flags:
                    key = flag_key(flag)
                    flags[key] = flags.get(key, 0) + 1
                counts["struck_ok"] += truth.kind == "struck" and row.struck
                counts["desk_ok"] += truth.kind == "desk"
                counts["impossible_ok"] += truth.kind == "impossible"
                if truth.kind == "deal" and verbose:
                    print(f"sheet {number} deal {truth.deal}: flagged {row.flags} {truth.notes}")
                    print(f"  {describe_fills(row, truth)}")
    load = os.getloadavg()
    deals = max(counts["deals"], 1)
    print()
    print(f"sheets {args.sheets}, rows {counts['rows']}, plain deals {counts['deals']}")
    print(f"sheets unreadable (refused whole): {counts['unreadable']}")
    print(f"wrong deals accepted without a flag: {counts['wrong']}")
    print(
        f"plain deals read without a flag: {counts['accepted']} = "
        f"{100 * counts['accepted'] / deals:.2f} %"
    )
    print(f"struck-out rows recognised as struck: {counts['struck_ok']}")
    print(f"rows the desk completes, flagged: {counts['desk_ok']}")
    print(f"impossible rows (the engine refuses them), flagged: {counts['impossible_ok']}")
    print("flags (all rows):", dict(sorted(flags.items(), key=lambda kv: -kv[1])))
    print(
        "plain deals flagged, by reason:", dict(sorted(deal_flags.items(), key=lambda kv: -kv[1]))
    )
    print(
        "plain deals' doubtful boxes (group: truly there):",
        dict(sorted(doubtful.items(), key=lambda kv: -kv[1])),
    )
    seconds.sort()
    print(
        f"seconds per sheet: median {seconds[len(seconds) // 2]:.3f}, "
        f"90th percentile {seconds[int(len(seconds) * 0.9)]:.3f}, "
        f"95th percentile {seconds[int(len(seconds) * 0.95)]:.3f}, max {seconds[-1]:.3f}"
    )
    print(f"load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
