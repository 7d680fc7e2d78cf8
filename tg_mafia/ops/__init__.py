"""Running the bot in production: its metrics and health endpoint, logs, the owner's
/status, the drain before a deploy, backups, and the heap kept out of the collector's
way."""
