"""The machine a benchmark ran on, as its output and its JSON result name it."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def name() -> str:
    """The CPU's model (as /proc/cpuinfo names it), the CPUs and the Python."""
    cpu = platform.machine()
    with_model = Path("/proc/cpuinfo")
    if with_model.exists():
        for line in with_model.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def describe() -> str:
    """The line a benchmark prints first: the machine and how busy it is."""
    return f"# {name()}, load {load()}"


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())
