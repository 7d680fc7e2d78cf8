"""The sandbox's small Telegram: users, chats, members and messages, message text and media
as Telegram stores them, and the files it holds."""
