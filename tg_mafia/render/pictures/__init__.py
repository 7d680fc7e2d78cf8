"""Pictures for "between games": the table at the end of a game, a group's
leaderboard and a player's card, drawn with Pillow and the shipped DejaVu
fonts, as PNG bytes with the list of texts drawn and where."""
