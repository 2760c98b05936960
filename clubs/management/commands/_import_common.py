"""Shared by ``import_players`` and ``import_results``: read the file, print the preview."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from clubs.models import Club
from clubs.services.imports import ERROR, STATUSES, Plan
from clubs.tabular import TabularError, read_table


def load(path: str):
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"{path}: no such file")
    try:
        return read_table(file.read_bytes(), file.name)
    except TabularError as error:
        raise CommandError(f"{path}: {error}") from error


def club_option(short_name: str | None) -> Club | None:
    if not short_name:
        return None
    club = Club.objects.filter(short_name__iexact=short_name).first()
    if club is None:
        raise CommandError(f"No club with the short name {short_name!r}.")
    return club


def print_plan(command, plan: Plan, *, show_total: bool = False) -> None:
    write = command.stdout.write
    for warning in plan.warnings:
        write(command.style.WARNING(f"! {warning}"))
    if plan.unknown_columns:
        write(f"columns not used: {', '.join(plan.unknown_columns)}")
    for row in plan.rows:
        parts = [f"line {row.line:>4}", f"{row.status:<9}", row.name]
        if row.club is not None:
            parts.append(
                f"[{row.club.short_name}{' ' + row.member_number if row.member_number else ''}]"
            )
        if show_total and row.total is not None:
            parts.append(f"{row.total:+d}")
        if row.player is not None:
            parts.append(f"-> #{row.player.pk} {row.player}")
            parts.append(
                f"(adds {', '.join(str(c) for c in row.changes)})" if row.changes else "(unchanged)"
            )
        if row.messages:
            parts.append("; ".join(str(m) for m in row.messages))
        line = "  ".join(parts)
        write(command.style.ERROR(line) if row.status == ERROR else line)
    write(", ".join(f"{plan.count(s)} {s}" for s in STATUSES))
