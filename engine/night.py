"""The masked night: private choices, the Don's list, the mafia's relayed
talk, and the resolution at dawn (heals, then kills, then checks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine import farewell
from engine.actions import Action, MafiaChat, NightChoice, Plan
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import (
    MAFIA,
    PUBLIC,
    CheckResult,
    ChoiceMade,
    DayStarted,
    FamilyMet,
    MafiaChatted,
    NightPrompt,
    NightStarted,
    PlanSet,
    PlayerBlocked,
    SheriffSeen,
    private,
)
from engine.lifecycle import check_win, mark_dead
from engine.moves import Move, no_candidates
from engine.nightrecord import Dawn, record_night
from engine.roles import Role, Side
from engine.state import Cause, GameState, Phase, Stage
from engine.variants import NightMove, ShotMode
from engine.vocab import CheckAnswer


def start_night(ctx: Ctx) -> None:
    state = ctx.state
    state.phase = Phase.NIGHT
    state.night.number += 1
    state.night.choices = {}
    state.day.speaker = None
    state.day.nominees = ()
    state.vote.candidates = ()
    state.vote.hands = frozenset()
    ctx.enter(Stage.NIGHT, ctx.option_int("night_seconds"))
    ctx.emit(NightStarted(audience=PUBLIC, night=state.night.number))
    if state.night.number == 1:
        family = tuple((p, state.table.roles[p]) for p in state.table.mafia_members())
        ctx.emit(
            FamilyMet(
                audience=MAFIA,
                members=family,
                night=state.night.number,
                talk=ctx.variant.mafia_chat_open(state.night.number),
                plan=ctx.variant.has_plan,
            )
        )
        if ctx.variant.sheriff_seen_first_night:
            for sheriff in state.table.alive:
                if state.table.roles[sheriff] is Role.SHERIFF:
                    ctx.emit(SheriffSeen(audience=private(sheriff), player=sheriff))
    for player in state.table.alive:
        for move in ctx.variant.night_moves(state.table.roles[player], state.night.number):
            ctx.emit(
                NightPrompt(
                    audience=private(player),
                    player=player,
                    move=move,
                    targets=valid_targets(ctx, player, move),
                    night=state.night.number,
                )
            )


def choice_key(player: str, move: NightMove) -> str:
    """The key of a night choice in `GameState.choices`: "actor:move"."""
    return f"{player}:{move}"  # a StrEnum formats as its value (and faster than .value)


def actor_moves(ctx: Ctx, player: str) -> tuple[NightMove, ...]:
    state = ctx.state
    if state.stage is not Stage.NIGHT or not state.table.is_alive(player):
        return ()
    return ctx.variant.night_moves(state.table.roles[player], state.night.number)


def valid_targets(ctx: Ctx, player: str, move: NightMove) -> tuple[str, ...]:
    """Any other living player; the doctor may heal themselves, but not the
    same player two nights in a row."""
    last_heal = ctx.state.night.last_heal
    return tuple(
        other
        for other in ctx.state.table.alive
        if (other != player or move is NightMove.HEAL)
        and not (move is NightMove.HEAL and other == last_heal)
    )


# ----- the night's moves ------------------------------------------------------------


def check_choice(ctx: Ctx, action: NightChoice) -> None:
    state = ctx.state
    if not state.table.is_alive(action.actor):
        raise IllegalAction(Reason.DEAD, f"{action.actor} is out of the game")
    if action.move not in actor_moves(ctx, action.actor):
        raise IllegalAction(Reason.NO_SUCH_MOVE, f"{action.actor} cannot {action.move} tonight")
    if action.target is None:
        return
    if action.target == action.actor and action.move is not NightMove.HEAL:
        raise IllegalAction(Reason.SELF_TARGET, "nobody may target themselves")
    if not state.table.is_alive(action.target):
        raise IllegalAction(Reason.BAD_TARGET, f"{action.target} is not a living player")
    if action.move is NightMove.HEAL and action.target == state.night.last_heal:
        raise IllegalAction(Reason.SAME_HEAL, "no heal of the same player twice in a row")


def choose(ctx: Ctx, action: NightChoice) -> None:
    state = ctx.state
    state.night.choices[choice_key(action.actor, action.move)] = action.target
    role = state.table.roles[action.actor]
    mafia_shot = action.move is NightMove.KILL and role.is_mafia
    ctx.emit(
        ChoiceMade(
            audience=MAFIA if mafia_shot else private(action.actor),
            player=action.actor,
            role=role,
            move=action.move,
            target=action.target,
            shared=mafia_shot,
        )
    )
    if all_chosen(ctx):
        dawn(ctx)


def choice_candidates(ctx: Ctx) -> Iterable[Action]:
    state = ctx.state
    for player in state.table.alive:
        for move in actor_moves(ctx, player):
            yield NightChoice(player, move, None)
            for target in state.table.alive:
                yield NightChoice(player, move, target)


def check_plan(ctx: Ctx, action: Plan) -> None:
    state = ctx.state
    if not ctx.variant.has_plan or state.table.roles.get(action.actor) is not Role.DON:
        raise IllegalAction(Reason.NOT_DON, "only the Don sets the kill list")
    if state.night.number != 1 or not state.table.is_alive(action.actor):
        raise IllegalAction(Reason.NOT_NOW, "the kill list is set on the acquaintance night")
    if len(set(action.targets)) != len(action.targets):
        raise IllegalAction(Reason.BAD_TARGET, "a player stands twice on the list")
    for target in action.targets:
        if target == action.actor or not state.table.is_alive(target):
            raise IllegalAction(Reason.BAD_TARGET, f"{target} cannot be on the list")


def plan(ctx: Ctx, action: Plan) -> None:
    ctx.state.night.plan = action.targets
    ctx.emit(PlanSet(audience=MAFIA, player=action.actor, targets=action.targets))


def plan_candidates(ctx: Ctx) -> Iterable[Action]:
    """The list as the Don builds it: one more name at a time, or cleared."""
    state = ctx.state
    for don in state.table.alive:
        if state.table.roles[don] is Role.DON:
            yield Plan(don, ())
            for target in state.table.alive:
                if target not in state.night.plan:
                    yield Plan(don, (*state.night.plan, target))


def check_mafia_chat(ctx: Ctx, action: MafiaChat) -> None:
    state = ctx.state
    role = state.table.roles.get(action.actor)
    if role is None or not role.is_mafia or not state.table.is_alive(action.actor):
        raise IllegalAction(Reason.NOT_MAFIA, "only living mafiosi talk at night")
    if not ctx.variant.mafia_chat_open(state.night.number):
        raise IllegalAction(Reason.FAMILY_ASLEEP, "the mafia do not talk tonight")
    if not action.text.strip():
        raise IllegalAction(Reason.EMPTY, "nothing to relay")


def mafia_chat(ctx: Ctx, action: MafiaChat) -> None:
    ctx.emit(MafiaChatted(audience=MAFIA, player=action.actor, text=action.text))


MOVES = (
    Move(NightChoice, check_choice, choose, choice_candidates),
    Move(Plan, check_plan, plan, plan_candidates),
    Move(MafiaChat, check_mafia_chat, mafia_chat, no_candidates),
)


# ----- dawn ---------------------------------------------------------------------


def all_chosen(ctx: Ctx) -> bool:
    """Every living actor has made every choice; a night with none never
    ends by itself (it lasts its timer)."""
    table, night = ctx.state.table, ctx.state.night
    pending = False
    for player in table.alive:
        for move in ctx.variant.night_moves(table.roles[player], night.number):
            pending = True
            if choice_key(player, move) not in night.choices:
                return False
    return pending


def _choice(ctx: Ctx, player: str | None, move: NightMove) -> str | None:
    if player is None:
        return None
    return ctx.state.night.choices.get(choice_key(player, move))


def mafia_target(ctx: Ctx) -> tuple[str | None, bool]:
    """The mafia's target, and whether the shot missed for want of agreement."""
    shooters = _shooters(ctx)
    picks = [_choice(ctx, p, NightMove.KILL) for p in shooters]
    if ctx.variant.shot_mode is ShotMode.UNANIMOUS:
        if picks and picks[0] is not None and all(p == picks[0] for p in picks):
            return picks[0], False
        return None, bool(shooters)
    return _most_chosen(ctx, shooters, picks), False


def _shooters(ctx: Ctx) -> list[str]:
    """Only mafiosi who have a shot tonight: the acquaintance night has none,
    so it cannot "miss"."""
    roles, night = ctx.state.table.roles, ctx.state.night.number
    return [
        p
        for p in ctx.state.table.alive
        if roles[p].is_mafia and NightMove.KILL in ctx.variant.night_moves(roles[p], night)
    ]


def _most_chosen(ctx: Ctx, shooters: list[str], picks: list[str | None]) -> str | None:
    """The player most of the shooters picked; a tie kills nobody, unless the boss
    breaks it (MOST_CHOSEN_BOSS_BREAKS) by having picked one of the leaders."""
    counts = Counter(p for p in picks if p is not None)
    if not counts:
        return None
    top = max(counts.values())
    leaders = [p for p, c in counts.items() if c == top]
    if len(leaders) == 1:
        return leaders[0]
    if ctx.variant.shot_mode is ShotMode.MOST_CHOSEN_BOSS_BREAKS:
        boss = next((p for p in shooters if ctx.state.table.roles[p].is_boss), None)
        if _choice(ctx, boss, NightMove.KILL) in leaders:
            return _choice(ctx, boss, NightMove.KILL)
    return None


def _holder(ctx: Ctx, role: Role) -> str | None:
    table = ctx.state.table
    return next((p for p in table.alive if table.roles[p] is role), None)


def _checks(ctx: Ctx) -> dict[str, dict[str, CheckAnswer]]:
    state = ctx.state
    learned: dict[str, dict[str, CheckAnswer]] = {}
    for player in state.table.alive:
        target = _choice(ctx, player, NightMove.CHECK)
        if target is not None:
            answer = ctx.variant.check_answer(state.table.roles[player], state.table.roles[target])
            learned[player] = {target: answer}
    return learned


def dawn(ctx: Ctx) -> None:
    state = ctx.state
    healed = _choice(ctx, _holder(ctx, Role.DOCTOR), NightMove.HEAL)
    shot, missed = mafia_target(ctx)
    maniac_shot = _choice(ctx, _holder(ctx, Role.MANIAC), NightMove.KILL)
    victims: list[str] = []
    for target in (shot, maniac_shot):
        if target and target != healed and target not in victims and state.table.is_alive(target):
            victims.append(target)
    learned = _checks(ctx)
    block = _choice(ctx, _holder(ctx, Role.ESCORT), NightMove.BLOCK)
    record_night(ctx, Dawn(shot, maniac_shot, healed, tuple(victims), learned))
    _remember_night(state, healed, missed, learned, block, victims)
    farewell.at_dawn(ctx, tuple(victims))
    state.day.eliminated = ()
    shown = []
    for victim in victims:
        role = mark_dead(ctx, victim, Cause.KILLED)
        if role is not None:
            shown.append((victim, role))
    state.night.announced = tuple(victims)
    state.phase = Phase.DAY
    state.day.number += 1
    state.night.choices = {}
    ctx.emit(
        DayStarted(
            audience=PUBLIC,
            day=state.day.number,
            victims=state.night.announced,
            missed=missed,
            shown=tuple(shown),
        )
    )
    _tell_checks(ctx, learned)
    if block:
        ctx.emit(PlayerBlocked(audience=PUBLIC, player=block))
    if check_win(ctx, at_dawn=True):
        return
    ctx.go(Entry.DAY)


def _remember_night(
    state: GameState,
    healed: str | None,
    missed: bool,
    learned: dict[str, dict[str, CheckAnswer]],
    block: str | None,
    victims: list[str],
) -> None:
    """What the day after keeps of the night: the heal, the miss, the checks (and
    every check so far), the visit and the town's losses."""
    state.night.last_heal = healed
    state.night.missed = missed
    state.night.learned = learned
    # Shared with earlier states (GameState.copy): replaced, never changed.
    learned_all = dict(state.night.learned_all)
    for checker, answers in learned.items():
        learned_all[checker] = {**learned_all.get(checker, {}), **answers}
    state.night.learned_all = learned_all
    state.night.blocked = (block,) if block else ()
    state.night.victims = tuple(v for v in victims if state.table.roles[v].side is Side.TOWN)


def _tell_checks(ctx: Ctx, learned: dict[str, dict[str, CheckAnswer]]) -> None:
    """Each checker's answer, to them alone."""
    for checker, answers in learned.items():
        for target, answer in answers.items():
            ctx.emit(
                CheckResult(audience=private(checker), player=checker, target=target, answer=answer)
            )
