"""A whole Telegram game on the real game manager, through real PTB and the fake Bot API.

Two people and an AI seat play an asynchronous game (a day per turn) in a group. Bob has never
started the bot and comes in through the deep link; he presses Done twice; later he blocks the
bot and plays from the group. The bot restarts in the middle: the stored deadline is re-armed,
the reminder and the timeout come on the fake clock, and the game goes on to its end. Then the
whole call log is checked: no message to the group or to the other player held a rack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.scheduler import ManualScheduler
from tests.bot.platforms.telegram.whole_game import (
    ANN,
    BOB,
    DAY,
    GROUP,
    KEY,
    MAX_TURNS,
    MINUTE,
    NAMES,
    RunningBot,
    arrangement,
    current_user,
    has_button,
    moves_by,
    newest,
    says,
    settle,
    turn_in_group,
    turn_in_private,
    turn_with_buttons,
)
from tests.fakes.telegram_api import FakeTelegram


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
    # calls: a group's per-minute 429 may come once or twice there, and the bot waits it out
    # (every message above still arrived). In steady play it keeps under the limits; on a
    # loaded machine network jitter can bunch a few calls past the 30-a-second limit at the
    # server (as it can on the real one), which the bot waits out too.
    assert fake.throttled_by.count("group") <= 2, fake.throttled_by
    assert fake.throttled_by.count("second") <= len(fake.calls) // 100, fake.throttled_by
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
    """Bob taps Done twice: one turn ends, the second tap (made for that turn) is told the
    turn is over and changes nothing."""
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
    assert fake.callback_answers[second][0]["text"] == (
        "That turn is already over; nothing was changed."
    )


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
