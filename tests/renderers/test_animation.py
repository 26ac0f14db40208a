"""The replay animation: a real multi-frame GIF or APNG, one frame per turn plus the deal, the
move highlighted, a few seconds long and small enough to upload anywhere."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from engine.record import GameRecord, RecordError, parse_record, record_from_game
from renderers.animation import MAX_BYTES, animate, frame_durations
from renderers.theme import get_theme
from tests.engine.test_record import simulate


def long_record(min_turns: int = 100) -> GameRecord:
    """The first seeded two-player game that lasts at least ``min_turns`` turns."""
    for seed in range(100):
        game = simulate(seed, 2)
        if len(game.log) >= min_turns:
            return record_from_game(game, ["Ann", "Ben"], ai=[None, "easy"])
    raise AssertionError("no long game")


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return long_record()


def read(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def durations(image: Image.Image) -> list[int]:
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(int(image.info["duration"]))
    return out


def test_gif_has_one_frame_per_turn_plus_the_deal_and_fits_the_upload_limit(
    record: GameRecord,
) -> None:
    data = animate(record, fmt="gif")
    assert len(record.turns) >= 100
    assert len(data) < MAX_BYTES
    image = read(data)
    assert image.format == "GIF" and image.is_animated
    assert image.n_frames == len(record.turns) + 1
    total = sum(durations(image))
    assert 3_000 <= total <= 15_000  # a few seconds
    assert image.info.get("loop") == 0


def test_apng_has_the_same_frames(record: GameRecord) -> None:
    data = animate(record, fmt="png")
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < MAX_BYTES
    image = read(data)
    assert image.format == "PNG" and image.n_frames == len(record.turns) + 1
    assert sum(durations(image)) == sum(frame_durations(len(record.turns) + 1))


def _highlighted_pixels(image: Image.Image, index: int) -> int:
    face = get_theme("light").highlight_face
    image.seek(index)
    rgb = image.convert("RGB")
    return sum(
        count
        for count, colour in rgb.getcolors(1 << 20) or []
        if sum(abs(a - b) for a, b in zip(colour, face, strict=True)) < 30
    )


def test_the_move_of_each_turn_is_highlighted(record: GameRecord) -> None:
    image = read(animate(record, fmt="gif"))
    plays = [i for i, t in enumerate(record.turns, 1) if t.command.startswith("arrange")]
    draws = [i for i, t in enumerate(record.turns, 1) if t.command == "draw"]
    assert plays and draws
    play_marks = _highlighted_pixels(image, plays[0])
    draw_marks = _highlighted_pixels(image, draws[-1])
    assert play_marks > 5 * max(draw_marks, 1)


def test_a_narrower_animation_is_drawn_when_the_limit_is_small(record: GameRecord) -> None:
    short = replace(record, turns=record.turns[:20], result=None)
    wide = read(animate(short))
    budget = len(animate(short)) * 2 // 3
    narrow = read(animate(short, max_bytes=budget))
    assert narrow.width < wide.width and narrow.n_frames == wide.n_frames == 21
    with pytest.raises(ValueError, match="KB allowed"):
        animate(short, max_bytes=1000)


def test_a_tampered_record_makes_no_animation(record: GameRecord) -> None:
    turn = next(t for t in record.turns if t.command == "draw" and t.number > 3)
    text = record.to_text().replace(turn.to_text(), f"{turn.number}. {turn.seat} play K1 K2 K4")
    with pytest.raises(RecordError, match=f"^Turn {turn.number} "):
        animate(parse_record(text))


def test_replay_frames_show_the_turn_number_the_live_table_showed() -> None:
    """Issue 21, defect 17: the position after turn 3 is "turn 4" live (the turn now being
    played, as the status line says); its replay frame must say the same, and the deal's
    frame what the table said at the deal."""
    from engine import Game
    from engine.ai import take_turn
    from engine.record import replay_record
    from renderers.animation import turn_view
    from renderers.text import table_text
    from renderers.views import table_view_from_game

    names, ai = ["Ann", "Ben"], [1]
    game = Game.new(2, 5)
    live = [table_text(table_view_from_game(game, names, ai_seats=ai))]
    for _ in range(12):
        take_turn(game, "medium")
        live.append(table_text(table_view_from_game(game, names, ai_seats=ai)))
    assert not game.finished
    assert live[3].splitlines()[0] == "Rummikub · turn 4"
    record = record_from_game(game, names, ai=[None, "medium"])
    replayed = [table_text(turn_view(step.game, names, ai)) for step in replay_record(record)]
    assert replayed == live
