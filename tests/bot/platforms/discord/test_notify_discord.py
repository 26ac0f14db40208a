"""``notify`` on Discord, through the real discord.py client against the fake Discord API, on
the real game manager: when a lobby opens, its message carries one line that mentions the
subscribers (never the opener, never anyone else: allowed_mentions lists exactly them, and no
@everyone or roles), later edits of the lobby mention nobody anew, and the Stop notices button
on that message turns a subscriber's notices off."""

from __future__ import annotations

import pytest

from tests.bot.platforms.discord.playing import Live, labels
from tests.fakes.discord_api import FakeDiscord, FakeMessage

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
LINE = "🔔 A game is opening here: join below."


def lobbies(fake: FakeDiscord, channel_id: int) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel_id) if "Deal" in labels(m)]


async def test_a_lobby_mentions_its_subscribers_once_within_the_allowed_mentions(
    live: Live, fake: FakeDiscord
) -> None:
    h = live.h
    ann, bob, cleo, dan = (h.member(n) for n in ("ann", "bob", "cleo", "dan"))
    for member in (ann, bob, cleo):
        said = await h.slash(member, "manage notify", state="on")
        assert said.public == [] and said.text_for(member.id).startswith("Notices on:")
    opened = await h.slash(ann, "start")
    (lobby,) = opened.public
    first_line = lobby.content.splitlines()[0]
    assert first_line == f"<@{bob.id}> <@{cleo.id}> {LINE} (Stop these mentions: the Stop " + (
        "notices button, or notify off.)"
    )
    assert f"<@{ann.id}>" not in lobby.content and f"<@{dan.id}>" not in lobby.content
    assert lobby.allowed_mentions == {"parse": [], "users": [bob.id, cleo.id]}
    assert "Stop notices" in labels(lobby) and len(lobby.content) <= 2000 and not lobby.embeds

    # Bob joins: the lobby message is edited (Discord notifies nobody for an edit); no other
    # message of the channel mentions the subscribers
    await h.click(bob, lobby, "Join")
    assert lobby.edited and f"<@{bob.id}> <@{cleo.id}> {LINE}" in lobby.content
    assert lobbies(fake, h.channel_id) == [lobby]
    mentioning = [m for m in fake.channel_messages(h.channel_id) if f"<@{cleo.id}>" in m.content]
    assert mentioning == [lobby]

    # Cleo stops her notices from the lobby message itself
    stop = await h.click(cleo, lobby, "Stop notices")
    assert stop.text_for(cleo.id).startswith("Notices off")
    assert live.manager is not None
    assert not await live.manager.db.notices.is_on("discord", str(h.channel_id), str(cleo.id))

    # The next lobby mentions Bob alone; Dan, who never subscribed, is never mentioned
    await h.slash(ann, "manage cancel")
    again = (await h.slash(ann, "start")).public[-1]
    assert again.id != lobby.id and again.allowed_mentions == {"parse": [], "users": [bob.id]}
    assert again.content.startswith(f"<@{bob.id}> {LINE}")
    assert all(f"<@{dan.id}>" not in m.content for m in fake.channel_messages(h.channel_id))
