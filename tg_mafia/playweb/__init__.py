"""`tg-mafia play`: the sandbox, the real bot and simulated players behind a
web page on this machine, where a person plays any seat (docs/play.md)."""
