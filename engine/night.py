"""The masked night: private choices, the Don's list, the mafia's relayed
talk, and the resolution at dawn (heals, then kills, then checks)."""

from __future__ import annotations

from collections import Counter

from engine import day
from engine.actions import MafiaChat, NightChoice, Plan
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import MAFIA, PUBLIC, EventKind, private
from engine.lifecycle import check_win, mark_dead
from engine.roles import Role
from engine.state import Cause, Phase, Stage
from engine.variants import NightMove, ShotMode


def start_night(ctx: Ctx) -> None:
    state = ctx.state
    state.phase = Phase.NIGHT
    state.night += 1
    state.choices = {}
    state.speaker = None
    state.candidates = ()
    state.hands = frozenset()
    ctx.start_timer(Stage.NIGHT, ctx.option_int("night_seconds"))
    ctx.emit(EventKind.NIGHT_STARTED, PUBLIC, number=state.night)
    if state.night == 1:
        family = tuple((p, state.roles[p]) for p in state.mafia_members())
        ctx.emit(EventKind.FAMILY, MAFIA, roles=family, number=state.night)
    for player in state.alive:
        for move in ctx.variant.night_moves(state.roles[player], state.night):
            ctx.emit(
                EventKind.NIGHT_PROMPT,
                private(player),
                player=player,
                move=move.value,
                players=valid_targets(ctx, player, move),
                number=state.night,
            )


def choice_key(player: str, move: NightMove) -> str:
    """The key of a night choice in `GameState.choices`: "actor:move"."""
    return f"{player}:{move}"  # a StrEnum formats as its value (and faster than .value)


def actor_moves(ctx: Ctx, player: str) -> tuple[NightMove, ...]:
    state = ctx.state
    if state.phase is not Phase.NIGHT or state.stage is not Stage.NIGHT:
        return ()
    if not state.is_alive(player):
        return ()
    return ctx.variant.night_moves(state.roles[player], state.night)


def valid_targets(ctx: Ctx, player: str, move: NightMove) -> tuple[str, ...]:
    state = ctx.state
    targets = []
    for other in state.alive:
        if other == player and move is not NightMove.HEAL:
            continue
        if move is NightMove.HEAL and other == state.last_heal:
            continue
        targets.append(other)
    return tuple(targets)


def choose(ctx: Ctx, action: NightChoice) -> None:
    state = ctx.state
    if state.phase is not Phase.NIGHT or state.stage is not Stage.NIGHT:
        raise IllegalAction("not_night", "night moves are made at night")
    if not state.is_alive(action.actor):
        raise IllegalAction("dead", f"{action.actor} is out of the game")
    if action.move not in actor_moves(ctx, action.actor):
        raise IllegalAction("no_such_move", f"{action.actor} cannot {action.move} tonight")
    if action.target is not None:
        if action.target == action.actor and action.move is not NightMove.HEAL:
            raise IllegalAction("self_target", "nobody may target themselves")
        if not state.is_alive(action.target):
            raise IllegalAction("bad_target", f"{action.target} is not a living player")
        if action.move is NightMove.HEAL and action.target == state.last_heal:
            raise IllegalAction(
                "same_heal", "the doctor may not heal the same player twice in a row"
            )
    state.choices[choice_key(action.actor, action.move)] = action.target
    mafia_shot = action.move is NightMove.KILL and state.roles[action.actor].is_mafia
    ctx.emit(
        EventKind.CHOICE_MADE,
        MAFIA if mafia_shot else private(action.actor),
        player=action.actor,
        move=action.move.value,
        target=action.target,
    )
    if all_chosen(ctx):
        dawn(ctx)


def plan(ctx: Ctx, action: Plan) -> None:
    state = ctx.state
    if not ctx.variant.has_plan or state.roles.get(action.actor) is not Role.DON:
        raise IllegalAction("not_don", "only the Don sets the kill list")
    if state.stage is not Stage.NIGHT or state.night != 1 or not state.is_alive(action.actor):
        raise IllegalAction("not_now", "the kill list is set on the acquaintance night")
    if len(set(action.targets)) != len(action.targets):
        raise IllegalAction("bad_target", "a player stands twice on the list")
    for target in action.targets:
        if target == action.actor or not state.is_alive(target):
            raise IllegalAction("bad_target", f"{target} cannot be on the list")
    state.plan = action.targets
    ctx.emit(EventKind.PLAN_SET, MAFIA, player=action.actor, players=action.targets)


def mafia_chat(ctx: Ctx, action: MafiaChat) -> None:
    state = ctx.state
    role = state.roles.get(action.actor)
    if role is None or not role.is_mafia or not state.is_alive(action.actor):
        raise IllegalAction("not_mafia", "only living mafiosi talk at night")
    if state.stage is not Stage.NIGHT or not ctx.variant.mafia_chat_open(state.night):
        raise IllegalAction("not_now", "the mafia do not talk now")
    if not action.text.strip():
        raise IllegalAction("empty", "nothing to relay")
    ctx.emit(EventKind.MAFIA_CHAT, MAFIA, player=action.actor, text=action.text)


def all_chosen(ctx: Ctx) -> bool:
    """Every living actor has made every choice; a night with none never
    ends by itself (it lasts its timer)."""
    state = ctx.state
    pending = False
    for player in state.alive:
        for move in ctx.variant.night_moves(state.roles[player], state.night):
            pending = True
            if choice_key(player, move) not in state.choices:
                return False
    return pending


def _choice(ctx: Ctx, player: str, move: NightMove) -> str | None:
    return ctx.state.choices.get(choice_key(player, move))


def mafia_target(ctx: Ctx) -> tuple[str | None, bool]:
    """The mafia's target, and whether the shot missed for want of agreement."""
    state = ctx.state
    # Only mafiosi who have a shot tonight: the acquaintance night has none,
    # so it cannot "miss".
    shooters = [
        p
        for p in state.alive
        if state.roles[p].is_mafia
        and NightMove.KILL in ctx.variant.night_moves(state.roles[p], state.night)
    ]
    picks = [_choice(ctx, p, NightMove.KILL) for p in shooters]
    if ctx.variant.shot_mode is ShotMode.UNANIMOUS:
        if picks and picks[0] is not None and all(p == picks[0] for p in picks):
            return picks[0], False
        return None, bool(shooters)
    counts = Counter(p for p in picks if p is not None)
    if not counts:
        return None, False
    top = max(counts.values())
    leaders = [p for p, c in counts.items() if c == top]
    if len(leaders) == 1:
        return leaders[0], False
    if ctx.variant.shot_mode is ShotMode.MOST_CHOSEN_BOSS_BREAKS:
        boss_pick = next(
            (_choice(ctx, p, NightMove.KILL) for p in shooters if state.roles[p].is_boss), None
        )
        if boss_pick in leaders:
            return boss_pick, False
    return None, False


def dawn(ctx: Ctx) -> None:
    state = ctx.state
    roles = state.roles
    living = state.alive
    healer = next((p for p in living if roles[p] is Role.DOCTOR), None)
    healed = _choice(ctx, healer, NightMove.HEAL) if healer else None
    shot, missed = mafia_target(ctx)
    maniac = next((p for p in living if roles[p] is Role.MANIAC), None)
    maniac_shot = _choice(ctx, maniac, NightMove.KILL) if maniac else None
    victims: list[str] = []
    for target in (shot, maniac_shot):
        if target and target != healed and target not in victims and state.is_alive(target):
            victims.append(target)
    learned: dict[str, dict[str, str]] = {}
    for player in living:
        target = _choice(ctx, player, NightMove.CHECK)
        if target is not None:
            learned[player] = {target: ctx.variant.check_answer(roles[player], roles[target])}
    escort = next((p for p in living if roles[p] is Role.ESCORT), None)
    block = _choice(ctx, escort, NightMove.BLOCK) if escort else None

    state.last_heal = healed
    state.missed = missed
    state.learned = learned
    # Shared with earlier states (GameState.copy): replaced, never changed.
    learned_all = dict(state.learned_all)
    for checker, answers in learned.items():
        learned_all[checker] = {**learned_all.get(checker, {}), **answers}
    state.learned_all = learned_all
    state.blocked = (block,) if block else ()
    state.night_victims = tuple(v for v in victims if roles[v].side.value == "town")
    state.eliminated = ()
    shown = []
    for victim in victims:
        role = mark_dead(ctx, victim, Cause.KILLED)
        if role is not None:
            shown.append((victim, role))
    state.announced = tuple(victims)
    state.phase = Phase.DAY
    state.day += 1
    state.choices = {}
    ctx.emit(
        EventKind.DAY_STARTED,
        PUBLIC,
        number=state.day,
        players=state.announced,
        flag=missed,
        roles=tuple(shown),
    )
    for checker, answers in learned.items():
        for target, answer in answers.items():
            ctx.emit(
                EventKind.CHECK_RESULT,
                private(checker),
                player=checker,
                target=target,
                answer=answer,
            )
    if block:
        ctx.emit(EventKind.PLAYER_BLOCKED, PUBLIC, player=block)
    if check_win(ctx, at_dawn=True):
        return
    day.start_day(ctx)
