"""Who may look at a board: signed links and Telegram sign-ins, forged, changed, old or
someone else's, are refused."""

from __future__ import annotations

import base64
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.api import ChannelRef, PlayerRef
from bot.web.auth import Refused, Signer, telegram_user
from tests.bot.web.initdata import signed_init_data

ANN = PlayerRef("discord", "111", "Ann")
BOB = PlayerRef("discord", "222", "Bob")
CHANNEL = ChannelRef("discord", "900")
BOT_TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_signed_link_names_its_player_and_channel_and_nothing_secret() -> None:
    clock = Clock()
    signer = Signer(b"s" * 32, lifetime=3600, clock=clock)
    token = signer.sign(ANN, CHANNEL)
    viewer = signer.check(token)
    assert viewer.player.same_person(ANN) and viewer.player.display_name == "Ann"
    assert viewer.channel == CHANNEL
    assert viewer.expires == clock.now + 3600
    body = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert set(body) == {"p", "u", "c", "e", "n"}  # who, where, until when; no rack, no token
    assert b"s" * 16 not in token.encode()


def test_a_link_changed_to_name_another_player_or_channel_is_refused() -> None:
    signer = Signer(b"s" * 32, lifetime=3600)
    body, mac = signer.sign(ANN, CHANNEL).split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=="))
    for change in ({"u": BOB.user_id}, {"c": "901"}, {"e": claims["e"] + 10**6}):
        forged = base64.urlsafe_b64encode(json.dumps({**claims, **change}).encode()).decode()
        with pytest.raises(Refused) as refused:
            signer.check(f"{forged.rstrip('=')}.{mac}")
        assert refused.value.code == "bad_token"


def test_a_link_signed_with_another_secret_or_cut_short_is_refused() -> None:
    ours = Signer(b"s" * 32, lifetime=3600)
    theirs = Signer(b"t" * 32, lifetime=3600)
    token = theirs.sign(ANN, CHANNEL)
    for bad in (token, token[:-1], token.split(".")[0], "", "a.b.c", "x" * 5000):
        with pytest.raises(Refused):
            ours.check(bad)


def test_a_link_is_refused_once_it_expired() -> None:
    clock = Clock()
    signer = Signer(b"s" * 32, lifetime=60, clock=clock)
    token = signer.sign(ANN, CHANNEL)
    clock.now += 59
    assert signer.check(token).player.same_person(ANN)
    clock.now += 2
    with pytest.raises(Refused) as refused:
        signer.check(token)
    assert refused.value.code == "expired"


def test_telegram_init_data_signed_as_documented_names_its_user() -> None:
    data = signed_init_data(BOT_TOKEN, 4242, first_name="Ann", language_code="pl")
    user = telegram_user(data, BOT_TOKEN, max_age=3600)
    assert (user.user_id, user.name, user.language_code) == ("4242", "Ann", "pl")


def test_telegram_init_data_changed_to_another_user_is_refused() -> None:
    fields = dict(parse_qsl(signed_init_data(BOT_TOKEN, 4242)))
    fields["user"] = fields["user"].replace("4242", "4343")
    with pytest.raises(Refused) as refused:
        telegram_user(urlencode(fields), BOT_TOKEN, max_age=3600)
    assert refused.value.code == "bad_init_data"


def test_telegram_init_data_of_another_bot_or_without_hash_is_refused() -> None:
    other_bot = "7099999999:AAH-another-bot-token-000000000000"
    fields = dict(parse_qsl(signed_init_data(BOT_TOKEN, 4242)))
    unsigned = urlencode({k: v for k, v in fields.items() if k != "hash"})
    doubled = signed_init_data(BOT_TOKEN, 4242) + "&user=" + fields["user"]
    for bad in (signed_init_data(other_bot, 4242), unsigned, doubled, "", "%%%", "a" * 5000):
        with pytest.raises(Refused):
            telegram_user(bad, BOT_TOKEN, max_age=3600)


def test_telegram_init_data_older_than_the_setting_is_refused() -> None:
    now = 1_800_000_000
    fresh = signed_init_data(BOT_TOKEN, 4242, auth_date=now - 3500)
    old = signed_init_data(BOT_TOKEN, 4242, auth_date=now - 3700)
    future = signed_init_data(BOT_TOKEN, 4242, auth_date=now + 3600)
    assert telegram_user(fresh, BOT_TOKEN, max_age=3600, now=now).user_id == "4242"
    for stale in (old, future):
        with pytest.raises(Refused) as refused:
            telegram_user(stale, BOT_TOKEN, max_age=3600, now=now)
        assert refused.value.code == "stale_init_data"
