"""What the Telegram adapter tests share: a scripted stand-in game (``TinyGame``), the adapter's
settings for the fake Bot API, waiting until a bot is idle, and small PNGs.

Fixtures built from these (the fake's world, a running adapter) are in conftest.py."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any, Protocol

from PIL import Image as PILImage

from bot.api import Button, ChannelRef, Image, Outbox, PlayerRef, Reply, Select, SelectOption
from bot.commands import Command
from bot.platforms.telegram import TelegramConfig
from bot.platforms.telegram.pacing import Limits
from tests.bot.doubles import StandIn, as_text
from tests.fakes.telegram_api import FakeTelegram

GROUP = -1001234567890
ANN, BOB = 1001, 1002


def png(color: str | tuple[int, int, int], size: tuple[int, int] = (40, 20)) -> bytes:
    """A small real PNG of one colour."""
    buffer = io.BytesIO()
    PILImage.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def telegram_config(fake: FakeTelegram, tmp_path: Path, **extra: Any) -> TelegramConfig:
    """The adapter's settings against the fake: its state file in ``tmp_path``, short polls,
    quick retries; ``extra`` overrides any of them."""
    settings: dict[str, Any] = {
        "state_path": str(tmp_path / "telegram-state.sqlite3"),
        "poll_timeout": 5,
        "answer_within": 0.1,
        "limits": Limits(backoff=0.02),
    }
    settings.update(extra)
    return TelegramConfig(token=fake.token, api_base_url=fake.base_url, **settings)


class Drains(Protocol):
    async def drain(self) -> None: ...


async def settle(fake: FakeTelegram, adapter: Drains) -> None:
    """Wait until the bot fetched every injected update and sent what they caused."""
    await fake.delivered()
    await adapter.drain()


async def wait_until(condition: Any, timeout: float = 5.0) -> None:
    """Poll ``condition()`` until it is true (AssertionError-free; a timeout fails)."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


class TinyGame(StandIn):
    """Join, then take turns with Done; each player has a secret rack shown only privately."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, str, bool]] = []
        self.commands: list[Command | str] = []  # as handed in, read or not
        self.players: list[PlayerRef] = []
        self.turn = 0
        self.picked: dict[str, list[str]] = {}
        self.outbox: Outbox | None = None

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        self.outbox = outbox

    def rack(self, player: PlayerRef, channel: ChannelRef) -> Reply:
        picked = self.picked.get(player.user_id, [])
        tiles = ["R1", "R2", "B13", "K10", "O7", "J"] + [f"B{n}" for n in range(1, 10)]
        options = tuple(SelectOption(t, t, t in picked) for t in tiles)
        return Reply(
            channel,
            f"Turn {self.turn}. Your rack: SECRET-{player.user_id} " + " ".join(tiles),
            images=(Image("rack.png", png("blue")),),
            selects=(Select("pick", "tiles", options, max_values=len(options)),),
            buttons=(
                (Button("Auto", "auto " + " ".join(picked)), Button("Done", "done")),
                (Button("Rack", "rack"),),
            ),
            private_to=player,
            slot="panel",
        )

    def table(self, channel: ChannelRef) -> Reply:
        names = ", ".join(p.display_name for p in self.players)
        current = self.players[self.turn % len(self.players)] if self.players else None
        text = f"Table after {self.turn} turns. Players: {names}."
        if current is not None:
            text += f" {current.display_name} to play."
        return Reply(
            channel,
            text,
            images=(Image("table.png", png("green" if self.turn % 2 else "white")),),
            buttons=((Button("Status", "status"),),),
            slot="table",
            mentions=(current,) if current else (),
        )

    async def handle(  # type: ignore[override]  # scripted by the command's text
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        self.commands.append(text)
        text = as_text(text)
        self.calls.append((player.user_id, channel.chat_id, text, admin))
        verb, _, rest = text.partition(" ")
        if verb == "new":
            return [
                Reply(channel, "Lobby open.", buttons=((Button("Join", "join"),),), slot="lobby")
            ]
        if verb == "join":
            self.players.append(player)
            names = ", ".join(p.display_name for p in self.players)
            lobby = Reply(
                channel, f"Lobby: {names}", buttons=((Button("Join", "join"),),), slot="lobby"
            )
            return [lobby, self.rack(player, channel)]
        if verb == "rack":
            return [self.rack(player, channel)]
        if verb == "pick":  # toggles, like the real game
            picked = self.picked.setdefault(player.user_id, [])
            for tile in rest.split():
                picked.remove(tile) if tile in picked else picked.append(tile)
            return [self.rack(player, channel)]
        if verb == "done":
            if not self.players or not player.same_person(
                self.players[self.turn % len(self.players)]
            ):
                return [Reply(channel, "It's not your turn.", private_to=player)]
            self.turn += 1
            nxt = self.players[self.turn % len(self.players)]
            return [self.table(channel), self.rack(nxt, channel)]
        if verb == "board":  # a slot whose text grows past a caption and shrinks back
            return [
                Reply(
                    channel,
                    "board " * int(rest or 1),
                    images=(Image("board.png", png("red" if int(rest or 1) > 1 else "blue")),),
                    buttons=((Button("Status", "status"),),),
                    slot="board",
                )
            ]
        if verb == "slow":
            await asyncio.sleep(0.3)
            return [Reply(channel, "Sorry, that took a while.", private_to=player)]
        if verb == "long":
            return [Reply(channel, "x" * 9000, slot="long")]
        if verb == "boom":
            raise RuntimeError("the game broke")
        return [Reply(channel, f"You said {text!r}.")]


def group_texts(fake: FakeTelegram) -> str:
    parts = []
    for message in fake.chat_messages(GROUP):
        parts.append(message.text or "")
        parts += [
            b["text"] + b.get("callback_data", "") + b.get("url", "") for b in message.buttons
        ]
    return "\n".join(parts)
