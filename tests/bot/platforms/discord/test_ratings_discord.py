"""Ratings on Discord, through the real discord.py client against the fake Discord API: a
match played in one channel is rated on its server's ladder, which ``/rummikub records
leaderboard`` shows from another channel of the guild, privately, with its picture and a
button for the channel's win counts."""

from __future__ import annotations

import io

import pytest
from PIL import Image as PILImage

from renderers.ladder import LADDER_WIDTH
from tests.bot.platforms.discord.playing import Live, labels
from tests.bot.platforms.discord.test_discord_match_verbs import short_match
from tests.fakes.discord_api import DiscordHarness, FakeDiscord

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


async def test_the_server_ladder_after_a_match(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await short_match(live, alice, bob)
    assert live.manager is not None
    scope = await live.manager.db.ratings.scope_of("discord", str(h.channel_id))
    assert scope == f"server:{h.guild_id}"  # the guild the lobby was opened in
    entries = await live.manager.db.ratings.ladder("discord", scope)
    assert {e.name for e in entries if not e.is_ai} == {"alice", "bob"}
    assert [e.key for e in entries if e.is_ai] == ["medium:classic"]

    elsewhere = Live(fake, live.url)  # another channel of the same guild
    elsewhere.h = DiscordHarness(fake, guild_id=h.guild_id)
    live.same_process(elsewhere)
    asked = await elsewhere.h.slash(bob, "records leaderboard")
    assert asked.public == []
    (shown,) = [m for m in asked.private if m.attachments]
    assert shown.text.startswith("Rating ladder: ") and "AI medium: " in shown.text
    (picture,) = shown.attachments
    assert picture.filename == "ladder.png"
    with PILImage.open(io.BytesIO(picture.data)) as image:
        assert image.format == "PNG" and image.size[0] == LADDER_WIDTH
    assert "Win counts" in labels(shown)
    wins = await elsewhere.h.click(bob, shown, "Win counts")
    assert wins.text_for(bob.id).startswith("No finished games in this channel yet")  # this one
    here = await h.slash(bob, "records leaderboard")
    (ladder,) = [m for m in here.private if m.attachments]
    assert ladder.text == shown.text  # one ladder for the whole server
    counts = await h.click(bob, ladder, "Win counts")
    assert counts.text_for(bob.id).startswith("Leaderboard: 1. ")
