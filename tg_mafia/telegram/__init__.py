"""The bot's Telegram side: python-telegram-bot's handlers, one module per kind of update
(handlers/), the webhook listener and the calls its answers carry, and the Bot API
requests (aiohttp transport, counted, within the bot's rate limit)."""
