"""Whole games on Discord: the real GameManager (SQLite file, fake clock) behind the real
discord.py client, which talks HTTP to the fake Discord API and gets interactions as gateway
payloads. Players act only through slash commands, buttons and selects; the test looks at the
game state only to decide what a sensible player would do next.
"""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.api import ChannelRef, Outbox, PlayerRef, Reply
from bot.commands import Command
from bot.manager import GameManager
from bot.platforms.discord.client import RummikubBot
from bot.platforms.discord.sender import TEXT_STALE_BUTTON
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine import Game
from engine.solver import solve
from storage import Database
from tests.bot.doubles import as_text
from tests.fakes.discord import DiscordHarness, FakeDiscord, FakeMessage, Member
from tests.storage.scratch import scratch_schema

MAX_TURNS = 400
# aiohttp's own multipart reader (inside the fake server) trips this deprecation.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


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
        return next(
            m for m in self.fake.channel_messages(self.h.channel_id) if "Join" in _labels(m)
        )

    def table_messages(self) -> list[FakeMessage]:
        return [
            m
            for m in self.fake.channel_messages(self.h.channel_id)
            if any(name == "table.png" for name, _ in _all_attachments(m))
        ]

    def panel_of(self, member: Member) -> FakeMessage | None:
        """The newest turn panel this member can see (DM or ephemeral)."""
        mine = [
            m
            for m in self.fake.visible_to(member.id, set())
            if not m.deleted and "Done" in _labels(m)
        ]
        return max(mine, key=lambda m: m.id) if mine else None

    async def start(self, host: Member, guest: Member, **options: Any) -> None:
        await self.h.slash(host, "start", games=1, **options)
        await self.h.click(guest, self.lobby(), "Join")
        await self.h.click(host, self.lobby(), "Add AI")
        await self.h.click(host, self.lobby(), "Deal")


def _labels(message: FakeMessage) -> list[str]:
    return [b.get("label", "") for b in message.buttons()]


def _all_attachments(message: FakeMessage) -> list[tuple[str, bytes]]:
    return [a for version in message.versions for a in version["attachments"]]


def _best_play(game: Game) -> tuple[list[str], list[list[str]]] | None:
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
    plan = _best_play(live.game)
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
    panels = [m for m in outcome.private if "Done" in _labels(m)]
    if panels:
        await h.click(member, panels[-1], "Done")
    else:
        await h.slash(member, "done")


@pytest.mark.slow
async def test_a_whole_game_from_start_to_the_last_tile(live: Live, fake: FakeDiscord) -> None:
    """Two humans and an AI seat play one game to its end. Alice has DMs open and plays with
    the turn panel; Bob refuses DMs and plays with slash commands; the bot restarts midway
    and one of Alice's turns runs out of time."""
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    carol = h.member("carol")  # watches the channel, never plays
    fake.refuse_dm.add(bob.id)
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}

    turns = 0
    restarted = timed_out = False
    while live.running and not live.game.finished:
        turns += 1
        assert turns < MAX_TURNS, "the game did not end"
        game = live.game
        seat_player = live.manager.tables[live.key].seats[game.current].player  # type: ignore[union-attr]
        assert seat_player is not None  # AI seats move inside the humans' commands
        member = humans[seat_player.user_id]
        if turns == 6 and not restarted:
            restarted = True
            await live.restart()
            continue
        if member is alice and restarted and not timed_out:
            timed_out = True
            before = game.turn
            await live.clock.advance(game.rules.turn_seconds + 1)
            await h.settle()
            assert live.game.turn > before or not live.running
            continue
        await play_turn(live, member, use_panel=member is alice)

    assert restarted and timed_out
    # both ways of playing were used: Alice's panel (pick, place, buttons), Bob's slash commands
    alice_verbs = {text.split()[0] for name, text in live.command_log if name == "alice"}
    bob_verbs = {text.split()[0] for name, text in live.command_log if name == "bob"}
    assert {"pick", "place", "done"} <= alice_verbs
    assert "arrange" in bob_verbs or "draw" in bob_verbs
    channel_text = "\n".join(
        text for m in fake.channel_messages(h.channel_id) for text in m.all_texts()
    )
    assert "Rummikub! " in channel_text or "lowest rack" in channel_text
    assert "The match is over. Winner:" in channel_text

    # one table message, edited in place on every committed turn, saying whose turn it is
    (table,) = live.table_messages()
    assert len(table.versions) > 10
    assert sum("to play" in text and "left" in text for text in table.all_texts()) > 10
    turn_calls = [m for m in fake.channel_messages(h.channel_id) if "it's your turn" in m.text]
    assert turn_calls
    for call in turn_calls:
        mentioned = [int(u) for u in call.allowed_mentions["users"]]  # type: ignore[index]
        assert len(mentioned) == 1 and f"<@{mentioned[0]}>" in call.text

    # DMs: Alice got her rack and panels by DM; Bob, who refuses DMs, was told once
    alice_dms = [text for m in fake.dms_to(alice.id) for text in m.all_texts()]
    assert any(text.startswith("Your rack (14)") for text in alice_dms)
    assert any(text.startswith("Your turn") for text in alice_dms)
    assert not fake.dms_to(bob.id)
    notices = [m for m in fake.channel_messages(h.channel_id) if "direct messages" in m.text]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].text

    # every interaction was acknowledged once and in time
    interactions = list(fake.interactions.values())
    assert all(not i.errors for i in interactions)
    assert max(i.acked_after or 0.0 for i in interactions) < 1.0

    assert_no_rack_leaks(live, [alice, bob, carol])


def assert_no_rack_leaks(live: Live, members: list[Member]) -> None:
    """Nobody ever saw a rack, draft or panel meant for someone else: not its text, not its
    images. Channel messages never carry a rack at all."""
    fake = live.fake
    channel = {live.h.channel_id}
    for message in fake.channel_messages(live.h.channel_id):
        for text in message.all_texts():
            assert "Your rack" not in text
        assert not message.selects()
        assert all(
            name == "table.png" or name.startswith("standings")
            for name, _ in _all_attachments(message)
        )
    for viewer in members:
        seen = fake.visible_to(viewer.id, channel)
        texts = {text for m in seen for text in m.all_texts()}
        images = {data for m in seen for _, data in _all_attachments(m)}
        for reply in live.private_log:
            assert reply.private_to is not None
            if reply.private_to.user_id == str(viewer.id):
                continue
            if reply.slot in ("rack", "panel"):
                assert reply.text not in texts
            for image in reply.images:
                assert image.png not in images


async def test_not_your_turn_and_not_seated_are_answered_privately(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    current = humans[seat_player.user_id]
    other = bob if current is alice else alice
    turn = live.game.turn
    outcome = await h.slash(other, "done")
    assert outcome.public == []
    assert outcome.text_for(other.id) == (f"It is not your turn; it is {current.user.name}'s turn.")
    assert live.game.turn == turn
    carol = h.member("carol")  # in the channel, not at the table
    outcome = await h.slash(carol, "draw")
    assert outcome.public == []
    assert outcome.text_for(carol.id) == "You are not seated at this table."
    assert live.game.turn == turn


async def test_a_double_click_on_done_commits_the_turn_once(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    member = humans[seat_player.user_id]
    panel = live.panel_of(member)
    assert panel is not None
    rack_before = len(live.game.players[live.game.current].rack)
    seat = live.game.current
    outcome = await h.double_click(member, panel, "Done")
    # nothing was played, so Done draws: exactly one tile, one announcement
    assert len(live.game.players[seat].rack) == rack_before + 1
    drew = [m for m in outcome.public if m.text == f"{member.user.name} drew a tile."]
    assert len(drew) == 1
    second = outcome.others[0]
    assert second.response_type == 6 and not second.errors
    answers = [m for m in fake.ephemerals_to(member.id) if "not your turn" in m.text]
    assert len(answers) == 1


async def test_dm_refused_shows_the_rack_with_a_button(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    fake.refuse_dm.add(bob.id)
    await live.start(alice, bob)
    (notice,) = [m for m in fake.channel_messages(h.channel_id) if "direct messages" in m.text]
    assert "Your rack" not in notice.text
    outcome = await h.click(bob, notice, "Show my rack")
    (rack,) = outcome.private
    assert rack.audience == ("ephemeral", bob.id)
    bob_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(bob.id))
    )
    assert bob_seat is not None
    expected = sorted(str(t) for t in live.game.players[bob_seat].rack)
    assert rack.text.startswith(f"Your rack ({len(expected)}): ")
    assert sorted(rack.text.split(": ", 1)[1].split(" New:")[0].split()) == expected
    assert [a.filename for a in rack.attachments] == ["rack.png"]
    assert not fake.dms_to(bob.id)


async def test_buttons_from_before_a_restart_still_work(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    humans = {str(alice.id): alice, str(bob.id): bob}
    (table,) = live.table_messages()
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None
    current = humans[seat_player.user_id]
    other = bob if current is alice else alice
    old_panel = live.panel_of(current)
    assert old_panel is not None
    turn = live.game.turn

    await live.restart()

    # a button on the public table message, pressed after the restart
    outcome = await h.click(other, table, "Status")
    assert f"turn {turn}" in outcome.text_for(other.id)
    # the current player's panel from before the restart still plays the turn
    outcome = await h.click(current, old_panel, "Draw")
    assert live.game.turn > turn
    # that panel is now stale (the other human is to play): pressing it gets a clear answer
    seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
    assert seat_player is not None and seat_player.user_id == str(other.id)
    outcome = await h.click(current, old_panel, "Done")
    assert outcome.text_for(current.id) == f"It is not your turn; it is {other.user.name}'s turn."
    # a component in a format this version does not know
    outcome = await h.press(current, table, "rummikub-v0:status", 2)
    assert outcome.text_for(current.id) == TEXT_STALE_BUTTON


async def test_a_rack_larger_than_25_tiles_pages_the_tile_select(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await h.slash(alice, "start", games=1)
    await h.click(bob, live.lobby(), "Join")
    await h.slash(alice, "manage settings", setting="rack_size", value="20")
    await h.click(alice, live.lobby(), "Deal")
    humans = {str(alice.id): alice, str(bob.id): bob}
    alice_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(alice.id))
    )
    assert alice_seat is not None
    while len(live.game.players[alice_seat].rack) <= 25:
        seat_player = live.manager.tables[live.key].seats[live.game.current].player  # type: ignore[union-attr]
        assert seat_player is not None
        await h.slash(humans[seat_player.user_id], "draw")
    if live.game.current != alice_seat:
        await h.slash(bob, "draw")
    outcome = await h.slash(alice, "rack")
    size = len(live.game.players[alice_seat].rack)
    assert outcome.text_for(alice.id).startswith(f"Your rack ({size})")
    panel = live.panel_of(alice)
    assert panel is not None and panel.row_count() <= 5
    pick_pages = [s for s in panel.selects() if s["custom_id"].split(":", 4)[4] == "pick"]
    assert [len(s["options"]) for s in pick_pages] == [25, size - 25]
    assert all(s["max_values"] == len(s["options"]) for s in pick_pages)
    late_tile = pick_pages[1]["options"][0]["value"]
    await h.choose(alice, panel, [late_tile], select_index=1)
    assert f"Selected: {late_tile}" in panel.text


async def test_an_admin_cancels_and_a_plain_member_cannot(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    dave = h.member("dave")
    moderator = h.member("mod", manage_channels=True)
    await live.start(alice, bob)
    outcome = await h.slash(dave, "manage cancel")
    assert outcome.text_for(dave.id) == "Only the host or a channel admin can do that."
    assert live.running
    outcome = await h.slash(bob, "manage cancel")  # seated, but not the host
    assert outcome.text_for(bob.id) == "Only the host or a channel admin can do that."
    outcome = await h.slash(moderator, "manage cancel")
    assert live.running  # it asks first
    (asked,) = outcome.private
    await h.click(moderator, asked, "Cancel the game")
    assert not live.running
    (table,) = live.table_messages()
    assert table.text == "The game was cancelled by mod."
    assert not table.buttons() and not table.attachments


async def test_leave_and_cancel_ask_first_on_discord_and_say_what_happened(
    live: Live, fake: FakeDiscord
) -> None:
    """Issue 21, defect 1, through the real discord.py client: the question is ephemeral,
    with a button that confirms and one that keeps playing; the slash command's confirm
    option is the typed answer; only the answer acts."""
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    carol = h.member("carol")  # watches the channel
    await live.start(alice, bob)
    outcome = await h.slash(alice, "manage cancel")
    (asked,) = outcome.private
    assert asked.audience == ("ephemeral", alice.id) and not outcome.public
    assert asked.text.startswith("Cancelling ends this game for everyone at the table")
    assert "type cancel yes, within 2m 00s" in asked.text
    assert [b["label"] for b in asked.buttons()] == ["Cancel the game", "Keep playing"]
    await h.click(alice, asked, "Keep playing")
    assert live.running
    assert "Nothing was changed; the game goes on." in [
        m.text for m in fake.visible_to(alice.id, set())
    ]

    outcome = await h.slash(bob, "leave")  # alice still plays: an AI takes bob's seat at once
    said = [m.text for m in outcome.public]
    assert "bob left; an AI (medium) plays their seat from now on." in said
    assert not any("lobby" in text for text in said)
    outcome = await h.slash(alice, "leave")  # the last person: asks
    (asked,) = outcome.private
    assert asked.text.startswith("You are the last person at this table, so leaving ends")
    assert live.running
    outcome = await h.slash(alice, "leave", confirm=True)  # the typed answer
    assert not live.running
    (table,) = live.table_messages()
    assert (
        table.text == "alice left, the last person at the table: the game is over, with no result."
    )
    seen = [m.text for m in fake.visible_to(carol.id, set())]
    assert not any("Cancelling ends" in text or "You are the last person" in text for text in seen)


async def test_autocomplete_offers_the_invokers_rack_and_the_tables_melds(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await live.start(alice, bob)
    alice_seat = live.manager.tables[live.key].seat_of(  # type: ignore[union-attr]
        PlayerRef("discord", str(alice.id))
    )
    assert alice_seat is not None
    rack = {str(t) for t in live.game.players[alice_seat].rack}
    choices = await h.autocomplete(alice, "play", "tiles", tiles="")
    assert choices and {c["value"] for c in choices} <= rack
    assert {c["value"] for c in choices} == rack or len(choices) == 25
    melds = live.game.table
    choices = await h.autocomplete(alice, "play", "to", tiles="R5", to="")
    assert choices[0] == {"name": "new meld", "value": "new"}
    assert len(choices) == 1 + min(len(melds), 24)


def current_member(live: Live, members: list[Member]) -> Member:
    assert live.manager is not None
    player = live.manager.tables[live.key].seats[live.game.current].player
    assert player is not None
    return next(m for m in members if str(m.id) == player.user_id)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def shared_database(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[str, str | None]]:
    """One database for several bot processes: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}", None
        return
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set (no PostgreSQL for this run)")
    async with scratch_schema(url) as schema:
        yield url, schema


async def test_sharded_processes_share_the_database_and_hand_games_over(
    fake: FakeDiscord, shared_database: tuple[str, str | None]
) -> None:
    """Shard 0 and shard 1 of a two-process deployment each run a game in their own server,
    writing to one database; then one process takes both servers over (a reshard) and both
    games go on from their old buttons and messages."""
    url, schema = shared_database
    one = Live(fake, url, schema, seed=3, shard_count=2, shard_ids=[0])
    two = Live(fake, url, schema, seed=4, shard_count=2, shard_ids=[1])
    await one.boot()
    await two.boot()
    merged: Live | None = None
    try:
        ann, ben = one.h.member("ann"), one.h.member("ben")
        cat, dan = two.h.member("cat"), two.h.member("dan")
        await one.start(ann, ben)
        await two.start(cat, dan)
        for _ in range(3):  # interleaved turns, two processes writing at once
            await play_turn(one, current_member(one, [ann, ben]), use_panel=False)
            await play_turn(two, current_member(two, [cat, dan]), use_panel=False)
        turns = (one.game.turn, two.game.turn)
        (table_one,) = one.table_messages()
        (table_two,) = two.table_messages()
        await one.shutdown()
        await two.shutdown()

        merged = Live(fake, url, schema, seed=5)
        merged.h = DiscordHarness(fake, guild_id=one.h.guild_id, channel_id=one.h.channel_id)
        await merged.boot()
        other = Live(fake, url, schema)
        other.h = DiscordHarness(fake, guild_id=two.h.guild_id, channel_id=two.h.channel_id)
        merged.same_process(other)
        assert (merged.game.turn, other.game.turn) == turns
        # buttons made by the old processes work in the new one
        outcome = await merged.h.click(ann, table_one, "Status")
        assert f"turn {turns[0]}" in outcome.text_for(ann.id)
        outcome = await other.h.click(dan, table_two, "Status")
        assert f"turn {turns[1]}" in outcome.text_for(dan.id)
        await play_turn(merged, current_member(merged, [ann, ben]), use_panel=False)
        await play_turn(other, current_member(other, [cat, dan]), use_panel=False)
        assert merged.game.turn > turns[0] and other.game.turn > turns[1]
        # each server still has one table message, edited in place by the new process
        assert merged.table_messages() == [table_one]
        assert other.table_messages() == [table_two]
        assert "to play" in table_one.text and "to play" in table_two.text
    finally:
        for live in (one, two, merged):
            if live is not None:
                await live.shutdown()
