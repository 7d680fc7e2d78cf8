"""tg-mafia: the Telegram shell around the rules engine."""
