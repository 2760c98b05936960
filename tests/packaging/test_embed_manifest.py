"""The embeddable CPython's manifest (``packaging/windows/python-embed-amd64.sha256``): the
build refuses a file changed, added or missing; the data files in the standard library's zip
are checked against the hashes of the PSF's signed catalog; a maintainer's re-derivation from
the official zip writes the manifest, and compares a zip with it. (The build with the real
files and signatures: ``test_windows_bundle.py``.)"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import zipfile

import pytest

from tests.conftest import require_tool
from tests.servers import ROOT

WINDOWS = ROOT / "packaging" / "windows"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"cego_windows_{name}", WINDOWS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build():
    return load("build")


@pytest.fixture(scope="module")
def manifest():
    return load("embed_manifest")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def embeddable(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_the_checked_in_manifest_pins_the_whole_embeddable_cpython(manifest):
    pinned = manifest.read_manifest()
    for name in ("python.exe", "python312.dll", "python312.zip", "python312._pth", "python.cat"):
        assert name in pinned
    assert len(pinned) == 35
    text = manifest.MANIFEST.read_text()
    assert "NOT derived from python.org" in text  # says honestly where it came from


def test_the_build_refuses_a_file_changed_added_or_missing(build, manifest, tmp_path):
    python = tmp_path / "Python"
    python.mkdir()
    files = {"python.exe": b"MZ exe", "python312.zip": b"PK stdlib", "python312._pth": b"x\r\n"}
    for name, data in files.items():
        (python / name).write_bytes(data)
    pinned = tmp_path / "pinned.sha256"
    manifest.write_manifest({n: sha(d) for n, d in files.items()}, origin="a test", path=pinned)
    assert build.check_manifest(python, pinned) == 3

    (python / "python312.zip").write_bytes(b"PK another stdlib")
    with pytest.raises(SystemExit, match="other SHA-256: python312.zip"):
        build.check_manifest(python, pinned)
    (python / "python312.zip").write_bytes(files["python312.zip"])
    (python / "sitecustomize.py").write_text("import evil\n")
    with pytest.raises(SystemExit, match="not in the manifest: sitecustomize.py"):
        build.check_manifest(python, pinned)
    (python / "sitecustomize.py").unlink()
    (python / "python.exe").unlink()
    with pytest.raises(SystemExit, match="missing: python.exe"):
        build.check_manifest(python, pinned)


def test_the_stdlib_zip_s_data_files_must_be_in_the_signed_catalog(build, tmp_path):
    css, readme = b"body { color: black }\n", b"This directory exists so that 3rd party...\n"
    listed = [hashlib.sha256(css).digest(), hashlib.sha1(b"other").digest()]
    # A catalog's members as DER: OCTET STRINGs of 32 (SHA-256) and 20 (SHA-1) bytes.
    catalog = b"0\x82" + b"".join(bytes([4, len(h)]) + h for h in listed)
    python = tmp_path / "Python"
    python.mkdir()
    (python / "python.cat").write_bytes(catalog)
    stdlib = {"abc.pyc": b"\xcb\r\r\n", "pydoc_data/_pydoc.css": css}
    (python / "python312.zip").write_bytes(embeddable(stdlib))
    assert build.check_catalogued_members(python, "312") == 1  # the .pyc: no signature
    stdlib["site-packages/README.txt"] = readme
    (python / "python312.zip").write_bytes(embeddable(stdlib))
    with pytest.raises(SystemExit, match="README.txt is not in the PSF's signed python.cat"):
        build.check_catalogued_members(python, "312")


def test_a_maintainer_re_derives_the_manifest_from_the_official_zip(
    manifest, tmp_path, monkeypatch, capsys
):
    official = tmp_path / "python-3.12.9-embed-amd64.zip"
    official.write_bytes(embeddable({"python.exe": b"MZ", "python312.zip": b"PK"}))
    target = tmp_path / "python-embed-amd64.sha256"
    monkeypatch.setattr(manifest, "MANIFEST", target)
    assert manifest.main([str(official), "--write"]) == 0
    text = target.read_text()
    assert (
        f"Derived from the official {official.name}, SHA-256 {sha(official.read_bytes())}" in text
    )
    assert "unsigned" in text
    assert manifest.read_manifest(target) == {"python.exe": sha(b"MZ"), "python312.zip": sha(b"PK")}
    assert manifest.main([str(official)]) == 0
    assert "the same files as the manifest" in capsys.readouterr().out
    official.write_bytes(embeddable({"python.exe": b"MZ", "python312.zip": b"PK changed"}))
    assert manifest.main([str(official)]) == 1
    assert "other SHA-256: python312.zip" in capsys.readouterr().out


def test_a_bad_signature_stops_the_re_derivation(manifest, tmp_path, monkeypatch):
    official = tmp_path / "python-3.12.9-embed-amd64.zip"
    official.write_bytes(embeddable({"python.exe": b"MZ"}))
    asc = tmp_path / "python-3.12.9-embed-amd64.zip.asc"
    asc.write_text("-----BEGIN PGP SIGNATURE-----\nnot one\n-----END PGP SIGNATURE-----\n")
    target = tmp_path / "python-embed-amd64.sha256"
    monkeypatch.setattr(manifest, "MANIFEST", target)
    require_tool("gpg", "the manifest's re-derivation checks python.org's signature with it")
    with pytest.raises(SystemExit, match="no good signature"):
        manifest.main([str(official), "--asc", str(asc), "--write"])
    assert not target.exists()
