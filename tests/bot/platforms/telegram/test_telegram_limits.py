"""Telegram's limits and faults (issue 15): real PTB with the adapter's own request gate against
the fake Bot API, which enforces 20 new messages a minute per group (429 beyond), 30 calls a
second, refuses callback answers after 15 s and can hold, fail or refuse calls on demand.

The game behind the adapter is a small one shaped like the real manager's turns: each turn says
"X played", sends the mover's rack privately, edits the table image, says "Y, it's your turn"
with a mention and sends Y's panel privately.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.api import Button, ChannelRef, Image, Outbox, PlayerRef, Reply
from bot.commands import Command
from bot.platforms.telegram import TelegramAdapter
from bot.platforms.telegram.pacing import Limits
from tests.bot.doubles import StandIn, as_text
from tests.bot.platforms.telegram.support import png as solid_png
from tests.bot.platforms.telegram.support import settle, telegram_config, wait_until
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = -1005550001111
ANN, BOB = 4001, 4002
FAST = Limits(backoff=0.02, max_backoff=0.1)


def png(shade: int) -> bytes:
    return solid_png((shade % 256, 90, 40), (30, 20))


class TurnGame(StandIn):
    """Two or more seats taking turns with Done; every command is recorded as it arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.players: list[PlayerRef] = []
        self.turn = 0
        self.seen: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.outbox: Outbox | None = None

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        self.outbox = outbox

    def current(self) -> PlayerRef:
        return self.players[self.turn % len(self.players)]

    def panel(self, player: PlayerRef, channel: ChannelRef) -> Reply:
        mine = player.same_person(self.current())
        text = f"Turn {self.turn}: " + ("your move" if mine else "waiting") + f" ({player.key})"
        return Reply(
            channel,
            text,
            images=(Image("draft.png", png(self.turn + 7)),),
            buttons=((Button("Done", "done"), Button("Status", "status")),),
            private_to=player,
            slot="panel",
        )

    def table(self, channel: ChannelRef) -> Reply:
        return Reply(
            channel,
            f"Table after {self.turn} turns.",
            images=(Image("table.png", png(self.turn)),),
            buttons=((Button("Status", "status"),),),
            slot="table",
        )

    async def handle(  # type: ignore[override]  # scripted by the command's text
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        text = as_text(text)
        self.seen.append(text)
        verb, _, rest = text.partition(" ")
        gate = self.gates.get(verb)
        if gate is not None:
            await gate.wait()
        if verb in ("new", "start"):
            self.players, self.turn = [], 0
            return [
                Reply(channel, "Lobby open.", buttons=((Button("Join", "join"),),), slot="lobby")
            ]
        if verb == "join":
            self.players.append(player)
            names = ", ".join(p.display_name for p in self.players)
            return [
                Reply(
                    channel, f"Seats: {names}", buttons=((Button("Join", "join"),),), slot="lobby"
                ),
                self.panel(player, channel),
            ]
        if verb == "deal":
            return [self.table(channel), self.panel(self.current(), channel)]
        if verb in ("done", "draw"):
            if not player.same_person(self.current()):
                return [Reply(channel, "It's not your turn.", private_to=player)]
            mover = self.current()
            self.turn += 1
            nxt = self.current()
            return [
                Reply(channel, f"{mover.display_name} played R{self.turn % 13 + 1}."),
                Reply(channel, f"Rack of {mover.key}", private_to=mover, slot="rack"),
                self.table(channel),
                Reply(channel, f"{nxt.display_name}, it's your turn (1 min).", mentions=(nxt,)),
                self.panel(nxt, channel),
            ]
        if verb == "rack":
            return [Reply(channel, f"Rack of {player.key}", private_to=player, slot="rack")]
        if verb == "panel":
            if not player.same_person(self.current()):
                return [Reply(channel, "It's not your turn.", private_to=player)]
            return [self.panel(player, channel)]
        if verb == "tellall":  # one private note to each of many users
            return [
                Reply(channel, f"Note {i}", private_to=PlayerRef("telegram", str(9000 + i)))
                for i in range(int(rest))
            ]
        if verb == "shout":  # separate messages that cannot share one (each has a button)
            return [
                Reply(channel, f"Shout {i}", buttons=((Button("Status", "status"),),))
                for i in range(int(rest))
            ]
        return [Reply(channel, f"You said {text!r}.")]


def make_adapter(
    fake: FakeTelegram, game: TurnGame, tmp_path: Path, limits: Limits = FAST
) -> TelegramAdapter:
    return TelegramAdapter(game, telegram_config(fake, tmp_path, answer_within=0.5, limits=limits))


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """This file's world: both players started the bot; the group has no admin."""
    async with FakeTelegram() as server:
        server.add_user(ANN, "Ann")
        server.add_user(BOB, "Bob")
        server.add_group(GROUP, "Tiles at noon")
        yield server


@pytest.fixture
async def bot(
    fake: FakeTelegram, tmp_path: Path
) -> AsyncIterator[tuple[TelegramAdapter, TurnGame]]:
    game = TurnGame()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    try:
        yield adapter, game
    finally:
        await adapter.stop()


async def seat_both(fake: FakeTelegram, adapter: TelegramAdapter) -> None:
    for user in (ANN, BOB):
        fake.send_group(GROUP, user, "/join")
        await settle(fake, adapter)
    fake.send_group(GROUP, ANN, "/deal")
    await settle(fake, adapter)


# --- defect 1: one new group message per turn, under the group limit -------------------------


async def test_a_turn_posts_one_new_group_message(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _game = bot
    await seat_both(fake, adapter)
    table = fake.chat_messages(GROUP)[-1]
    assert table.photo is not None
    for turn in range(1, 9):
        before = len(fake.group_sends(GROUP))
        user = ANN if turn % 2 else BOB
        fake.send_group(GROUP, user, "/done")
        await settle(fake, adapter)
        sends = fake.group_sends(GROUP)[before:]
        assert len(sends) == 1, [c.params.get("text") for c in sends]
        line = sends[0].params["text"]
        mover, nxt = ("Ann", "Bob") if turn % 2 else ("Bob", "Ann")
        # One line says both: who played, and who is to play (with the mention that notifies).
        assert line.startswith(f"{mover} played") and f"{nxt}</a>, it's your turn" in line
        assert table.edits == turn  # the table image is edited in place
    assert fake.throttled == 0


async def test_the_group_sender_stays_under_twenty_a_minute(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    # Both clocks run a "minute" of 1.5 s, so the limit is reached quickly.
    fake.minute = 1.5
    game = TurnGame()
    adapter = make_adapter(fake, game, tmp_path, Limits(minute=1.5, backoff=0.02))
    await adapter.start()
    try:
        fake.send_group(GROUP, ANN, "/rummikub shout 45")
        await settle(fake, adapter)
        texts = [c.params["text"] for c in fake.group_sends(GROUP)]
        assert texts == [f"Shout {i}" for i in range(45)]
        assert fake.throttled == 0  # never refused: the bot paced itself
    finally:
        await adapter.stop()


async def test_the_sender_stays_under_thirty_calls_a_second_in_all(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _ = bot
    for i in range(70):
        fake.add_user(9000 + i, f"P{i}")
    fake.send_group(GROUP, ANN, "/rummikub tellall 70")
    await settle(fake, adapter)
    notes = [c for c in fake.calls if c.method == "sendMessage" and c.ok and c.chat_id != GROUP]
    assert len(notes) == 70
    assert fake.throttled == 0


async def test_group_commands_are_not_queued_behind_the_group_output(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, game = bot
    gate = fake.hold("sendMessage")  # the group's output cannot get out for now
    fake.send_group(GROUP, ANN, "/rummikub shout 3")
    await fake.wait_for(lambda c: c.method == "sendMessage")
    fake.send_group(GROUP, BOB, "/status")
    # The second command reaches the game while the first one's messages still wait.
    await wait_until(lambda: "status" in game.seen)
    assert not gate.is_set()
    gate.set()
    await settle(fake, adapter)
    assert [c.params["text"] for c in fake.group_sends(GROUP)] == [
        "Shout 0",
        "Shout 1",
        "Shout 2",
        "You said 'status'.",
    ]


# --- defect 2: callback queries answered at once ------------------------------------------------


async def test_a_press_is_answered_while_the_chat_is_busy_sending(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _game = bot
    await seat_both(fake, adapter)
    table = fake.chat_messages(GROUP)[-1]
    gate = fake.hold("sendMessage")
    fake.send_group(GROUP, ANN, "/rummikub shout 2")  # its output waits on the network
    await fake.wait_for(lambda c: c.method == "sendMessage")
    query = fake.press(table, BOB, "Status")
    await wait_until(lambda: bool(fake.callback_answers[query]))
    assert fake.callback_answers[query][0].get("text") == "Status ✓"
    assert not gate.is_set()
    gate.set()
    await settle(fake, adapter)


async def test_a_press_carries_its_short_result_and_a_slow_one_stops_spinning(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, game = bot
    await seat_both(fake, adapter)
    bob_panel = fake.chat_messages(BOB)[-1]
    query = fake.press(bob_panel, BOB, "Done")
    await settle(fake, adapter)
    assert [a.get("text") for a in fake.callback_answers[query]] == ["It's not your turn."]
    # A command that keeps the game busy: the press is answered before it is done.
    game.gates["done"] = asyncio.Event()
    ann_panel = fake.chat_messages(ANN)[-1]
    query = fake.press(ann_panel, ANN, "Done")
    await wait_until(lambda: bool(fake.callback_answers[query]))
    assert game.turn == 0
    game.gates["done"].set()
    await settle(fake, adapter)
    assert game.turn == 1


async def test_the_fake_refuses_a_callback_answer_after_fifteen_seconds(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _ = bot
    fake.callback_timeout = 0.0  # every answer is now too late
    fake.send_group(GROUP, ANN, "/join")
    await settle(fake, adapter)
    lobby = fake.chat_messages(GROUP)[-1]
    query = fake.press(lobby, BOB, "Join")
    await settle(fake, adapter)
    answers = [c for c in fake.calls if c.method == "answerCallbackQuery"]
    assert answers and answers[-1].status == 400 and "query is too old" in str(answers[-1].error)
    assert fake.callback_answers[query] == []
    # The press still counted: Bob sat down.
    assert "Bob" in (fake.chat_messages(GROUP)[-1].text or "")


# --- defect 3: 5xx and network errors retried --------------------------------------------------


async def test_server_errors_are_retried_with_backoff(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _game = bot
    await seat_both(fake, adapter)
    table = fake.chat_messages(GROUP)[-1]
    fake.fail_next("sendMessage", 502, 500, chat_id=GROUP)
    fake.fail_next("editMessageMedia", 503, chat_id=GROUP)
    mark = fake.mark()
    fake.send_group(GROUP, ANN, "/done")
    await settle(fake, adapter)
    statuses = [(c.method, c.status) for c in fake.calls[mark:] if c.chat_id == GROUP]
    assert statuses == [
        ("editMessageMedia", 503),
        ("editMessageMedia", 200),
        ("sendMessage", 502),
        ("sendMessage", 500),
        ("sendMessage", 200),
    ]
    assert "Ann played" in (fake.chat_messages(GROUP)[-1].text or "")
    assert table.edits == 1 and not table.deleted


async def test_a_press_answer_is_retried_once_after_a_network_fault(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _ = bot
    fake.send_group(GROUP, ANN, "/join")
    await settle(fake, adapter)
    fake.fail_next("answerCallbackQuery", 502)
    query = fake.press(fake.chat_messages(GROUP)[-1], BOB, "Join")
    await settle(fake, adapter)
    assert len(fake.callback_answers[query]) == 1


# --- defect 5: a player whose private chat closes mid-game -------------------------------------


@pytest.mark.parametrize("closing", ["block", "chat not found"])
async def test_a_closed_private_chat_is_told_once_and_not_knocked_on_again(
    fake: FakeTelegram, tmp_path: Path, closing: str
) -> None:
    fake.add_user(5003, "Cy", started=False)
    game = TurnGame()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    try:
        # Cy never started the bot: at his seat the group gets the deep-link note once.
        fake.send_group(GROUP, 5003, "/join")
        await settle(fake, adapter)
        notes = [m for m in fake.chat_messages(GROUP) if "Cy" in (m.text or "") and m.buttons]
        assert len([m for m in notes if "private" in (m.text or "")]) == 1
        url = next(m for m in notes if "private" in (m.text or "")).buttons[0]["url"]
        fake.open_deep_link(5003, url)
        await settle(fake, adapter)
        for user in (ANN, BOB):
            fake.send_group(GROUP, user, "/join")
            await settle(fake, adapter)
        fake.send_group(GROUP, ANN, "/deal")
        await settle(fake, adapter)
        # Mid-game, a few minutes later at most, Bob's private chat closes.
        if closing == "block":
            fake.block(BOB)
        else:
            fake.forget_chat(BOB)
        order = [5003, ANN, BOB]
        for turn in range(6):
            fake.send_group(GROUP, order[turn % 3], "/done")
            await settle(fake, adapter)
        notices = [
            m for m in fake.chat_messages(GROUP) if "Bob, I can't send you" in (m.text or "")
        ]
        assert len(notices) == 1, "the group is told once, with the link"
        assert notices[0].buttons[0]["url"].startswith(f"https://t.me/{fake.bot_username}?start=")
        refused = [c for c in fake.calls if c.chat_id == BOB and not c.ok]
        assert len(refused) == 1, "after the first refusal nothing more is sent to that chat"
    finally:
        await adapter.stop()


async def test_a_closed_private_chat_stays_closed_after_a_restart(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    game = TurnGame()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    for user in (ANN, BOB):
        fake.send_group(GROUP, user, "/join")
        await settle(fake, adapter)
    fake.block(BOB)
    fake.send_group(GROUP, ANN, "/deal")
    fake.send_group(GROUP, ANN, "/done")
    await settle(fake, adapter)
    await adapter.stop()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    try:
        mark = fake.mark()
        fake.send_group(GROUP, BOB, "/done")
        fake.send_group(GROUP, ANN, "/done")
        await settle(fake, adapter)
        assert [c for c in fake.calls[mark:] if c.chat_id == BOB] == []
        notices = [m for m in fake.chat_messages(GROUP) if "Bob, I can't send" in (m.text or "")]
        assert len(notices) == 1  # told once in this game, restart or not
        # Bob comes back: his rack and panel as they are now.
        fake.unblock(BOB)
        fake.send_private(BOB, "hello")
        await settle(fake, adapter)
        (panel,) = [m for m in fake.chat_messages(BOB) if m.photo is not None]
        assert (panel.text or "").startswith(f"Turn {game.turn}: your move")
        assert any(m.text == f"Rack of telegram:{BOB}" for m in fake.chat_messages(BOB))
    finally:
        await adapter.stop()


# --- a new lobby is a new message (as on Discord) ----------------------------------------------


async def test_a_new_lobby_and_its_table_are_new_messages_at_the_bottom(
    fake: FakeTelegram, bot: tuple[TelegramAdapter, TurnGame]
) -> None:
    adapter, _ = bot
    fake.send_group(GROUP, ANN, "/new")
    await settle(fake, adapter)
    first_lobby = fake.chat_messages(GROUP)[-1]
    await seat_both(fake, adapter)
    first_table = fake.chat_messages(GROUP)[-1]
    assert first_table.photo is not None
    fake.send_group(GROUP, ANN, "/new")
    await settle(fake, adapter)
    lobby = fake.chat_messages(GROUP)[-1]
    assert lobby.message_id > first_table.message_id and lobby.text == "Lobby open."
    assert "Seats: Ann, Bob" in (first_lobby.text or "")  # the old lobby is left alone
    await seat_both(fake, adapter)
    table = fake.chat_messages(GROUP)[-1]
    assert table.photo is not None and table.message_id > lobby.message_id
    assert first_table.edits == 0 and not first_table.deleted


def test_which_failures_are_tried_again() -> None:
    from telegram.error import BadRequest, NetworkError, TimedOut

    from bot.platforms.telegram.pacing import kind_of, retryable

    assert kind_of("sendPhoto") == "send" and kind_of("editMessageMedia") == "edit"
    assert kind_of("sendChatAction") == "" and kind_of("deleteMessage") == ""
    server_error = NetworkError("Bad Gateway")
    assert retryable("sendMessage", server_error) and retryable("editMessageText", server_error)
    assert not retryable("sendMessage", BadRequest("Bad Request: chat not found"))
    # A send that timed out waiting for its answer may have been posted: not sent twice.
    assert not retryable("sendMessage", TimedOut()) and retryable("editMessageMedia", TimedOut())
