"""The protocol as a JSON document: version 2 of the schema documented in
docs/protocol.md and shipped as `protocol.schema.json` beside this module
(which also describes version 1, still read). Players are named by their
seat (1, 2, 3…); the `seats` list gives each seat's player. A change that
breaks a reader of version 2 makes version 3."""

from __future__ import annotations

import json
from datetime import datetime
from importlib import resources
from typing import Any, Final

from engine.vocab import EndReason
from tg_mafia.render.protocol.model import LogEntry, Moment, Phase, Protocol, Round, Vote, VoteKind

SCHEMA: Final = "tg-mafia/protocol"
SCHEMA_VERSION: Final = 2
SCHEMA_FILE: Final = "protocol.schema.json"
# An action's fields that name players (engine.actions): seats in the document.
PLAYER_FIELDS: Final = ("actor", "target", "targets")


def schema_document() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of versions 1 and 2, as shipped."""
    text = resources.files("tg_mafia.render.protocol").joinpath(SCHEMA_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def protocol_json(protocol: Protocol) -> dict[str, Any]:
    seat = protocol.seat_of

    def seats(players: tuple[str, ...] | list[str]) -> list[int]:
        return [seat(p) for p in players]

    def one(player: str | None) -> int | None:
        return None if player is None else seat(player)

    def vote(item: Vote) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": item.kind.value,
            "candidates": seats(item.candidates),
            "counts": [
                {"candidate": seat(c.candidate), "voters": seats(c.voters)} for c in item.counts
            ],
            "tally": [{"candidate": seat(c), "votes": n} for c, n in item.tally],
            "silent": seats(item.silent),
            "outcome": None if item.outcome is None else item.outcome.value,
            "eliminated": seats(item.eliminated),
        }
        if item.kind is VoteKind.DECIDE:
            data["decider"] = one(item.decider)
        if item.kind is VoteKind.LIFT:
            data["voters"] = seats(item.voters)
            data["living"] = item.living
        return data

    def round_(item: Round) -> dict[str, Any]:
        data: dict[str, Any] = {
            "phase": item.phase.value,
            "number": item.number,
            "started_at": _time(item.started_at),
        }
        if item.phase is Phase.NIGHT:
            data["moves"] = [
                {
                    "seat": seat(m.player),
                    "role": m.role.value,
                    "move": m.move.value,
                    "target": one(m.target),
                    "result": m.result.value,
                }
                for m in item.moves
            ]
            data["plan"] = None if item.plan is None else seats(item.plan)
            data["killed"] = seats(item.killed)
            data["missed"] = item.missed
            data["blocked"] = one(item.blocked)
        else:
            data["nominations"] = [{"by": seat(b), "target": seat(t)} for b, t in item.nominations]
            data["votes"] = [vote(v) for v in item.votes]
            data["farewells"] = seats(item.farewells)
            best = item.best_move
            data["best_move"] = (
                None
                if best is None
                else {"seat": seat(best.player), "targets": seats(best.targets)}
            )
        data["warnings"] = [
            {
                "seat": seat(w.player),
                "count": w.count,
                "reason": w.reason.value,
                "effect": w.effect.value,
            }
            for w in item.warnings
        ]
        data["eliminations"] = [
            {"seat": seat(e.player), "cause": e.cause.value} for e in item.eliminations
        ]
        data["timer"] = [{"change": n.change.value, "seconds": n.seconds} for n in item.timer]
        return data

    numbers = {s.player: s.seat for s in protocol.seats}

    def entry(item: LogEntry) -> dict[str, Any]:
        result = item.result
        return {
            "action": {
                "verb": item.action["verb"],
                **{k: _seats_in(k, v, numbers) for k, v in item.action.items() if k != "verb"},
            },
            "result": {
                "day": result.day,
                "night": result.night,
                "stage": result.stage,
                "speaker": one(result.speaker),
                "out": seats(result.out),
            },
        }

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
            # A decimal string: 63 bits, more than a JavaScript number holds exactly.
            "seed": str(protocol.seed),
        },
        "result": {
            "winner": protocol.winner.value if protocol.winner else None,
            "winners": [s.seat for s in protocol.seats if s.won],
            "ended": _moment(protocol.ended),
            # Only when no side decided it (a decided game's document is as before).
            **(
                {"reason": protocol.reason.value}
                if protocol.reason is not EndReason.DECIDED
                else {}
            ),
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
        "log": [entry(e) for e in protocol.log],
    }


def protocol_file(document: dict[str, Any]) -> str:
    """The document as the file sent: indented, with each action of the log
    on one line (a game has hundreds)."""
    head = {k: v for k, v in document.items() if k != "log"}
    text = json.dumps(head, ensure_ascii=False, indent=2)
    log = document.get("log")
    if log is None:
        return text + "\n"
    lines = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in log)
    body = f"[\n{lines}\n  ]" if log else "[]"
    return text[: text.rindex("}")].rstrip() + f',\n  "log": {body}\n}}\n'


def _seats_in(key: str, value: Any, numbers: dict[str, int]) -> Any:
    """A player named by an action's field, as a seat; anyone else (the
    host, the clock) as the engine names them."""
    if key not in PLAYER_FIELDS:
        return value
    if isinstance(value, list | tuple):
        return [numbers[p] for p in value]
    return numbers.get(value, value)


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


def _moment(moment: Moment | None) -> dict[str, Any] | None:
    return None if moment is None else {"phase": moment.phase.value, "number": moment.number}
