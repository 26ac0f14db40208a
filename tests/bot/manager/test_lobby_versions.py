"""Lobbies with a version checked on write (issue 26, defect 7): two processes changing one
lobby at the same moment do not lose each other's change; the one that wrote second is told
one sentence and its change is not kept (nor shown as made)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.api import ChannelRef, PlayerRef
from tests.bot.manager.manager_harness import Harness

ROUNDS = 12


async def test_two_processes_joining_one_lobby_at_once_lose_neither_join(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    one = await Harness.open(path, shared=True)
    two = await Harness.open(path, shared=True)
    try:
        lost: list[str] = []
        for index in range(ROUNDS):
            channel = ChannelRef("test", f"lobby-{index}")
            ann, bob, eve = (PlayerRef("test", f"{n}-{index}", n) for n in ("Ann", "Bob", "Eve"))
            await one.manager.handle(ann, channel, "start")
            said_bob, said_eve = await asyncio.gather(
                one.manager.handle(bob, channel, "join"), two.manager.handle(eve, channel, "join")
            )
            stored = await one.db.lobbies.get(channel.platform, channel.chat_id)
            assert stored is not None
            seated = {seat["user_id"] for seat in stored["seats"]}
            for player, said in ((bob, said_bob), (eve, said_eve)):
                text = " ".join(reply.text for reply in said)
                if player.user_id in seated:
                    continue
                if "saved at the same moment" in text:  # refused, and told so: nothing lost
                    continue
                lost.append(f"round {index}: {player.display_name} was told {text!r}")
            for manager in (one.manager, two.manager):  # both see the stored lobby after
                async with manager.tables.lock(channel.key):
                    table = await manager.store.current(channel)
                assert table is not None
                assert {s.player.user_id for s in table.seats if s.player} == seated
        assert lost == []
    finally:
        await one.close()
        await two.close()
