"""Who is looking at a board: signed links and Telegram Mini App sign-ins.

A board link (Discord, the terminal) carries a token: the platform, the user, the channel and an
expiry, signed with HMAC-SHA256 under the server's secret. It names nobody else and holds no
rack and no platform token; changing any part of it breaks the signature. A Telegram Mini App
proves its user with ``initData``, signed by Telegram with a key derived from the bot token
(https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app); a valid,
fresh one is exchanged for a board token of the same kind. Every failure is one
:class:`Refused` with a short reason for the log and the answer, never the token itself.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.api import ChannelRef, PlayerRef

TOKEN_CONTEXT = b"rummikub-board-v1."
MAX_TOKEN = 1024  # characters; a real one is about 200
MAX_INIT_DATA = 4096
MAX_FIELD = 128  # a platform, user id or chat id longer than this is not one of ours
CLOCK_SKEW = 60.0  # seconds an auth_date may lie in the future (clocks differ a little)


class Refused(Exception):
    """A board request that does not prove who sends it (answered with 401)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code  # bad_token | expired | bad_init_data | stale_init_data


@dataclass(frozen=True, slots=True)
class Viewer:
    """A person looking at one channel's board, as a valid token says."""

    player: PlayerRef
    channel: ChannelRef
    expires: float

    @property
    def key(self) -> str:
        """The person and the channel: what rate limits and streams are counted by."""
        return f"{self.player.key}@{self.channel.key}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Makes and checks board tokens with one secret; ``lifetime`` is how long one lasts."""

    def __init__(
        self, secret: bytes, *, lifetime: float, clock: Callable[[], float] = time.time
    ) -> None:
        if len(secret) < 16:
            raise ValueError("a signing secret needs at least 16 bytes")
        self._key = hashlib.sha256(TOKEN_CONTEXT + secret).digest()
        self.lifetime = lifetime
        self._clock = clock

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._key, TOKEN_CONTEXT + body.encode(), hashlib.sha256).digest())

    def sign(self, player: PlayerRef, channel: ChannelRef) -> str:
        """A token for ``player`` at ``channel``'s board, good for ``lifetime`` seconds."""
        if player.platform != channel.platform:
            raise ValueError("a board token joins a player to a channel of their platform")
        claims = {
            "p": player.platform,
            "u": player.user_id,
            "c": channel.chat_id,
            "e": int(self._clock() + self.lifetime),
        }
        if player.display_name:
            claims["n"] = player.display_name[:64]
        if player.locale:
            claims["l"] = player.locale[:16]
        body = _b64(json.dumps(claims, separators=(",", ":"), ensure_ascii=False).encode())
        return f"{body}.{self._mac(body)}"

    def renew(self, viewer: Viewer) -> str:
        return self.sign(viewer.player, viewer.channel)

    def check(self, token: str) -> Viewer:
        """The viewer a token names; :class:`Refused` for anything forged, changed or old."""
        if not token or len(token) > MAX_TOKEN or token.count(".") != 1:
            raise Refused("bad_token")
        body, mac = token.split(".")
        if not hmac.compare_digest(mac.encode(), self._mac(body).encode()):
            raise Refused("bad_token")
        try:
            claims = json.loads(_unb64(body))
        except (binascii.Error, ValueError, UnicodeDecodeError):
            raise Refused("bad_token") from None  # signed by us, so never expected
        if not isinstance(claims, dict):
            raise Refused("bad_token")
        platform, user, chat, expires = (claims.get(k) for k in ("p", "u", "c", "e"))
        if not all(isinstance(v, str) and 0 < len(v) <= MAX_FIELD for v in (platform, user, chat)):
            raise Refused("bad_token")
        if not isinstance(expires, int) or expires < self._clock():
            raise Refused("expired")
        assert isinstance(platform, str) and isinstance(user, str) and isinstance(chat, str)
        name, locale = claims.get("n", ""), claims.get("l", "")
        player = PlayerRef(
            platform,
            user,
            name if isinstance(name, str) else "",
            locale=locale if isinstance(locale, str) else "",
        )
        return Viewer(player, ChannelRef(platform, chat), float(expires))


@dataclass(frozen=True, slots=True)
class TelegramUser:
    """The person a valid ``initData`` names."""

    user_id: str
    name: str
    language_code: str
    auth_date: int


def telegram_user(
    init_data: str, bot_token: str, *, max_age: float, now: float | None = None
) -> TelegramUser:
    """Check a Mini App's ``initData`` as the Bot API documents it and return its user.

    The fields except ``hash``, sorted by name, as ``name=value`` lines joined by ``\\n``, must
    hash (HMAC-SHA256, keyed with HMAC-SHA256 of the bot token under ``WebAppData``) to
    ``hash``; ``auth_date`` must be at most ``max_age`` seconds old. Raises :class:`Refused`.
    """
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise Refused("bad_init_data")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Refused("bad_init_data") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field given twice: which one was signed?
        raise Refused("bad_init_data")
    given = fields.pop("hash", "")
    check = "\n".join(f"{name}={fields[name]}" for name in sorted(fields))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Refused("bad_init_data")
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
    except ValueError:
        raise Refused("bad_init_data") from None
    moment = time.time() if now is None else now
    if auth_date > moment + CLOCK_SKEW or moment - auth_date > max_age:
        raise Refused("stale_init_data")
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        raise Refused("bad_init_data")
    first, last = user.get("first_name", ""), user.get("last_name", "")
    name = " ".join(str(part) for part in (first, last) if part) or str(user.get("username", ""))
    language = user.get("language_code", "")
    return TelegramUser(
        str(user["id"]), name[:64], language if isinstance(language, str) else "", auth_date
    )
