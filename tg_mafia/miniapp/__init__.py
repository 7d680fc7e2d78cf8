"""The table as a Telegram Mini App: a page served by the bot's own web server
(webhook.py), signed by Telegram (initdata.py), showing each viewer what the
engine's views give them (snapshot.py), kept live by Server-Sent Events
(hub.py), and taking moves through the same gate as a button (routes.py)."""
