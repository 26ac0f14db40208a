"""A stand-in ``GameService`` for adapter tests: the whole declared contract with do-nothing
defaults, so a test double implements only what its test exercises (and an adapter can never
rely on a member the contract does not declare)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from bot.api import (
    BoardState,
    ChannelRef,
    Completions,
    Outbox,
    PlayerRef,
    Reply,
    Sent,
    ServerChannels,
    ServerOf,
    TableSummary,
)
from bot.commands import Command
from bot.operations.metrics import BotMetrics
from storage.messages import MessageSlots


def as_text(command: str | Command) -> str:
    """The text a command was read from (what a test double scripts its answers by)."""
    if isinstance(command, str):
        return command
    return command.source.strip() or command.text


class StandIn:
    """Every member of ``bot.api.GameService``; ``handle`` answers nothing, the reads say
    "no table" and English."""

    def __init__(self) -> None:
        self.outbox: Outbox | None = None
        self.reported: list[tuple[str, Sent]] = []

    async def handle(
        self,
        player: PlayerRef,
        channel: ChannelRef,
        command: str | Command,
        *,
        admin: bool = False,
    ) -> list[Reply]:
        return []

    def opens_new_lobby(self, channel: ChannelRef, command: Command) -> bool:
        return command.verb == "start"

    def has_table(self, channel: ChannelRef) -> bool:
        return False

    async def summary(self, channel: ChannelRef, player: PlayerRef) -> TableSummary | None:
        return None

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        self.outbox = outbox

    async def report(self, keys: Sequence[str], outcome: Sent) -> None:
        self.reported.extend((key, outcome) for key in keys)

    async def delivered(self, keys: Sequence[str]) -> None:
        await self.report(keys, Sent.DELIVERED)

    async def language(self, channel: ChannelRef) -> str:
        return "en"

    async def language_for(self, player: PlayerRef, channel: ChannelRef) -> str:
        return await self.language(channel)

    async def completions(self, player: PlayerRef, channel: ChannelRef) -> Completions:
        return Completions()

    def set_server_channels(self, platform: str, lookup: ServerChannels) -> None:
        pass

    def set_server_of(self, platform: str, lookup: ServerOf) -> None:
        pass

    def set_notice_style(self, platform: str, style: str) -> None:
        pass

    @property
    def messages(self) -> MessageSlots | None:
        return None

    @property
    def metrics(self) -> BotMetrics | None:
        return None

    async def board(self, player: PlayerRef, channel: ChannelRef) -> BoardState:
        return BoardState(channel=channel.key, phase="none", lang="en", step=0)

    async def watch(self, channel: ChannelRef) -> AsyncIterator[int]:
        yield 0

    async def deliver(self, replies: Sequence[Reply]) -> None:
        if self.outbox is not None:
            for reply in replies:
                await self.outbox(reply)

    def hold_clock(self, channel: ChannelRef) -> None:
        pass

    async def pause_clock(self, channel: ChannelRef) -> None:
        pass

    async def start_clock(self, channel: ChannelRef) -> None:
        pass
