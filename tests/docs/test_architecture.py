"""docs/architecture.md as the code is: every file and folder it names exists, the
layout keeps the sizes it states (no folder of tg_mafia/ over 15 modules, no module of
engine/ or tg_mafia/ over 600 lines), and the shell renders from the engine's views:
few of its modules hold the whole state, and render/ names no variant."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import VARIANTS

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


# The modules of the shell that may hold a game's whole state: the move (runtime/runner.py),
# where a stored state becomes views (runtime/gameview.py), and the rules' scenario bench.
STATE_HOLDERS_AT_MOST = 4


def test_few_modules_of_the_shell_hold_the_state() -> None:
    holders = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tg_mafia").rglob("*.py")
        if re.search(r"\bGameState\b", path.read_text(encoding="utf-8"))
    )
    assert len(holders) <= STATE_HOLDERS_AT_MOST, holders
    assert not [h for h in holders if h.startswith(("tg_mafia/render/", "tg_mafia/miniapp/"))]


def test_render_names_no_variant() -> None:
    """A variant's differences are traits of its engine object, or fields of the views:
    no module of render/ has a variant's name as a string."""
    named = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
        for path in sorted((ROOT / "tg_mafia" / "render").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in VARIANTS
    ]
    assert VARIANTS and not named, named
