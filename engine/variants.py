"""The five rule variants as registered objects (RULES.md): role tables as
data, the few hooks where the variants differ, and the traits the shell's
texts read (a variant's title, how it is won, how its players count the
nights): the shell names no variant, so a new one is a class here and its
strings in the catalogues."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from engine.errors import SetupError
from engine.options import OptionValue
from engine.roles import Role, Side
from engine.vocab import CheckAnswer


class DayMode(StrEnum):
    LIVE_VOTE = "live_vote"  # classic: free talk and a live majority vote
    BALLOT = "ballot"  # party: free talk, then a ballot
    SPEECHES = "speeches"  # moscow, club: the floor, nominations, hand-raise vote


class ShotMode(StrEnum):
    MOST_CHOSEN = "most_chosen"  # a tie kills nobody
    MOST_CHOSEN_BOSS_BREAKS = "most_chosen_boss_breaks"  # classic's Godfather
    UNANIMOUS = "unanimous"  # moscow, club: any split or abstention misses


class Rotation(StrEnum):
    """Who opens a day's speeches."""

    BY_DAY = "by_day"  # moscow, club: day N opens at seat N
    AFTER_OPENER = "after_opener"  # sport: the seat after yesterday's opener


class TieMode(StrEnum):
    """What a tied hand-raise vote leads to."""

    DECIDER = "decider"  # moscow, club: last words, a repeat, the deciding vote
    LIFT = "lift"  # sport: re-speeches, revotes among the tied, the lift vote


class NightMove(StrEnum):
    KILL = "kill"
    CHECK = "check"
    HEAL = "heal"
    BLOCK = "block"


def N_(message: str) -> str:
    """Marks an English text for the shell's catalogues (babel.cfg extracts it
    from here); the shell translates it where it shows it."""
    return message


class LivingCount:
    """How many of each side live, and which of them the escort blocked."""

    __slots__ = ("blocked_mafia", "mafia", "maniac", "town")

    def __init__(self, mafia: int, town: int, maniac: int, blocked_mafia: int) -> None:
        self.mafia = mafia
        self.town = town
        self.maniac = maniac
        self.blocked_mafia = blocked_mafia


class Variant:
    name: str = ""
    title: str = ""  # its name as players know it (N_: the shell translates it)
    win_summary: str = ""  # who wins when, in a sentence or two (N_ too)
    # Its players count the nights as clubs do: the engine's night 1 is their zero
    # night, so that day N is followed by night N (RULES.md, sport, "Numbering as
    # players say it"). The engine and the scenarios keep their own count.
    zero_night: bool = False
    min_players: int = 0
    max_players: int = 0
    day_mode: DayMode = DayMode.SPEECHES
    shot_mode: ShotMode = ShotMode.UNANIMOUS
    starts_with_day: bool = False  # moscow: day 1 is the introductions
    quiet_first_night: bool = True  # night 1: no action, the mafia meet
    mafia_chat_every_night: bool = False  # classic: relayed every night
    has_warnings: bool = False
    has_plan: bool = False  # the Don's kill list on night 1
    has_leave_table: bool = False
    has_thanks_word: bool = False
    first_speech_day: int = 1
    parity_only_at_dawn: bool = False  # classic
    rotation: Rotation = Rotation.BY_DAY
    tie_mode: TieMode = TieMode.DECIDER
    # sport: a farewell floor for the night's victim and the eliminated; the
    # best move of the night-2 victim; fouls (the third silences, the limit
    # removes and cancels a vote); the judge sees the sheriff on night 1.
    has_farewells: bool = False
    has_best_move: bool = False
    has_fouls: bool = False
    sheriff_seen_first_night: bool = False
    calm_nights_to_draw: int = 0  # 0: no draw

    def __init__(self) -> None:
        # night_moves is asked for every living player at every night step:
        # the answer for each role is worked out once.
        self._moves = {role: self.role_moves(role) for role in Role}

    def mafia_count(self, players: int) -> int:
        raise NotImplementedError

    def deck(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        """The roles dealt for this many players."""
        if not self.min_players <= players <= self.max_players:
            wanted = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise SetupError(f"{self.name} needs {wanted} players, not {players}")
        deck = self.special_roles(players, options)
        mafia = self.mafia_count(players)
        boss = self.boss_role()
        if boss is not None:
            deck[boss] += 1
            mafia -= 1
        deck[Role.MAFIA] += mafia
        deck[Role.CITIZEN] += players - sum(deck.values())
        return +deck

    def boss_role(self) -> Role | None:
        return None

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        raise NotImplementedError

    def night_moves(self, role: Role, night: int) -> tuple[NightMove, ...]:
        """The choices a living player of this role has on this night."""
        if night == 1 and self.quiet_first_night:
            return ()
        return self._moves[role]

    def role_moves(self, role: Role) -> tuple[NightMove, ...]:
        """The choices of a living player of this role on a night with action."""
        moves: list[NightMove] = []
        if role.is_mafia or role is Role.MANIAC:
            moves.append(NightMove.KILL)
        if role.is_checker or (role is Role.DON):
            moves.append(NightMove.CHECK)
        if role is Role.DOCTOR:
            moves.append(NightMove.HEAL)
        if role is Role.ESCORT:
            moves.append(NightMove.BLOCK)
        return tuple(moves)

    def mafia_chat_open(self, night: int) -> bool:
        return self.mafia_chat_every_night or night == 1

    def check_answer(self, checker: Role, target: Role) -> CheckAnswer:
        if checker is Role.DON:
            return CheckAnswer.SHERIFF if target is Role.SHERIFF else CheckAnswer.NOT_SHERIFF
        return CheckAnswer.MAFIA if self.reads_as_mafia(target) else CheckAnswer.NOT_MAFIA

    def reads_as_mafia(self, role: Role) -> bool:
        return role.is_mafia

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        raise NotImplementedError

    def is_draw(self, night: int, last_departure: int) -> bool:
        """At the dawn of `night`: whether enough nights with action in a row,
        and the days between them, passed with nobody leaving the table.
        `last_departure` is `departure_time` of the last one to leave (0: none)."""
        if not self.calm_nights_to_draw:
            return False
        first_counted = 2 if self.quiet_first_night else 1
        first_calm = max(first_counted, last_departure // 2 + 1)
        return night - first_calm + 1 >= self.calm_nights_to_draw


def departure_time(night_phase: bool, night: int, day: int) -> int:
    """Nights and days on one line, for a variant whose night N comes before
    its day N: night N is 2N, day N is 2N + 1."""
    return 2 * night if night_phase else 2 * day + 1


class Classic(Variant):
    name = "classic"
    title = N_("Classic (Sleeping City)")
    win_summary = N_(
        "The town wins when no mafioso lives. The mafia win when no town player lives, "
        "or when at the start of a day they are at least as many as the town."
    )
    min_players, max_players = 7, 20
    day_mode = DayMode.LIVE_VOTE
    shot_mode = ShotMode.MOST_CHOSEN_BOSS_BREAKS
    mafia_chat_every_night = True
    parity_only_at_dawn = True

    def mafia_count(self, players: int) -> int:
        return 2 if players <= 8 else 3 if players <= 11 else 4 if players <= 15 else 5

    def boss_role(self) -> Role | None:
        return Role.GODFATHER

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        deck = Counter({Role.DETECTIVE: 1})
        if players >= 9:
            deck[Role.DOCTOR] = 1
        return deck

    def reads_as_mafia(self, role: Role) -> bool:
        # Decision (RULES.md): the Godfather reads "not mafia" to the detective.
        return role.is_mafia and role is not Role.GODFATHER

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        if living.mafia == 0:
            return Side.TOWN
        if living.town == 0 or (at_dawn and living.mafia >= living.town):
            return Side.MAFIA
        return None


class Moscow(Variant):
    name = "moscow"
    title = N_("Moscow rules")
    win_summary = N_(
        "The town wins when no mafioso and no maniac live. The mafia win when fewer town "
        "players than mafiosi live. The maniac wins by being the last one alive."
    )
    min_players, max_players = 7, 15
    starts_with_day = True
    has_warnings = True
    has_plan = True
    has_leave_table = True
    has_thanks_word = True
    first_speech_day = 2

    def mafia_count(self, players: int) -> int:
        return 2 if players <= 8 else 3 if players <= 12 else 4

    def boss_role(self) -> Role | None:
        return Role.DON

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        deck = Counter({Role.SHERIFF: 1})
        if players >= 9 and options.get("maniac", True):
            deck[Role.MANIAC] = 1
        return deck

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        if living.mafia == 0 and living.maniac == 0:
            return Side.TOWN
        if living.maniac and living.mafia == 0 and living.town == 0:
            return Side.MANIAC
        if living.town < living.mafia:
            return Side.MAFIA
        return None


class Party(Variant):
    name = "party"
    title = N_("Party game")
    win_summary = N_(
        "The town wins when every mafioso is out. The mafia win when they outnumber the rest."
    )
    min_players, max_players = 8, 18
    day_mode = DayMode.BALLOT
    shot_mode = ShotMode.MOST_CHOSEN
    quiet_first_night = False

    def mafia_count(self, players: int) -> int:
        return 2 if players <= 11 else 3

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        return Counter({Role.POLICE: 1, Role.DOCTOR: 1})

    def mafia_chat_open(self, night: int) -> bool:
        return False

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        if living.mafia == 0:
            return Side.TOWN
        if living.mafia > living.town:
            return Side.MAFIA
        return None


class Club(Variant):
    name = "club"
    title = N_("Club (sheriff, doctor, escort)")
    win_summary = N_(
        "The town wins when no mafioso lives. The mafia win when their unblocked members "
        "are at least as many as the town; a lone blocked mafioso against one town "
        "player loses."
    )
    min_players, max_players = 7, 16
    has_warnings = True
    has_plan = True

    def mafia_count(self, players: int) -> int:
        return 2 if players <= 9 else 3 if players <= 13 else 4

    def boss_role(self) -> Role | None:
        return Role.DON

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        # Decision: the sheriff and the doctor always; the escort from 9 players.
        deck = Counter({Role.SHERIFF: 1, Role.DOCTOR: 1})
        if players >= 9:
            deck[Role.ESCORT] = 1
        return deck

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        if living.mafia == 0:
            return Side.TOWN
        free_mafia = living.mafia - living.blocked_mafia
        # 001's exception: a lone blocked mafioso against one town player.
        if living.mafia == 1 and free_mafia == 0 and living.town == 1:
            return Side.TOWN
        if free_mafia >= living.town:
            return Side.MAFIA
        return None


class Sport(Variant):
    """FIIM's tournament game: ten players, seven red against three black."""

    name = "sport"
    title = N_("Sport Mafia (FIIM)")
    win_summary = N_(
        "The town (red) wins when no black player lives. The mafia (black) win when they "
        "are at least as many as the town. Three nights in a row, and the days between, "
        "with nobody leaving the table: a draw."
    )
    zero_night = True
    min_players, max_players = 10, 10
    has_warnings = True
    has_plan = True
    has_thanks_word = True
    rotation = Rotation.AFTER_OPENER
    tie_mode = TieMode.LIFT
    has_farewells = True
    has_best_move = True
    has_fouls = True
    sheriff_seen_first_night = True
    calm_nights_to_draw = 3

    def mafia_count(self, players: int) -> int:
        return 3

    def boss_role(self) -> Role | None:
        return Role.DON

    def special_roles(self, players: int, options: Mapping[str, OptionValue]) -> Counter[Role]:
        return Counter({Role.SHERIFF: 1})

    def winner(self, living: LivingCount, at_dawn: bool) -> Side | None:
        if living.mafia == 0:
            return Side.TOWN
        if living.mafia >= living.town:
            return Side.MAFIA
        return None


_BY_NAME = {v.name: v for v in (Classic(), Moscow(), Party(), Club(), Sport())}
VARIANTS: Mapping[str, Variant] = MappingProxyType(_BY_NAME)


def find_variant(name: str) -> Variant:
    variant = _BY_NAME.get(name)  # a plain dict: asked for on every action
    if variant is None:
        raise SetupError(f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}")
    return variant
