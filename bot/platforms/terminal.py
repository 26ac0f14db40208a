"""The terminal adapter: a match against AI seats on stdin/stdout, through the same manager.

It is a real adapter like the Discord and Telegram ones: it turns lines into ``handle`` calls
and prints the replies (the player's private ones included, since the terminal is theirs).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from bot.api import ChannelRef, PlayerRef, Reply, confirm_delivery
from bot.commands import CommandError, parse_command
from bot.i18n import duration, t
from bot.manager import GameManager

PROMPT = "> "


class TerminalAdapter:
    """Plays one channel (``terminal:<name>``) for one human."""

    def __init__(
        self,
        manager: GameManager,
        *,
        name: str = "Player",
        channel: str = "local",
        out: TextIO | None = None,
        save_png: Path | None = None,
    ) -> None:
        self.manager = manager
        self.player = PlayerRef("terminal", "you", name)
        self.channel = ChannelRef("terminal", channel)
        self.out = out or sys.stdout
        self.save_png = save_png
        self._images = 0
        self._said_privately: str | None = None
        self._lobby_text: str | None = None  # the lobby's seat list as last shown
        self.board_link: Callable[[], str] | None = None  # ``play --board``: a fresh link
        manager.set_outbox(self._outbox, platform="terminal")

    async def _outbox(self, reply: Reply) -> None:
        self.out.write("\r")  # over the waiting prompt
        self.show([reply])
        self.out.write(PROMPT)
        self.out.flush()
        await confirm_delivery(self.manager, [reply])  # on screen: not to be sent again

    def show(self, replies: Sequence[Reply]) -> None:
        for reply in replies:
            if reply.private_to is not None and not reply.private_to.same_person(self.player):
                continue  # another seat's private message never reaches this screen
            text = reply.text.rstrip()
            if reply.slot == "lobby":
                if text == self._lobby_text:
                    continue  # the lobby message edited into the seat list just shown (deal)
                self._lobby_text = text.splitlines()[-1] if text else text
            if reply.private_to is None:
                if text == self._said_privately:
                    continue  # the public copy of what was just said privately (a warning)
                self._said_privately = None
            else:
                self._said_privately = text
            self.out.write(text + "\n")
            if self.save_png is not None:
                for image in reply.images:
                    self._images += 1
                    path = self.save_png / f"{self._images:04d}-{image.filename}"
                    path.write_bytes(image.png)
                    self.out.write(f"[image saved: {path}]\n")
            for file in reply.files:
                path = self._free_path(file.filename)
                path.write_bytes(file.data)
                self.out.write(f"[file saved: {path}]\n")
        self.out.flush()

    def _free_path(self, filename: str) -> Path:
        """Where an attached file goes: the ``--save-png`` folder, else the working folder;
        ``game.rkr``, or ``game-2.rkr`` and so on when that name is taken."""
        folder = self.save_png if self.save_png is not None else Path.cwd()
        name = Path(filename).name or "file"
        path, number = folder / name, 1
        while path.exists():
            number += 1
            path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
        return path

    async def send(self, text: str) -> list[Reply]:
        self._said_privately = None  # a new command: whatever it answers is shown
        replies = await self.manager.handle(self.player, self.channel, text, admin=True)
        self.show(replies)
        await confirm_delivery(self.manager, replies)
        return replies

    @property
    def playing(self) -> bool:
        return self.channel.key in self.manager.tables

    async def setup(self, ai: Sequence[str], settings: Sequence[str]) -> None:
        """Open the table, add the AI seats and deal (or continue a stored game, showing the
        draft of a turn that was under way)."""
        table = self.manager.tables.get(self.channel.key)
        if table is not None and table.phase == "lobby":
            await self.send("cancel")  # a lobby left by a crash: open it again as asked
        if self.playing:
            self.out.write(await self._say("terminal_continue"))
            await self.send("table")
            table = self.manager.tables[self.channel.key]
            seat = table.seat_of(self.player)
            on_turn = table.game is not None and seat == table.game.current
            await self.send("panel" if on_turn else "rack")
        else:
            await self.send("start " + " ".join(settings))
            for level in ai:
                await self.send(f"addbot {level}")
            await self.send("deal")
        await self._tell_settings()

    def show_board_link(self) -> None:
        """With ``--board``: the player's own link to the web board of this game, signed
        afresh (typed ``board`` shows a new one)."""
        table = self.manager.tables.get(self.channel.key)
        if self.board_link is None or table is None:
            return
        self.out.write(t(table.lang, "board_terminal", url=self.board_link()) + "\n")
        self.out.flush()

    async def _tell_settings(self) -> None:
        """The turn timer and hints of this match, and how to choose others next time."""
        table = self.manager.tables.get(self.channel.key)
        if table is None:
            return
        lang = table.lang
        hints = t(lang, "setting_on" if table.rules.hints else "setting_off")
        self.out.write(
            t(lang, "terminal_settings", time=duration(table.rules.turn_seconds), hints=hints)
            + "\n"
        )

    async def loop(self, stdin: LineReader, *, stop: asyncio.Event | None = None) -> int:
        """Read commands until the match ends, input does or ``stop`` is set (a signal).

        A command being handled when ``stop`` is set finishes first; the game is saved.
        """
        stop = stop or asyncio.Event()
        while self.playing and not stop.is_set():
            self.out.write(PROMPT)
            self.out.flush()
            reading = asyncio.ensure_future(stdin.readline())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not reading.done():
                reading.cancel()
                break
            line = reading.result()
            if not line:
                self.out.write("\n" + await self._say("terminal_bye"))
                return 0
            text = line.decode(errors="replace").strip()
            if text in ("quit", "exit"):
                self.out.write(await self._say("terminal_bye"))
                return 0
            if text == "board" and self.board_link is not None:
                self.show_board_link()
                continue
            if not text:
                continue
            verb = _verb(text)
            if verb == "cancel" and self._in_match():
                self.out.write(await self._say("terminal_cancel_confirm") + PROMPT)
                self.out.flush()
                answer = await stdin.readline()
                if not answer:
                    self.out.write("\n" + await self._say("terminal_bye"))
                    return 0
                if answer.decode(errors="replace").strip().lower() not in YES:
                    self.out.write(await self._say("terminal_cancel_kept"))
                    continue
            await self.send(text)
            await self._advise(verb, text)
        if stop.is_set():
            self.out.write("\n" + await self._say("terminal_bye"))
            return 0
        self.out.write(await self._say("terminal_over"))
        return 0

    def _in_match(self) -> bool:
        table = self.manager.tables.get(self.channel.key)
        return table is not None and table.phase == "playing"

    async def _advise(self, verb: str | None, text: str) -> None:
        """What only the terminal can add: its own commands after help, and how to choose
        settings here (they are fixed when the match starts)."""
        table = self.manager.tables.get(self.channel.key)
        playing = table is not None and table.phase == "playing"
        asked_hint = verb == "hint" and table is not None and not table.rules.hints
        asked_setting = verb == "settings" and len(text.split()) > 1
        if verb == "help" and len(text.split()) == 1:
            self.out.write(await self._say("terminal_help"))
        elif playing and (asked_hint or asked_setting):
            self.out.write(await self._say("terminal_restart_tip"))

    async def _say(self, message: str) -> str:
        """One of the terminal's own sentences, in the channel's language, as a line."""
        return t(await self.manager.language(self.channel), message) + "\n"


YES = ("yes", "y", "tak", "t")


def _verb(text: str) -> str | None:
    """The command's verb, or None when the line is not a command (the manager says why)."""
    try:
        return parse_command(text).verb
    except CommandError:
        return None


class LineReader:
    """Lines from a blocking text stream (a tty, a pipe or a file), read in a daemon thread."""

    def __init__(self, stream: TextIO) -> None:
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def pump() -> None:
            while True:
                line = stream.readline()
                loop.call_soon_threadsafe(self._queue.put_nowait, line)
                if not line:
                    return

        threading.Thread(target=pump, name="stdin", daemon=True).start()

    async def readline(self) -> bytes:
        return (await self._queue.get()).encode()


async def stdin_reader() -> LineReader:
    return LineReader(sys.stdin)
