"""The board one tap away on Discord: the real discord.py client against the fake Discord API,
the real manager and the board's server in the same process; the link button on the
ephemeral turn panel opens that player's own board in Chromium."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from bot.api import ChannelRef
from bot.manager import GameManager
from bot.platforms.discord.client import RummikubBot
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from bot.web import BoardConfig, BoardServer
from storage import Database
from tests.bot.web.processes import CHROMIUM, needs_chromium
from tests.fakes.discord_api import DiscordHarness, FakeDiscord, FakeMessage, Member, wait_for

pytestmark = [
    pytest.mark.slow,
    needs_chromium,
    pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning"),
]

LINK_STYLE = 5  # Discord's link button: a url, no custom_id, no interaction


@dataclass
class Discord:
    h: DiscordHarness
    manager: GameManager
    server: BoardServer

    @property
    def channel(self) -> ChannelRef:
        return ChannelRef("discord", str(self.h.channel_id))


@pytest.fixture
async def discord(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Discord]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'discord.db'}")
    await db.start()
    manager = GameManager(
        db, scheduler=ManualScheduler(), presenter=Presenter(images=False), rng=random.Random(5)
    )
    await manager.resume()
    server = BoardServer(manager, BoardConfig(port=0), b"a-discord-test-secret-of-32-bytes")
    await server.start()
    h = DiscordHarness(fake)
    await h.login(RummikubBot(manager, board=server.links))
    try:
        yield Discord(h, manager, server)
    finally:
        await h.close()
        await server.stop()
        await manager.close()
        await db.close()


def links(message: FakeMessage) -> list[str]:
    return [b["url"] for b in message.buttons() if b.get("style") == LINK_STYLE]


async def test_the_ephemeral_turn_panel_links_to_that_players_own_board(
    discord: Discord, fake: FakeDiscord
) -> None:
    h = discord.h
    alice, bob = h.member("alice"), h.member("bob")
    await h.slash(alice, "start", games=1)
    lobby = next(m for m in fake.channel_messages(h.channel_id) if links(m) == [])
    await h.click(bob, lobby, "Join")
    await h.click(alice, lobby, "Deal")
    table = discord.manager.tables[discord.channel.key]
    assert table.game is not None
    seat = table.seats[table.game.current].player
    assert seat is not None
    mover: Member = alice if seat.user_id == str(alice.id) else bob

    panels = [m for m in fake.visible_to(mover.id, set()) if "Done" in str(m.buttons())]
    assert panels and all(m.audience[0] in ("ephemeral", "dm") for m in panels)
    (link,) = links(panels[-1])
    assert all(links(m) == [] for m in fake.channel_messages(h.channel_id))  # never public
    viewer = discord.server.signer.check(link.partition("#t=")[2])
    assert viewer.player.user_id == str(mover.id) and viewer.channel == discord.channel

    rack = {t.code for t in table.game.players[table.game.current].rack}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await browser.new_page()
        await page.goto(link)
        await page.wait_for_selector("#rack .tile")
        shown = await page.eval_on_selector_all("#rack .tile", "ts => ts.map(t => t.dataset.code)")
        assert set(shown) == rack  # their own rack, in their order
        face = await page.locator("#rack .tile").first.get_attribute("data-face")
        await page.drag_and_drop("#rack .tile >> nth=0", "#new-meld")
        await page.wait_for_selector(f'.meld .tile[data-face="{face}"]')
        await browser.close()

    def panel_shows_it() -> bool:
        return any(f"[{face}]" in m.text for m in fake.dms_to(mover.id) if not m.deleted)

    await wait_for(panel_shows_it, timeout=10)  # the chat's panel follows the board


async def test_without_a_board_the_turn_panel_has_no_link(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'plain.db'}")
    await db.start()
    manager = GameManager(db, scheduler=ManualScheduler(), presenter=Presenter(images=False))
    h = DiscordHarness(fake)
    await h.login(RummikubBot(manager))  # no WEB_BASE_URL: no board
    try:
        alice, bob = h.member("alice"), h.member("bob")
        await h.slash(alice, "start", games=1)
        lobby = next(m for m in fake.channel_messages(h.channel_id) if "Join" in str(m.buttons()))
        await h.click(bob, lobby, "Join")
        await h.click(alice, lobby, "Deal")
        seen = fake.visible_to(alice.id, set()) + fake.visible_to(bob.id, set())
        assert any("Done" in str(m.buttons()) for m in seen)  # a turn panel was sent
        assert not any(links(m) for m in seen + fake.channel_messages(h.channel_id))
    finally:
        await h.close()
        await manager.close()
        await db.close()
