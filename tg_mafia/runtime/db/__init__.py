"""The database from the event loop: every call in a worker thread (SQLite's one writer
with group commit), and which replica leads."""
