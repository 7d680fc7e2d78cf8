"""docs/architecture.md as the code is: every file and folder it names exists, and the
layout keeps the sizes it states (no folder of tg_mafia/ over 15 modules, no module of
engine/ or tg_mafia/ over 600 lines)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
NAMED = re.compile(r"`((?:[\w.-]+/)+(?:[\w.-]+\.py)?)`|`([\w.-]+/[\w./-]*\.py)`")


def named_paths() -> set[str]:
    text = re.sub(r"```.*?```", "", PAGE.read_text(encoding="utf-8"), flags=re.S)
    return {a or b for a, b in NAMED.findall(text)}


def test_every_path_it_names_exists() -> None:
    package = ROOT / "tg_mafia"
    # A path is named from the root, from tg_mafia/, or from the package its paragraph is on.
    bases = (ROOT, package, *(package / name for name in ("telegram", "runtime", "render")),
             *(package / name for name in ("storage", "sandbox")))  # fmt: skip
    missing = [p for p in sorted(named_paths()) if not any((b / p).exists() for b in bases)]
    assert named_paths() and not missing, missing


def test_no_folder_over_15_modules() -> None:
    folders = {path.parent for path in (ROOT / "tg_mafia").rglob("*.py")}
    crowded = {f: n for f in folders if (n := len(list(f.glob("*.py")))) > 15}
    assert not crowded, crowded


def test_no_module_over_600_lines() -> None:
    modules = [*(ROOT / "engine").rglob("*.py"), *(ROOT / "tg_mafia").rglob("*.py")]
    long = {m.relative_to(ROOT): n for m in modules if (n := len(m.read_text().splitlines())) > 600}
    assert not long, long
