"""``make release``: the files of one release, their SHA-256 sums and their signatures, in
``dist/release-<version>/`` (nothing is tagged or uploaded here).

    cego_club-<version>-py3-none-any.whl        the app for pipx / pip (Linux, macOS, Windows)
    CegoClub-Windows-x64-<version>.zip          Windows without Python (make windows-bundle)
    SHA256SUMS                                  their SHA-256 sums (``sha256sum -c SHA256SUMS``)
    <each of the three>.sig                     its SSH signature (namespace ``cego-club``)

The wheel is built from a clean export of the commit (``git archive HEAD``: no compiled
catalogues, no build leftovers), as CI installs it; the zip by ``packaging/windows/build.py``
(or both given with ``--wheel`` / ``--windows-zip``, e.g. what CI built already). A release
needs its ``CHANGELOG.md`` entry (``## <version>``), a clean work tree, and the release key.

**Signatures.** SSH signatures (OpenSSH's ``ssh-keygen -Y sign``, an Ed25519 key): the club
checks them with ``ssh-keygen -Y verify``, which Windows 10 and 11 bring with their OpenSSH
client, as do macOS and Linux: no tool to install (the README says how). Authenticode (what
``osslsigncode`` checks for the PSF's python.exe in the Windows build) needs a code-signing
certificate bought from a certificate authority, and a self-signed one only makes Windows
say "unknown publisher"; GPG and minisign need a program Windows does not have. The private key
never lives in the repository: ``--key FILE`` (or ``CEGO_RELEASE_KEY``), its public half in
``packaging/release/allowed_signers``, against which every signature is checked before the
release counts as made (``--allowed-signers`` names another file: CI signs with a key made for
the run, to prove the job, not a release). ``--new-key FILE`` makes the key pair once and
writes its public line into that file (to be committed).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ALLOWED_SIGNERS = HERE / "release" / "allowed_signers"
IDENTITY = "release@cego-club"
NAMESPACE = "cego-club"
SUMS = "SHA256SUMS"


def say(message: str) -> None:
    print(f"release: {message}", flush=True)


def fail(message: str) -> None:
    raise SystemExit(f"release: {message}")


def version() -> str:
    text = (ROOT / "cego_club" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if not match:
        fail("cego_club/__init__.py names no __version__")
    return match.group(1)


def changelog_has(release: str) -> bool:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.search(rf"^## {re.escape(release)}\b", text, re.MULTILINE) is not None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def public_keys(allowed: Path) -> list[str]:
    """The key lines of an allowed_signers file (comments and blank lines left out)."""
    if not allowed.is_file():
        return []
    lines = allowed.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def signer_line(public_key: str) -> str:
    kind, key = public_key.split()[:2]
    return f'{IDENTITY} namespaces="{NAMESPACE}" {kind} {key}'


def new_key(path: Path, allowed: Path) -> None:
    """The release key pair, once: the private key at ``path`` (ssh-keygen asks for its
    passphrase), its public line added to ``allowed``."""
    if path.exists():
        fail(f"{path} exists already: a release key is made once")
    subprocess.run(["ssh-keygen", "-t", "ed25519", "-C", IDENTITY, "-f", str(path)], check=True)
    public = Path(f"{path}.pub").read_text(encoding="utf-8")
    allowed.parent.mkdir(parents=True, exist_ok=True)
    text = allowed.read_text(encoding="utf-8") if allowed.exists() else ""
    allowed.write_text(text + signer_line(public) + "\n", encoding="utf-8")
    fingerprint = subprocess.run(
        ["ssh-keygen", "-l", "-f", f"{path}.pub"], check=True, capture_output=True, text=True
    ).stdout.split()[1]
    say(f"key {path} made; its public line is in {allowed}: commit it, and put its")
    say(f"fingerprint {fingerprint} into the README's 'Download and check'")


def sign(path: Path, key: Path) -> Path:
    # A key with a passphrase: ssh-keygen asks for it on the terminal.
    subprocess.run(
        ["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", NAMESPACE, str(path)],
        check=True,
    )
    return Path(f"{path}.sig")


def verify(path: Path, allowed: Path) -> str:
    """``ssh-keygen -Y verify`` as the club runs it; returns its answer, fails without
    "Good"."""
    with path.open("rb") as data:
        done = subprocess.run(
            [
                "ssh-keygen",
                "-Y",
                "verify",
                "-f",
                str(allowed),
                "-I",
                IDENTITY,
                "-n",
                NAMESPACE,
                "-s",
                f"{path}.sig",
            ],  # fmt: skip
            stdin=data,
            capture_output=True,
            text=True,
        )
    answer = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or not answer.startswith("Good"):
        fail(f"the signature of {path.name} does not check out: {answer}")
    return answer


def build_wheel(work: Path) -> Path:
    """The wheel from a clean export of HEAD (as .ci/run builds the one it installs)."""
    source = work / "source"
    source.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    say("building the wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "--disable-pip-version-check",
            "-w",
            str(work / "wheel"),
            str(source),
        ],  # fmt: skip
        check=True,
    )
    (wheel,) = (work / "wheel").glob("cego_club-*.whl")
    return wheel


def build_windows_zip(work: Path) -> Path:
    say("building the Windows zip (packaging/windows/build.py)")
    subprocess.run(
        [sys.executable, str(HERE / "windows" / "build.py"), "--out", str(work / "windows")],
        check=True,
    )
    (archive,) = (work / "windows").glob("CegoClub-Windows-x64-*.zip")
    return archive


def clean_tree() -> bool:
    changed = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True
    )
    return changed.returncode == 0 and not changed.stdout.strip()


def make_release(
    *,
    key: Path,
    allowed: Path,
    out: Path,
    wheel: Path | None,
    windows_zip: Path | None,
    trial: bool,
) -> Path:
    release = version()
    if not changelog_has(release):
        fail(f"CHANGELOG.md has no entry '## {release}': what changed, how to update")
    if not trial and not clean_tree():
        fail("the work tree has changes: a release is built from a commit")
    if not public_keys(allowed):
        fail(f"{allowed} holds no public key: make the release key once (--new-key FILE)")
    if not key.is_file():
        fail(f"no release key {key} (--key FILE or CEGO_RELEASE_KEY)")
    with tempfile.TemporaryDirectory(prefix="cego-release-") as scratch:
        work = Path(scratch)
        wheel = wheel or build_wheel(work)
        windows_zip = windows_zip or build_windows_zip(work)
        expected = {
            wheel: f"cego_club-{release}-py3-none-any.whl",
            windows_zip: f"CegoClub-Windows-x64-{release}.zip",
        }
        for path, name in expected.items():
            if path.name != name:
                fail(f"{path.name} is not {name}: built from another version?")
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        files = [Path(shutil.copy2(path, out / name)) for path, name in expected.items()]
    sums = out / SUMS
    sums.write_text("".join(f"{sha256(path)}  {path.name}\n" for path in files), encoding="utf-8")
    for path in [*files, sums]:
        sign(path, key)
        say(f"{path.name}: {verify(path, allowed)}")
    say(f"release {release} in {out}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--key", type=Path, default=os.environ.get("CEGO_RELEASE_KEY"))
    parser.add_argument("--allowed-signers", type=Path, default=ALLOWED_SIGNERS)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--wheel", type=Path, help="a wheel built already")
    parser.add_argument("--windows-zip", type=Path, help="a Windows zip built already")
    parser.add_argument(
        "--trial", action="store_true", help="a trial run (CI): the work tree may have changes"
    )
    parser.add_argument("--new-key", type=Path, help="make the release key pair once")
    options = parser.parse_args(argv)
    if options.new_key:
        new_key(options.new_key, options.allowed_signers)
        return 0
    if options.key is None:
        fail("name the release key: --key FILE (or CEGO_RELEASE_KEY)")
    make_release(
        key=options.key,
        allowed=options.allowed_signers,
        out=options.out or ROOT / "dist" / f"release-{version()}",
        wheel=options.wheel,
        windows_zip=options.windows_zip,
        trial=options.trial,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
