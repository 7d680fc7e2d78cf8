"""What the bot shows, from the engine's state and events and the catalogues: the calls a
move makes (presenter, screens, keyboards, as data in calls.py), the words (texts/), the
pictures (pictures/) and the protocol (protocol/). Nothing here reads the database,
talks to Telegram or keeps time."""
