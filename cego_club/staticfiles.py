"""The static files' storage: whitenoise's compressed manifest storage, each address worked out
once.

Every page names its scripts and styles through ``{% static %}``; the manifest storage finds a
file's hashed name anew each time (splitting, unquoting and joining the address), some five
times a page. The manifest is read once when the process starts and does not change while it
runs, so an address, once worked out, is kept (a dict, as big as the files the pages name).
"""

from __future__ import annotations

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
