"""40 phones entering 24 deals each at once into the venue server (waitress, SQLite).

    .venv/bin/python bench/bench_venue_phones.py [PHONES] [DEALS]

Seeds a fresh venue data folder, starts `manage.py venue` on 127.0.0.1 (a free port), and
lets every phone (one per table, its own cookies) open its table, choose a seat and post its
deals through the phone form with CSRF, as fast as the server answers. Reports errors (there
must be none), the deals stored, and the time. Figures come from a shared machine (two cores
shared with other work): compare runs on one machine only.
"""

import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import Phone, clean_env, seed_venue, start_venue, stored  # noqa: E402


def main() -> int:
    phones = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "day"
        seeded = seed_venue(data, tables=phones, deals=deals, env=env)
        server = start_venue(data, log=Path(folder) / "venue.log", env=env)
        failures: list = []
        latencies: list[float] = []
        barrier = threading.Barrier(phones + 1)

        def play(table):
            try:
                phone = Phone(table["token"])
                phone.sit_down(server.url)
                barrier.wait()
                for number in range(1, deals + 1):
                    started = time.perf_counter()
                    status, location, page = phone.enter_deal(server.url, number)
                    latencies.append(time.perf_counter() - started)
                    if not stored(status, location, table["token"]):
                        failures.append((table["token"][:6], number, status, page[:120]))
            except Exception as error:  # noqa: BLE001 - reported below
                failures.append(repr(error))

        try:
            threads = [threading.Thread(target=play, args=(t,)) for t in seeded["tables"]]
            for thread in threads:
                thread.start()
            barrier.wait()
            started = time.perf_counter()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
        finally:
            server.stop()
        with sqlite3.connect(data / "db.sqlite3") as db:
            count = db.execute("SELECT count(*) FROM tournaments_deal").fetchone()[0]
        locked = server.output().count("database is locked")
    latencies.sort()
    print(f"venue server (waitress, SQLite): {phones} phones x {deals} deals, shared machine")
    print(f"  deals stored {count} of {phones * deals}, errors {len(failures)}, 'locked' {locked}")
    print(
        f"  {elapsed:.1f} s in all, {phones * deals / elapsed:.1f} deals/s; per deal (post + page): "
        f"median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {latencies[int(len(latencies) * 0.95)] * 1000:.0f} ms, "
        f"max {latencies[-1] * 1000:.0f} ms"
    )
    for failure in failures[:5]:
        print("  error:", failure)
    return 0 if not failures and count == phones * deals and not locked else 1


if __name__ == "__main__":
    sys.exit(main())
