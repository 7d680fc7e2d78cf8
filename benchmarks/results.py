"""A benchmark's results as a JSON file (`--json PATH`): the date, the machine, the exact
command and the figures, which `benchmarks/report.py` renders into docs/benchmarks.md.

    {"benchmark": "load", "date": "2026-12-03", "machine": "...", "load_average": "1.1 ...",
     "command": ".venv/bin/python benchmarks/load.py --games 1000 ...", "rows": [{...}]}
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import machine

FOLDER = Path(__file__).resolve().parent / "results"


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        type=Path,
        metavar="PATH",
        help="also write the results to PATH (benchmarks/results/ holds the current ones; "
        "benchmarks/report.py renders them into docs/benchmarks.md)",
    )


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command that ran, as docs/benchmarks.md shows it: --json left out."""
    script, *args = list(sys.argv if argv is None else argv)
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--json":
            skip = True
        elif not arg.startswith("--json="):
            kept.append(arg)
    return shlex.join([".venv/bin/python", f"benchmarks/{Path(script).name}", *kept])


@dataclass(frozen=True)
class Run:
    """One run of a benchmark: when, where and how it started."""

    benchmark: str
    date: str
    machine: str
    load_average: str
    command: str

    @classmethod
    def begin(cls, benchmark: str) -> Run:
        today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
        return cls(benchmark, today, machine.name(), machine.load(), command_line())

    def write(self, path: Path | None, rows: Sequence[Mapping[str, Any]]) -> None:
        """The run and its rows to `path` (nothing when None)."""
        if path is None:
            return
        data = {
            "benchmark": self.benchmark,
            "date": self.date,
            "machine": self.machine,
            "load_average": self.load_average,
            "command": self.command,
            "rows": [dict(row) for row in rows],
        }
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"# results written to {path}", file=sys.stderr)
