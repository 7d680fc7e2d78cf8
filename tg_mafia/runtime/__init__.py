"""The games as they run: the service the handlers call, one move under the game's lock
written with its calls in one transaction (runner), lobbies, membership changes, the
press gate, the timers (timers/), the outbox and its sender (outbox/) and the database
off the event loop (db/)."""
