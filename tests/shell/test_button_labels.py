"""Every button label of every catalogue fits a phone: on a row of two or
more buttons at most 20 columns, alone on its row at most 36 (grapheme
clusters; an emoji counts 2). The keyboards are the ones the bot builds:
the lobby, the settings menu at every option and value, and every keyboard
of random games of each variant rendered in each language (floor, count,
votes, night prompts, the Don's list, the host's panel, the end)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from engine import VARIANTS, GameSetup, GameState, Views, apply, legal_actions
from engine.actions import Best
from engine.options import OptionSpec, option_specs
from engine.simulation import random_action
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import presenter, screens
from tg_mafia.render.calls import Keyboard, keyboard_of
from tg_mafia.render.keyboards import ALONE_COLUMNS, SHARED_ROW_COLUMNS, packed, width
from tg_mafia.render.scene import GameView, Scene
from tg_mafia.render.settings_menu import Settings, menu_markup
from tg_mafia.render.texts.options import option_line
from tg_mafia.render.texts.table import Table
from tg_mafia.runtime.lobby import Lobbies

SEATS = tuple(str(100 + i) for i in range(1, 13))
NAMES = {p: f"Ann{p[-2:]}" for p in SEATS}  # short: the labels' words are measured


def test_width_counts_clusters_and_emoji() -> None:
    assert width("Pass") == 4
    assert width("⏱") == 2 and width("▶️ Resume") == 9
    assert width("Rời bàn") == 7 and width("e\u0301") == 1  # accents belong to their letter


def test_a_long_label_goes_alone_on_its_row() -> None:
    short, long_ = {"text": "Night: 60 s"}, {"text": "Roles shown on death: off"}
    rows = packed([short, short, long_, short, short, short], 2)
    assert rows == [[short, short], [long_], [short, short], [short]]


def too_long(keyboard: Keyboard | None) -> Iterator[tuple[str, int, int]]:
    for row in keyboard or []:
        limit = ALONE_COLUMNS if len(row) == 1 else SHARED_ROW_COLUMNS
        for button in row:
            if width(button["text"]) > limit:
                yield button["text"], width(button["text"]), limit


def settings_keyboards(language: str) -> Iterator[Keyboard | None]:
    t = translator(language)
    for variant in VARIANTS:
        for autostart in (False, True):
            base = Settings(language, variant, {}, autostart)
            values: list[dict[str, Any]] = [{}]
            for spec in option_specs(variant):
                choices: tuple[Any, ...] = ()
                if isinstance(spec.default, bool):
                    choices = (False, True)
                elif spec.choices:
                    choices = tuple(spec.choices)
                elif isinstance(spec.default, int):
                    choices = (spec.minimum, spec.maximum)
                values += [{spec.name: value} for value in choices]
            for options in values:
                current = replace(base, options=options)
                screens_of = ["main", "language", "variant"]
                screens_of += [f"option:{s.name}" for s in option_specs(variant) if s.maximum]
                for screen in screens_of:
                    yield menu_markup(t, current, screen)


def lobby_keyboard(language: str) -> Keyboard:
    record = SimpleNamespace(language=language, chat_id=-1000, topic=0, id=1)
    owner = SimpleNamespace(config=SimpleNamespace(bot_username="mafia_bot"))
    keyboard: Keyboard = Lobbies.keyboard(owner, record)  # type: ignore[arg-type]
    return keyboard


def game_keyboards(language: str, variant: str, seed: int) -> Iterator[Keyboard | None]:
    players = 10 if variant == "sport" else 11
    options = {"host": "human"} if variant != "sport" else {}
    state = GameSetup(variant, SEATS[:players], options, seed=seed).start()
    game = GameView(
        1, -1000, 0, "Club", Table(state.table.seats, NAMES), translator(language), 99, True, None
    )
    rng = random.Random(seed)
    before: GameState | None = None
    events: list[Any] = []
    for _ in range(3000):
        seen = Views(before) if before is not None else None
        scene = Scene(game, Views(state), seen)
        for out in presenter.render(game, Views(state), events, seen):
            yield keyboard_of(out.op)
        yield screens.host_panel(scene).keyboard
        if state.day.speaker is not None:
            yield screens.nominate_menu(scene, state.day.speaker).keyboard
            best = next((a for a in legal_actions(state) if isinstance(a, Best)), None)
            if best is not None:  # sport's best-move menu, with a name chosen (and Done)
                menu, _ = screens.best_move_menu(scene, best.actor, best.targets)
                yield menu.keyboard if menu is not None else None
        if state.phase.value == "ended":
            return
        before = state
        state, events = apply(state, random_action(state, rng, chatter=0))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_button_label_fits_a_phone(language: str) -> None:
    keyboards = [lobby_keyboard(language), *settings_keyboards(language)]
    for variant in VARIANTS:
        for seed in (1, 2):
            keyboards += list(game_keyboards(language, variant, seed))
    cut = sorted({found for keyboard in keyboards for found in too_long(keyboard)})
    assert not cut, f"{language}: labels a phone cuts (label, columns, limit): {cut}"


def reachable(spec: OptionSpec) -> range:
    """The values the menu's steps reach (settings_menu._targets): every one
    of a narrow range, multiples of 5 or 30 of the wider ones."""
    span = spec.maximum - spec.minimum
    step = 1 if span <= 30 else 5 if span <= 300 else 30
    return range(spec.minimum, spec.maximum + 1, step)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_an_option_can_take_fits_its_button(language: str) -> None:
    """Not only the ends of a range: "2 min 30 s" is longer than "5 min"."""
    t = translator(language)
    cut = set()
    for variant in VARIANTS:
        for spec in option_specs(variant):
            if isinstance(spec.default, bool) or not isinstance(spec.default, int):
                continue
            for value in reachable(spec):
                label = option_line(t, spec, value, variant)
                if width(label) > ALONE_COLUMNS:
                    cut.add((label, width(label)))
    assert not cut, f"{language}: {sorted(cut)}"
