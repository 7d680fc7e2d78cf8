"""/settings on the sandbox: administrators only (anonymous ones too), one
menu edited in place, every value checked, changes from the next game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import GameState
from engine.options import OptionValue, option_specs
from engine.variants import VARIANTS
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.core import Press
from tg_mafia.storage import GameStatus

NEXT_GAME = "changes apply from the next game"


def menu(h: Harness) -> int:
    """The id of the latest settings menu in the group."""
    chat = h.sb.world.resolve_chat(h.group.id)
    for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        for row in (message.reply_markup or {}).get("inline_keyboard", []):
            if any(
                str(b.get("callback_data", "")).startswith(f"{Kind.SETTINGS.value}:") for b in row
            ):
                return message.message_id
    raise AssertionError("no settings menu in the group")


def menu_text(h: Harness) -> str:
    message = h.sb.world.resolve_chat(h.group.id).live_message(menu(h))
    assert message is not None
    return message.text or ""


async def open_menu(h: Harness, user: SimUser | None = None) -> int:
    (user or h.admin).command(h.group, "settings", mention=True)
    await h.settle()
    return menu(h)


async def press(h: Harness, user: SimUser, label: str) -> Press:
    await asyncio.sleep(2.0)  # a person's pace: within the limit on what a user sends
    pressed = user.press(h.group, label, message_id=menu(h))
    await h.settle()
    assert pressed.answered
    return pressed


def forge(h: Harness, data: str) -> str:
    """Rewrite the first button of the menu to carry `data`, as a forged
    client would send it; returns the button's label."""
    message = h.sb.world.resolve_chat(h.group.id).live_message(menu(h))
    assert message is not None and message.reply_markup
    button = message.reply_markup["inline_keyboard"][0][0]
    button["callback_data"] = data
    return str(button["text"])


def bot_messages(h: Harness) -> int:
    return sum(1 for m in h.admin.view(h.group) if m.sender_id == h.sb.world.bot.id)


async def test_an_admin_changes_language_variant_and_options_in_one_message(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path, 2) as h:
        await open_menu(h)
        sent = bot_messages(h)
        assert "Language: English" in menu_text(h)
        assert "Variant: Classic (Sleeping City)" in menu_text(h)
        assert "Day: 5 min" in menu_text(h) and NEXT_GAME not in menu_text(h)
        await press(h, h.admin, "🎭 Classic (Sleeping City)")
        answer = await press(h, h.admin, "Moscow rules")
        assert answer.answer.get("text")  # "Saved."
        settings = h.db.get_settings(h.group.id)
        assert settings.variant == "moscow"
        # Only moscow's options are offered; numbers in steps, booleans toggle.
        assert "Day:" not in menu_text(h) and "Thanks word: off" in menu_text(h)
        await press(h, h.admin, "Speech: 60 sec")
        await press(h, h.admin, "+5")
        await press(h, h.admin, "+30")
        assert h.db.get_settings(h.group.id).options == {"speech_seconds": 95}
        await press(h, h.admin, "← Back")
        await press(h, h.admin, "Thanks word: off")
        await press(h, h.admin, "Maniac: on")
        await press(h, h.admin, "Host: the bot")
        assert h.db.get_settings(h.group.id).options == {
            "speech_seconds": 95,
            "thanks_rule": True,
            "maniac": False,
            "host": "human",
        }
        # Club keeps the options it also has and drops moscow's own.
        await press(h, h.admin, "🎭 Moscow rules")
        await press(h, h.admin, "Club (sheriff, doctor, escort)")
        settings = h.db.get_settings(h.group.id)
        assert settings.variant == "club"
        assert settings.options == {"speech_seconds": 95, "host": "human"}
        await press(h, h.admin, "Speech: 95 sec")
        await press(h, h.admin, "Default (60 sec)")
        assert h.db.get_settings(h.group.id).options == {"host": "human"}
        await press(h, h.admin, "← Back")
        await press(h, h.admin, "🌐 English")
        await press(h, h.admin, "Français")
        assert h.db.get_settings(h.group.id).language == "fr"
        await press(h, h.admin, translator("fr").gettext("✅ Done"))
        assert bot_messages(h) == sent  # one menu, edited in place
        last = h.admin.view(h.group)[-1]
        assert last.buttons == [] and "Français" in (last.text or "")


async def test_start_when_full_is_a_group_setting_off_by_default(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        await open_menu(h)
        assert "Start when full: off" in menu_text(h)
        await press(h, h.admin, "Start when full: off")
        assert h.db.get_settings(h.group.id).autostart
        assert "Start when full: on" in menu_text(h)
        # Not a rule of the game: the variant's options stay as they were, and
        # a change of variant keeps it.
        assert h.db.get_settings(h.group.id).options == {}
        await press(h, h.admin, "🎭 Classic (Sleeping City)")
        await press(h, h.admin, "Party game")
        assert h.db.get_settings(h.group.id).autostart
        await press(h, h.admin, "Start when full: on")
        assert not h.db.get_settings(h.group.id).autostart


async def test_a_member_who_is_not_an_admin_changes_nothing(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        member = h.users[0]
        member.command(h.group, "settings", mention=True)
        await h.settle()
        assert "Only the group's administrators" in h.group_texts()[-1]
        await open_menu(h)
        before = menu_text(h)
        answer = await press(h, member, "🎭 Classic (Sleeping City)")
        assert "Only the group's administrators" in answer.answer["text"]
        forge(h, "st:0:-:V:moscow")  # not one of the menu's buttons: the gate refuses it
        answer = await press(h, member, "🌐 English")
        assert "out of date" in answer.answer["text"]
        assert h.db.get_settings(h.group.id).updated_at is None
        assert menu_text(h) == before


async def test_an_anonymous_admin_may_change_settings(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        anonymous = h.users[1]
        h.sb.promote(h.group, anonymous, anonymous=True, can_change_info=True)
        anonymous.send(h.group, f"/settings@{h.sb.bot_username}", anonymous=True)
        await h.settle()
        assert menu(h)
        await press(h, anonymous, "🎭 Classic (Sleeping City)")
        await press(h, anonymous, "Party game")
        assert h.db.get_settings(h.group.id).variant == "party"


async def test_forged_values_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        await open_menu(h)
        forged = [
            # Data that is not one of the menu's buttons never reaches it (runtime/gate.py).
            ("st:0:-:O:night_seconds:999", "out of date"),
            ("st:0:-:O:night_seconds:abc", "out of date"),
            ("st:0:-:O:warnings_limit:2", "out of date"),  # classic has no warnings
            ("st:0:-:O:nonsense:1", "out of date"),
            ("st:0:-:V:chess", "out of date"),
            ("st:0:-:L:de", "out of date"),
            ("st:0:-:zzz", "out of date"),
            ("st:0:-:A:maybe", "out of date"),
        ]
        for data, popup in forged:
            label = forge(h, data)
            answer = await press(h, h.admin, label)
            assert popup in answer.answer["text"], (data, answer.answer)
        assert h.db.get_settings(h.group.id).updated_at is None


async def test_a_change_during_a_game_waits_for_the_next_one(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        await open_menu(h)
        assert NEXT_GAME in menu_text(h)
        await press(h, h.admin, "🎭 Classic (Sleeping City)")
        await press(h, h.admin, "Party game")
        await press(h, h.admin, "🌐 English")
        await press(h, h.admin, "Русский")
        running = h.db.get_game(game_id)
        assert running is not None and running.status is GameStatus.RUNNING
        assert (running.variant, running.language) == ("classic", "en")
        assert running.state is not None and running.state["variant"] == "classic"
        h.admin.command(h.group, "cancel", mention=True)
        await h.settle()
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and lobby.id != game_id
        assert (lobby.variant, lobby.language) == ("party", "ru")


async def test_settings_in_private_points_to_the_group(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        user = h.users[0]
        user.start()
        await h.settle()
        user.command(user.private_chat, "settings")
        await h.settle()
        assert "in your group" in h.private_texts(user)[-1]


def test_the_french_transcript_script_runs(tmp_path: Path) -> None:
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "make_settings_transcript", root / "docs" / "make_settings_transcript.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    output = tmp_path / "settings-fr.md"
    script.main(output)
    text = output.read_text(encoding="utf-8")
    assert text.count("```") == 2 * len(script.STEPS)
    assert "Français" in text and "Русский" in text and "Tiếng Việt" in text


def test_values_no_menu_offers_are_refused_by_the_menu_itself() -> None:
    """Behind the gate, the menu checks every value again (a record kept from before the
    gate, a bug in a keyboard): what it refuses, and why."""
    from tg_mafia.i18n import translator
    from tg_mafia.render.settings_menu import Refused, apply_press, load
    from tg_mafia.storage import ChatSettingsRecord

    t = translator("en")
    before = load(ChatSettingsRecord(chat_id=-1))
    for args, reason in [
        (["O", "night_seconds", "999"], "allowed values are 20 sec to 5 min"),
        (["O", "night_seconds", "abc"], "allowed values are 20 sec to 5 min"),
        (["O", "warnings_limit", "2"], "has no option"),
        (["O", "nonsense", "1"], "has no option"),
    ]:
        with pytest.raises(Refused, match=reason):
            apply_press(t, before, args)


# ----- every option, changed in the menu and seen in the next game --------------------------


def settings_buttons(h: Harness) -> dict[tuple[str, ...], str]:
    """The menu's buttons by what they do (their arguments), whatever their labels say."""
    message = h.sb.world.resolve_chat(h.group.id).live_message(menu(h))
    assert message is not None
    found = {}
    for row in (message.reply_markup or {}).get("inline_keyboard", []):
        for button in row:
            pressed = decode(str(button.get("callback_data", "")))
            if pressed is not None and pressed.kind is Kind.SETTINGS:
                found[pressed.args] = str(button["text"])
    return found


async def press_args(h: Harness, *args: str) -> None:
    """The menu's button that does `args`, pressed by the admin."""
    buttons = settings_buttons(h)
    assert args in buttons, (args, sorted(buttons))
    answer = await press(h, h.admin, buttons[args])
    assert "allowed values" not in answer.answer.get("text", ""), answer.answer


async def change_every_option(h: Harness, variant: str) -> dict[str, OptionValue]:
    """Each of the variant's options set away from its default through the menu, as an
    administrator would tap it; the values chosen."""
    chosen: dict[str, OptionValue] = {}
    for spec in option_specs(variant):
        default = spec.default_for(variant)
        main = settings_buttons(h)
        if isinstance(default, bool) or spec.choices:
            (args,) = [a for a in main if a[:2] == ("O", spec.name)]
            await press_args(h, *args)
            chosen[spec.name] = spec.parse(args[2])
        else:
            await press_args(h, "o", spec.name)
            step = next(a for a in settings_buttons(h) if a[:2] == ("O", spec.name))
            await press_args(h, *step)
            await press_args(h, "m")
            chosen[spec.name] = int(step[2])
        assert chosen[spec.name] != default, spec.name
    return chosen


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_every_option_changed_is_seen_in_the_next_game(variant: str, tmp_path: Path) -> None:
    size = VARIANTS[variant].min_players
    async with running_bot(tmp_path, size) as h:
        await open_menu(h)
        await press_args(h, "v")
        await press_args(h, "V", variant)
        chosen = await change_every_option(h, variant)
        await press_args(h, "A", "on")
        await press_args(h, "l")
        await press_args(h, "L", "fr")
        await press_args(h, "x")
        stored = h.db.get_settings(h.group.id)
        assert (stored.variant, stored.language, stored.autostart) == (variant, "fr", True)
        assert stored.options == chosen

        # The next game: a person hosts it (the host option), the lobby speaks French.
        h.admin.start()
        await h.settle()
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and (lobby.variant, lobby.language) == (variant, "fr")
        french = translator("fr")
        assert any(texts.variant_name(french, variant) in t for t in h.group_texts())
        h.admin.command(h.group, "host", mention=True)
        await h.settle()
        for user in h.users:
            user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
            await h.settle()
        if VARIANTS[variant].max_players > size:
            await h.press_start()  # not full: "start when full" waits for the opener
        game = h.db.active_game(h.group.id)
        assert game is not None and game.status is GameStatus.RUNNING, "started"
        assert game.host_user_id == h.admin.id
        state = GameState.from_dict(game.state or {})
        for name, value in chosen.items():
            assert state.options[name] == value, name
        assert state.human_host
