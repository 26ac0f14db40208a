"""After a match on Discord (issue 17): the Rematch button, ``/rummikub records stats`` across
the guild's channels and ``/rummikub records replay`` as a multi-frame GIF.

The real GameManager on a SQLite file behind the real discord.py client, against the fake
Discord API, as in test_discord_game.py. A short match: a seven-tile rack, no opening threshold,
one game, two people and an AI seat.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image as PILImage

from engine.record import parse_record, replay_game
from tests.bot.platforms.discord.playing import Live, current_member, labels, play_turn
from tests.fakes.discord_api import DiscordHarness, FakeDiscord, FakeMessage, Member

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
MAX_TURNS = 300


def newest(fake: FakeDiscord, channel_id: int) -> FakeMessage:
    return max(fake.channel_messages(channel_id), key=lambda m: m.id)


async def short_match(live: Live, alice: Member, bob: Member) -> None:
    """Alice hosts, Bob joins, an AI sits in; played to the end through slash commands."""
    h = live.h
    await h.slash(alice, "start", games=1, threshold=0)
    await h.slash(alice, "manage settings", setting="rack_size", value="7")
    await h.click(bob, live.lobby(), "Join")
    await h.click(alice, live.lobby(), "Add AI")
    await h.click(alice, live.lobby(), "Deal")
    for _ in range(MAX_TURNS):
        if not live.running:
            return
        await play_turn(live, current_member(live, [alice, bob]), use_panel=False)
    pytest.fail("the match did not end")


async def test_rematch_stats_and_replay_after_a_match(live: Live, fake: FakeDiscord) -> None:
    h = live.h
    alice, bob = h.member("alice"), h.member("bob")
    await short_match(live, alice, bob)
    (over,) = [m for m in fake.channel_messages(h.channel_id) if "Rematch" in labels(m)]

    # replay: one message with the finished game as an animated GIF (one frame per turn after
    # the deal) and its record attached as game.rkr, which parses and replays to the stored game
    outcome = await h.slash(bob, "records replay")
    (shown,) = outcome.public
    gif, rkr = shown.attachments
    assert (gif.filename, rkr.filename) == ("replay.gif", "game.rkr")
    assert shown.text.startswith("Replay of the game of")
    record = parse_record(rkr.data.decode("utf-8"))
    assert live.manager is not None
    (stored,) = await live.manager.games.history("discord", str(h.channel_id), limit=1)
    assert replay_game(record).to_text() == stored.snapshot
    with PILImage.open(io.BytesIO(gif.data)) as image:
        assert image.format == "GIF"
        assert image.n_frames == len(record.turns) + 1 > 2
    assert len(gif.data) < fake.upload_limit
    too_old = await h.slash(bob, "records replay", n=5)
    assert too_old.public == [] and "1" in too_old.text_for(bob.id)

    # stats: the record, asked from another channel of the same guild, which the adapter
    # lists through the API
    elsewhere = Live(fake, live.url)
    elsewhere.h = DiscordHarness(fake, guild_id=h.guild_id)
    live.same_process(elsewhere)
    asked = await elsewhere.h.slash(alice, "records stats", player="bob")
    answer = asked.text_for(alice.id)
    # (who wins the seeded game follows from which of several equally good tables the solver
    # hands the players, so the count comes from the game itself)
    result = replay_game(record).result
    assert result is not None
    bob_won = int(stored.seats[result.winner].name == "bob")
    assert answer.startswith("bob") and f"channels: 1; games won: {bob_won} of 1" in answer, answer
    # with a picture of Bob's last match, privately (ephemeral) and nowhere public
    assert asked.public == []
    (shown,) = [m for m in asked.private if m.attachments]
    picture, rating = shown.attachments  # the last match, and the rating after each game
    assert picture.filename == "stats.png" and rating.filename == "rating.png"
    with PILImage.open(io.BytesIO(picture.data)) as image:
        assert image.format == "PNG" and image.size[0] == 960
    mine = (await elsewhere.h.slash(bob, "records stats")).text_for(bob.id)
    assert mine == answer
    assert fake.requests_matching("GET", f"/guilds/{h.guild_id}/channels")
    nobody = (await h.slash(alice, "records stats", player="zed")).text_for(alice.id)
    assert "zed" in nobody

    # rematch: Alice presses the button on the result, a new lobby waits for Bob; his Rematch
    # deals it with the same seats
    await h.click(alice, over, "Rematch")
    lobby = newest(fake, h.channel_id)
    assert lobby.id > over.id  # a new message at the bottom, not the first lobby edited
    assert "Join" in labels(lobby) and "Waiting for: bob" in lobby.text, lobby.text
    assert live.manager is not None and live.manager.tables[live.key].game is None
    await h.click(bob, over, "Rematch")
    table = live.manager.tables[live.key]
    assert table.game is not None  # dealt
    assert [s.name for s in table.seats][:2] == ["alice", "bob"]
    assert table.seats[2].player is None and table.seats[2].ai  # the AI seat came back too
    racks = [len(table.game.players[seat].rack) for seat in (0, 1)]
    assert racks == [7, 7]  # the same settings (the AI may have played already)
    assert "Join" not in labels(lobby)
    tables = live.table_messages()
    assert tables[-1].id > lobby.id  # the new game's table is new, below its lobby
