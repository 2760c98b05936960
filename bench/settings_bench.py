"""Settings for the HTTP benchmarks: the project's settings with DEBUG off and plain HTTP, as the
venue server runs them, and static files collected into the benchmark's scratch folder
(BENCH_STATIC_ROOT)."""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("HTTPS", "0")  # plain HTTP on 127.0.0.1, as the venue server

from cego_club.settings import *  # noqa: E402,F403

STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
