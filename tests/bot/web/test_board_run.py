"""``rummikub run`` with ``WEB_BASE_URL`` as an operator starts it, against the fake Discord API
and gateway (tests/fakes/serve.py's, in this test's process): the turn panel carries a link
button signed for its owner, and it opens their board in Chromium."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from bot.web.auth import Signer
from tests.bot.web.processes import CHROMIUM, BotRun, needs_chromium
from tests.fakes.discord_api import DiscordHarness, FakeMessage, Member, snowflake
from tests.fakes.serve import Gateway, GatewayDiscord
from tests.test_operating import DISCORD_TOKEN, WAIT

pytestmark = [
    pytest.mark.slow,
    needs_chromium,
    pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning"),
]

PUBLIC = "https://board.example"
LINK_STYLE = 5


@dataclass
class Running:
    fake: GatewayDiscord
    gateway: Gateway
    harness: DiscordHarness
    member: Member
    run: BotRun

    async def slash(self, subcommand: str) -> None:
        """``/rummikub <subcommand>`` over the gateway (what it does shows in the channel)."""
        data = {
            "id": str(snowflake()),
            "name": "rummikub",
            "type": 1,
            "options": [{"name": subcommand, "type": 1, "options": []}],
        }
        channel = self.harness.channel_id
        interaction = self.fake.register_interaction(2, self.member.id, channel)
        payload = self.harness._base(2, self.member, interaction, channel) | {"data": data}
        await self.gateway.dispatch("INTERACTION_CREATE", payload)

    async def until(self, test: Any, what: str) -> None:
        for _ in range(int(WAIT / 0.1)):
            with self.fake.lock:
                if test():
                    return
            await asyncio.sleep(0.1)
        raise AssertionError(f"never saw {what}")

    def channel_text(self) -> str:
        return " ".join(
            m.text for m in self.fake.channel_messages(self.harness.channel_id) if not m.deleted
        )


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    fake = GatewayDiscord()
    fake.ack_deadline = 60.0  # a loaded test machine; the deadline is not what is tested
    fake.start()
    gateway = Gateway(fake)
    await gateway.start()
    fake.gateway_url = f"ws://127.0.0.1:{gateway.port}"
    harness = DiscordHarness(fake)
    member = harness.member("Bo")
    run = BotRun(tmp_path, PUBLIC, DISCORD_TOKEN=DISCORD_TOKEN, DISCORD_API_BASE_URL=fake.base_url)
    try:
        for _ in range(int(WAIT / 0.1)):
            if gateway.sockets:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # READY and the slash commands' registration
        yield Running(fake, gateway, harness, member, run)
    finally:
        await run.stop()
        await gateway.stop()
        fake.stop()


def link_buttons(message: FakeMessage) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if b.get("style") == LINK_STYLE]


async def test_the_turn_panel_of_rummikub_run_links_to_its_owners_board(
    running: Running,
) -> None:
    await running.slash("start")
    await running.until(lambda: "opened a Rummikub table" in running.channel_text(), "a lobby")
    await running.slash("addbot")
    await running.until(lambda: "AI 1" in running.channel_text(), "the AI seat")
    await running.slash("deal")
    fake, member = running.fake, running.member

    def panels() -> list[FakeMessage]:
        with fake.lock:
            seen = list(fake.visible_to(member.id, set()))
        return [m for m in seen if not m.deleted and link_buttons(m)]

    for _ in range(int(WAIT / 0.1)):  # the panel: in the deal's answer, or by DM after the AI
        if panels():
            break
        await asyncio.sleep(0.1)
    (button,) = link_buttons(panels()[-1])
    assert button["label"] == "Open board" and button["url"].startswith(PUBLIC + "/board#t=")
    with fake.lock:
        public = [m for m in fake.channel_messages(running.harness.channel_id) if link_buttons(m)]
    assert public == []  # a signed link is never posted in the channel

    key = running.run.stored_key()
    viewer = Signer(key.encode(), lifetime=3600).check(button["url"].partition("#t=")[2])
    assert viewer.player.user_id == str(member.id)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await browser.new_page()
        await page.goto(running.run.through_proxy(button["url"]))
        await page.wait_for_selector("#rack .tile")
        assert await page.locator("#rack .tile").count() >= 14
        assert await page.locator('#actions [data-command="done"]').is_enabled()
        await browser.close()
    output = await running.run.stop()
    assert "Traceback" not in output, output[-4000:]
    assert key not in output and DISCORD_TOKEN not in output
