"""initData as Telegram signs it (the sandbox signs as Telegram does, with its
own code): taken when signed by this bot's token and fresh; refused when
unsigned, forged, signed by another bot, tampered with, or old."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from tg_mafia.miniapp.initdata import Rejection, SignedUser, verify
from tg_mafia.sandbox.webapp import init_data, signed
from tg_mafia.sandbox.world.state import User

TOKEN = "123456:SANDBOX-tg_mafia_bot-token"
NOW = 1_750_000_000
DAY = 24 * 3600.0
ANN = User(id=501, first_name="Ann", last_name="Lee", language_code="fr")


def test_a_fresh_page_signed_by_the_bot_names_its_user() -> None:
    data = init_data(ANN, TOKEN, NOW - 30, start_param="g12")
    user = verify(data, TOKEN, NOW, DAY)
    assert user == SignedUser(501, "Ann Lee", "fr", "g12", NOW - 30)


def test_the_documented_example_checks_out() -> None:
    # The fields are sorted, joined by newlines, and every one counts, whatever
    # its name (a field Telegram adds later is signed too).
    fields = {"auth_date": str(NOW), "user": '{"id":7,"first_name":"Bo"}', "signature": "abc"}
    assert isinstance(verify(signed(fields, TOKEN), TOKEN, NOW, DAY), SignedUser)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ("", Rejection.UNSIGNED),
        ("user=%7B%22id%22%3A501%7D&auth_date=1750000000", Rejection.UNSIGNED),
        ("%%%not a query", Rejection.UNSIGNED),
        ("x" * 5000, Rejection.UNSIGNED),
    ],
)
def test_unsigned_data_is_refused(data: str, why: Rejection) -> None:
    assert verify(data, TOKEN, NOW, DAY) is why


def test_another_bots_signature_is_forged() -> None:
    data = init_data(ANN, "999:OTHER-token", NOW)
    assert verify(data, TOKEN, NOW, DAY) is Rejection.FORGED


def test_a_changed_field_breaks_the_signature() -> None:
    fields = dict(parse_qsl(init_data(ANN, TOKEN, NOW)))
    fields["user"] = fields["user"].replace("501", "502")
    assert verify(urlencode(fields), TOKEN, NOW, DAY) is Rejection.FORGED


def test_a_field_given_twice_is_refused() -> None:
    data = init_data(ANN, TOKEN, NOW) + "&auth_date=1"
    assert verify(data, TOKEN, NOW, DAY) is Rejection.UNSIGNED


def test_old_data_has_expired_and_future_data_is_not_taken() -> None:
    assert verify(init_data(ANN, TOKEN, NOW - 3601), TOKEN, NOW, 3600) is Rejection.EXPIRED
    assert isinstance(verify(init_data(ANN, TOKEN, NOW - 3599), TOKEN, NOW, 3600), SignedUser)
    assert verify(init_data(ANN, TOKEN, NOW + 600), TOKEN, NOW, 3600) is Rejection.EXPIRED


def test_signed_data_without_a_user_names_nobody() -> None:
    data = signed({"auth_date": str(NOW), "query_id": "AA1"}, TOKEN)
    assert verify(data, TOKEN, NOW, DAY) is Rejection.NO_USER
