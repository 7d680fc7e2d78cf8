"""The line a benchmark prints about the machine it ran on (docs/benchmarks.md asks for it)."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def describe() -> str:
    cpu = platform.machine()
    with_model = Path("/proc/cpuinfo")
    if with_model.exists():
        for line in with_model.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"# {cpu}, nproc {os.cpu_count()}, load {load()}, Python {platform.python_version()}"


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())
