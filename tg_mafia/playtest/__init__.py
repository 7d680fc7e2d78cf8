"""The real bot on the sandbox with simulated players: used by the tests,
the benchmarks and `tg-mafia demo`."""
