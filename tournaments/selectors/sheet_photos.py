"""Photos of tick-box sheets (issue 42) as the desk's pages list them: one query each, the
pictures themselves never loaded."""

from __future__ import annotations

from tournaments.models import Round, SheetPhoto, Table


def waiting_photo_count(*, round: Round) -> int:
    """How many photos of the round's sheets wait for the desk."""
    return SheetPhoto.objects.filter(table__round=round, state=SheetPhoto.State.READ).count()


def round_photos(*, round: Round, table: Table | None = None) -> list[SheetPhoto]:
    """The round's photos (or one table's), newest first, without their pictures."""
    photos = SheetPhoto.objects.filter(table__round=round).select_related(
        "table", "uploaded_by", "decided_by"
    )
    if table is not None:
        photos = photos.filter(table=table)
    return list(photos.defer("photo", "straightened").order_by("-uploaded_at", "-pk"))


def latest_photo(*, table: Table) -> SheetPhoto | None:
    """The table's newest photo, without its pictures."""
    return (
        SheetPhoto.objects.filter(table=table).defer("photo", "straightened").order_by("pk").last()
    )
