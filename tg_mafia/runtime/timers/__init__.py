"""Work on a clock: each game's timer armed from its stored deadline, the schedulers it
runs on, and the daily retention pass."""
