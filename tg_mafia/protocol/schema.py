"""The protocol as a JSON document: version 1 of the schema documented in
docs/protocol.md. Players are named by their seat (1, 2, 3…); the `seats`
list gives each seat's player. A change that breaks a reader of version 1
makes version 2."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from tg_mafia.protocol.model import Moment, Protocol, Round, Vote

SCHEMA: Final = "tg-mafia/protocol"
SCHEMA_VERSION: Final = 1


def protocol_json(protocol: Protocol) -> dict[str, Any]:
    seat = protocol.seat_of

    def seats(players: tuple[str, ...] | list[str]) -> list[int]:
        return [seat(p) for p in players]

    def one(player: str | None) -> int | None:
        return None if player is None else seat(player)

    def vote(item: Vote) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": item.kind,
            "candidates": seats(item.candidates),
            "counts": [
                {"candidate": seat(c.candidate), "voters": seats(c.voters)} for c in item.counts
            ],
            "tally": [{"candidate": seat(c), "votes": n} for c, n in item.tally],
            "silent": seats(item.silent),
            "outcome": item.outcome,
            "eliminated": seats(item.eliminated),
        }
        if item.kind == "decide":
            data["decider"] = one(item.decider)
        return data

    def round_(item: Round) -> dict[str, Any]:
        data: dict[str, Any] = {
            "phase": item.phase.value,
            "number": item.number,
            "started_at": _time(item.started_at),
        }
        if item.phase.value == "night":
            data["moves"] = [
                {
                    "seat": seat(m.player),
                    "role": m.role.value,
                    "move": m.move,
                    "target": one(m.target),
                }
                for m in item.moves
            ]
            data["plan"] = None if item.plan is None else seats(item.plan)
            data["checks"] = [
                {"seat": seat(c.player), "target": seat(c.target), "answer": c.answer}
                for c in item.checks
            ]
            data["killed"] = seats(item.killed)
            data["missed"] = item.missed
            data["blocked"] = one(item.blocked)
        else:
            data["nominations"] = [{"by": seat(b), "target": seat(t)} for b, t in item.nominations]
            data["votes"] = [vote(v) for v in item.votes]
        data["warnings"] = [
            {"seat": seat(w.player), "count": w.count, "reason": w.reason} for w in item.warnings
        ]
        data["eliminations"] = [
            {"seat": seat(e.player), "cause": e.cause} for e in item.eliminations
        ]
        data["timer"] = [{"change": n.change, "seconds": n.seconds} for n in item.timer]
        return data

    return {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "game": {
            "id": protocol.game_id,
            "title": protocol.title,
            "variant": protocol.variant,
            "language": protocol.language,
            "options": dict(protocol.options),
            "host": protocol.host,
            "opened_at": _time(protocol.opened_at),
            "ended_at": _time(protocol.ended_at),
        },
        "result": {
            "winner": protocol.winner.value if protocol.winner else None,
            "winners": [s.seat for s in protocol.seats if s.won],
            "ended": _moment(protocol.ended),
        },
        "seats": [
            {
                "seat": s.seat,
                "user_id": int(s.player),
                "name": s.name,
                "role": s.role.value,
                "side": s.role.side.value,
                "won": s.won,
                "fate": s.fate.value,
                "when": _moment(s.when),
                "warnings": s.warnings,
            }
            for s in protocol.seats
        ],
        "rounds": [round_(r) for r in protocol.rounds],
    }


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


def _moment(moment: Moment | None) -> dict[str, Any] | None:
    return None if moment is None else {"phase": moment.phase.value, "number": moment.number}
