"""A whole Telegram game on the real game manager, through real PTB and the fake Bot API.

Two people and an AI seat play an asynchronous game (a day per turn) in a group. Bob has never
started the bot and comes in through the deep link; he presses Done twice; later he blocks the
bot and plays from the group. The bot restarts in the middle: the stored deadline is re-armed,
the reminder and the timeout come on the fake clock, and the game goes on to its end. Then the
whole call log is checked: no message to the group or to the other player held a rack.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.api import PlayerRef
from bot.manager import GameManager, LiveTable
from bot.platforms.telegram import TelegramAdapter, TelegramConfig
from bot.platforms.telegram.pacing import Limits
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine.ai import choose_move
from storage import Database
from tests.fakes.telegram import FakeTelegram, StoredMessage

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
    """Press the panel button that sends ``data`` (it must be on the panel)."""
    panel = newest(fake, user, has_button("Done"))
    assert any(b.get("callback_data") == data for b in panel.buttons), (data, panel.buttons)
    fake.press(panel, user, data=data)


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


async def test_whole_async_game_in_a_group(tmp_path: Path) -> None:
    async with FakeTelegram(bot_username="rummikub_group_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann")
        fake.add_user(BOB, "Bob", started=False)
        fake.add_group(GROUP, "Lunch break tiles", admins=[ANN])
        clock = ManualScheduler()
        lives = [await RunningBot.boot(fake, tmp_path, clock)]
        try:
            await play(fake, lives, tmp_path, clock)
        finally:
            await lives[-1].shutdown()
        check_privacy(fake)


async def play(
    fake: FakeTelegram, lives: list[RunningBot], tmp_path: Path, clock: ManualScheduler
) -> None:
    """The game; ``lives`` gets the new bot when it restarts."""
    bot = lives[-1]
    # --- the lobby: a command, then buttons; one message edited in place ---------------------
    fake.send_group(GROUP, ANN, f"/new@rummikub_group_bot timer={DAY} games=1")
    await settle(fake, bot)
    lobby = newest(fake, GROUP, has_button("Deal"))
    assert [b["text"] for b in lobby.buttons] == ["Join", "Leave", "Add AI", "Deal"]
    fake.press(lobby, BOB, "Join")
    await settle(fake, bot)
    fake.press(lobby, ANN, "Add AI")
    await settle(fake, bot)
    assert lobby.edits == 2 and "AI seat" in (lobby.text or "")
    assert fake.chat_messages(GROUP) == [lobby]
    fake.press(lobby, ANN, "Deal")
    await settle(fake, bot)

    # --- Bob never started the bot: a deep link in the group, the rack after Start -----------
    assert fake.chat_messages(BOB) == []
    notice = newest(fake, GROUP, says("Bob, I can't send you private messages"))
    url = notice.button("Open my private chat")["url"]
    assert url == "https://t.me/rummikub_group_bot?start=gm1009876543210"
    fake.open_deep_link(BOB, url)
    await settle(fake, bot)
    assert newest(fake, BOB, says("Your rack (14)")).photo is not None
    assert newest(fake, ANN, says("Your rack (14)")).photo is not None
    table_photo = newest(fake, GROUP, has_button("My rack"))
    assert table_photo.photo is not None

    # --- turns until the game ends -------------------------------------------------------------
    human_turns = 0
    stage = "start"
    while KEY in bot.manager.tables:
        assert human_turns < MAX_TURNS, "the game should have ended"
        user = current_user(bot)
        human_turns += 1
        if human_turns == 1 and not bot.table.game.table:  # type: ignore[union-attr]
            await turn_with_buttons(fake, bot, user)
        elif stage == "start" and user == BOB:
            await double_press_done(fake, bot)
            stage = "pressed"
        elif stage == "pressed" and human_turns >= 6 and user == ANN:
            bot, clock = await restart_and_time_out(fake, lives, tmp_path, clock)
            stage = "restarted"
        elif stage == "restarted" and user == BOB:
            await turn_in_group(fake, bot, BOB)  # blocked: he plays from the group
            mark = fake.mark()
            fake.send_private(BOB, "/start")  # unblocks: what was kept is delivered
            await settle(fake, bot)
            assert any(c.chat_id == BOB and c.ok for c in fake.calls[mark:])
            stage = "unblocked"
        else:
            sent = len(fake.group_sends(GROUP))
            await turn_in_private(fake, bot, user)
            if KEY in bot.manager.tables:  # steady play: one new group message per turn
                news = fake.group_sends(GROUP)[sent:]
                assert len(news) == 1, [c.params.get("text") for c in news]
    # A restarted process starts with empty windows while Telegram still counts the old one's
    # calls: on a loaded machine a 429 may come once or twice there, and the bot waits it out
    # (every message above still arrived). In steady play it keeps under the limits.
    assert fake.throttled <= 2
    assert stage == "unblocked", f"the game ended too early to try everything (stage {stage})"

    # --- the end: result and standings in the group, the table edited in place all along ------
    texts = [m.text or "" for m in fake.chat_messages(GROUP)]
    assert any(t.startswith(("Rummikub! ", "The pool is empty")) for t in texts), texts[-5:]
    assert any(t.startswith("The match is over. Winner: ") for t in texts)
    tables = [m for m in fake.chat_messages(GROUP) if has_button("My rack")(m)]
    assert tables == [table_photo] and table_photo.edits > 10
    for query, answers in fake.callback_answers.items():
        assert len(answers) == 1, f"callback {query} answered {len(answers)} times"


async def double_press_done(fake: FakeTelegram, bot: RunningBot) -> None:
    """Bob taps Done twice: one turn ends, the second tap is told it is not his turn."""
    before = moves_by(fake, "Bob")
    command = arrangement(bot, BOB)
    if command is not None:
        fake.send_private(BOB, command)
        await settle(fake, bot)
    panel = newest(fake, BOB, has_button("Done"))
    first = fake.press(panel, BOB, "Done")
    second = fake.press(panel, BOB, "Done")
    await settle(fake, bot)
    assert moves_by(fake, "Bob") == before + 1
    assert fake.callback_answers[first][0].get("text") == "Done ✓"  # the short result
    assert fake.callback_answers[second][0]["text"] == "It is not your turn; it is Ann's turn."


async def restart_and_time_out(
    fake: FakeTelegram, lives: list[RunningBot], tmp_path: Path, clock: ManualScheduler
) -> tuple[RunningBot, ManualScheduler]:
    """Stop everything mid-turn, start again: the deadline is re-armed and fires on time."""
    bot = lives[-1]
    deadline = bot.table.deadline
    assert deadline is not None and deadline > clock.now()
    turn = bot.table.game.turn if bot.table.game else -1
    await bot.shutdown()
    fake.block(BOB)  # while the bot is down, Bob blocks it

    clock = ManualScheduler(start=clock.now())
    bot = await RunningBot.boot(fake, tmp_path, clock)
    lives.append(bot)
    assert bot.table.game is not None and bot.table.game.turn == turn
    pending = clock.pending()
    assert pending[f"{KEY}:expire"] == deadline
    assert pending[f"{KEY}:warn"] == deadline - 3600

    await clock.advance(deadline - 3600 - clock.now())
    assert newest(fake, ANN, says("1h 00m left in your turn")) is not None
    reminder = newest(fake, GROUP, says("left in your turn"))
    assert 'href="tg://user?id=3001"' in (reminder.raw or "")

    sent = len(fake.group_sends(GROUP))
    await clock.advance(3600)
    await bot.adapter.drain()
    assert newest(fake, GROUP, says("Time ran out for Ann, who draws a tile.")) is not None
    # The timer's replies came as one batch: its news lines share one new group message
    # (the other new message is the note that Bob cannot be reached).
    news = [
        c.params["text"]
        for c in fake.group_sends(GROUP)[sent:]
        if "can't send you" not in c.params["text"]
    ]
    assert len(news) == 1 and news[0].startswith("Time ran out for Ann"), news
    assert "it's your turn" in news[0], news
    # Bob is next (after the AI): his panel can't reach him, so the group gets the link again.
    assert current_user(bot) == BOB
    notices = [m for m in fake.chat_messages(GROUP) if says("Bob, I can't send you")(m)]
    assert len(notices) == 2
    return bot, clock


def rack_lines(text: str) -> list[str]:
    """The tile listings that follow a "Your rack" heading (four tiles or more)."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        if "rack (" not in line:
            continue
        _, _, rest = line.partition("):")
        listing = rest.strip() or (lines[index + 1] if index + 1 < len(lines) else "")
        listing = listing.split(" New:")[0].strip()
        if len(listing.split()) >= 4:
            found.append(listing)
    return found


def check_privacy(fake: FakeTelegram) -> None:
    """No rack (text or image) ever went to the group or to the other player."""
    secret_lines: dict[int, set[str]] = {ANN: set(), BOB: set()}
    secret_images: dict[int, set[bytes]] = {ANN: set(), BOB: set()}
    shows = [c for c in fake.calls if c.method.startswith(("send", "edit")) and c.chat_id]
    for call in shows:
        if call.chat_id in secret_lines:
            secret_lines[call.chat_id] |= set(rack_lines(call.shown_text))
            secret_images[call.chat_id] |= set(call.files.values())
    assert secret_lines[ANN] and secret_lines[BOB] and secret_images[ANN] and secret_images[BOB]
    checked = 0
    for call in shows:
        others = [user for user in (ANN, BOB) if user != call.chat_id]
        text = call.shown_text
        for user in others:
            leaked = [line for line in secret_lines[user] if line in text]
            assert not leaked, f"{NAMES[user]}'s rack went to chat {call.chat_id}: {leaked}"
            images: Any = set(call.files.values()) & secret_images[user]
            assert not images, f"{NAMES[user]}'s rack image went to chat {call.chat_id}"
        if call.chat_id == GROUP:
            assert "rack (" not in text, text
            assert not set(call.filenames.values()) & {"rack.png", "draft.png"}
            checked += 1
    assert checked > 20
