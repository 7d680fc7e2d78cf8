"""The play page's own pace: a stage a person plays runs on a real-time
clock, the others at the bot's speed; without the hook nothing changes."""

from __future__ import annotations

from engine import GameState, new_game
from tg_mafia.runtime.clock import BotClock


def a_state() -> GameState:
    state, _ = new_game("classic", [str(seat) for seat in range(1, 8)], {}, seed=1)
    return state


def test_a_persons_stage_runs_at_real_time_and_the_others_fast() -> None:
    mine = BotClock(20.0, lambda: 100.0, own_pace=lambda state: True)
    theirs = BotClock(20.0, lambda: 100.0, own_pace=lambda state: False)
    state = a_state()
    assert mine.stage(state).speed == 1.0 and mine.stage(state).deadline(60) == 160.0
    assert theirs.stage(state) is theirs and theirs.deadline(60) == 103.0
    # The keeper arms a countdown early enough for the slowest stage.
    assert (mine.slowest, theirs.slowest) == (1.0, 1.0)


def test_without_the_hook_or_when_slower_nothing_changes() -> None:
    state = a_state()
    plain = BotClock(20.0, lambda: 0.0)
    assert plain.stage(state) is plain and plain.slowest == 20.0
    slow = BotClock(0.5, lambda: 0.0, own_pace=lambda state: True)
    assert slow.stage(state) is slow and slow.slowest == 0.5
