"""Sub-commands of the `tg-mafia` command line."""
