"""Names that cannot mislead, on the sandbox: players whose Telegram names
show nothing are called "Joueur N" (their seat) in the lobby, every message
and button of a whole game, the table picture and the protocol; a player
named "3 · Olga" in seat 4 is quoted everywhere, never read as seat 3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import regex

from tests.bot.autoplay import AutoPlayers
from tests.bot.between import photos
from tests.bot.harness import running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.pictures.table import render_table
from tg_mafia.render.protocol import build_protocol, protocol_text, table_snapshot
from tg_mafia.storage import GameStatus

NAMES = ["Ann", "\u3164", "\u200b\u0301", "3 · Olga", "Ben", "  \u3000", "Cat", "Dan"]
BLANK_SEATS = (2, 3, 6)
OLGA = "4 · «\u00a03 · Olga\u00a0»"
# "N · " and what follows it up to the next separator of a list or line ("Jour 2 · débat
# libre" is a day, not a seat).
LABEL = regex.compile(r"(?<![\p{N}])(?<!(?:Jour|Nuit) )(\d+) · ([^,\n<]*)")


def sent(h: Any) -> tuple[list[str], list[str]]:
    """Every text (and caption) and every button label the bot sent or edited."""
    bodies, buttons = [], []
    for call in h.sb.log:
        params = call.params
        for key in ("text", "caption"):
            if isinstance(params.get(key), str):
                bodies.append(params[key])
        markup = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        for row in (markup or {}).get("inline_keyboard", []):
            buttons += [button["text"] for button in row]
    return bodies, buttons


def names_of_seats(texts: list[str]) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for text in texts:
        for seat, rest in LABEL.findall(text):
            found.setdefault(int(seat), set()).add(rest)
    return found


async def test_blank_names_are_called_by_their_seat_in_a_whole_game(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, names=NAMES, language="fr", scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="fr")
        game_id = await h.open_and_fill()
        lobby = next(text for text in h.group_texts() if "Joueurs (8)" in text)
        assert (
            "1 · Ann  2 · Joueur 2  3 · Joueur 3  4 · «\u00a03 · Olga\u00a0»  5 · Ben  "
            "6 · Joueur 6  7 · Cat  8 · Dan"
        ) in lobby
        await h.press_start()
        record = await AutoPlayers(h, scheduler, seed=11).play(game_id)
        assert record.status is GameStatus.ENDED
        bodies, buttons = sent(h)

        # Every button and message that names a blank seat calls it "Joueur N".
        by_button = names_of_seats([b.removeprefix("✅ ") for b in buttons])
        for seat in BLANK_SEATS:
            assert by_button.get(seat, set()) <= {f"Joueur {seat}"}
        assert any(by_button.get(seat) for seat in BLANK_SEATS)  # shown on buttons
        by_message = names_of_seats(bodies)
        for seat in BLANK_SEATS:
            for rest in by_message[seat]:
                assert regex.match(rf"Joueur {seat}(?!\d)", rest), rest
        # Olga of seat 4 is quoted wherever she is named; seat 3 is never hers.
        everything = "\n".join(bodies + buttons)
        assert OLGA in everything
        assert "3 · Olga" not in everything.replace("«\u00a03 · Olga", "")

        # The table picture and the protocol say the same.
        t = translator("fr")
        protocol = build_protocol(record, h.db.actions(record.id))
        picture = render_table(table_snapshot(protocol), t)
        names = [item.text for item in picture.of_kind("name")]
        assert names == [
            "Ann",
            "Joueur 2",
            "Joueur 3",
            "«\u00a03 · Olga\u00a0»",
            "Ben",
            "Joueur 6",
            "Cat",
            "Dan",
        ]
        assert picture.png in [png for _, png in photos(h, h.group.id)]
        text = "\n".join(protocol_text(protocol, t))
        for seat in BLANK_SEATS:
            assert f"{seat} · Joueur {seat} — " in text
        assert f"{OLGA} — " in text
