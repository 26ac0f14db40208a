"""The terminal adapter: a match against AI seats on stdin/stdout, through the same manager.

It is a real adapter like the Discord and Telegram ones: it turns lines into ``handle`` calls
and prints the replies (the player's private ones included, since the terminal is theirs).
"""

from __future__ import annotations

import asyncio
import difflib
import re
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from bot.api import ChannelRef, GameService, PlayerRef, Reply, TableSummary, confirm_delivery
from bot.commands import KNOWN_VERBS, Command, read_command, shorten
from bot.i18n import duration, say, t
from engine.messages import Msg

PROMPT = "> "
TERMINAL_WORDS = ("quit", "exit")  # the terminal's own, handled before the manager sees a line
SAVED_IMAGE = re.compile(r"([0-9]{4,})-")  # 0012-table.png: the 12th image saved


def terminal_channel(name: str = "local") -> ChannelRef:
    """The channel of the terminal game (``terminal:local``)."""
    return ChannelRef("terminal", name)


class TerminalAdapter:
    """Plays one channel (``terminal:<name>``) for one human."""

    def __init__(
        self,
        manager: GameService,
        *,
        name: str = "Player",
        channel: str = "local",
        out: TextIO | None = None,
        save_png: Path | None = None,
        started_new: bool = False,
    ) -> None:
        self.manager = manager
        self.player = PlayerRef("terminal", "you", name)
        self.channel = terminal_channel(channel)
        self.out = out or sys.stdout
        self.save_png = save_png
        self.started_new = started_new  # then "the same command" would deal a new match
        self._images = _last_saved(save_png) if save_png is not None else 0
        self._said_privately: str | None = None
        self._lobby_text: str | None = None  # the lobby's seat list as last shown
        self._at_prompt = False  # the prompt is on screen, waiting for a line
        self.board_link: Callable[[], str] | None = None  # ``play --board``: a fresh link
        manager.set_outbox(_Screen(self), platform="terminal")

    async def arrived(self, replies: Sequence[Reply]) -> None:
        """Replies that come on their own (a timer, an AI move): on a fresh line below the
        waiting prompt, which is drawn again after them."""
        waiting = self._at_prompt
        if waiting:
            self.out.write("\n")
            self._at_prompt = False
        self.show(replies)
        if waiting:
            self.prompt()
        await confirm_delivery(self.manager, replies)  # on screen: not to be sent again

    def prompt(self) -> None:
        self.out.write(PROMPT)
        self.out.flush()
        self._at_prompt = True

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
                    self._save_image(image.filename, image.png)
            for file in reply.files:
                path = self._free_path(file.filename)
                try:
                    path.write_bytes(file.data)
                except OSError as err:
                    self.out.write(f"[file not saved: {path}: {err.strerror or err}]\n")
                else:
                    self.out.write(f"[file saved: {path}]\n")
        self.out.flush()

    def _save_image(self, filename: str, png: bytes) -> None:
        """Write one image into the ``--save-png`` folder, numbered on from the last one."""
        assert self.save_png is not None
        self._images += 1
        path = self.save_png / f"{self._images:04d}-{filename}"
        try:
            with path.open("xb") as handle:  # never over an earlier image
                handle.write(png)
        except OSError as err:
            self.out.write(f"[image not saved: {path}: {err.strerror or err}]\n")
        else:
            self.out.write(f"[image saved: {path}]\n")

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

    async def send(self, text: str | Command) -> list[Reply]:
        self._said_privately = None  # a new command: whatever it answers is shown
        replies = await self.manager.handle(self.player, self.channel, text, admin=True)
        self.show(replies)
        await confirm_delivery(self.manager, replies)
        return replies

    @property
    def playing(self) -> bool:
        """Whether this terminal's channel has a lobby or a game open."""
        return self.manager.has_table(self.channel)

    async def _summary(self) -> TableSummary | None:
        return await self.manager.summary(self.channel, self.player)

    async def setup(self, ai: Sequence[str], settings: Sequence[str]) -> None:
        """Open the table, add the AI seats and deal (or continue a stored game, showing the
        draft of a turn that was under way)."""
        table = await self._summary()
        if table is not None and table.phase == "lobby":
            await self.send("cancel")  # a lobby left by a crash: open it again as asked
        if self.playing:
            self.out.write(await self._say("terminal_continue"))
            await self.manager.start_clock(self.channel)  # the time left it was closed with
            await self.send("table")
            table = await self._summary()
            on_turn = table is not None and table.to_play
            await self.send("panel" if on_turn else "rack")
        else:
            await self.manager.start_clock(self.channel)  # nothing held any more
            await self.send("start " + " ".join(settings))
            for level in ai:
                await self.send(f"addbot {level}")
            await self.send("deal")
        await self._tell_settings()

    async def show_board_link(self) -> None:
        """With ``--board``: the player's own link to the web board of this game, signed
        afresh (typed ``board`` shows a new one)."""
        table = await self._summary()
        if self.board_link is None or table is None:
            return
        self.out.write(t(table.lang, "board_terminal", url=self.board_link()) + "\n")
        self.out.flush()

    async def _tell_settings(self) -> None:
        """The turn timer and hints of this match, and how to choose others next time."""
        table = await self._summary()
        if table is None:
            return
        lang = table.lang
        hints = t(lang, "setting_on" if table.hints else "setting_off")
        self.out.write(
            t(lang, "terminal_settings", time=duration(table.turn_seconds), hints=hints) + "\n"
        )

    async def loop(self, stdin: LineReader, *, stop: asyncio.Event | None = None) -> int:
        """Read commands until the match ends, input does or ``stop`` is set (a signal).

        A command being handled when ``stop`` is set finishes first; the game is saved.
        """
        stop = stop or asyncio.Event()
        while self.playing and not stop.is_set():
            self.prompt()
            reading = asyncio.ensure_future(stdin.readline())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            self._at_prompt = False
            stopping.cancel()
            if not reading.done():
                reading.cancel()
                break
            line = reading.result()
            if not line:
                self.out.write("\n" + await self._bye())
                return 0
            text = line.decode(errors="replace").strip()
            if text.lower() in TERMINAL_WORDS:
                self.out.write(await self._bye())
                return 0
            if text == "board" and self.board_link is not None:
                await self.show_board_link()
                continue
            if not text:
                continue
            command = read_command(text)  # read once: the terminal and the manager share it
            verb = command.verb or None
            # cancel and leave ask before they end the match (the manager asks, as on every
            # platform; its question says what to type: cancel yes)
            if verb is None and await self._meant_terminal_word(text):
                continue
            if verb == "hint" and await self._hints_off():
                self.out.write(await self._say("terminal_hint_off"))
                continue
            await self.send(command)
            await self._advise(verb, text)
        if stop.is_set():
            self.out.write("\n" + await self._bye())
            return 0
        self.out.write(await self._say("terminal_over"))
        return 0

    async def _in_match(self) -> bool:
        table = await self._summary()
        return table is not None and table.phase == "playing"

    async def _hints_off(self) -> bool:
        table = await self._summary()
        return table is not None and not table.hints

    async def _bye(self) -> str:
        """Goodbye, and how to continue: the same command, or without ``--new`` (which would
        deal a new match)."""
        return await self._say("terminal_bye_new" if self.started_new else "terminal_bye")

    async def _meant_terminal_word(self, text: str) -> bool:
        """Answer a line that looks like a misspelt ``quit`` or ``exit`` (words the manager
        never sees, so it cannot suggest them); True when it did."""
        word = text.split()[0]
        close = difflib.get_close_matches(word.lower(), [*KNOWN_VERBS, *TERMINAL_WORDS], n=1)
        if not close or close[0] not in TERMINAL_WORDS:
            return False
        hint = Msg("Did you mean {verb!r}?", verb=close[0])
        said = Msg("I don't know the command {word!r}. {hint}", word=shorten(word), hint=hint)
        self.out.write(say(await self.manager.language(self.channel), said) + "\n")
        return True

    async def _advise(self, verb: str | None, text: str) -> None:
        """What only the terminal can add: its own commands after help, and how to choose
        settings here (they are fixed when the match starts)."""
        if verb == "help" and len(text.split()) == 1:
            help_key = "terminal_help_new" if self.started_new else "terminal_help"
            self.out.write(await self._say(help_key))
        elif verb == "settings" and len(text.split()) > 1 and await self._in_match():
            self.out.write(await self._say("terminal_restart_tip"))

    async def _say(self, message: str) -> str:
        """One of the terminal's own sentences, in the channel's language, as a line."""
        return t(await self.manager.language(self.channel), message) + "\n"


class _Screen:
    """The terminal's outbox (``bot.api.BatchOutbox``): what a timer or an AI turn says,
    together, below the waiting prompt."""

    def __init__(self, terminal: TerminalAdapter) -> None:
        self.terminal = terminal

    async def __call__(self, reply: Reply) -> None:
        await self.terminal.arrived([reply])

    async def many(self, replies: Sequence[Reply]) -> None:
        await self.terminal.arrived(replies)


def _last_saved(folder: Path) -> int:
    """The number of the newest image saved into ``folder`` before (0 when none), so the
    next one is numbered after it."""
    try:
        names = [p.name for p in folder.iterdir()]
    except OSError:
        return 0
    numbers = [int(m.group(1)) for m in map(SAVED_IMAGE.match, names) if m is not None]
    return max(numbers, default=0)


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
