"""The page's list of public events (miniapp/chronicle.py): the stored log
replayed, every public event the group chat is told listed in its words, and
nothing else; the same list whether the log comes in one read or in pieces; a
log that does not replay stops the list, and breaks nothing."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine import Game, GameState, action_from_dict, apply, new_game
from engine import events as ev
from tests.protocol.games import played
from tg_mafia.i18n import translator
from tg_mafia.miniapp.chronicle import KEEP, LINES, UNLISTED, Chronicle
from tg_mafia.miniapp.snapshot import plain
from tg_mafia.render import texts
from tg_mafia.runtime.gameview import table_of
from tg_mafia.storage import ActionRecord, GameRecord

T = translator("en")

# The events the engine never tells the whole group (a role, a night move, a
# private prompt, the host's copies, the record).
NEVER_PUBLIC = frozenset(
    {
        ev.RoleDealt,
        ev.AllRoles,
        ev.FamilyMet,
        ev.SheriffSeen,
        ev.NightPrompt,
        ev.ChoiceMade,
        ev.PlanSet,
        ev.MafiaChatted,
        ev.NightResolved,
        ev.CheckResult,
        ev.DecideAsked,
        ev.BestMoveAsked,
        ev.BestMoveLapsed,
        ev.BallotCast,
        ev.IdleReminded,
        ev.ConfirmRequested,
        ev.PlayerResult,
    }
)
GAMES = [
    ("classic", False, 1),
    ("moscow", False, 2),
    ("moscow", True, 3),
    ("party", False, 4),
    ("club", True, 5),
    ("sport", False, 6),
]


def every_event() -> set[type[ev.Event]]:
    return {
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev.Event) and cls is not ev.Event and dataclasses.is_dataclass(cls)
    }


def test_every_kind_of_event_is_listed_left_out_or_never_public() -> None:
    listed, left = set(LINES), set(UNLISTED)
    assert not listed & left and not (listed | left) & NEVER_PUBLIC
    assert every_event() == listed | left | NEVER_PUBLIC


def public_events(record: GameRecord, log: list[ActionRecord]) -> tuple[list[ev.Event], GameState]:
    """Every event the game's replay tells the whole group, and where it ends."""
    options = {**record.options, "host": "human" if record.host_user_id else "auto"}
    players = tuple(str(p.user_id) for p in record.players)
    state, events = new_game(record.variant, players, options, record.seed, record.language)
    told = [e for e in events if e.audience.is_public]
    for stored in log:
        state, events = apply(state, action_from_dict(dict(stored.action)))
        for event in events:
            assert type(event) not in NEVER_PUBLIC or not event.audience.is_public, event
            if event.audience.is_public:
                told.append(event)
    return told, state


@pytest.mark.parametrize(("variant", "host", "seed"), GAMES)
def test_a_whole_game_lists_what_the_group_is_told(variant: str, host: bool, seed: int) -> None:
    record, log, final = played(variant, seed=seed, host=host)
    chronicle = Chronicle(record)
    chronicle.extend(record, log)
    assert not chronicle.broken and chronicle.seq == len(log) and chronicle.game == Game(final)
    told, _ = public_events(record, log)
    kinds = {type(e) for e in told}
    assert kinds <= set(LINES) | set(UNLISTED)
    assert chronicle.count == sum(type(e) in LINES for e in told)
    entries = chronicle.shown()
    assert len(entries) == min(KEEP, chronicle.count)
    first = chronicle.count - len(entries) + 1
    assert [e.n for e in entries] == list(range(first, chronicle.count + 1))
    assert all("<" not in e.text and "&amp;" not in e.text for e in entries)
    # The end as the group sees it, last.
    assert final.outcome.winner is not None
    assert entries[-1].text.startswith(plain(texts.winner_line(T, final.outcome.winner)))


@pytest.mark.parametrize(("variant", "host", "seed"), GAMES[:3])
def test_the_list_is_the_same_read_whole_or_in_pieces(variant: str, host: bool, seed: int) -> None:
    record, log, _ = played(variant, seed=seed, host=host)
    whole = Chronicle(record)
    whole.extend(record, log)
    pieces = Chronicle(record)
    for cut in range(0, len(log), 7):
        tail = log[cut : cut + 7]
        assert pieces.follows(tail)
        pieces.extend(record, log[: cut + 7])  # an older read again: nothing twice
    assert pieces.shown() == whole.shown() and pieces.count == whole.count
    assert not Chronicle(record).follows(log[5:])  # a gap: the whole log is read instead


def test_a_log_that_does_not_replay_stops_the_list() -> None:
    record, log, _ = played("moscow", seed=2, finish=False)
    chronicle = Chronicle(record)
    chronicle.extend(record, log[:10])
    before = chronicle.shown()
    wrong = ActionRecord(1, 11, {"verb": "pass", "actor": "nobody"}, log[10].created_at)
    chronicle.extend(record, [wrong, *log[11:]])
    assert chronicle.broken and chronicle.seq == 10 and chronicle.shown() == before


def test_the_night_is_never_told() -> None:
    """Night moves and check answers are in the game's events, and never in its list."""
    record, log, _ = played("moscow", seed=2)
    chronicle = Chronicle(record)
    chronicle.extend(record, log)
    seats = table_of(record)
    listed = "\n".join(e.text for e in chronicle.shown())
    options = {**record.options, "host": "auto"}
    players = tuple(str(p.user_id) for p in record.players)
    state, _ = new_game(record.variant, players, options, record.seed, record.language)
    secrets = 0
    for stored in log:
        state, events = apply(state, action_from_dict(dict(stored.action)))
        for event in events:
            if isinstance(event, ev.ChoiceMade) and event.target is not None:
                secrets += 1
                assert plain(texts.mafia_pick(T, seats, event.player, event.target)) not in listed
            if isinstance(event, ev.CheckResult):
                secrets += 1
                assert plain(texts.check_result(T, seats, event.target, event.answer)) not in listed
    assert secrets
