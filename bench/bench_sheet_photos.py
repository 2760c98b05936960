"""From a photo's upload to the desk's confirm page (issue 42, the desk's side): a tournament of
40 tables (swm, 24 deals), each table's tick-box sheet printed as the print view prints it,
filled in and photographed by ``sheetreading.testset`` (2 MP and 12 MP, random angles, light
and blur), then sent through Django's request handling as the desk sends it (the round's
upload page: the QR code says the table) and the confirm page it redirects to opened, its row
crops fetched. Figures per photo: the upload (reading included), the reader alone, the confirm
page, its crops; and the confirmation (the sheet counted through the typed sheet's service).

    .venv/bin/python bench/bench_sheet_photos.py [--photos 10] [--seed 1]

A scratch SQLite database; the machine is shared with other work: the figures are indicative.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _support import build_tournament, scratch_database, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup_django(scratch_database("sqlite"))

    import numpy as np
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from printing.printouts import tick_sheets_pdf
    from sheetreading import layout as L
    from sheetreading import testset
    from tournaments.models import Deal, Seat, SheetPhoto
    from tournaments.rule_snapshot import rule_source_of
    from tournaments.seating import sitting_out_position

    tournament = build_tournament(players=160, rounds_played=0, rounds=1)
    from tournaments.services import draws

    round_ = draws.draw_next_round(tournament=tournament, number=1, seed=1)
    tournament.refresh_from_db()
    get_user_model().objects.create_superuser("bench", "", "pw")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(get_user_model().objects.get(username="bench"))
    pdf = tick_sheets_pdf(tournament=tournament, round_number=1, base_url="http://127.0.0.1")
    rules = rule_source_of(tournament)
    rng = np.random.default_rng(args.seed)
    tables = list(round_.tables.order_by("number"))
    upload_url = reverse("tournaments:desk_photos", args=[tournament.pk, 1])
    figures: dict[str, list[float]] = {
        k: [] for k in ("upload", "reader", "page", "crops", "confirm")
    }
    flagged_rows = counted = 0
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for index in range(args.photos):
        table = tables[index % len(tables)]
        size = Seat.objects.filter(table=table).count()
        layout = L.sheet_layouts(rules=rules, table_size=size, deals=tournament.deals_per_round)[0]
        blank = testset.render_blank(pdf, page=index % len(tables) + 1)
        filled, _truths = testset.fill_sheet(
            blank,
            rules=rules,
            layout=layout,
            rng=rng,
            sitting_out=lambda d, s=size: sitting_out_position(
                rules=rules, table_size=s, deal_number=d
            ),
        )
        settings = testset.random_settings(rng)
        settings.megapixels = 2.0 if index % 2 == 0 else 12.0
        photo = testset.photograph(filled, settings, rng)
        start = time.perf_counter()
        response = client.post(
            upload_url, {"photo": SimpleUploadedFile("bogen.jpg", photo, "image/jpeg")}
        )
        upload = time.perf_counter() - start
        if response.status_code != 302:
            print(f"photo {index} ({settings.megapixels:.0f} MP): refused {response.status_code}")
            continue
        start = time.perf_counter()
        page = client.get(response.url)
        shown = time.perf_counter() - start
        stored = SheetPhoto.objects.get(pk=int(response.url.rstrip("/").rsplit("/", 1)[1]))
        start = time.perf_counter()
        for row in stored.rows:
            client.get(
                reverse("tournaments:desk_photo_crop", args=[tournament.pk, stored.pk, row["deal"]])
            )
        crops = time.perf_counter() - start
        data = {"action": "confirm"}
        for row in stored.rows:
            n, values = row["deal"], row["values"]
            if row["accepted"]:
                data[f"counts_{n}"] = "on"
            data[f"declarer_{n}"] = "" if values["declarer"] is None else str(values["declarer"])
            data[f"contract_{n}"] = values["contract"] or ""
            points = values["declarer_points"]
            data[f"points_{n}"] = "" if points is None else str(points)
            data[f"won_{n}"] = "" if values["won"] is None else ("1" if values["won"] else "0")
        start = time.perf_counter()
        confirmed = client.post(response.url, data)
        confirm = time.perf_counter() - start
        assert page.status_code == 200 and confirmed.status_code == 302, confirmed.status_code
        figures["upload"].append(upload)
        figures["reader"].append(stored.seconds)
        figures["page"].append(shown)
        figures["crops"].append(crops)
        figures["confirm"].append(confirm)
        flagged_rows += sum(1 for row in stored.rows if row["flags"])
        counted += Deal.objects.filter(table=table).count()
        print(
            f"photo {index} ({settings.megapixels:.0f} MP, {len(photo) / 1e6:.1f} MB): upload "
            f"{upload:.2f} s (reader {stored.seconds:.2f} s), confirm page {shown * 1000:.0f} ms, "
            f"24 crops {crops * 1000:.0f} ms, confirmed {confirm * 1000:.0f} ms"
        )
    print()
    for name, values in figures.items():
        if values:
            print(
                f"{name:8} median {statistics.median(values):.3f} s, max {max(values):.3f} s "
                f"({len(values)} photos)"
            )
    total = [u + p for u, p in zip(figures["upload"], figures["page"], strict=True)]
    if total:
        print(f"upload to the confirm page: median {statistics.median(total):.3f} s")
    print(f"rows flagged: {flagged_rows}; deals counted: {counted}")
    print(f"load average after (1, 5, 15 min): {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    sys.exit(main())
