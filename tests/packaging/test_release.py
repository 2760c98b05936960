"""The release job (``packaging/release.py``, ``make release``): the wheel and the Windows zip
of this version, their SHA-256 sums and an SSH signature of each that ``ssh-keygen -Y verify``
accepts as the club runs it, and refuses a file changed after signing. Here with small stand-in
files and a key made for the test (CI runs the job on the files it built)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from cego_club import __version__
from tests.conftest import require_tool
from tests.servers import ROOT

RELEASE = ROOT / "packaging" / "release.py"


@pytest.fixture
def key(tmp_path) -> tuple[Path, Path]:
    keygen = require_tool("ssh-keygen", "the release is signed with OpenSSH (openssh-client)")
    private = tmp_path / "key" / "release"
    private.parent.mkdir()
    subprocess.run(
        [keygen, "-q", "-t", "ed25519", "-N", "", "-C", "release@cego-club", "-f", str(private)],
        check=True,
    )
    kind, public = Path(f"{private}.pub").read_text().split()[:2]
    allowed = tmp_path / "key" / "allowed_signers"
    allowed.write_text(f'# a comment\nrelease@cego-club namespaces="cego-club" {kind} {public}\n')
    return private, allowed


def release(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RELEASE), *args], capture_output=True, text=True, timeout=120
    )


def stand_ins(tmp_path: Path, release_version: str = __version__) -> tuple[Path, Path]:
    wheel = tmp_path / "built" / f"cego_club-{release_version}-py3-none-any.whl"
    archive = tmp_path / "built" / f"CegoClub-Windows-x64-{release_version}.zip"
    wheel.parent.mkdir()
    wheel.write_bytes(b"PK wheel " * 100)
    archive.write_bytes(b"PK windows " * 100)
    return wheel, archive


def club_checks(path: Path, allowed: Path) -> subprocess.CompletedProcess:
    """What the README tells the club to type (cmd: ``… < FILE``)."""
    with path.open("rb") as data:
        return subprocess.run(
            [
                "ssh-keygen",
                "-Y",
                "verify",
                "-f",
                str(allowed),
                "-I",
                "release@cego-club",
                "-n",
                "cego-club",
                "-s",
                f"{path}.sig",
            ],  # fmt: skip
            stdin=data,
            capture_output=True,
            text=True,
        )


def test_the_release_holds_its_files_their_sums_and_signatures(key, tmp_path):
    private, allowed = key
    wheel, archive = stand_ins(tmp_path)
    out = tmp_path / "release"
    done = release(
        "--trial", "--key", str(private), "--allowed-signers", str(allowed),
        "--wheel", str(wheel), "--windows-zip", str(archive), "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    names = sorted(path.name for path in out.iterdir())
    files = [wheel.name, archive.name, "SHA256SUMS"]
    assert names == sorted([*files, *(f"{name}.sig" for name in files)])
    sums = (out / "SHA256SUMS").read_text().splitlines()
    assert sums == [
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}" for path in (wheel, archive)
    ]
    for name in files:
        checked = club_checks(out / name, allowed)
        assert checked.returncode == 0 and checked.stdout.startswith(
            'Good "cego-club" signature for release@cego-club with ED25519 key'
        ), checked.stderr

    # A file changed after signing is refused, and so is a signature by another key.
    (out / archive.name).write_bytes(archive.read_bytes() + b"!")
    assert club_checks(out / archive.name, allowed).returncode != 0
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    subprocess.run(
        [
            "ssh-keygen",
            "-q",
            "-Y",
            "sign",
            "-f",
            str(other),
            "-n",
            "cego-club",
            str(out / wheel.name),
        ],
        check=True,
        input="y\n",  # overwrite the .sig
        text=True,
    )
    assert club_checks(out / wheel.name, allowed).returncode != 0


def test_no_release_without_the_public_key_or_of_another_version(key, tmp_path):
    private, allowed = key
    wheel, archive = stand_ins(tmp_path, "0.0.1")
    no_key = tmp_path / "allowed_signers"
    no_key.write_text("# nothing yet\n")
    done = release(
        "--trial", "--key", str(private), "--allowed-signers", str(no_key),
        "--wheel", str(wheel), "--windows-zip", str(archive), "--out", str(tmp_path / "r"),
    )  # fmt: skip
    assert done.returncode != 0 and "holds no public key" in done.stderr
    done = release(
        "--trial", "--key", str(private), "--allowed-signers", str(allowed),
        "--wheel", str(wheel), "--windows-zip", str(archive), "--out", str(tmp_path / "r"),
    )  # fmt: skip
    assert done.returncode != 0 and "built from another version?" in done.stderr
    assert not (tmp_path / "r").exists()


def test_the_repository_names_the_release_key_file_and_the_changelog_this_version():
    text = (ROOT / "packaging" / "release" / "allowed_signers").read_text()
    assert "release@cego-club" in text
    assert f"\n## {__version__}" in (ROOT / "CHANGELOG.md").read_text()
