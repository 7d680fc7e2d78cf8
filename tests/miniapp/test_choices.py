"""sport's best move in the page, as the chat's menu offers it to the farewell's
holder: a name per player the engine lets them name (marked once chosen),
Done once the choice stands; nothing of it for anyone else."""

from __future__ import annotations

from engine import GameState, Views, action_from_dict, apply, legal_actions, new_game
from engine.actions import Best
from tests.protocol.games import played, record_of
from tg_mafia.i18n import translator
from tg_mafia.miniapp.snapshot import Viewer, choices
from tg_mafia.render import screens, texts
from tg_mafia.render.calls import Method
from tg_mafia.render.keyboards import MARK
from tg_mafia.render.scene import Scene
from tg_mafia.runtime.gameview import game_view, table_of
from tg_mafia.storage import ButtonsRecord, GameRecord

T = translator("en")


def at_the_best_move() -> tuple[GameRecord, GameState, str]:
    """A sport game replayed until a farewell's holder may make the best move."""
    record, log, _ = played("sport", seed=8)  # its night-2 victim has a best move
    players = tuple(str(p.user_id) for p in record.players)
    options = {**record.options, "host": "auto"}
    state, _ = new_game("sport", players, options, record.seed, "en")
    for stored in log:
        holders = [a.actor for a in legal_actions(state, False) if isinstance(a, Best)]
        if holders:
            now = record_of("sport", list(record.players), options, record.seed, state, [])
            return now, state, holders[0]
        state, _ = apply(state, action_from_dict(dict(stored.action)))
    raise AssertionError("no best move in this game")


def test_the_holder_taps_names_then_done() -> None:
    record, state, holder = at_the_best_move()
    scene = Scene(game_view(record), Views(state))
    seating = table_of(record)
    other = next(p for p in state.table.alive if p != holder)
    for picked in ((), (state.table.alive[0],)):
        op, code = screens.best_move_menu(scene, holder, picked, Method.SEND)
        assert op is not None and code == "ok"
        data = [b["data"] for row in op.keyboard or [] for b in row]
        message = ButtonsRecord(int(holder), 50, record.id, tuple(data))
        offered = choices(T, seating, record, Views(state), Viewer(int(holder), holder), [message])
        assert [c["d"] for c in offered] == data  # every button of the menu
        for choice in offered:
            if "seat" not in choice:
                assert choice["label"] == texts.button(T, "done")
                continue
            name = seating.player_at(choice["seat"])
            assert name is not None
            assert choice["label"] == (MARK if name in picked else "") + seating.button(name)
        done = [c for c in offered if c["label"] == texts.button(T, "done")]
        assert len(done) == (1 if picked else 0)
        theirs = choices(T, seating, record, Views(state), Viewer(int(other), other), [message])
        assert theirs == []  # the menu is the holder's alone
