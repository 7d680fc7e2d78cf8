"""Reads `radon cc --json` on stdin; exits 1, naming each one, when a function or method
is more complex than the limit (the first argument: cyclomatic complexity, as radon
counts it)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any


def blocks(found: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for block in found:
        if block["type"] in ("function", "method"):
            yield block
        yield from blocks(block.get("methods", []) + block.get("closures", []))


def main() -> int:
    limit = int(sys.argv[1])
    over: list[str] = []
    seen: set[tuple[str, int, str]] = set()  # radon lists a method in its class and alone
    for path, found in sorted(json.load(sys.stdin).items()):
        if isinstance(found, dict):  # radon could not read the file
            over.append(f"{path}: {found.get('error', found)}")
            continue
        for block in blocks(found):
            name = ".".join(filter(None, (block.get("classname"), block["name"])))
            if block["complexity"] > limit and (path, block["lineno"], name) not in seen:
                seen.add((path, block["lineno"], name))
                over.append(f"{path}:{block['lineno']}: {name} ({block['complexity']})")
    for line in over:
        print(f"complexity over {limit}: {line}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
