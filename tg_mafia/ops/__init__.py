"""Running the bot in production: its metrics and health endpoint, logs, the owner's
/status, the drain before a deploy and backups."""
