"""``replay [N]`` (issue 17, part 3, the manager side): the channel's last finished game (or the
Nth newest of its history) as an animated GIF read back with Pillow, plus its record text,
through ``GameManager.handle`` on a real SQLite file.

Needs ``storage.replays``, ``engine.record`` and ``renderers.animation`` (on main); skipped on a
branch without them."""

from __future__ import annotations

import io

import pytest

from bot.api import Reply
from tests.bot.manager_harness import ANN, BOB, CHANNEL, Harness

pytest.importorskip("storage.replays")
pytest.importorskip("renderers.animation")

from PIL import Image as PILImage

from engine.record import parse_record


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def short_match(h: Harness) -> None:
    """Ann plays a one-game match against an AI seat, drawing every turn until it ends (a
    real game: its log replays)."""
    await h.say(ANN, "start games=1 rack_size=7 threshold=0")
    await h.say(ANN, "addbot hard")
    await h.say(ANN, "deal")
    for _ in range(200):
        if CHANNEL.key not in h.manager.tables:
            return
        await h.say(ANN, "draw")
    pytest.fail("the match did not end")


async def test_replay_posts_the_last_game_as_a_gif_with_its_record(h: Harness) -> None:
    assert texts(await h.say(ANN, "replay")) == ("This channel has no finished game to replay yet.")
    await short_match(h)
    replies = await h.say(BOB, "replay")
    first = replies[0]
    assert first.private_to is None and first.text.startswith("Replay of the game of")
    (image,) = first.images
    assert image.filename == "replay.gif"
    with PILImage.open(io.BytesIO(image.png)) as gif:
        assert gif.format == "GIF"
        frames = gif.n_frames
    record = "\n".join(r.text for r in replies[1:])
    parsed = parse_record(record)
    assert frames == len(parsed.turns) + 1 > 2  # the deal, then one frame per turn
    assert all(len(r.text) <= 2000 for r in replies)


async def test_replay_names_a_game_of_the_history(h: Harness) -> None:
    await short_match(h)
    await short_match(h)
    assert texts(await h.say(ANN, "replay 2"))
    said = texts(await h.say(ANN, "replay 3"))
    assert said == "Finished games in this channel's history: 2; replay 1 is the newest."
    said = texts(await h.say(ANN, "replay x"))
    assert said == "Write replay, or replay N for the Nth newest game of the history."
