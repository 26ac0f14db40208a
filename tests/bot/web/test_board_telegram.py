"""The board as a Telegram Mini App: the real ``rummikub run`` against the fake Bot API, two
players in a group, their boards opened in Chromium from the private chat's ``web_app``
button and signed in with ``initData`` (Telegram's own script stubbed: no internet here)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, Page, async_playwright

from tests.bot.web.initdata import signed_init_data
from tests.bot.web.processes import CHROMIUM, BotRun, needs_chromium
from tests.fakes.telegram_api import FakeTelegram, StoredMessage
from tests.test_operating import WAIT

pytestmark = [pytest.mark.slow, needs_chromium]

TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"
PUBLIC = "https://board.example"  # WEB_BASE_URL: what a reverse proxy would serve
GROUP = -100777
ANN, BOB = 4242, 4343
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"


@dataclass
class Bot:
    fake: FakeTelegram
    run: BotRun

    @property
    def local(self) -> str:
        return self.run.local


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    fake = FakeTelegram(token=TOKEN)
    fake.add_user(ANN, "Ann", language_code="en")
    fake.add_user(BOB, "Bob", language_code="pl")
    fake.add_group(GROUP, "Rummikub night", admins=[ANN])
    await fake.start()
    run = BotRun(
        tmp_path,
        PUBLIC,
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL=fake.base_url.removesuffix("/bot"),
        LOG_LEVEL="DEBUG",
        HTTP_LOG_LEVEL="DEBUG",
    )
    try:
        await fake.wait_for(lambda call: call.method == "deleteWebhook", timeout=WAIT)
        yield Bot(fake, run)
    finally:
        await run.stop()
        await fake.stop()


def stub(user_id: int, name: str, language: str, scheme: str = "light") -> str:
    """Telegram's ``telegram-web-app.js`` as far as the page uses it, with ``initData``
    signed the way Telegram signs it for this user."""
    user = {"id": user_id, "first_name": name, "language_code": language}
    app = {
        "initData": signed_init_data(TOKEN, user_id, first_name=name, language_code=language),
        "initDataUnsafe": {"user": user},
        "colorScheme": scheme,
        "themeParams": {},
    }
    return (
        f"window.Telegram = {{WebApp: Object.assign({json.dumps(app)}, "
        "{ready() {}, expand() {}, onEvent() {}})};"
    )


async def open_mini_app(browser: Browser, bot: Bot, button: dict[str, Any], user: int) -> Page:
    """What Telegram does on a ``web_app`` press: open its address (here through the "proxy":
    the public https address served by the bot on 127.0.0.1) with the user's ``initData``."""
    url = button["web_app"]["url"]
    assert url.startswith(PUBLIC + "/board?tg=")
    context = await browser.new_context()
    name, language = ("Ann", "en") if user == ANN else ("Bob", "pl")
    script = stub(user, name, language)
    await context.route(
        TELEGRAM_JS, lambda route: route.fulfill(body=script, content_type="text/javascript")
    )
    page = await context.new_page()
    await page.goto(bot.run.through_proxy(url))
    await page.wait_for_selector("#rack .tile")
    return page


async def turn_panel(fake: FakeTelegram) -> StoredMessage:
    """The private turn panel with a Mini App button, in whichever player's chat it came."""

    def found() -> StoredMessage | None:
        for user in (ANN, BOB):
            for message in fake.chat_messages(user):
                if any("web_app" in b for b in message.buttons):
                    return message
        return None

    await until(lambda: asyncio.sleep(0, found() is not None), "a turn panel", WAIT)
    panel = found()
    assert panel is not None
    return panel


async def until(test: Any, what: str, timeout: float = 10.0) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if await test():
            return time.monotonic() - started
        await asyncio.sleep(0.02)
    raise AssertionError(f"never saw {what} within {timeout} s")


async def test_the_mini_app_plays_the_turn_and_follows_the_other_players_commit(
    bot: Bot,
) -> None:
    fake = bot.fake
    fake.send_group(GROUP, ANN, "/new timer=3600")
    await fake.wait_message(GROUP, lambda m: "Join" in str(m.buttons), timeout=WAIT)
    fake.send_group(GROUP, BOB, "/join")
    fake.send_group(GROUP, ANN, "/deal")
    panel = await turn_panel(fake)
    mover = panel.chat_id
    waiter = BOB if mover == ANN else ANN
    button = next(b for b in panel.buttons if "web_app" in b)
    assert all("web_app" not in b for m in fake.chat_messages(GROUP) for b in m.buttons)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        mine = await open_mini_app(browser, bot, button, mover)
        theirs_button = {"web_app": {"url": button["web_app"]["url"]}}
        theirs = await open_mini_app(browser, bot, theirs_button, waiter)
        assert await mine.locator('#actions [data-command="done"]').is_enabled()
        assert not await theirs.locator('#actions [data-command="done"]').is_enabled()
        polish = theirs if waiter == BOB else mine
        assert await polish.evaluate("document.documentElement.lang") == "pl"
        assert await polish.inner_text('#actions [data-command="draw"]') == "Dobierz"
        english = mine if polish is theirs else theirs
        assert await english.inner_text('#actions [data-command="draw"]') == "Draw"

        # a step on the board is the chat's step: the private panel shows it too
        first = await mine.locator("#rack .tile").first.get_attribute("data-face")
        await mine.drag_and_drop("#rack .tile >> nth=0", "#new-meld")
        await mine.wait_for_selector(f'.meld .tile[data-face="{first}"]')
        await fake.wait_message(mover, lambda m: f"[{first}]" in (m.text or ""), timeout=WAIT)
        assert await theirs.locator(".meld .tile").count() == 0  # a draft is private

        # the mover ends the turn on the board: the waiting board follows within a second
        await mine.click('#actions [data-command="draw"]')
        started = time.monotonic()
        await until(
            lambda: theirs.locator('#actions [data-command="done"]').is_enabled(), "their turn"
        )
        assert time.monotonic() - started < 1.0
        await fake.wait_message(GROUP, lambda m: "drew a tile" in (m.text or ""), timeout=WAIT)

        # a step typed in the private chat appears on the open board
        face = await theirs.locator("#rack .tile").first.get_attribute("data-face")
        fake.send_private(waiter, f"play {face}")
        seconds = await until(
            lambda: theirs.locator(f'.meld .tile[data-face="{face}"]').count(), "the typed step"
        )
        assert seconds < 1.0
        await browser.close()


async def test_sign_ins_that_telegram_did_not_sign_for_that_user_get_401(bot: Bot) -> None:
    api = bot.local + "/board/api"
    fresh = signed_init_data(TOKEN, ANN)
    stale = signed_init_data(TOKEN, ANN, auth_date=int(time.time()) - 2 * 3600)
    other_bot = signed_init_data("7099999999:AAH-another-bot-token-000000000000", ANN)
    as_bob = re.sub(r"%22id%22%3A4242", "%22id%22%3A4343", fresh)  # Ann's, replayed as Bob
    assert as_bob != fresh
    async with aiohttp.ClientSession() as http:
        for data, status in ((fresh, 200), (stale, 401), (other_bot, 401), (as_bob, 401)):
            body = {"init_data": data, "chat": str(GROUP)}
            async with http.post(api + "/session", json=body) as response:
                assert response.status == status, await response.text()
        async with http.get(bot.local + "/board") as response:
            page = await response.text()
    output = await bot.run.stop()
    assert "Traceback" not in output, output[-6000:]
    key = bot.run.stored_key()  # the link-signing key the bot made for itself
    assert len(key) >= 32
    for secret in (TOKEN, TOKEN.split(":")[1], key):
        assert secret not in output and secret not in page
