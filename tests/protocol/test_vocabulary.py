"""The protocol's JSON Schema names exactly the values of the engine's
vocabularies (engine/vocab.py, engine/state.py, the protocol's own kinds):
a member added, renamed or dropped on one side alone fails here, so the
published documents and the types cannot drift apart."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import pytest

from engine.state import Cause, VoteRound
from engine.variants import NightMove
from engine.vocab import (
    Breach,
    CheckAnswer,
    EndReason,
    FoulEffect,
    MoveResult,
    NoVoteReason,
    TimerChange,
    VoteOutcome,
)
from tg_mafia.render.protocol import schema_document
from tg_mafia.render.protocol.model import LiftOutcome, VoteKind


def values(*enums: type[StrEnum]) -> set[str]:
    return {member.value for enum in enums for member in enum}


def defs() -> dict[str, Any]:
    found: dict[str, Any] = schema_document()["$defs"]
    return found


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (("cause",), values(Cause)),
        (("move",), values(NightMove)),
        (("answer",), values(CheckAnswer)),
        (("warning_reason",), values(Breach) - {Breach.DEAD.value}),  # a deletion only
        (("vote_kind",), values(VoteRound, VoteKind)),
        (
            ("night", "properties", "moves", "items", "properties", "result"),
            values(MoveResult, CheckAnswer),
        ),
        (("timer_note", "properties", "change"), values(TimerChange)),
        (("warning", "properties", "effect"), values(FoulEffect)),
    ],
)
def test_the_schema_names_every_value(where: tuple[str, ...], expected: set[str]) -> None:
    node = defs()
    for key in where:
        node = node[key]
    assert set(node["enum"]) == expected


def test_a_vote_ends_with_an_outcome_a_reason_or_the_lift() -> None:
    outcomes = set(defs()["vote_outcome"]["enum"])
    assert outcomes == {None} | values(VoteOutcome, NoVoteReason, LiftOutcome)


def test_the_vocabularies_share_no_value_a_vote_outcome_could_confuse() -> None:
    # Vote.outcome holds any of the three: one value must mean one thing.
    together = [m.value for enum in (VoteOutcome, NoVoteReason, LiftOutcome) for m in enum]
    assert len(together) == len(set(together))


def test_only_an_unscored_end_is_written() -> None:
    # An abandoned game keeps no protocol; a decided one leaves the reason out.
    written = set(defs()["result"]["properties"]["reason"]["enum"])
    assert written == {EndReason.SUSPENDED.value}
