"""Pictures of the board for the docs: ``python -m tests.bot.web.screenshots docs/images``.

A mid-game position in the real ``rummikub play --board``, a few steps made on the page (one
meld left unfinished, so its reason shows), photographed in Chromium on a phone (360x760) and a
desktop (1280x720), light and dark, English and Polish: ``board-<device>-<theme>-<lang>.png``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.bot.web.position import prepare_now
from tests.bot.web.processes import TerminalBoard, free_port, launch_browser

TABLE = "K3 K4 K5 K6 K7 K8 / B9 O9 R9 K9 / R10 J R12 / B1 B2 B3 B4"
RACK = "R1 R2 R3 R11 B12 O12 K5#1 K1 B5 O7 K13 O13#1"
DEVICES = {"phone": {"width": 360, "height": 760}, "desktop": {"width": 1280, "height": 720}}


def shoot(out: Path, lang: str) -> list[Path]:
    made = []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "shots.db"
        prepare_now(db, table=TABLE, rack=RACK, lang=lang)
        game = TerminalBoard(db, port=free_port()).start()
        try:
            for line in ("play R1 R2 R3", "move K9 from 2 to 1", "play K13 O13"):
                game.type(line)
            game.until(lambda text: "K13" in text and "O13" in text, "the steps")
            with sync_playwright() as playwright:
                browser = launch_browser(playwright)
                for device, viewport in DEVICES.items():
                    for scheme in ("light", "dark"):
                        page = browser.new_page(viewport=viewport, color_scheme=scheme)
                        page.goto(game.link)
                        page.wait_for_selector(".meld.invalid")
                        path = out / f"board-{device}-{scheme}-{lang}.png"
                        page.screenshot(path=str(path))
                        made.append(path)
                        page.close()
                browser.close()
        finally:
            game.kill()
    return made


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "pl"):
        for path in shoot(out, lang):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
