"""The Telegram shell: handlers, rendering, the outbox, timers and storage,
around the pure rules engine."""
