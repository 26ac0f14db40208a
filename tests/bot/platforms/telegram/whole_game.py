"""A bot process on the real game manager for whole-game Telegram tests: the database, the
manager and the adapter of one life (``RunningBot``), and the moves a player makes (typed in
the private chat, pressed on the panel, or typed in the group) and how tests find messages."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from bot.api import PlayerRef
from bot.manager import GameManager, LiveTable
from bot.platforms.telegram import TelegramAdapter, TelegramConfig
from bot.platforms.telegram.pacing import Limits
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine.ai import choose_move
from storage import Database
from tests.fakes.telegram_api import FakeTelegram, StoredMessage

GROUP = -1009876543210
ANN, BOB = 3001, 3002
NAMES = {ANN: "Ann", BOB: "Bob"}
DAY = 86400
KEY = f"telegram:{GROUP}"
MAX_TURNS = 400
MINUTE = 2.0  # Telegram's limits per minute hold here per 2 s, on the fake and in the bot


class RunningBot:
    """One life of the bot process: database, game manager, Telegram adapter."""

    def __init__(self, db: Database, manager: GameManager, adapter: TelegramAdapter) -> None:
        self.db, self.manager, self.adapter = db, manager, adapter
        self.stopped = False

    @classmethod
    async def boot(cls, fake: FakeTelegram, tmp_path: Path, clock: ManualScheduler) -> RunningBot:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
        await db.start()
        manager = GameManager(
            db, scheduler=clock, presenter=Presenter(images=True), rng=random.Random(11)
        )
        await manager.resume()
        config = TelegramConfig(
            token=fake.token,
            api_base_url=fake.base_url,
            state_path=str(tmp_path / "telegram-state.sqlite3"),
            poll_timeout=5,
            limits=Limits(minute=MINUTE, backoff=0.02),
        )
        adapter = TelegramAdapter(manager, config)  # its own pacing, on the fake's clock
        await adapter.start()
        return cls(db, manager, adapter)

    async def shutdown(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        await self.adapter.stop()
        await self.manager.close()
        await self.db.close()

    @property
    def table(self) -> LiveTable:
        return self.manager.tables[KEY]


async def settle(fake: FakeTelegram, bot: RunningBot) -> None:
    """Wait until the bot fetched every update and sent what they caused."""
    await fake.delivered()
    await bot.adapter.drain()


def newest(fake: FakeTelegram, chat: int, test: Callable[[StoredMessage], bool]) -> StoredMessage:
    found = [m for m in fake.chat_messages(chat) if test(m)]
    assert found, f"no such message in chat {chat}: {[m.text for m in fake.chat_messages(chat)]}"
    return found[-1]


def has_button(label: str) -> Callable[[StoredMessage], bool]:
    return lambda m: any(b["text"] == label for b in m.buttons)


def says(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


def current_user(bot: RunningBot) -> int:
    table = bot.table
    assert table.game is not None
    player = table.seats[table.game.current].player
    assert player is not None, "an AI seat should have played inside the previous command"
    return int(player.user_id)


def arrangement(bot: RunningBot, user: int) -> str | None:
    """The command a careful player would type: the whole new table, or None to draw."""
    table = bot.table
    assert table.game is not None
    seat = table.seat_of(PlayerRef("telegram", str(user)))
    assert seat is not None
    melds = choose_move(table.game, seat, "medium")
    return None if melds is None else "arrange " + " / ".join(m.code() for m in melds)


async def turn_in_private(fake: FakeTelegram, bot: RunningBot, user: int) -> None:
    """Type the arrangement in the private chat, then press Done on the panel (or Draw)."""
    command = arrangement(bot, user)
    if command is not None:
        fake.send_private(user, command)
        await settle(fake, bot)
        panel = newest(fake, user, has_button("Done"))
        assert "Legal: done will commit it." in (panel.text or ""), panel.text
        fake.press(panel, user, "Done")
    else:
        fake.press(newest(fake, user, has_button("Draw")), user, "Draw")
    await settle(fake, bot)


def press_data(fake: FakeTelegram, user: int, data: str) -> None:
    """Press the panel button that sends ``data`` (it must be on the panel), whatever turn
    number its callback data starts with (``7@<group> place``: a button made for turn 7)."""
    panel = newest(fake, user, has_button("Done"))
    found = [
        b["callback_data"]
        for b in panel.buttons
        if str(b.get("callback_data", "")).lstrip("0123456789") == data
    ]
    assert found, (data, panel.buttons)
    fake.press(panel, user, data=found[0])


async def turn_with_buttons(fake: FakeTelegram, bot: RunningBot, user: int) -> None:
    """The opening with the panel only: tick tiles, Place, Undo one step, Place again, Done."""
    table = bot.table
    assert table.game is not None and not table.game.table
    seat = table.seat_of(PlayerRef("telegram", str(user)))
    assert seat is not None
    melds = choose_move(table.game, seat, "medium")
    if melds is None:
        fake.press(newest(fake, user, has_button("Draw")), user, "Draw")
        await settle(fake, bot)
        return
    panel = newest(fake, user, has_button("Done"))
    edits = panel.edits

    async def place(tiles: list[str]) -> None:
        for code in tiles:
            press_data(fake, user, f"@{GROUP} pick {code}")
            await settle(fake, bot)
        ticked = [b for b in newest(fake, user, has_button("Done")).buttons if "✅" in b["text"]]
        assert len(ticked) == len(tiles) + 1  # the tiles and "New meld"
        press_data(fake, user, f"@{GROUP} place")
        await settle(fake, bot)

    for meld in melds:
        await place([tile.code for tile in meld.tiles])
    placed = newest(fake, user, has_button("Done")).text
    press_data(fake, user, f"@{GROUP} undo")
    await settle(fake, bot)
    assert newest(fake, user, has_button("Done")).text != placed
    await place([tile.code for tile in melds[-1].tiles])
    panel = newest(fake, user, has_button("Done"))
    assert "Legal: done will commit it." in (panel.text or "")
    assert panel.edits > edits and fake.chat_messages(user).count(panel) == 1
    fake.press(panel, user, "Done")
    await settle(fake, bot)


async def turn_in_group(fake: FakeTelegram, bot: RunningBot, user: int) -> None:
    command = arrangement(bot, user)
    if command is not None:
        fake.send_group(GROUP, user, f"/{command}")
        await settle(fake, bot)
        fake.send_group(GROUP, user, "/done")
    else:
        fake.send_group(GROUP, user, "/draw")
    await settle(fake, bot)


def moves_by(fake: FakeTelegram, name: str) -> int:
    return sum(
        1
        for m in fake.chat_messages(GROUP)
        if re.match(rf"{name} (played|drew a tile)|Time ran out for {name}", m.text or "")
    )
