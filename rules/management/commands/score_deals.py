"""``python manage.py score_deals < deals.jsonl > scores.jsonl`` (shared/spec/deal-record.md).

Reads deal records as JSON Lines on standard input and writes one result line per record, in
the same order, on standard output. Streams: one line in, one line out, constant memory.

- Rule slugs are looked up with :func:`rules.registry.batch_rule_source` (built-in sources
  without the database, then the clubs' house rules); each slug once per run. An unknown slug
  gives an ``error`` line; so does a house-rule slug while the database cannot be read (it
  says to run ``manage.py migrate`` when that is the cause). The batch goes on either way.
- A line longer than ``scoring.batch.MAX_LINE_LENGTH`` bytes gives an ``error`` line; it is
  read in pieces and never held in memory whole.
- Blank lines (empty or only whitespace) carry no record: they are skipped and give no output
  line (the engine's rule, ``scoring/DECISIONS.md``). Every other line gives exactly one line.
- Input is read as UTF-8; a line that is not valid UTF-8 gives an ``error`` line.
- The exit status is 1 when any line failed (its error is on its own output line; a summary
  goes to standard error), 0 otherwise.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

from rules.registry import batch_rule_source
from scoring.batch import MAX_LINE_LENGTH, score_lines

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


class _Utf8Lines:
    """Decodes each input line as UTF-8 for the batch scorer.

    A line that is not UTF-8, or longer than MAX_LINE_LENGTH bytes, is handed on as ``null``
    (which the scorer rejects, keeping the one-line-per-record order) and its problem is kept
    in :attr:`bad`, so the command writes its own error line for it instead of the scorer's.
    Lines are read with a size limit, so a huge line never sits in memory whole.
    """

    def __init__(self, raw: io.BufferedIOBase) -> None:
        self.raw = raw
        self.bad: str | None = None

    def _lines(self) -> Iterator[bytes | None]:
        """Each line, or None for one longer than the limit (its rest read and dropped)."""
        readline = self.raw.readline
        while True:
            line = readline(MAX_LINE_LENGTH + 1)
            if not line:
                return
            if len(line) <= MAX_LINE_LENGTH or line.endswith(b"\n"):
                yield line
                continue
            while line and not line.endswith(b"\n"):
                line = readline(1 << 16)
            yield None

    def __iter__(self) -> Iterator[str]:
        for line in self._lines():
            if line is None:
                self.bad = (
                    f"line: is longer than {MAX_LINE_LENGTH} bytes, the limit for one deal record"
                )
                yield "null"
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as error:
                self.bad = (
                    f"line: is not valid UTF-8 (byte 0x{line[error.start]:02x} at column "
                    f"{error.start + 1})"
                )
                yield "null"
                continue
            if self.bad is not None:
                self.bad = None
            yield text


class Command(BaseCommand):
    help = (
        "Score deal records: JSON Lines on standard input, one result line per record on "
        "standard output (blank lines are skipped); exit status 1 if any line failed."
    )
    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)

    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin")
        decoder = None
        if stdin is not None:
            lines: Iterable[str] = stdin
        elif hasattr(sys.stdin, "buffer"):
            lines = decoder = _Utf8Lines(sys.stdin.buffer)
        else:
            lines = sys.stdin

        own_output = None
        if options.get("stdout") is not None:
            out: TextIO = options["stdout"]
        elif hasattr(sys.stdout, "buffer"):
            sys.stdout.flush()
            # our own UTF-8 writer over the same byte buffer, whatever the locale says;
            # detached (not closed) at the end
            own_output = io.TextIOWrapper(
                sys.stdout.buffer, encoding="utf-8", errors="backslashreplace", newline="\n"
            )
            out = own_output
        else:
            out = sys.stdout

        write = out.write
        total = failed = 0
        try:
            for line, ok in score_lines(lines, batch_rule_source):
                if decoder is not None and decoder.bad is not None:
                    line, ok = _dumps({"error": decoder.bad}), False
                write(line)
                write("\n")
                total += 1
                if not ok:
                    failed += 1
            out.flush()
        except BrokenPipeError:
            # the reader went away (e.g. ``| head``): stop quietly, without a traceback
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise CommandError(
                "standard output was closed; scoring stopped", returncode=1
            ) from None
        finally:
            if own_output is not None:
                with contextlib.suppress(ValueError):
                    own_output.detach()  # keep sys.stdout.buffer open
        if failed:
            raise CommandError(f"{failed} of {total} deal records failed", returncode=1)
