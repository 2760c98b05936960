"""The static files' storage: whitenoise's compressed manifest storage, each address worked out
once.

Every page names its scripts and styles through ``{% static %}``; the manifest storage finds a
file's hashed name anew each time (splitting, unquoting and joining the address), some five
times a page. The manifest is read once when the process starts and does not change while it
runs, so an address, once worked out, is kept (a dict, as big as the files the pages name).
"""

from __future__ import annotations

import os

from whitenoise.storage import CompressedManifestStaticFilesStorage


class KeptAddressesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._addresses: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if force or name is None:
            return super().url(name, force)
        address = self._addresses.get(name)
        if address is None:
            address = super().url(name)
            self._addresses[name] = address
        return address

    def compress_files(self, paths):
        """whitenoise's, for the files without an up-to-date compressed copy: the venue collects
        the static files at every start, and whitenoise compressed all of them each time
        (Brotli at its best: some 8 s of processor time on the organiser's laptop).

        A hashed name (``app.1f2e3d4c5b6a.css``) names its content, so a compressed copy of
        it is that content's. Django writes the scripts and styles under their hashed names
        anew on every run, same content; their copies stay. An original name is compressed
        again when its file's modification time is not its copy's (whitenoise gives a copy
        its file's time; collectstatic leaves an unchanged file alone)."""
        hashed = set(self.hashed_files.values())
        return super().compress_files(
            [path for path in paths if not self._compressed(path, hashed=path in hashed)]
        )

    def _compressed(self, path: str, *, hashed: bool) -> bool:
        full_path = self.path(path)
        try:
            modified = os.stat(full_path).st_mtime
        except OSError:
            return False
        copies = 0
        for suffix in (".br", ".gz"):
            try:
                copy_modified = os.stat(full_path + suffix).st_mtime
            except FileNotFoundError:
                continue
            if not hashed and abs(copy_modified - modified) > 0.001:
                return False
            copies += 1
        return copies > 0
