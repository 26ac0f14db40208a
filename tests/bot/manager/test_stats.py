"""``stats [player]`` (issue 17, part 3, the manager side): a player's record across the
channels of a server or group, through ``GameManager.handle`` on a real SQLite file."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image as PILImage

from bot.api import ChannelRef, PlayerRef, Reply
from bot.i18n import translator
from engine.scoring import GameResult
from renderers.scoreline import (
    SCORELINE_WIDTH,
    render_scoreline,
    scoreline_text,
    scoreline_view,
)
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness, give

OTHER = ChannelRef("test", "chan-2")
ELSEWHERE = ChannelRef("test", "chan-9")  # another server


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def say(h: Harness, player: PlayerRef, channel: ChannelRef, text: str) -> list[Reply]:
    return await h.manager.handle(player, channel, text)


async def one_game_match(h: Harness, channel: ChannelRef, winner: PlayerRef) -> None:
    """Ann and Bob play a one-game match in ``channel`` that ``winner`` wins by going out."""
    await say(h, ANN, channel, "start games=1 rack_size=7 threshold=0")
    await say(h, BOB, channel, "join")
    await say(h, ANN, channel, "deal")
    table = h.manager.tables[channel.key]
    assert table.game is not None and table.game_id is not None
    if not table.seats[table.game.current].player.same_person(winner):  # type: ignore[union-attr]
        mover = table.seats[table.game.current].player
        assert mover is not None
        await say(h, mover, channel, "draw")
    seat = table.seat_of(winner)
    assert seat is not None and table.game.current == seat
    run = " ".join(f"R{n}" for n in range(1, len(table.game.players[seat].rack) + 1))
    give(table.game, seat, run)
    table.version = await h.manager.games.save_turn(
        table.game_id,
        expected_version=table.version,
        snapshot=table.game.to_text(),
        new_actions=[],
        deadline=datetime.fromtimestamp(table.deadline or 0, UTC),
    )
    await say(h, winner, channel, f"play {run}")
    said = texts(await say(h, winner, channel, "done"))
    assert f"{winner.display_name} went out" in said


async def test_stats_add_up_every_channel_of_the_server(h: Harness) -> None:
    await one_game_match(h, CHANNEL, ANN)
    await one_game_match(h, OTHER, BOB)
    await one_game_match(h, ELSEWHERE, ANN)

    # Without a lookup a channel stands alone (a Telegram group is one chat).
    said = texts(await h.say(ANN, "stats"))
    assert said.startswith("Ann — channels: 1; games won: 1 of 1;")

    async def server(channel: ChannelRef) -> Sequence[str]:
        return ["chan-1", "chan-2"] if channel.chat_id in ("chan-1", "chan-2") else []

    h.manager.set_server_channels("test", server)
    said = texts(await h.say(ANN, "stats"))
    assert said.startswith("Ann — channels: 2; games won: 1 of 2;"), said
    assert "matches won: 1 of 2." in said and "best game: +" in said
    assert texts(await h.say(EVE, "stats bob")).startswith("Bob — channels: 2; games won: 1 of 2;")
    assert texts(await h.say(EVE, "stats u-bob")).startswith("Bob — channels: 2;")
    assert texts(await h.say(EVE, "stats @Bob")).startswith("Bob — channels: 2;")
    said = texts(await h.say(EVE, "stats"))
    assert said == "Eve has no finished game in any channel of this server yet."
    said = texts(await h.say(EVE, "stats Zed"))
    assert said.startswith("Nobody called 'Zed' has played here")


async def test_stats_with_nothing_found_names_what_was_searched(h: Harness) -> None:
    """Issue 21, 19: where no server lists its channels (the terminal, a Telegram group) the
    records span this channel alone, and the answer says so, not "this server or group"."""
    await one_game_match(h, CHANNEL, ANN)
    said = texts(await h.say(EVE, "stats"))
    assert said == "Eve has no finished game in this channel yet."
    await h.say(ANN, "language pl")
    said = texts(await h.say(EVE, "stats"))
    assert said == "Eve: brak zakończonych gier na tym kanale."


async def test_stats_answer_in_polish_and_during_a_game(h: Harness) -> None:
    await one_game_match(h, CHANNEL, BOB)
    await h.say(ANN, "language pl")
    await h.say(ANN, "start")
    said = texts(await h.say(ANN, "stats Bob"))
    assert said.startswith("Bob — kanały: 1; wygrane gry: 1 z 1;"), said


async def test_stats_show_a_picture_of_the_players_last_match_game_by_game(
    tmp_path: Path,
) -> None:
    """The picture is a real PNG of the last match the player was in, anywhere on the server
    (here the other channel), with the scores the stored game ended with, drawn in the
    asker's language; a player with no match gets the sentence alone."""
    h = await Harness.open(tmp_path / "bot.db", images=True)
    try:

        async def server(channel: ChannelRef) -> Sequence[str]:
            return ["chan-1", "chan-2"]

        h.manager.set_server_channels("test", server)
        await one_game_match(h, CHANNEL, ANN)
        await one_game_match(h, OTHER, BOB)  # the newer match
        (reply,) = await h.say(EVE, "stats Ann")
        assert reply.private_to == EVE and reply.text.startswith("Ann — channels: 2;")
        (picture,) = reply.images
        assert picture.filename == "stats.png"
        with PILImage.open(io.BytesIO(picture.png)) as image:
            assert image.format == "PNG" and image.size[0] == SCORELINE_WIDTH
            image.load()
        # the stored game of the other channel, not the first one
        (last,) = await h.manager.games.history("test", "chan-2", limit=1)
        assert last.result is not None
        result = GameResult.from_text(last.result["text"])
        names = tuple(s.name for s in last.seats)
        view = scoreline_view(
            names,
            (tuple(result.scores),),
            (result.winner,),
            1,
            highlight=names.index("Ann"),
            date=datetime.now(UTC).strftime("%Y-%m-%d"),
        )
        assert picture.png == render_scoreline(view)
        assert picture.alt == scoreline_text(view)  # the same, in words
        # a Polish asker gets the same match drawn in Polish
        ola = PlayerRef("test", "u-ola", "Ola", locale="pl")
        (polish,) = await h.say(ola, "stats Ann")
        assert polish.text.startswith("Ann — kanały: 2;")
        assert polish.images[0].png == render_scoreline(view, translate=translator("pl"))
        assert polish.images[0].png != picture.png
        (none,) = await h.say(EVE, "stats")
        assert none.images == () and none.text.startswith("Eve has no finished game")
    finally:
        await h.close()
