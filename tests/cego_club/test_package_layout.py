"""Templates, static files and message catalogues live in the ``cego_club`` package, where the
wheel carries them and the settings look. A file added at the old places at the repository
root (a branch from before the move, merged) would be found by neither: this names it."""

from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_is_left_at_the_old_places():
    stray = [
        str(path.relative_to(ROOT))
        for folder in ("templates", "static", "locale")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix != ".mo"  # old compiled catalogues are not tracked
    ]
    assert not stray, "move these into cego_club/ (git mv): " + ", ".join(sorted(stray))


def test_the_settings_look_in_the_package():
    package = Path(settings.PACKAGE_DIR)
    assert package == ROOT / "cego_club"
    assert settings.TEMPLATES[0]["DIRS"] == [package / "templates"]
    assert list(settings.LOCALE_PATHS) == [package / "locale"]
    assert (package / "templates" / "base.html").exists()
    assert (package / "static" / "css" / "app.css").exists()


def test_every_app_of_the_project_is_packaged():
    """A new app missing from pyproject's package list installs as nothing: the installed
    venue would not start. (The handbook was nearly merged that way.)"""
    import tomllib

    from django.apps import apps

    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    ours = [config.name for config in apps.get_app_configs() if (ROOT / config.name).is_dir()]
    assert ours and all(f"{name}*" in include for name in ours), (ours, include)
    starter = (ROOT / "start_cego_club.py").read_text()
    assert all(f'"{name}",' in starter for name in ours)
