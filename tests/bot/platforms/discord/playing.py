"""Playing on the fake Discord for the whole-game tests: the real GameManager (SQLite or
PostgreSQL, fake clock) behind the real discord.py client (``Live``), and what a sensible
player does next (``play_turn``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.api import ChannelRef, Outbox, PlayerRef, Reply
from bot.commands import Command
from bot.manager import GameManager
from bot.platforms.discord.client import RummikubBot
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine import Game
from engine.solver import solve
from storage import Database
from tests.bot.doubles import as_text
from tests.fakes.discord_api import DiscordHarness, FakeDiscord, FakeMessage, Member


class Recording:
    """The real GameManager, passed through; notes each private reply and whom it was for."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.private: list[Reply] = []
        self.commands: list[tuple[str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.manager, name)

    def _note(self, replies: list[Reply]) -> None:
        self.private.extend(r for r in replies if r.private_to is not None)

    async def handle(
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        self.commands.append((player.display_name, as_text(text)))
        replies = await self.manager.handle(player, channel, text, admin=admin)
        self._note(replies)
        return replies

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        async def noted(reply: Reply) -> None:
            self._note([reply])
            await outbox(reply)

        self.manager.set_outbox(noted)


@dataclass
class Live:
    """One channel on the fake Discord, seen by one bot process over one database."""

    fake: FakeDiscord
    url: str
    schema: str | None = None
    seed: int = 7
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    h: DiscordHarness = field(init=False)
    clock: ManualScheduler = field(default_factory=ManualScheduler)
    db: Database | None = None
    manager: GameManager | None = None
    service: Recording | None = None
    private_log: list[Reply] = field(default_factory=list)
    command_log: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.h = DiscordHarness(self.fake)

    async def boot(self) -> None:
        self.db = Database(self.url, schema=self.schema)
        await self.db.start()
        self.manager = GameManager(
            self.db,
            scheduler=self.clock,
            presenter=Presenter(images=True),
            rng=random.Random(self.seed),
        )
        await self.manager.resume()
        self.service = Recording(self.manager)
        self.service.private = self.private_log
        self.service.commands = self.command_log
        bot = RummikubBot(self.service, shard_count=self.shard_count, shard_ids=self.shard_ids)
        await self.h.login(bot)

    def same_process(self, other: Live) -> None:
        """Look at another channel through this (already booted) process."""
        other.db, other.manager, other.service = self.db, self.manager, self.service
        other.h.bot = self.h.bot

    async def shutdown(self) -> None:
        await self.h.close()
        if self.manager is not None:
            await self.manager.close()
            self.manager = None
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def restart(self) -> None:
        """Stop everything like a process exit; start a new process on the same database."""
        await self.shutdown()
        await self.boot()

    @property
    def key(self) -> str:
        return f"discord:{self.h.channel_id}"

    @property
    def running(self) -> bool:
        assert self.manager is not None
        return self.key in self.manager.tables

    @property
    def game(self) -> Game:
        assert self.manager is not None
        game = self.manager.tables[self.key].game
        assert game is not None
        return game

    def lobby(self) -> FakeMessage:
        return next(m for m in self.fake.channel_messages(self.h.channel_id) if "Join" in labels(m))

    def table_messages(self) -> list[FakeMessage]:
        return [
            m
            for m in self.fake.channel_messages(self.h.channel_id)
            if any(name == "table.png" for name, _ in all_attachments(m))
        ]

    def panel_of(self, member: Member) -> FakeMessage | None:
        """The turn panel this member saw change last (DM or ephemeral): a panel is edited in
        place as the turn goes on, and older ones stay in sight with buttons for turns over."""
        mine = [
            m
            for m in self.fake.visible_to(member.id, set())
            if not m.deleted and "Done" in labels(m)
        ]
        return max(mine, key=lambda m: m.changed) if mine else None

    async def start(self, host: Member, guest: Member, **options: Any) -> None:
        await self.h.slash(host, "start", games=1, **options)
        await self.h.click(guest, self.lobby(), "Join")
        await self.h.click(host, self.lobby(), "Add AI")
        await self.h.click(host, self.lobby(), "Deal")


def labels(message: FakeMessage) -> list[str]:
    return [b.get("label", "") for b in message.buttons()]


def all_attachments(message: FakeMessage) -> list[tuple[str, bytes]]:
    return [a for version in message.versions for a in version["attachments"]]


def best_play(game: Game) -> tuple[list[str], list[list[str]]] | None:
    """What a sensible player would do: the arrangement text and the new melds' tile codes."""
    seat = game.current
    player = game.players[seat]
    opening = not player.melded
    solution = solve(
        game.table, player.rack, opening=opening, threshold=game.rules.opening_threshold
    )
    if solution is None:
        return None
    table_codes = [m.code() for m in game.table]
    melds = list(solution.melds)
    codes = [m.code() for m in melds]
    if opening and not all(code in codes for code in table_codes):
        melds = list(game.table) + melds
        codes = table_codes + codes
    new = [[t.code for t in m.tiles] for m in melds if m.code() not in table_codes]
    return codes, new


async def tick(h: DiscordHarness, member: Member, panel: FakeMessage, code: str) -> None:
    """Tick one more tile in the panel's tile select; like Discord, the interaction reports
    everything now selected in that select."""
    for index, select in enumerate(panel.selects()):
        values = [o["value"] for o in select["options"]]
        if code in values:
            ticked = [o["value"] for o in select["options"] if o.get("default")]
            await h.choose(member, panel, [*ticked, code], select_index=index)
            return
    raise LookupError(f"{code} is not in the panel's selects")


async def play_turn(live: Live, member: Member, *, use_panel: bool) -> None:
    """One human turn through Discord: the panel's selects and buttons, or slash commands."""
    h = live.h
    plan = best_play(live.game)
    panel = live.panel_of(member) if use_panel else None
    if plan is None:
        if panel is not None:
            await h.click(member, panel, "Draw")
        else:
            await h.slash(member, "draw")
        return
    codes, new_melds = plan
    opening = not live.game.players[live.game.current].melded
    if panel is not None and opening:
        for meld in new_melds:
            for code in meld:
                await tick(h, member, panel, code)
            await h.click(member, panel, "Place")
        await h.click(member, panel, "Done")
        return
    outcome = await h.slash(member, "arrange", melds=" / ".join(codes))
    panels = [m for m in outcome.private if "Done" in labels(m)]
    if panels:
        await h.click(member, panels[-1], "Done")
    else:
        await h.slash(member, "done")


def current_member(live: Live, members: list[Member]) -> Member:
    assert live.manager is not None
    player = live.manager.tables[live.key].seats[live.game.current].player
    assert player is not None
    return next(m for m in members if str(m.id) == player.user_id)
