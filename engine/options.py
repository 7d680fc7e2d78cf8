"""Per-game options (RULES.md, "Options"): which variant has which, their
ranges and defaults, and validation with a clear message."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import SetupError

OptionValue = bool | int | str
Options = Mapping[str, OptionValue]

ALL_VARIANTS = frozenset({"classic", "moscow", "party", "club", "sport"})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    variants: frozenset[str]
    default: OptionValue
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    # A default that differs by variant, e.g. reveal_roles.
    variant_defaults: tuple[tuple[str, OptionValue], ...] = ()

    @property
    def kind(self) -> type:
        return type(self.default)

    def default_for(self, variant: str) -> OptionValue:
        return dict(self.variant_defaults).get(variant, self.default)

    def describe_range(self) -> str:
        if isinstance(self.default, bool):
            return "on or off"
        if isinstance(self.default, int):
            return f"{self.minimum} to {self.maximum}"
        return ", ".join(self.choices)

    def parse(self, raw: object) -> OptionValue:
        """A value from a menu, a file or a command line, checked against the range."""
        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("on", "true", "yes", "1"):
                return True
            if text in ("off", "false", "no", "0"):
                return False
            raise SetupError(f"option {self.name}: {raw!r} is not on or off")
        if isinstance(self.default, int):
            if isinstance(raw, bool):
                raise SetupError(
                    f"option {self.name}: expected a number of {self.describe_range()}"
                )
            try:
                number = int(str(raw).strip()) if not isinstance(raw, int) else raw
            except ValueError:
                raise SetupError(f"option {self.name}: {raw!r} is not a whole number") from None
            if not self.minimum <= number <= self.maximum:
                raise SetupError(
                    f"option {self.name}: {number} is out of range ({self.describe_range()})"
                )
            return number
        text = str(raw).strip().lower()
        if text not in self.choices:
            raise SetupError(f"option {self.name}: {raw!r} is not one of {self.describe_range()}")
        return text


def _spec(
    name: str,
    variants: set[str],
    default: OptionValue,
    lo: int = 0,
    hi: int = 0,
    choices: tuple[str, ...] = (),
    **by_variant: OptionValue,
) -> OptionSpec:
    return OptionSpec(
        name, frozenset(variants), default, lo, hi, choices, tuple(sorted(by_variant.items()))
    )


OPTION_SPECS: tuple[OptionSpec, ...] = (
    _spec("host", set(ALL_VARIANTS), "auto", choices=("auto", "human")),
    _spec("reveal_roles", {"classic", "party", "club"}, False, classic=True),
    _spec("night_seconds", set(ALL_VARIANTS), 60, 20, 300),
    _spec("day_seconds", {"classic", "party"}, 180, 60, 1200, classic=300),
    _spec("ballot_seconds", {"party"}, 60, 15, 300),
    _spec("intro_seconds", {"moscow"}, 15, 5, 60),
    _spec("speech_seconds", {"moscow", "club", "sport"}, 60, 15, 180),
    _spec("last_word_seconds", {"moscow", "club", "sport"}, 30, 10, 120),
    _spec("vote_count_seconds", {"moscow", "club", "sport"}, 6, 3, 30),
    _spec("thanks_rule", {"moscow", "sport"}, False, sport=True),
    _spec("maniac", {"moscow"}, True),
    _spec("warnings_limit", {"moscow", "club", "sport"}, 3, 0, 5, sport=4),
    # Idle turns in a row that put a player out (0: never); the bot as host only.
    _spec("idle_limit", set(ALL_VARIANTS), 2, 0, 5),
    # A human host's limits: a pause ends, and a win is confirmed, by itself.
    _spec("pause_limit", set(ALL_VARIANTS), 600, 60, 3600),
    _spec("confirm_seconds", set(ALL_VARIANTS), 300, 30, 1800),
)
SPECS_BY_NAME = {spec.name: spec for spec in OPTION_SPECS}


def option_specs(variant: str) -> tuple[OptionSpec, ...]:
    return tuple(spec for spec in OPTION_SPECS if variant in spec.variants)


def resolve_options(
    variant: str, given: Mapping[str, object] | None = None
) -> dict[str, OptionValue]:
    """Every option of the variant: defaults overridden by `given`. An unknown
    option, one the variant does not have, or a value out of range is refused."""
    resolved = {spec.name: spec.default_for(variant) for spec in option_specs(variant)}
    for name, raw in (given or {}).items():
        spec = SPECS_BY_NAME.get(name)
        if spec is None:
            raise SetupError(f"unknown option {name!r}")
        if variant not in spec.variants:
            raise SetupError(f"option {name!r} is not used by the {variant} variant")
        resolved[name] = spec.parse(raw)
    return resolved
