"""The rules of Mafia: pure, typed, no I/O."""
