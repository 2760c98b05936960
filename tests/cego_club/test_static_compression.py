"""The venue collects the static files at every start: whitenoise's storage (cego_club/
staticfiles.py) compresses only the files without an up-to-date compressed copy, and every copy
it leaves holds what its file holds."""

import gzip
import os
import threading
import time

import pytest
from django.core.management import call_command
from whitenoise.compress import Compressor


@pytest.fixture
def static_folders(tmp_path, settings):
    source, root = tmp_path / "source", tmp_path / "collected"
    source.mkdir()
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = root
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "cego_club.platform.staticfiles.KeptAddressesStorage"},
    }
    return source, root


@pytest.fixture
def compressed(monkeypatch):
    """The files whitenoise compresses, by name."""
    names, lock = [], threading.Lock()
    compress = Compressor.compress

    def counted(self, path):
        with lock:
            names.append(os.path.basename(path))
        return compress(self, path)

    monkeypatch.setattr(Compressor, "compress", counted)
    return names


def collect():
    call_command("collectstatic", interactive=False, verbosity=0)


def text(name, words):
    return "\n".join(f"{name} {word} " * 20 for word in words)


def unzipped(path):
    return gzip.decompress(path.with_name(path.name + ".gz").read_bytes()).decode()


def test_a_second_start_compresses_nothing_and_a_changed_file_is_compressed_again(
    static_folders, compressed
):
    source, root = static_folders
    (source / "app.css").write_text(text(".tisch", range(40)))
    (source / "liesmich.txt").write_text(text("Cego", range(40)))
    collect()
    first = sorted(compressed)
    assert "liesmich.txt" in first and "app.css" in first
    assert any(name.startswith("app.") and name != "app.css" for name in first)  # hashed

    compressed.clear()
    collect()
    assert compressed == []  # the venue's second start: nothing compressed again
    hashed_css = next(root.glob("app.*.css"))
    assert unzipped(hashed_css) == hashed_css.read_text()

    (source / "liesmich.txt").write_text(text("Dreierles", range(40)))
    (source / "app.css").write_text(text(".runde", range(40)))
    later = time.time() + 5  # collectstatic copies a file changed in a later second only
    for changed in ("liesmich.txt", "app.css"):
        os.utime(source / changed, (later, later))
    compressed.clear()
    collect()
    assert "liesmich.txt" in compressed and "app.css" in compressed
    assert unzipped(root / "liesmich.txt") == text("Dreierles", range(40))
    for css in root.glob("app.*.css"):  # the new hashed file's copy, and the old one's kept
        assert unzipped(css) == css.read_text()
    assert len(list(root.glob("app.*.css"))) == 2
