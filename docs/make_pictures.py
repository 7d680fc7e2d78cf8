"""Writes the examples in docs/ from real games: the bot on the sandbox,
simulated players pressing its buttons, every choice from a seed.

- docs/pictures/table-*.png: the picture the bot sends with the end screen,
  one variant per language;
- docs/pictures/leaderboard-vi.png and player-vi.png: what /stats sends in
  a group that played a season, and in the best player's private chat;
- docs/protocol-example.json and the example in docs/protocol.md: what
  /protocol sends for one of those games.

Run it again whenever the pictures, the protocol or the catalogues change:

    .venv/bin/python docs/make_pictures.py

or, when only the protocol changed, `docs/make_pictures.py --protocol-only`
(the example's game alone, for the protocol example; no picture is written).
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from tg_mafia.playtest.autoplay import AutoPlayers
from tg_mafia.playtest.cast import names
from tg_mafia.playtest.harness import Harness, running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.protocol import protocol_file
from tg_mafia.render.standings import standings
from tg_mafia.sandbox import SimUser, virtual_time
from tg_mafia.storage import GameStatus

DOCS = Path(__file__).parent
OUTPUT = DOCS / "pictures"
SPEED = 50.0  # the bot's clocks run fast; the timers are fired by the players

# (file, variant, language, players, the group's name, seed)
TABLES = (
    ("table-classic-en.png", "classic", "en", 9, "Friday night club", 3),
    ("table-moscow-ru.png", "moscow", "ru", 11, "Мафия по пятницам", 4),
    ("table-party-ro.png", "party", "ro", 11, "Mafia la cămin", 5),
    ("table-club-fr.png", "club", "fr", 10, "Les Loups du jeudi", 6),
)
SEASON = ("vi", "Hội Ma Sói Sài Gòn", 12, 9, 8)  # language, group, members, seats, games
EXAMPLE = "table-classic-en.png"  # its game's protocol is the documented example
SHOWN_LOG = 6  # protocol.md shows the example's log cut to its first actions


async def play_one(
    h: Harness, scheduler: ManualScheduler, variant: str, seats: list[SimUser], seed: int
) -> int:
    h.db.save_settings(h.group.id, variant=variant)
    game_id = await h.open_and_fill(seats)
    await h.press_start()
    record = await AutoPlayers(h, scheduler, seed, chatter=0.02).play(game_id)
    assert record.status is GameStatus.ENDED
    return game_id


def bot_media(h: Harness, chat_id: int, kind: str) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every photo or document the bot sent in the chat."""
    chat = h.sb.world.resolve_chat(chat_id)
    found = []
    for message in sorted(chat.messages.values(), key=lambda m: m.message_id):
        if message.from_id != h.sb.world.bot.id or message.media_kind != kind:
            continue
        media = message.media[kind]
        item = media[-1] if kind == "photo" else media
        found.append((str(item.get("file_name", "")), h.sb.file_bytes(item["file_id"])))
    return found


async def table(
    name: str, variant: str, language: str, size: int, title: str, seed: int, picture: bool = True
) -> None:
    scheduler = ManualScheduler()
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot(
            Path(folder), size, scheduler=scheduler, names=names(language), language=language,
            speed=SPEED, lobby_seed=seed,
        ) as h:  # fmt: skip
            h.sb.world.resolve_chat(h.group.id).title = title
            h.db.save_settings(h.group.id, language=language)
            await play_one(h, scheduler, variant, h.users, seed)
            ((_, png),) = bot_media(h, h.group.id, "photo")
            if picture:
                (OUTPUT / name).write_bytes(png)
            if name == EXAMPLE:
                h.admin.command(h.group, "protocol", mention=True)
                await h.settle()
                ((_, document),) = bot_media(h, h.group.id, "document")
                write_example(json.loads(document), protocol_messages(h))


def protocol_messages(h: Harness) -> str:
    texts = [m.text or "" for m in h.admin.view(h.group)]
    start = max(i for i, text in enumerate(texts) if text.startswith("📜"))
    return "\n\n".join(text for text in texts[start:] if text)


async def season() -> None:
    language, title, members, seats, games = SEASON
    scheduler = ManualScheduler()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot(
            Path(folder), members, scheduler=scheduler, names=names(language),
            language=language, speed=SPEED,
        ) as h:  # fmt: skip
            h.sb.world.resolve_chat(h.group.id).title = title
            h.db.save_settings(h.group.id, language=language)
            for game in range(games):
                await play_one(h, scheduler, "classic", rng.sample(h.users, seats), 100 + game)
            h.admin.command(h.group, "stats", mention=True)
            await h.settle()
            ((_, board),) = bot_media(h, h.group.id, "photo")[-1:]
            (OUTPUT / "leaderboard-vi.png").write_bytes(board)
            best = standings(h.db.results_history(h.group.id)).board.players[0]
            player = next(u for u in h.users if u.id == best.user_id)
            player.start()
            await h.settle()
            player.command(player.private_chat, "stats")
            await h.settle()
            ((_, card),) = bot_media(h, player.id, "photo")
            (OUTPUT / "player-vi.png").write_bytes(card)


def write_example(protocol: dict[str, Any], text: str) -> None:
    """The example JSON beside protocol.md, and both forms inside it (the
    log cut short there: a game has hundreds of actions)."""
    (DOCS / "protocol-example.json").write_text(protocol_file(protocol))
    page = DOCS / "protocol.md"
    plain = re.sub(r"<[^>]+>", "", text)
    log = protocol["log"]
    shown = protocol_file({**protocol, "log": log[:SHOWN_LOG]}).rstrip("\n")
    example = (
        "<!-- example: begin -->\n"
        f"As the group reads it (/protocol):\n\n```text\n{plain}\n```\n\n"
        f"The file sent with it ([protocol-example.json](protocol-example.json)), its log "
        f"cut here to the first {SHOWN_LOG} of its {len(log)} actions:\n\n"
        f"```json\n{shown}\n```\n"
        "<!-- example: end -->"
    )
    current = page.read_text()
    begin, end = current.index("<!-- example: begin -->"), current.index("<!-- example: end -->")
    page.write_text(current[:begin] + example + current[end + len("<!-- example: end -->") :])


async def main(protocol_only: bool = False) -> None:
    OUTPUT.mkdir(exist_ok=True)
    for args in TABLES:
        if not protocol_only or args[0] == EXAMPLE:
            await table(*args, picture=not protocol_only)
    if not protocol_only:
        await season()


if __name__ == "__main__":
    virtual_time.run(main(protocol_only="--protocol-only" in sys.argv[1:]))
