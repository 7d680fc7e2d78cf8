"""Injected failures: make the next calls answer 429, fail with 5xx, or hang."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Fault:
    kind: str  # "429", "5xx" or "hang"
    remaining: int
    method: str | None = None  # None: any method
    retry_after: int = 5
    status: int = 502
    hang_seconds: float = 30.0  # real seconds: past any sane client timeout


@dataclass
class FaultPlan:
    pending: list[Fault] = field(default_factory=list)

    def add(self, fault: Fault) -> Fault:
        if fault.kind not in ("429", "5xx", "hang"):
            raise ValueError(f"unknown fault kind {fault.kind!r}")
        self.pending.append(fault)
        return fault

    def take(self, method: str) -> Fault | None:
        """The fault that applies to this call, if any (spending one of its uses)."""
        for fault in self.pending:
            if fault.method is None or fault.method == method:
                fault.remaining -= 1
                if fault.remaining <= 0:
                    self.pending.remove(fault)
                return fault
        return None

    def clear(self) -> None:
        self.pending.clear()
