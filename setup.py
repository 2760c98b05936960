"""The build step pyproject.toml cannot say: the wheel carries compiled message catalogues.

The .mo files are build output (not committed); they are compiled here from the .po files with
the app's own pure-Python compiler (``cego_club/catalogues.py``, loaded by path: the build
environment has no Django), so a wheel built anywhere speaks German without GNU gettext, and
its installed folder is never written to.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
LOCALE = Path("cego_club") / "locale"


def _catalogues_module():
    spec = importlib.util.spec_from_file_location(
        "_cego_catalogues", ROOT / "cego_club" / "catalogues.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithCatalogues(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout, which compiles at start-up
        catalogues = _catalogues_module()
        pos = sorted((ROOT / LOCALE).glob("*/LC_MESSAGES/*.po"))
        if not pos:
            raise SystemExit(f"no message catalogues in {ROOT / LOCALE}")
        for po in pos:
            mo = Path(self.build_lib) / po.relative_to(ROOT).with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            messages = catalogues.parse_po(po.read_text(encoding="utf-8"))
            mo.write_bytes(catalogues.mo_bytes(messages))
            # Only the compiled catalogue: a .po newer than its .mo (installers set the times)
            # would make the app try to compile into the installed folder at every start.
            mo.with_suffix(".po").unlink(missing_ok=True)


setup(cmdclass={"build_py": BuildWithCatalogues})
