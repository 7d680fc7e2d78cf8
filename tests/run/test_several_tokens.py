"""`tg-mafia run` with several bot tokens: the settings (TELEGRAM_BOT_TOKEN
comma-separated, --token repeated), a bad list refused with one line and nothing
started, and one process serving two bots behind one webhook server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback import loopback_client
from tests.run.test_live import (
    BOT_RIGHTS,
    FAKE_UPDATE,
    GREETING,
    PATIENCE,
    World,
    bot_lines,
    free_port,
    launch,
    metrics,
    run_in_thread,
    until_healthy,
)
from tg_mafia.cli import build_parser
from tg_mafia.config import ConfigError, bot_id_of, load_settings
from tg_mafia.sandbox import SECRET_HEADER, post_json

A = "123456789:" + "A" * 35
B = "987654321:" + "B" * 35
WEBHOOK = {"webhook_url": "https://x.org/hook"}


def test_several_tokens_in_the_variable_or_the_flag_repeated() -> None:
    settings = load_settings({}, {"TELEGRAM_BOT_TOKEN": f" {A} , {B} "})
    assert settings.tokens == (A, B) and settings.token == A
    assert {A, B} <= set(settings.secrets)
    args = build_parser().parse_args(["run", "--token", A, "--token", B])
    assert load_settings({"token": args.token}, {}).tokens == (A, B)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (f"{A},not-a-token", "TELEGRAM_BOT_TOKEN: token 2 of 2 does not look like a bot token"),
        (f"{A},", "TELEGRAM_BOT_TOKEN: token 2 of 2 is empty"),
        (
            f"{A},{B},123456789:{'C' * 35}",
            "TELEGRAM_BOT_TOKEN: tokens 1 and 3 are the same bot (id 123456789): "
            "give each bot's token once",
        ),
    ],
)
def test_a_bad_token_list_is_refused_by_place_never_shown(given: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({}, {"TELEGRAM_BOT_TOKEN": given})
    text = str(caught.value)
    assert text.startswith(message), text
    assert "AAAA" not in text and "BBBB" not in text and "CCCC" not in text


def test_each_bot_has_its_own_webhook_path_and_secret() -> None:
    """One server, a path per bot (`<URL>/<bot id>`); a given WEBHOOK_SECRET gives each
    bot its own, the same on every replica; one token keeps the URL as given."""
    env = {"TELEGRAM_BOT_TOKEN": f"{A},{B}", "WEBHOOK_SECRET": "shared"}
    settings = load_settings(WEBHOOK, env)
    a, b = (settings.webhook_of(bot_id_of(token)) for token in (A, B))
    assert a is not None and b is not None
    assert (a.url, b.url) == ("https://x.org/hook/123456789", "https://x.org/hook/987654321")
    assert (a.path, b.path) == ("/hook/123456789", "/hook/987654321")
    assert len({a.secret_token, b.secret_token, "shared"}) == 3
    again = load_settings(WEBHOOK, env).webhook_of(bot_id_of(A))
    assert again is not None and again.secret_token == a.secret_token  # every replica's
    assert {a.secret_token, b.secret_token} <= set(settings.secrets)
    one = load_settings(WEBHOOK, {"TELEGRAM_BOT_TOKEN": A, "WEBHOOK_SECRET": "shared"})
    only = one.webhook_of(bot_id_of(A))
    assert only is not None and (only.url, only.secret_token) == ("https://x.org/hook", "shared")


@pytest.mark.real_time
@pytest.mark.usefixtures("in_process")
async def test_a_token_telegram_refuses_starts_no_bot(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second of two tokens is refused: one line naming it by its place and its
    bot's id, and the first bot, known to Telegram, was not started either."""
    refused = "7000000099:" + "W" * 35
    base_url = world.http.base_url
    assert await run_in_thread("--token", world.sb.token, "--token", refused,
                               "--base-url", base_url) == 2  # fmt: skip
    out, err = capsys.readouterr()
    assert bot_lines(err) == [
        "tg-mafia run: Telegram rejected token 2 of 2 (bot 7000000099): check --token "
        "(BotFather's /token)"
    ]
    assert "WWWW" not in out + err
    made = {r.method for r in world.sb.log if r.bot_id == world.sb.default_bot.id}
    assert made == {"getMe"}  # asked who it is, and nothing more


@pytest.mark.real_time
async def test_two_bots_in_one_process_behind_one_webhook_server(
    world: World, tmp_path: Path
) -> None:
    second = world.sb.create_bot("second_mafia_bot")
    users = world.sb.add_users(2, prefix="Second")
    group = world.sb.add_group(
        "Second club", members=users, owner=users[0], bot_rights=BOT_RIGHTS, bots=[second]
    )
    hook_port, health_port = free_port(), free_port()
    url = f"http://127.0.0.1:{hook_port}/tg"
    bot = await launch(
        world, tmp_path, "--webhook-url", url, "--listen", f"127.0.0.1:{hook_port}",
        "--health-listen", f"127.0.0.1:{health_port}",
        token=f"{world.sb.token},{second.token}",
    )  # fmt: skip
    try:
        await until_healthy(bot, health_port)
        hooks = [world.sb.default_bot.webhook, second.webhook]
        assert all(hook is not None for hook in hooks)
        first_hook, second_hook = (h for h in hooks if h is not None)
        assert first_hook.config.url == f"{url}/{world.sb.default_bot.id}"
        assert second_hook.config.url == f"{url}/{second.id}"
        assert first_hook.config.secret_token != second_hook.config.secret_token
        for user, account in ((world.users[1], world.sb.default_bot), (users[1], second)):
            user.start(bot=account)
            chat = user.private_chat_with(account)
            await world.sb.wait_for(
                lambda c=chat, u=user: any(GREETING in (m.text or "") for m in u.view(c)),
                timeout=PATIENCE,
            )
        users[0].command(group, "newgame", mention=True, bot=second)
        await world.sb.wait_for(lambda: any(m.buttons for m in users[0].view(group)),
                                timeout=PATIENCE)  # fmt: skip
        lobby = next(m for m in users[0].view(group) if m.buttons)
        assert lobby.sender_id == second.id
        # each path takes only its own bot's secret
        other_secret = {SECRET_HEADER: first_hook.config.secret_token or ""}
        assert (await post_json(second_hook.config.url, FAKE_UPDATE, other_secret))[0] == 403
        samples = await metrics(health_port)
        sent = {labels["bot"] for name, labels, value in samples
                if name == "tg_mafia_api_calls_total" and labels["method"] == "sendMessage"
                and value > 0}  # fmt: skip
        assert sent == {str(world.sb.default_bot.id), str(second.id)}
        async with loopback_client() as client:
            status = await client.get(f"http://127.0.0.1:{health_port}/healthz")
            assert status.json() == {"ok": True, "games": 1}
    finally:
        assert await bot.stop() == 0, bot.output()
    output = bot.output()
    assert "@mafia_sandbox_bot, @second_mafia_bot" in output
    assert "SANDBOX-" not in output
