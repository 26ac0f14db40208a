"""Telegram Mini App ``initData`` as Telegram signs it, written from the Bot API's description
on its own (not with the bot's code), so the tests check the bot against the documented rule."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import urlencode


def signed_init_data(
    bot_token: str,
    user_id: int,
    *,
    first_name: str = "Ann",
    language_code: str = "en",
    auth_date: int | None = None,
    extra: dict[str, str] | None = None,
) -> str:
    """The ``initData`` query string Telegram would hand a Mini App opened by this user."""
    user = {"id": user_id, "first_name": first_name, "language_code": language_code}
    fields = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, separators=(",", ":")),
        **(extra or {}),
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
