"""Setuptools hook (pyproject `[tool.setuptools.cmdclass]`): ship the
catalogues inside the package, as `tg_mafia/locales/`, in every wheel, and
put them in the sdist so a wheel built from it has them too. A checkout reads
them from here, so nothing is copied back into the source tree."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools.command.build_py import build_py  # type: ignore[import-untyped,unused-ignore]

_HERE = Path(__file__).resolve().parent


def _catalogues() -> list[Path]:
    return sorted([_HERE / "tg_mafia.pot", *_HERE.glob("*/LC_MESSAGES/tg_mafia.po")])


class BuildPyWithLocales(build_py):  # type: ignore[misc,unused-ignore]
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "tg_mafia" / "locales"
        for source in _catalogues():
            destination = target / source.relative_to(_HERE)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)

    def get_source_files(self) -> list[str]:
        root = _HERE.parent
        extra = [Path(__file__).resolve(), *_catalogues()]
        return [*super().get_source_files(), *(path.relative_to(root).as_posix() for path in extra)]
