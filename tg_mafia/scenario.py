"""Scenario files (../shared/SCENARIOS.md): the rules as executable examples.

`load_scenario` reads and checks a file (raising `ScenarioError` with the
step for anything unreadable); `run_scenario` plays it against the engine
and returns None on success or the first failure as text."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.actions import (
    HOST,
    Action,
    Best,
    Decide,
    Depart,
    Hand,
    HostConfirm,
    HostExtend,
    HostPause,
    HostResume,
    HostSkip,
    HostWarn,
    Leave,
    Lower,
    MafiaChat,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Say,
    Timeout,
    Unvote,
    Vote,
)
from engine.errors import IllegalAction, SetupError
from engine.game import apply, new_game
from engine.roles import Role
from engine.state import GameState, Phase, Stage
from engine.variants import NightMove

VARIANT_ROLES: Mapping[str, frozenset[str]] = {
    "classic": frozenset({"citizen", "mafia", "godfather", "detective", "doctor"}),
    "moscow": frozenset({"citizen", "mafia", "don", "sheriff", "maniac"}),
    "party": frozenset({"citizen", "mafia", "police", "doctor"}),
    "club": frozenset({"citizen", "mafia", "don", "sheriff", "doctor", "escort"}),
    "sport": frozenset({"citizen", "mafia", "don", "sheriff"}),
}
EXPECT_KEYS = frozenset(
    {
        "phase",
        "stage",
        "speaker",
        "candidates",
        "alive",
        "dead",
        "announced",
        "eliminated",
        "missed",
        "learned",
        "votes",
        "warnings",
        "blocked",
        "revealed",
        "deleted",
        "winner",
        "best_move",
        "lift",
    }
)
SET_KEYS = frozenset({"alive", "dead", "announced", "eliminated", "blocked", "best_move"})


class ScenarioError(Exception):
    """The file cannot be read as a scenario; `step` is 1-based, 0 for the header."""

    def __init__(self, reason: str, step: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.step = step

    def __str__(self) -> str:
        return f"step {self.step}: {self.reason}" if self.step else self.reason


@dataclass(frozen=True)
class Step:
    kind: str  # act, reject, timeout, expect
    acts: tuple[Action, ...] = ()
    texts: tuple[str, ...] = ()
    # reject: the reason each act must be refused for, where the file names
    # one ("Ann hand (hand_up)"); None accepts any refusal (SCENARIOS.md).
    codes: tuple[str | None, ...] = ()
    times: int = 1
    expect: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    variant: str
    language: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    roles: Mapping[str, Role]
    steps: tuple[Step, ...]

    def start(self) -> GameState:
        # A `timeout` on a floor stands for a turn used to its end (a file rarely
        # writes the speech), so the idle rule plays only where a file sets it.
        state, _ = new_game(
            self.variant,
            self.players,
            {"idle_limit": 0, **self.options},
            seed=0,
            language=self.language,
            roles=self.roles,
        )
        return state


def load_scenario(path: Path) -> Scenario:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(f"cannot read the file: {error}") from None
    except yaml.YAMLError as error:
        raise ScenarioError(f"not valid YAML: {error}") from None
    return parse_scenario(data)


def parse_scenario(data: object) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError("the file is not a mapping")
    unknown = set(data) - {"name", "variant", "language", "options", "players", "steps"}
    if unknown:
        raise ScenarioError(f"unknown keys: {', '.join(sorted(map(str, unknown)))}")
    variant = str(data.get("variant"))
    if variant not in VARIANT_ROLES:
        raise ScenarioError(f"variant must be one of {', '.join(VARIANT_ROLES)}, not {variant!r}")
    language = str(data.get("language", "en"))
    if language not in ("en", "fr", "ru", "ro", "vi"):
        raise ScenarioError(f"unknown language {language!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ScenarioError("options must be a mapping")
    players, roles = _parse_players(data.get("players"), variant)
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise ScenarioError("steps must be a non-empty list")
    steps = tuple(
        _parse_step(raw, number, players) for number, raw in enumerate(steps_data, start=1)
    )
    scenario = Scenario(
        str(data.get("name", "")), variant, language, options, players, roles, steps
    )
    try:
        scenario.start()
    except SetupError as error:
        raise ScenarioError(str(error)) from None
    return scenario


def _parse_players(raw: object, variant: str) -> tuple[tuple[str, ...], dict[str, Role]]:
    if not isinstance(raw, list) or not raw:
        raise ScenarioError("players must be a list of 'name: role'")
    players: list[str] = []
    roles: dict[str, Role] = {}
    for item in raw:
        if not isinstance(item, dict) or len(item) != 1:
            raise ScenarioError(f"a player must be 'name: role', not {item!r}")
        ((name, role),) = item.items()
        name, role = str(name), str(role)
        if role not in VARIANT_ROLES[variant]:
            raise ScenarioError(f"{name}: {role!r} is not a role of {variant}")
        if name in roles or name == HOST:
            raise ScenarioError(f"player name {name!r} is used twice or reserved")
        players.append(name)
        roles[name] = Role(role)
    return tuple(players), roles


def _parse_step(raw: object, number: int, players: tuple[str, ...]) -> Step:
    if raw == "timeout":
        return Step("timeout")
    if not isinstance(raw, dict) or len(raw) != 1:
        raise ScenarioError("a step is a mapping with one key, or the word timeout", number)
    ((key, value),) = raw.items()
    if key in ("act", "reject"):
        return _act_step(key, value, number, players)
    if key == "timeout":
        times = 1 if value is None else value
        if not isinstance(times, int) or isinstance(times, bool) or times < 1:
            raise ScenarioError("timeout takes a positive whole number", number)
        return Step("timeout", times=times)
    if key == "expect":
        return _expect_step(value, number)
    raise ScenarioError(f"unknown step {key!r}", number)


def _act_step(key: str, value: object, number: int, players: tuple[str, ...]) -> Step:
    """act: one act or a list of them; reject: the same, each maybe with its reason."""
    given = value if isinstance(value, list) else [value]
    texts = [t for t in given if isinstance(t, str)]
    if len(texts) != len(given):
        raise ScenarioError(f"every {key} must be a string (quote acts with , : or #)", number)
    codes: list[str | None] = []
    if key == "reject":
        texts, codes = _split_codes(texts)
    acts = tuple(parse_act(t, players, number) for t in texts)
    return Step(key, acts=acts, texts=tuple(texts), codes=tuple(codes))


def _expect_step(value: object, number: int) -> Step:
    if not isinstance(value, dict):
        raise ScenarioError("expect takes a mapping", number)
    unknown = set(value) - EXPECT_KEYS
    if unknown:
        raise ScenarioError(f"unknown expect keys: {', '.join(sorted(map(str, unknown)))}", number)
    return Step("expect", expect=value)


_CODE = re.compile(r"^(?P<act>.*\S)\s+\((?P<code>[a-z_]+)\)$")


def _split_codes(texts: list[str]) -> tuple[list[str], list[str | None]]:
    """`reject: "Ann hand (hand_up)"`: the act, and the reason it must be
    refused for (an extension of SCENARIOS.md that this project's own
    scenarios use, so a refusal for the wrong reason fails)."""
    acts: list[str] = []
    codes: list[str | None] = []
    for text in texts:
        match = _CODE.match(text)
        acts.append(match["act"] if match else text)
        codes.append(match["code"] if match else None)
    return acts, codes


def _target(args: list[str], players: tuple[str, ...], number: int, text: str) -> str:
    if len(args) != 1:
        raise ScenarioError(f"{text!r}: expected one player", number)
    if args[0] not in players:
        raise ScenarioError(f"{text!r}: {args[0]!r} is not a player of this file", number)
    return args[0]


_NO_ARGS: Mapping[str, Callable[[str], Action]] = {
    "depart": Depart,  # an extension of SCENARIOS.md: the player left the group
    "pass": Pass,
    "leave": Leave,
    "unvote": Unvote,
    "hand": Hand,
    "lower": Lower,
}
_HOST_NO_ARGS: Mapping[str, Callable[[str], Action]] = {
    "pause": HostPause,
    "resume": HostResume,
    "extend": HostExtend,
    "skip": HostSkip,
    "confirm": HostConfirm,
}


_TARGETED: Mapping[str, Callable[[str, str], Action]] = {
    "warn": HostWarn,
    "kill": lambda actor, target: NightChoice(actor, NightMove.KILL, target),
    "check": lambda actor, target: NightChoice(actor, NightMove.CHECK, target),
    "heal": lambda actor, target: NightChoice(actor, NightMove.HEAL, target),
    "block": lambda actor, target: NightChoice(actor, NightMove.BLOCK, target),
    "nominate": Nominate,
    "vote": Vote,
    "decide": Decide,
}


def parse_act(text: str, players: tuple[str, ...], number: int) -> Action:
    """A known verb in the wrong hands (`Gus confirm`, `host kill Ann`) is
    an act the rules refuse, not an unreadable file (SCENARIOS.md)."""
    words = text.split()
    if len(words) < 2:
        raise ScenarioError(f"{text!r}: an act is 'ACTOR VERB [ARGS]'", number)
    actor, verb, args = words[0], words[1], words[2:]
    if actor != HOST and actor not in players:
        raise ScenarioError(f"{text!r}: {actor!r} is not a player of this file", number)
    if verb in _TARGETED:
        return _TARGETED[verb](actor, _target(args, players, number, text))
    if verb in ("say", "chat"):
        rest = text.split(None, 2)[2] if len(words) > 2 else ""
        return Say(actor, rest) if verb == "say" else MafiaChat(actor, rest)
    bare = _HOST_NO_ARGS.get(verb) or _NO_ARGS.get(verb)
    if bare is not None:
        if args:
            raise ScenarioError(f"{text!r}: {verb} takes no argument", number)
        return bare(actor)
    if verb in ("plan", "best"):
        for name in args:
            _target([name], players, number, text)
        return Plan(actor, tuple(args)) if verb == "plan" else Best(actor, tuple(args))
    raise ScenarioError(f"{text!r}: unknown verb {verb!r}", number)


def phase_name(state: GameState) -> str:
    if state.phase is Phase.ENDED:
        return "ended"
    number = state.day.number if state.phase is Phase.DAY else state.night.number
    return f"{state.phase.value} {number}"


def _candidates(state: GameState) -> list[str]:
    if state.stage in (Stage.VOTE, Stage.LAST_WORD, Stage.DECIDE, Stage.LIFT):
        return list(state.vote.candidates)
    return list(state.day.nominees)


# What each scenario key reads off the state.
_OBSERVED: Mapping[str, Callable[[GameState], Any]] = {
    "phase": phase_name,
    "stage": lambda state: state.stage.value,
    "speaker": lambda state: state.day.speaker,
    "candidates": _candidates,
    "alive": lambda state: list(state.table.alive),
    "dead": lambda state: list(state.table.dead),
    "announced": lambda state: list(state.night.announced),
    "eliminated": lambda state: list(state.day.eliminated),
    "missed": lambda state: state.night.missed,
    "learned": lambda state: {
        c: {t: answer.value for t, answer in a.items()} for c, a in state.night.learned.items()
    },
    "votes": lambda state: dict(state.vote.votes),
    "warnings": lambda state: dict(state.table.warnings),
    "blocked": lambda state: list(state.night.blocked),
    "revealed": lambda state: {p: r.value for p, r in state.table.revealed.items()},
    "deleted": lambda state: state.table.deleted,
    "winner": lambda state: state.outcome.winner.value if state.outcome.winner else None,
    "best_move": lambda state: list(state.day.best_move),
    "lift": lambda state: state.vote.last_lift,
}


def observe(state: GameState, key: str) -> Any:
    """What the scenario key `key` reads off the state (KeyError for no such key)."""
    return _OBSERVED[key](state)


def _matches(key: str, want: Any, got: Any) -> bool:
    if key in SET_KEYS:
        return isinstance(want, list) and set(map(str, want)) == set(got)
    if key == "candidates":
        return isinstance(want, list) and [str(w) for w in want] == got
    if isinstance(want, dict) and isinstance(got, dict):
        return bool(_normalise(want) == _normalise(got))
    return bool(want == got)


def _normalise(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _normalise(v) for k, v in value.items()}
    return value


def _show(value: Any) -> str:
    return "null" if value is None else str(value)


def run_scenario(scenario: Scenario) -> str | None:
    """Plays the scenario; None when every step held, else 'step N: ...'."""
    state = scenario.start()
    for number, step in enumerate(scenario.steps, start=1):
        if step.kind == "act":
            state, failure = _acts(state, step)
        elif step.kind == "reject":
            failure = _rejects(state, step)
        elif step.kind == "timeout":
            state, failure = _timeouts(state, step)
        else:
            failure = _expected(state, step)
        if failure is not None:
            return f"step {number}: {failure}"
    return None


def _acts(state: GameState, step: Step) -> tuple[GameState, str | None]:
    for act, text in zip(step.acts, step.texts, strict=True):
        try:
            state, _ = apply(state, act)
        except IllegalAction as error:
            return state, f"{text!r} accepted / refused ({error})"
    return state, None


def _rejects(state: GameState, step: Step) -> str | None:
    for act, text, code in zip(step.acts, step.texts, step.codes, strict=True):
        before = state.to_dict()
        try:
            apply(state, act)
        except IllegalAction as error:
            if state.to_dict() != before:
                return f"{text!r} refused and the game unchanged / changed"
            if code is not None and error.code != code:
                return f"{text!r} refused for {code} / for {error.code}"
            continue
        return f"{text!r} refused / accepted"
    return None


def _timeouts(state: GameState, step: Step) -> tuple[GameState, str | None]:
    for _ in range(step.times):
        try:
            state, _ = apply(state, Timeout("clock"))
        except IllegalAction as error:
            return state, f"timeout fires / refused ({error})"
    return state, None


def _expected(state: GameState, step: Step) -> str | None:
    assert step.expect is not None
    for key, want in step.expect.items():
        got = observe(state, key)
        if not _matches(key, want, got):
            return f"{key} {_show(want)} / {_show(got)}"
    return None


def scenario_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*.yaml")))
        else:
            files.append(path)
    return files
