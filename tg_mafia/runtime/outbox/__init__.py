"""The outbox's far end: the sender takes the calls the games wrote and makes them, in
order per chat and within Telegram's limits; what each kind of call does with the Bot
API; what the bot last showed."""
