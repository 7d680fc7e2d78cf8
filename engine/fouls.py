"""sport's fouls (the warnings of the other variants): the third makes the
player's next speech silent; at the limit the player is removed at once,
with no farewell, and a vote is cancelled: the running one, else the day's
if its voting is not over, else the next day's."""

from __future__ import annotations

from engine import night
from engine.context import Ctx, Entry
from engine.events import PUBLIC, Fouled, VoteCancelled
from engine.lifecycle import check_win, eliminate
from engine.state import FLOOR_STAGES, Cause, Phase, Stage
from engine.vocab import Breach, CancelledVote, FoulEffect

SILENCING_FOUL = 3
RUNNING_VOTE_STAGES = frozenset({Stage.VOTE, Stage.LAST_WORD, Stage.LIFT})


def foul(ctx: Ctx, player: str, reason: Breach) -> None:
    state = ctx.state
    count = state.table.warnings.get(player, 0) + 1
    state.table.warnings[player] = count
    limit = ctx.option_int("warnings_limit")
    removed = bool(limit) and count >= limit
    # A limit of 1 to 3 removes before (or at) the third: then nothing silences.
    silences = count == SILENCING_FOUL and (limit == 0 or limit > SILENCING_FOUL)
    if silences:
        state.day.silenced = (*state.day.silenced, player)
    effect = FoulEffect.REMOVED if removed else FoulEffect.SILENCED if silences else FoulEffect.NONE
    ctx.emit(
        Fouled(
            audience=PUBLIC, player=player, count=count, limit=limit, reason=reason, effect=effect
        )
    )
    if removed:
        remove(ctx, player)


def remove(ctx: Ctx, player: str, cause: Cause = Cause.FOULS) -> None:
    """The player is out at once, with no farewell (`cause` FOULS: not by
    the vote), and a vote is cancelled."""
    state = ctx.state
    stage = state.stage
    was_speaker = state.day.speaker == player
    eliminate(ctx, player, cause)
    state.day.silenced = tuple(p for p in state.day.silenced if p != player)
    if check_win(ctx, at_dawn=False):
        return
    when = cancelled_vote(ctx)
    ctx.emit(VoteCancelled(audience=PUBLIC, player=player, when=when))
    if when is CancelledVote.NOW:
        # Nobody is eliminated, and night falls.
        state.vote.candidates = ()
        state.vote.last_words = ()
        state.vote.hands = frozenset()
        ctx.go(Entry.END_DAY)
        return
    state.vote.cancelled = True
    if when is CancelledVote.TODAY:
        state.day.nominees = ()
    if stage in FLOOR_STAGES and was_speaker:
        ctx.go(Entry.END_FLOOR)
    elif stage is Stage.NIGHT and night.all_chosen(ctx):
        ctx.go(Entry.DAWN)


def cancelled_vote(ctx: Ctx) -> CancelledVote:
    """Which vote a removal cancels: `now` (a count, a re-speech or the lift
    is running), `today` (the day's voting is still to come), `next_day`."""
    state = ctx.state
    if state.stage in RUNNING_VOTE_STAGES:
        return CancelledVote.NOW
    # An evening farewell comes after the speeches (and the vote).
    evening = state.stage is Stage.FAREWELL and bool(state.day.speaking_order)
    if state.phase is Phase.DAY and not evening:
        return CancelledVote.TODAY
    return CancelledVote.NEXT_DAY
