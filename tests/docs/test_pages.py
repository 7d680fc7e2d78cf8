"""The documentation as reference: docs/benchmarks.md is what benchmarks/report.py renders
from the stored results, no page carries a commit hash, and every link between the pages
leads somewhere."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks import report  # noqa: E402

PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        ROOT / "benchmarks" / "README.md",
        *(ROOT / "docs").rglob("*.md"),
    ]
)
# A word of 7 to 40 hexadecimal digits with a letter and a digit: how a commit is named.
HASH = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w/-])")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HELPERS = {"bot_process", "estimate", "machine", "real_play", "results", "report"}
BENCHMARKS = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem not in HELPERS)


def test_the_benchmarks_page_is_what_the_script_renders() -> None:
    rendered = report.render(report.load_runs())
    assert (ROOT / "docs" / "benchmarks.md").read_text() == rendered, (
        "run .venv/bin/python benchmarks/report.py"
    )
    assert rendered.count("\n") <= 300


def test_every_benchmark_has_a_section_and_a_current_result() -> None:
    assert {section.benchmark for section in report.SECTIONS} == set(BENCHMARKS)
    runs = report.load_runs()
    assert set(runs) == set(BENCHMARKS)
    for path in sorted(report.RESULTS.glob("*.json")):
        run = json.loads(path.read_text())
        assert path.name.startswith(run["benchmark"] + "-"), path.name
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", run["date"]), path.name
        assert run["machine"] and run["rows"], path.name
        assert run["command"].startswith(f".venv/bin/python benchmarks/{run['benchmark']}.py")


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_writes_json(name: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "--json PATH" in done.stdout


def test_a_run_s_json_renders(tmp_path: Path) -> None:
    """The engine benchmark, briefly, through --json and the report."""
    out = tmp_path / "engine_games-now.json"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "engine_games.py"), "--games", "3",
         "--repeats", "1", "--variant", "sport", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    run = json.loads(out.read_text())
    assert run["command"] == (
        ".venv/bin/python benchmarks/engine_games.py --games 3 --repeats 1 --variant sport"
    )
    page = report.render(report.load_runs(tmp_path))
    assert run["command"] in page and "| sport | 10 |" in page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_commit_hash(page: Path) -> None:
    found = HASH.findall(page.read_text(encoding="utf-8"))
    assert not found, f"{page.relative_to(ROOT)} names commits: {found}"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        assert found.exists(), f"{page.relative_to(ROOT)}: {target} does not exist"
        if anchor and found.suffix == ".md":
            assert anchor in anchors(found), f"{page.relative_to(ROOT)}: no #{anchor} in {path}"
