"""The board in a real browser (Debian's Chromium, driven by Playwright) against the real
``rummikub play --board`` process: a whole turn by drag and drop, the chat and the board in
sync both ways, keyboard-only play, a phone, and a restart under an open board."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.bot.web.position import prepare_now, stored_now
from tests.bot.web.processes import (
    TerminalBoard,
    free_port,
    launch_browser,
    needs_chromium,
    wait_until,
)

pytestmark = [pytest.mark.slow, needs_chromium]

TABLE = "K3 K4 K5 K6 K7 K8 / B9 O9 R9 K9 / R10 J R12"
RACK = "R1 R2 R3 R11 B12 O12 K5#1 K1 B5 O7"
PLAYED = re.compile(r"Player played ([A-Z0-9 ]+)\.")
LINK_LINE = re.compile(r"Your board: http://127\.0\.0\.1:[0-9]+/board#t=")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as playwright:
        chromium = launch_browser(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def game(tmp_path: Path) -> Iterator[TerminalBoard]:
    db = tmp_path / "board.db"
    prepare_now(db, table=TABLE, rack=RACK)
    running = TerminalBoard(db, port=free_port()).start()
    try:
        yield running
    finally:
        running.kill()


def rack(face: str) -> str:
    return f'#rack .tile[data-face="{face}"]'


def meld(number: int) -> str:
    return f'.meld[data-number="{number}"]'


def in_meld(number: int, face: str) -> str:
    return f'{meld(number)} .tile[data-face="{face}"]'


def drop_on_meld(page: Page, source: str, number: int) -> None:
    """Drag ``source`` onto meld ``number``, by its number label (not onto a split handle)."""
    page.drag_and_drop(source, meld(number), target_position={"x": 6, "y": 10})


def open_board(browser: Any, link: str, **context: Any) -> Page:
    page: Page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(link)
    page.wait_for_selector("#rack .tile")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def test_a_whole_turn_by_drag_and_drop_is_the_turn_typed_in_the_chat(
    browser: Any, game: TerminalBoard, tmp_path: Path
) -> None:
    page = open_board(browser, game.link)
    # a new set from the rack
    page.drag_and_drop(rack("R1"), "#new-meld")
    page.wait_for_selector(in_meld(4, "R1"))
    drop_on_meld(page, rack("R2"), 4)
    page.wait_for_selector(in_meld(4, "R2"))
    drop_on_meld(page, rack("R3"), 4)
    page.wait_for_selector(f"{meld(4)}:not(.invalid) .tile[data-face=R3]")
    # a tile moved between melds: K9 from the group onto the run
    drop_on_meld(page, in_meld(2, "K9"), 1)
    page.wait_for_selector(in_meld(1, "K9"))
    # a split: K5 dropped between K5 and K6 cuts the run there and starts K5-K9
    page.drag_and_drop(rack("K5"), '.split[data-number="1"][data-at="K6"]')
    page.wait_for_selector(f"{meld(5)}:not(.invalid) .tile[data-face=K5]")
    # a joker taken: R11 dropped on the joker standing for it
    page.drag_and_drop(rack("R11"), f"{meld(3)} .tile[data-joker]")
    page.wait_for_selector("#rack .tile[data-joker].held")
    page.drag_and_drop("#rack .tile[data-joker]", "#new-meld")
    page.wait_for_selector(f"{meld(6)} .tile[data-joker]")
    drop_on_meld(page, rack("B12"), 6)
    drop_on_meld(page, rack("O12"), 6)
    page.wait_for_selector(f"{meld(6)}:not(.invalid) .tile[data-face=O12]")
    assert page.inner_text("#problems") == "Legal: Done commits it."
    assert [page.locator(meld(n)).get_attribute("class") for n in (1, 2, 3, 4, 5, 6)] == [
        "meld"
    ] * 6
    _, steps = stored_now(game.db)  # what the board stored: the chat's own commands
    assert steps == [
        "play R1",
        "play R2 to 4",
        "play R3 to 4",
        "move K9 from 2 to 1",
        "split 1 at K6",
        "play K5#1 to 5",
        "swap J in 3 with R11",
        "play J",
        "play B12 to 6",
        "play O12 to 6",
    ]
    page.click('#actions button[data-command="done"]')
    played = PLAYED.search(game.until(lambda line: bool(PLAYED.search(line)), "the commit"))
    assert played is not None
    board_output = game.stop()
    assert page.errors == []  # type: ignore[attr-defined]
    after_board, _ = stored_now(game.db)

    typed_db = tmp_path / "typed.db"
    prepare_now(typed_db, table=TABLE, rack=RACK)
    typed = TerminalBoard(typed_db, port=free_port()).start()
    try:
        for step in steps:
            typed.type(step)
        typed.type("done")
        typed_played = PLAYED.search(typed.until(lambda line: bool(PLAYED.search(line)), "typed"))
        typed.stop()
    finally:
        typed.kill()
    assert typed_played is not None and typed_played.group(1) == played.group(1)
    assert stored_now(typed_db)[0] == after_board  # the same position after the same turn
    assert "Traceback" not in board_output


def test_a_step_typed_in_the_chat_and_a_timeout_show_on_the_open_board_within_a_second(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "typed.db"
    prepare_now(db, table=TABLE, rack=RACK, timer=10)
    game = TerminalBoard(db, port=free_port()).start()
    try:
        page = open_board(browser, game.link)
        turn = turn_number(page)
        game.type("play R1 R2 R3")
        seconds = wait_until(lambda: page.locator(in_meld(4, "R3")).count() == 1, "the step")
        assert seconds < 1.0
        assert page.locator('#actions button[data-command="undo"]').is_enabled()
        # the timer runs out: the finished play stands, the AI seats move, the turn comes back
        game.until(lambda line: "Time ran out" in line, "the timeout", 30)
        seconds = wait_until(lambda: turn_number(page) > turn, "the next turn on the board", 5)
        assert seconds < 1.0
        assert page.locator(in_meld(4, "R3")).count() == 1  # committed: on the table for good
        assert page.locator("#rack .tile").count() == 7
    finally:
        game.kill()


def turn_number(page: Page) -> int:
    found = re.search(r"Turn ([0-9]+)", page.inner_text("#status"))
    assert found is not None
    return int(found.group(1))


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))


def tab_to(page: Page, selector: str, presses: int = 80) -> None:
    """Press Tab until ``selector`` has the focus (the keyboard's own way around the page)."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}; at {focused(page)}")


def test_a_turn_played_with_the_keyboard_alone(browser: Any, game: TerminalBoard) -> None:
    page = open_board(browser, game.link)
    for face, target in (("R1", "#new-meld"), ("R2", meld(4)), ("R3", meld(4))):
        tab_to(page, rack(face))
        page.keyboard.press("Enter")  # picks the tile up
        assert page.locator(rack(face)).get_attribute("aria-pressed") == "true"
        tab_to(page, target)
        page.keyboard.press("Enter")  # puts it down there
        page.wait_for_selector(in_meld(4, face))
    tab_to(page, rack("R11"))
    page.keyboard.press(" ")
    tab_to(page, f"{meld(3)} .tile[data-joker]")
    page.keyboard.press("Enter")  # on the joker: takes it
    page.wait_for_selector("#rack .tile[data-joker].held")
    tab_to(page, '.split[data-number="1"][data-at="K6"]')
    page.keyboard.press("Enter")  # a split handle alone cuts the run
    page.wait_for_selector(in_meld(5, "K6"))
    tab_to(page, '#actions button[data-command="undo"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{meld(1)} .tile[data-face=K8]")
    tab_to(page, '#actions button[data-command="reset"]')
    page.keyboard.press("Enter")
    wait_until(lambda: page.locator("#rack .tile").count() == 10, "the reset")
    tab_to(page, '#actions button[data-command="auto"]')
    page.keyboard.press("Enter")
    wait_until(lambda: page.locator("#rack .tile").count() < 10, "the solver's play")
    tab_to(page, '#actions button[data-command="done"]')
    page.keyboard.press("Enter")
    game.until(lambda line: "Player played" in line, "the commit")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_phone_sized_board_fits_and_plays_by_touch(browser: Any, game: TerminalBoard) -> None:
    page = open_board(
        browser, game.link, viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing off-screen
    for name in ("undo", "reset", "auto", "draw", "done"):
        box = page.locator(f'#actions button[data-command="{name}"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["y"] + box["height"] <= 640  # the action bar stays on the screen
    page.tap(rack("R1"))
    page.tap("#new-meld")
    page.wait_for_selector(in_meld(4, "R1"))
    page.tap(rack("R2"))
    page.tap(in_meld(4, "R1"))  # a tap on a meld's tile puts the picked tile in that meld
    page.wait_for_selector(in_meld(4, "R2"))
    page.tap(rack("R11"))
    page.tap(f"{meld(3)} .tile[data-joker]")
    page.wait_for_selector("#rack .tile[data-joker].held")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_board_left_open_across_a_restart_reconnects_and_still_works(
    browser: Any, game: TerminalBoard
) -> None:
    page = open_board(browser, game.link)
    page.drag_and_drop(rack("R1"), "#new-meld")
    page.wait_for_selector(in_meld(4, "R1"))
    game.stop(signal.SIGTERM)  # the bot goes away under the open board
    wait_until(lambda: page.locator("body.offline").count() == 1, "the board noticing", 10)
    again = TerminalBoard(game.db, port=game.port).start()  # the same address, a new process
    try:
        wait_until(lambda: page.locator("body.offline").count() == 0, "the reconnect", 15)
        drop_on_meld(page, rack("R2"), 4)  # the old page, its old link: still works
        page.wait_for_selector(in_meld(4, "R2"))
        again.until(lambda line: "R2" in line and "[R1]" in line, "the step in the terminal")
        assert stored_now(game.db)[1] == ["play R1", "play R2 to 4"]
    finally:
        again.kill()


def test_going_out_on_the_board_ends_the_game_and_the_board_moves_to_the_next(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "out.db"
    prepare_now(db, table=TABLE, rack="R1 R2 R3")
    game = TerminalBoard(db, port=free_port()).start()
    try:
        page = open_board(browser, game.link)
        game.type("board")  # the terminal's own word: a fresh link
        assert LINK_LINE.search(game.until(lambda line: "Your board:" in line, "a new link"))
        for face in ("R1", "R2", "R3"):
            target = "#new-meld" if face == "R1" else meld(4)
            if face == "R1":
                page.drag_and_drop(rack(face), target)
            else:
                drop_on_meld(page, rack(face), 4)
            page.wait_for_selector(in_meld(4, face))
        page.click('#actions button[data-command="done"]')
        game.until(lambda line: "Rummikub! Player went out." in line, "the end of the game")
        game.until(lambda line: "Game 2 of 3 is dealt" in line, "the next game")
        wait_until(lambda: page.locator("#rack .tile").count() >= 14, "the new game's rack", 5)
        shown = page.evaluate(
            "Board.state.melds.map(m => m.tiles.map(t => t.face).join(' '))"
        )  # a new table: in the same game none of these sets could have left it
        assert not {"K3 K4 K5 K6 K7 K8", "B9 O9 R9 K9", "R10 J R12", "R1 R2 R3"} <= set(shown)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        game.kill()
