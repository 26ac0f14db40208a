"""The presenter says the images, their alt text and the text renderings in the channel's
language; the manager passes the table's language along."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.presenter import Presenter
from engine import Game, Match
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.renderers.pixels import decode
from tests.renderers.test_views import game

NAMES = ["Ann", "Ben"]


async def test_table_and_rack_follow_the_language() -> None:
    presenter = Presenter(images=True)
    g = Game.new(2, seed=5)
    english = (await presenter.table_images(g, NAMES, 42))[0]
    polish = (await presenter.table_images(g, NAMES, 42, lang="pl"))[0]
    assert english.png != polish.png
    assert decode(polish.png).width == decode(english.png).width
    assert english.alt.startswith("Rummikub · turn 1\n")
    assert polish.alt.startswith("Rummikub · tura 1\n")
    assert "0:42" in polish.alt and "w banku" in polish.alt
    assert presenter.table_text(g, NAMES, 42, lang="pl") == polish.alt

    rack = (await presenter.rack_images(g, 0, "number", lang="pl"))[0]
    assert rack.alt.startswith("Twój stojak (14 kostek, ")
    assert rack.alt == presenter.rack_text(g, 0, "number", lang="pl")
    assert (await presenter.rack_images(g, 0, "number"))[0].alt.startswith("Your rack (14 ")


async def test_draft_and_standings_follow_the_language() -> None:
    presenter = Presenter(images=True)
    g = game(["K9 B9 O9 R1", "R2 R3"], "R4 R5 R6", [True, True])
    draft = g.draft()
    draft.apply_text("play R1")
    polish = (await presenter.draft_images(draft, "color", lang="pl"))[0]
    english = (await presenter.draft_images(draft, "color"))[0]
    assert polish.png != english.png
    assert polish.alt.startswith("Twoja kolej\n")
    assert "Twój stojak (3 kostki, 27 punktów):" in polish.alt
    assert presenter.draft_text(draft, lang="pl") == polish.alt

    finished = game(["K9 B9 O9", "R2 R3"], "R4 R5 R6", [True, True])
    play = finished.draft()
    play.apply_text("play K9 B9 O9")
    finished.commit(play)
    assert finished.result is not None
    match = Match(2, 2)
    match.record(finished.result)
    standings = (await presenter.standings_images(match, NAMES, lang="pl"))[0]
    assert standings.alt.startswith("Tabela meczu\nPo grze 1 z 2\n1. Ann, wygrane: 1")


async def test_unknown_language_falls_back_to_english() -> None:
    presenter = Presenter(images=True)
    g = Game.new(2, seed=5)
    english = (await presenter.table_images(g, NAMES, 42))[0]
    other = (await presenter.table_images(g, NAMES, 42, lang="xx"))[0]
    assert other.png == english.png and other.alt == english.alt


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await Harness.open(tmp_path / "bot.db", images=True)
    try:
        yield harness
    finally:
        await harness.close()


async def test_a_polish_channel_gets_polish_tables_racks_and_panels(h: Harness) -> None:
    await h.say(ANN, "language pl")
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    replies = await h.say(ANN, "deal")
    table = next(r for r in replies if r.slot == "table")
    assert (
        "Rummikub · tura 1" in table.text and "Ann 14 kostek (jeszcze bez wyłożenia)" in table.text
    )
    assert table.images[0].alt == table.text
    racks = [r for r in replies if r.slot == "rack"]
    assert racks and all(r.images[0].alt.startswith("Twój stojak") for r in racks)
    current = h.manager.tables[CHANNEL.key].current_seat
    assert current is not None and current.player is not None
    panel = next(r for r in await h.say(current.player, "panel") if r.slot == "panel")
    assert panel.text.startswith("Twoja kolej")
    assert panel.images[0].filename == "draft.png"
