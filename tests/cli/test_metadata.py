"""pyproject.toml says what the package is, in figures the code holds."""

from __future__ import annotations

import tomllib
from pathlib import Path

from trove_classifiers import classifiers as known

from engine.variants import VARIANTS
from tg_mafia.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
WORDS = {4: "four", 5: "five", 6: "six", 7: "seven"}
LANGUAGE_NAMES = {
    "en": "English",
    "fr": "French",
    "ro": "Romanian",
    "ru": "Russian",
    "vi": "Vietnamese",
}


def test_the_description_counts_the_variants_and_languages() -> None:
    description = PROJECT["description"]
    assert f"{WORDS[len(VARIANTS)]} rule variants" in description
    assert f"{WORDS[len(LANGUAGES)]} languages" in description


def test_the_classifiers_are_pypi_s_and_name_every_language() -> None:
    classifiers = PROJECT["classifiers"]
    assert set(classifiers) <= known
    natural = "Natural Language :: "
    spoken = {c.removeprefix(natural) for c in classifiers if c.startswith(natural)}
    assert spoken == {LANGUAGE_NAMES[code] for code in LANGUAGES}


def test_the_python_classifiers_match_requires_python() -> None:
    lowest = PROJECT["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {lowest}" in PROJECT["classifiers"]
