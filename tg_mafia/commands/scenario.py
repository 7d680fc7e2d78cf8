"""`tg-mafia scenario PATH...`: run scenario files, one line each."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tg_mafia.commands.arguments import examples, fail
from tg_mafia.scenario import ScenarioError, load_scenario, run_scenario, scenario_files


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "scenario",
        help="run rule scenario files (YAML)",
        description="Play each scenario file (a table, its moves and what must happen) in the "
        "rules engine and print PASS or FAIL with the reason. Exit 0 when all pass, 1 when one "
        "fails, 2 when one cannot be read.",
        epilog=examples(
            "tg-mafia scenario tests/scenarios",
            "tg-mafia scenario tests/scenarios/classic-dead-cannot-vote.yaml",
        ),
    )
    parser.add_argument("paths", nargs="+", type=Path, help="files, or folders of *.yaml")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    missing = [path for path in args.paths if not path.exists()]
    if missing:
        return fail("scenario", f"no such file or folder: {missing[0]}")
    passed = failed = unreadable = 0
    for path in scenario_files(args.paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            print(f"ERROR {path}: {error}")
            unreadable += 1
            continue
        failure = run_scenario(scenario)
        if failure is None:
            print(f"PASS {path}")
            passed += 1
        else:
            print(f"FAIL {path}: {failure}")
            failed += 1
    print(f"{passed} passed, {failed + unreadable} failed")
    if unreadable:
        return 2
    return 1 if failed else 0
