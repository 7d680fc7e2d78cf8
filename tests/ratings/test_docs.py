"""docs/ratings.md shows the worked example its script prints today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_worked_example_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("ratings_example", DOCS / "ratings_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (DOCS / "ratings.md").read_text(encoding="utf-8")
    shown = text.split("<!-- example: begin -->\n")[1].split("<!-- example: end -->")[0]
    assert shown == module.example()
