"""Properties over thousands of seeded random games per variant and size.

Each game is played by the seeded random policy, with chatter in the group
(posts that the rules delete and warn) and, for some, a human host. At every
step the checks below hold; at the end the game is replayed from its setup
and its action log."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import random

import pytest

from engine import (
    HOST,
    Action,
    Event,
    GameSetup,
    GameState,
    IllegalAction,
    Phase,
    Stage,
    action_from_dict,
    apply,
    find_variant,
    legal_actions,
    public_view,
    replay,
)
from engine import events as ev
from engine.actions import (
    Best,
    Decide,
    Hand,
    HostConfirm,
    HostExtend,
    HostPause,
    HostResume,
    HostSkip,
    HostWarn,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Timeout,
    Unvote,
    Vote,
)
from engine.roles import Role
from engine.simulation import play_random_game, random_action
from engine.variants import NightMove
from tg_mafia.scenario import observe

# Games per variant and table size; the default keeps the suite to about a
# minute on two cores. TG_MAFIA_PROPERTY_GAMES raises it for a longer soak.
GAMES_PER_SIZE = int(os.environ.get("TG_MAFIA_PROPERTY_GAMES", "400"))
SIZES = {
    "classic": (7, 9, 12, 20),
    "moscow": (7, 9, 11, 15),
    "party": (8, 11, 12, 18),
    "club": (7, 9, 10, 16),
    "sport": (10,),
}
NEVER_REVEALED = frozenset({"moscow", "sport"})  # roles are shown only at the end


def setups(variant: str, size: int) -> list[GameSetup]:
    out = []
    for seed in range(GAMES_PER_SIZE):
        options = {"host": "human"} if seed % 5 == 0 else {}
        players = tuple(f"p{i}" for i in range(1, size + 1))
        out.append(GameSetup(variant, players, options, seed=seed))
    return out


def forbidden_actions(state: GameState, rng: random.Random) -> list[Action]:
    """Moves by the dead and the blocked, which the rules must refuse."""
    out: list[Action] = []
    target = rng.choice(state.table.seats)
    for player in list(state.table.dead) + list(state.night.blocked):
        out += [
            NightChoice(player, NightMove.KILL, target),
            NightChoice(player, NightMove.CHECK, target),
            Vote(player, target),
            Unvote(player),
            Hand(player),
        ]
        if state.day.speaker != player:
            out += [Pass(player), Nominate(player, target)]
    return out


def random_junk(state: GameState, rng: random.Random) -> Action:
    player = rng.choice(state.table.seats)
    target = rng.choice(state.table.seats)
    return rng.choice(
        [
            NightChoice(player, rng.choice(list(NightMove)), target),
            Vote(player, target),
            Unvote(player),
            Hand(player),
            Pass(player),
            Nominate(player, target),
        ]
    )


def roles_named(event: Event) -> list[str]:
    """Every player whose role the event carries, whatever its kind."""
    named = []
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(value, Role):
            player = getattr(event, "player", None)
            if value is not None and player is not None:
                named.append(player)
        elif isinstance(value, tuple):
            named += [
                item[0]
                for item in value
                if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Role)
            ]
    return named


def check_public_secrecy(state: GameState, events: list[Event], reveal_allowed: bool) -> None:
    revealed = state.table.revealed
    for event in events:
        if not event.audience.is_public:
            continue
        for player in roles_named(event):
            assert player in revealed, f"{event.kind} names the role of {player}"
            if state.phase is not Phase.ENDED:
                assert player in state.table.dead, f"{event.kind} names a living player's role"
    view = public_view(state)
    if state.phase is not Phase.ENDED:
        for player, _ in view.revealed:
            assert player in state.table.dead
        if not reveal_allowed:
            assert view.revealed == ()
    assert "roles" not in {f for f in view.__slots__}


@pytest.mark.parametrize(
    ("variant", "size"), [(v, n) for v, sizes in sorted(SIZES.items()) for n in sizes]
)
@pytest.mark.slow
def test_random_games_hold_every_property(variant: str, size: int) -> None:
    reveal_allowed = variant not in NEVER_REVEALED
    for setup in setups(variant, size):
        rng = random.Random(setup.seed * 7919 + 1)
        state = setup.start()
        log: list[Action] = []
        steps = 0
        while state.stage is not Stage.ENDED:
            steps += 1
            assert steps < 20_000, f"{setup} does not end"
            if rng.random() < 0.05:
                before = state.to_dict()
                for action in forbidden_actions(state, rng):
                    with pytest.raises(IllegalAction):
                        apply(state, action)
                assert state.to_dict() == before
            if rng.random() < 0.05:
                junk = random_junk(state, rng)
                before = state.to_dict()
                try:
                    apply(state, junk)
                except IllegalAction:
                    assert state.to_dict() == before, f"refused {junk} changed the game"
                assert state.to_dict() == before, f"applying {junk} changed the original"
            action = random_action(state, rng, chatter=0.03)
            state, events = apply(state, action)
            log.append(action)
            check_public_secrecy(state, events, reveal_allowed)
            check_sport_floor(state, events)
            check_nobody_stands_once_voting_is_over(state)
            check_night_record(events)
        assert state.outcome.winner is not None or state.outcome.abandoned
        if setup.seed % 4:
            continue
        # Replay from the seed and the log, through JSON as storage keeps it.
        stored = json.loads(json.dumps([a.to_dict() for a in log]))
        again = replay(GameSetup.from_dict(setup.to_dict()), stored)
        assert again.to_dict() == state.to_dict()
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == (
            state.to_dict()
        )


def check_sport_floor(state: GameState, events: list[Event]) -> None:
    """A farewell is held by a player who has left; at most one dies a
    night; a draw ends a game only at a dawn."""
    if state.stage is Stage.FAREWELL:
        assert state.day.speaker in state.table.dead, "a farewell held by a living player"
    for event in events:
        if isinstance(event, ev.DayStarted):
            assert len(event.victims) <= (1 if state.variant == "sport" else 2)
        if isinstance(event, ev.Drawn):
            assert any(isinstance(e, ev.DayStarted) for e in events), "a draw away from dawn"


def check_nobody_stands_once_voting_is_over(state: GameState) -> None:
    """Once the day's voting is over (the farewells after it, the night, a
    host's confirmation, the end), nobody stands: SCENARIOS.md `candidates`
    is [], in the public view and as the scenario runner reads it."""
    if state.stage in (Stage.FAREWELL, Stage.NIGHT, Stage.CONFIRM, Stage.ENDED):
        view = public_view(state)
        assert (view.nominees, view.candidates) == ((), ()), f"{state.stage}: someone stands"
        assert observe(state, "candidates") == []


def check_night_record(events: list[Event]) -> None:
    """The night's record (for the protocol) reaches nobody, and agrees with
    the dawn: the shots that killed are the night's deaths, and each check
    has the answer its checker was given."""
    (record,) = [e for e in events if isinstance(e, ev.NightResolved)] or [None]
    if record is None:
        return
    assert record.audience == ev.RECORD
    (dawn,) = [e for e in events if isinstance(e, ev.DayStarted)]
    hits = {m.target for m in record.moves if m.move == "kill" and m.result == "killed"}
    assert hits == set(dawn.victims)
    checks = {(m.player, m.target, m.result) for m in record.moves if m.move == "check"}
    answers = {(e.player, e.target, e.answer) for e in events if isinstance(e, ev.CheckResult)}
    assert answers == {c for c in checks if c[1] is not None}
    for move in record.moves:
        assert (move.target is None) == (move.result in ("skipped", "no_choice")), move


def every_action(state: GameState) -> list[Action]:
    """Every action of the finite kinds by anyone (the host included) on
    anyone: the space `legal_actions` picks from."""
    actors = (*state.table.seats, HOST)
    targets = state.table.seats
    out: list[Action] = [Timeout("clock", state.clock.timer_id)]
    for actor in actors:
        out += [Pass(actor), Unvote(actor), Hand(actor), Lower(actor), Leave(actor)]
        out += [HostPause(actor), HostResume(actor), HostExtend(actor), HostSkip(actor)]
        out.append(HostConfirm(actor))
        for target in targets:
            out += [Nominate(actor, target), Vote(actor, target), Decide(actor, target)]
            out.append(HostWarn(actor, target))
            out += [NightChoice(actor, move, target) for move in NightMove]
        out += [NightChoice(actor, move, None) for move in NightMove]
        if state.variant == "sport":
            # The best move in seat order, as listed (the rules take any order).
            out += [
                Best(actor, targets)
                for size in range(1, 4)
                for targets in itertools.combinations(state.table.seats, size)
            ]
    return out


def accepted(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("variant", sorted(SIZES))
@pytest.mark.slow
def test_legal_actions_are_exactly_the_accepted_ones(variant: str) -> None:
    """Every listed action is accepted; and, of every action of the finite
    kinds, every accepted one is listed (the Don's list is listed one name
    at a time, as the shell offers it, so it is checked one way only)."""
    for seed in range(40):
        sizes = SIZES[variant][:2]  # the two smallest tables: the space is squared
        size = sizes[seed % len(sizes)]
        options = {"host": "human"} if seed % 3 == 0 else {}
        setup = GameSetup(variant, tuple(f"p{i}" for i in range(size)), options, seed=seed)
        record = play_random_game(setup, random.Random(seed))
        state = setup.start()
        rng = random.Random(seed)
        for action in record.actions:
            listed = legal_actions(state)
            for candidate in listed:
                assert accepted(state, candidate), f"listed but refused: {candidate}"
            if rng.random() < 0.15:
                wanted = {a for a in listed if not isinstance(a, Plan)}
                found = {a for a in every_action(state) if accepted(state, a)}
                assert found == wanted, f"accepted but not listed: {found - wanted}"
            state, _ = apply(state, action)


def test_the_deal_is_seeded_and_follows_the_deck() -> None:
    for variant, sizes in SIZES.items():
        for size in sizes:
            players = tuple(f"p{i}" for i in range(size))
            first = GameSetup(variant, players, seed=42).start()
            second = GameSetup(variant, players, seed=42).start()
            assert first.table.roles == second.table.roles
            deck = find_variant(variant).deck(size, first.options)
            assert sorted(first.table.roles.values()) == sorted(deck.elements())
    a = GameSetup("moscow", tuple(f"p{i}" for i in range(11)), seed=1).start().table.roles
    differs = any(
        GameSetup("moscow", tuple(f"p{i}" for i in range(11)), seed=s).start().table.roles != a
        for s in range(2, 6)
    )
    assert differs


def test_actions_round_trip_through_dicts() -> None:
    setup = GameSetup("club", tuple(f"p{i}" for i in range(12)), seed=3)
    record = play_random_game(setup, random.Random(3), chatter=0.05)
    for action in record.actions:
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    with pytest.raises(ValueError):
        action_from_dict({"verb": "teleport", "actor": "p1"})
    with pytest.raises(ValueError):
        action_from_dict({"verb": "vote", "actor": "p1"})


def test_events_of_a_night_never_go_public() -> None:
    private_kinds = (
        ev.RoleDealt,
        ev.FamilyMet,
        ev.AllRoles,
        ev.NightPrompt,
        ev.CheckResult,
        ev.MafiaChatted,
        ev.PlanSet,
        ev.BallotCast,
        ev.ChoiceMade,
        ev.DecideAsked,
        ev.PlayerResult,
        ev.ConfirmRequested,
        ev.SheriffSeen,
        ev.BestMoveAsked,
        ev.BestMoveLapsed,
        ev.NightResolved,
    )
    for variant in SIZES:
        size = max(9, find_variant(variant).min_players)
        setup = GameSetup(variant, tuple(f"p{i}" for i in range(size)), seed=5)
        state = setup.start()
        rng = random.Random(5)
        while state.stage is not Stage.ENDED:
            state, events = apply(state, random_action(state, rng))
            for event in events:
                if isinstance(event, private_kinds):
                    assert not event.audience.is_public, event
