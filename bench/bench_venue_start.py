"""How long an organiser waits for the venue: ``manage.py venue --data DIR --port N --bind
127.0.0.1 --no-qr`` as an organiser starts it, until ``/health/`` answers 200, on a new data
folder (first start: the database made, the static files collected and compressed) and again
on the same folder (every later start of the day). Wall-clock seconds and the process's CPU
seconds (user + system, /proc) until that answer; min/median/max over --repeat folders.

    .venv/bin/python bench/bench_venue_start.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

from _support import ROOT, venue_folder
from bench_entry import cpu_seconds

sys.path.insert(0, str(ROOT))

from tests.servers import clean_env, free_port  # noqa: E402


def start_once(folder) -> tuple[float, float]:
    """Seconds until /health/ answers, and the server's CPU seconds by then."""
    port = free_port()
    env = clean_env(DJANGO_SETTINGS_MODULE="cego_club.settings")
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "venue", "--data", str(folder)]
        + ["--port", str(port), "--bind", "127.0.0.1", "--no-qr"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the venue stopped (exit {process.returncode})")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.perf_counter() - start > 600:
                raise RuntimeError("no answer within 10 minutes")
            time.sleep(0.05)
        return time.perf_counter() - start, cpu_seconds(process.pid)
    finally:
        process.terminate()
        process.wait(30)


def spread(values: list[float]) -> str:
    return "/".join(f"{v:.1f}" for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    first, again = [], []
    for _ in range(args.repeat):
        folder = venue_folder()
        try:
            first.append(start_once(folder))
            again.append(start_once(folder))
        finally:
            shutil.rmtree(folder.parent, ignore_errors=True)
    print(f"The venue's start until /health/ answers, min/median/max of {args.repeat}:")
    for label, runs in (("new data folder", first), ("same folder again", again)):
        print(
            f"  {label:18} {spread([wall for wall, _ in runs])} s"
            f"  (CPU {spread([cpu for _, cpu in runs])} s); load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
