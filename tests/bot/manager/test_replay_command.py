"""``replay [N]`` (issue 17, part 3, the manager side): the channel's last finished game (or the
Nth newest of its history) as an animated GIF read back with Pillow, plus its record text,
through ``GameManager.handle`` on a real SQLite file.

Needs ``storage.replays``, ``engine.record`` and ``renderers.animation`` (on main); skipped on a
branch without them."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.api import Reply
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

pytest.importorskip("storage.replays")
pytest.importorskip("renderers.animation")

from PIL import Image as PILImage

from engine.record import parse_record, replay_game


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


async def test_replay_posts_the_last_game_as_a_gif_with_its_record_as_a_file(h: Harness) -> None:
    assert texts(await h.say(ANN, "replay")) == ("This channel has no finished game to replay yet.")
    await short_match(h)
    (reply,) = await h.say(BOB, "replay")  # one message: the animation and the record
    assert reply.private_to is None and reply.text.startswith("Replay of the game of")
    (image,) = reply.images
    assert image.filename == "replay.gif"
    with PILImage.open(io.BytesIO(image.png)) as gif:
        assert gif.format == "GIF"
        frames = gif.n_frames
    (record,) = reply.files
    assert (record.filename, record.mime) == ("game.rkr", "text/plain")
    parsed = parse_record(record.data.decode("utf-8"))
    assert frames == len(parsed.turns) + 1 > 2  # the deal, then one frame per turn
    # the file is the stored game: replayed, it ends at the stored position with its log
    (stored,) = await h.manager.games.history(CHANNEL.platform, CHANNEL.chat_id, limit=1)
    replayed = replay_game(parsed)
    assert replayed.to_text() == stored.snapshot
    assert parsed.tag("Game") == str(stored.id)


async def test_replay_names_a_game_of_the_history(h: Harness) -> None:
    await short_match(h)
    await short_match(h)
    assert texts(await h.say(ANN, "replay 2"))
    said = texts(await h.say(ANN, "replay 3"))
    assert said == "Finished games in this channel's history: 2; replay 1 is the newest."
    said = texts(await h.say(ANN, "replay x"))
    assert said.startswith("'replay' does not take 'x'; nothing was changed. Write it like:")
    said = texts(await h.say(ANN, "replay 0"))
    assert said == "Write replay, or replay N for the Nth newest game of the history."


async def test_the_terminal_saves_the_record_file_and_prints_its_path(
    h: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal writes game.rkr where it writes images (--save-png), else in the working
    folder, without overwriting an earlier one, and says where."""
    from bot.platforms.terminal import TerminalAdapter

    out = io.StringIO()
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    terminal = TerminalAdapter(h.manager, name="Ann", out=out, save_png=pictures)
    await terminal.send("start games=1 rack_size=7 threshold=0")
    await terminal.send("addbot hard")
    await terminal.send("deal")
    for _ in range(200):
        if not terminal.playing:
            break
        await terminal.send("draw")
    assert not terminal.playing
    await terminal.send("replay")
    saved = pictures / "game.rkr"
    assert f"[file saved: {saved}]" in out.getvalue()
    parse_record(saved.read_text(encoding="utf-8"))
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    terminal.save_png = None
    await terminal.send("replay")
    await terminal.send("replay")
    assert sorted(p.name for p in here.iterdir()) == ["game-2.rkr", "game.rkr"]
    assert (here / "game-2.rkr").read_bytes() == saved.read_bytes()


async def cancelled_game(h: Harness) -> None:
    """Ann and an AI seat play a few turns, then Ann cancels the game (and confirms)."""
    await h.say(ANN, "start games=1 rack_size=7 threshold=0")
    await h.say(ANN, "addbot hard")
    await h.say(ANN, "deal")
    for _ in range(3):
        await h.say(ANN, "draw")
    await h.say(ANN, "cancel")
    assert "cancelled by Ann" in texts(await h.say(ANN, "cancel yes"))


async def test_a_cancelled_game_is_neither_replayed_nor_counted_as_finished(h: Harness) -> None:
    """Issue 21, defect 8: replay, its count and history agree with leaderboard and stats."""
    await cancelled_game(h)
    assert texts(await h.say(BOB, "replay")) == "This channel has no finished game to replay yet."
    assert texts(await h.say(BOB, "leaderboard")) == "No finished games in this channel yet."
    history = texts(await h.say(BOB, "history"))
    assert history.startswith("Recent games (none played to its end, so none to replay): ")
    assert history.endswith(" cancelled (no replay)")
    await short_match(h)
    (finished,) = await h.manager.games.history(
        CHANNEL.platform, CHANNEL.chat_id, limit=1, finished_only=True
    )
    await cancelled_game(h)  # the newest game is cancelled again
    (reply,) = await h.say(BOB, "replay")
    (record,) = reply.files
    parsed = parse_record(record.data.decode("utf-8"))
    assert parsed.tag("Game") == str(finished.id) and parsed.tag("Status") is None
    said = texts(await h.say(BOB, "replay 2"))
    assert said == "Finished games in this channel's history: 1; replay 1 is the newest."


async def test_history_numbers_each_finished_game_as_replay_does(h: Harness) -> None:
    await short_match(h)
    await cancelled_game(h)
    await short_match(h)
    await cancelled_game(h)
    rows = texts(await h.say(BOB, "history")).split(": ", 1)[1].split("; ")
    assert len(rows) == 4  # newest first: cancelled, finished, cancelled, finished
    assert all(row.endswith("cancelled (no replay)") for row in rows[0::2])
    finished = await h.manager.games.history(CHANNEL.platform, CHANNEL.chat_id, finished_only=True)
    for number, game in enumerate(finished, start=1):
        (reply,) = await h.say(BOB, f"replay {number}")
        assert parse_record(reply.files[0].data.decode("utf-8")).tag("Game") == str(game.id)
        assert game.finished_at is not None
        assert rows[2 * number - 1].startswith(f"{number}. {game.finished_at:%Y-%m-%d %H:%M} ")
