"""The neutral contract between the game manager and the platform adapters.

Identities are plain data; everything the bot says is a typed ``Reply`` that each adapter knows
how to send. Adapters turn platform events into a ``Command`` (``bot.commands.read_command``,
read once at the edge) and hand it to ``GameService.handle``, then send back what it returns;
replies caused by timers and AI turns arrive through the outbox callback the adapter registers.
A reply that a stored turn announced carries its outbox keys (``Reply.delivers``); the adapter
reports each send's outcome (``report_sent``: delivered, refused for good, failed for now), and
what no platform accepted is sent again. ``GameService`` is everything an adapter may use of the
manager: ``tests/bot/test_contract.py`` fails on any other member an adapter reads, and on any
``getattr`` of the service.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from bot.commands import Command
from bot.i18n import LANGUAGES
from bot.logs import log_internal

if TYPE_CHECKING:
    from bot.operations.metrics import BotMetrics
    from storage.messages import MessageSlots


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A person on a platform. ``user_id`` is the platform's stable id as text; ``locale`` is
    the language their client reports ("pl", "en-US"; "" unknown), not part of who they are."""

    platform: str
    user_id: str
    display_name: str = ""
    locale: str = field(default="", compare=False)

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.user_id}"

    def same_person(self, other: PlayerRef | None) -> bool:
        return other is not None and self.key == other.key


@dataclass(frozen=True, slots=True)
class ChannelRef:
    """A place where a game is played: a Discord channel, a Telegram group, a terminal."""

    platform: str
    chat_id: str

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}"


@dataclass(frozen=True, slots=True)
class Button:
    """A button; pressing it is the same as its ``command`` typed by the presser.

    With ``url`` it is a link button instead: it opens that address and sends no command.
    ``web_app`` asks a platform that has them to open the address inside the app, signed by
    the platform (a Telegram Mini App, private chats only); elsewhere it is a plain link.
    ``turn``: the game turn this button was made for (None: good at any time); an adapter
    carries it in the button's id and hands it back as ``Command.turn`` when it is clicked."""

    label: str
    command: str
    style: str = "secondary"  # primary | secondary | success | danger
    url: str | None = None
    web_app: bool = False
    turn: int | None = None

    @property
    def is_link(self) -> bool:
        return self.url is not None


@dataclass(frozen=True, slots=True)
class SelectOption:
    label: str
    value: str
    selected: bool = False


@dataclass(frozen=True, slots=True)
class Select:
    """A pick list. Choosing values sends ``f"{command} {' '.join(values)}"``; for ``pick`` an
    adapter may instead send one ``pick <value>`` per changed option, since pick toggles."""

    command: str
    placeholder: str
    options: tuple[SelectOption, ...]
    min_values: int = 0
    max_values: int = 1


@dataclass(frozen=True, slots=True)
class Image:
    filename: str
    png: bytes
    alt: str = ""


@dataclass(frozen=True, slots=True)
class File:
    """A file attached to a message as a download (a game record), not shown as a picture."""

    filename: str
    data: bytes
    mime: str = "application/octet-stream"


@dataclass(frozen=True, slots=True)
class Reply:
    """One message to send.

    ``private_to`` set means only that player may see it (DM, ephemeral, private chat);
    ``slot`` names a message the adapter should edit in place when it can ("table", "lobby",
    "panel", "rack"), ``None`` means a new message. ``delivers`` are the stored outbox entries
    this message carries: once the platform answered, the adapter reports what it said with
    ``report_sent`` (delivered, refused for good, failed for now; a message that merges
    several replies reports for all of theirs).
    ``notice``: a private message telling a subscriber (``notify on``) that a lobby opened in
    ``channel``; sent only if the platform can reach them privately, dropped otherwise (never a
    fallback in the channel), and it does not change which game their private chat acts on.
    """

    channel: ChannelRef
    text: str
    images: tuple[Image, ...] = ()
    buttons: tuple[tuple[Button, ...], ...] = ()
    selects: tuple[Select, ...] = ()
    private_to: PlayerRef | None = None
    slot: str | None = None
    mentions: tuple[PlayerRef, ...] = field(default=())
    files: tuple[File, ...] = ()
    delivers: tuple[str, ...] = ()
    notice: bool = False

    @property
    def is_private(self) -> bool:
        return self.private_to is not None


@dataclass(frozen=True, slots=True)
class Completions:
    """What autocomplete offers a player: their rack tiles and the table's numbered melds."""

    rack: tuple[str, ...] = ()
    melds: tuple[tuple[int, str], ...] = ()


Outbox = Callable[[Reply], Awaitable[None]]


# --- the board: one player's view of a channel's game, as plain data --------------------------


@dataclass(frozen=True, slots=True)
class BoardTile:
    """One physical tile as a board shows it.

    ``code`` names exactly this tile in a command (``R7``, ``R7#1``, ``J#1``), so a board can
    say which of two R7s it moves; ``face`` is what it shows (``R7``, ``J``). ``joker_face`` is
    what a joker stands for (``R4``; ``9`` for either missing colour of a group; ``""`` when it
    stands for nothing yet). ``marked``: placed or moved this turn (on the table), just drawn or
    taken from the table (on the rack)."""

    code: str
    face: str
    color: str  # K, B, O, R; "" for a joker
    number: int  # 1-13; 0 for a joker
    joker_face: str = ""
    marked: bool = False


@dataclass(frozen=True, slots=True)
class BoardMeld:
    """A numbered meld of the table or of the viewer's draft. Numbers are the ones the chat
    shows and stay put for the whole turn: a meld emptied by a move stays, with no tiles.
    ``reason`` is why it is not a valid set, the sentence the chat gives, in the board's
    language (``""`` when valid or empty)."""

    number: int
    tiles: tuple[BoardTile, ...]
    valid: bool
    reason: str = ""
    kind: str = ""  # run | group | "" (empty or not valid)


@dataclass(frozen=True, slots=True)
class BoardSeat:
    """A seat as everyone may see it: a name and a tile count, never the tiles."""

    name: str
    tiles: int
    current: bool = False
    ai: bool = False
    melded: bool = False
    you: bool = False


@dataclass(frozen=True, slots=True)
class BoardState:
    """What one player's board shows of a channel (``GameService.board``).

    ``melds`` are the viewer's own draft while it is their turn, else the committed table;
    ``rack`` is set only for the seat's owner (anyone else gets ``None``: the public table at
    most), in their sort order (``sort_by``). ``can_act``: it is their turn and they may send
    board actions. ``problems`` are the sentences ``done`` would refuse with (empty when it
    would commit). ``step`` counts the channel's changes in this process (``watch`` yields the
    same numbers), so a board can tell an older answer from a newer one. Every sentence is in
    ``lang``, the viewer's language."""

    channel: str
    phase: str  # none | lobby | playing
    lang: str
    step: int
    seats: tuple[BoardSeat, ...] = ()
    turn: int = 0
    current: str = ""  # the name of the seat to play
    seconds_left: float | None = None
    pool: int = 0
    melds: tuple[BoardMeld, ...] = ()
    rack: tuple[BoardTile, ...] | None = None
    sort_by: str = "color"  # color | number
    seat: int | None = None  # the viewer's seat
    name: str = ""  # the viewer's name at the table
    can_act: bool = False
    can_undo: bool = False
    changed: bool = False  # the draft differs from the table at the start of the turn
    problems: tuple[str, ...] = ()
    melded: bool = False  # the viewer has made the initial meld (may touch table melds)
    threshold: int = 30
    hints: bool = False
    last: str = ""  # the last finished turn in one line, in ``lang``


class BatchOutbox(Protocol):
    """An outbox that can also take the replies of one timer or AI turn together (so an
    adapter can, for example, put a turn's news lines into one message). The manager calls
    ``many`` when the registered outbox has it, else the outbox once per reply."""

    async def __call__(self, reply: Reply) -> None: ...

    async def many(self, replies: Sequence[Reply]) -> None: ...


ServerChannels = Callable[[ChannelRef], Awaitable[Sequence[str]]]
"""The other channels of a channel's server or group (a Discord guild's text channels)."""

ServerOf = Callable[[ChannelRef], Awaitable[str | None]]
"""The server (Discord guild) a channel belongs to, if the platform knows it."""


class Sent(Enum):
    """What a platform said to a message that carried outbox entries."""

    DELIVERED = "delivered"  # accepted: never sent again
    REFUSED = "refused"  # refused for good (the chat is gone, the bot was removed): given up
    FAILED = "failed"  # failed for now (a timeout, a 5xx, a rate limit): sent again later


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What an adapter may know of a channel's table without its tiles: the phase, the
    channel's language, the turn timer and hints, and whether the asking player sits there and
    is to play."""

    phase: str  # lobby | playing
    lang: str
    turn_seconds: int
    hints: bool
    seated: bool
    to_play: bool


class GameService(Protocol):
    """Everything an adapter may use of the game manager (``bot.manager.GameManager``
    implements it). Reads of live games take the channel's lock inside."""

    # ----- commands ------------------------------------------------------------------------

    async def handle(
        self,
        player: PlayerRef,
        channel: ChannelRef,
        command: str | Command,
        *,
        admin: bool = False,
    ) -> list[Reply]:
        """Run one command (a ``Command`` read at the edge, or text, read here) and return
        the replies it causes; never raises for user input."""
        ...

    def opens_new_lobby(self, channel: ChannelRef, command: Command) -> bool:
        """Whether ``command``, about to run in ``channel``, opens a new lobby (a new message at
        the bottom, and a new table after it)."""
        ...

    def has_table(self, channel: ChannelRef) -> bool:
        """Whether ``channel`` has a lobby or a game open in this process's memory."""
        ...

    async def summary(self, channel: ChannelRef, player: PlayerRef) -> TableSummary | None:
        """The channel's table as ``TableSummary`` for ``player`` (None: no table)."""
        ...

    # ----- where replies go ----------------------------------------------------------------

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """Register where replies caused by timers and AI turns are sent (per platform)."""
        ...

    async def report(self, keys: Sequence[str], outcome: Sent) -> None:
        """What the platform said to the messages carrying these outbox entries
        (``Reply.delivers``); cheap, the writes happen in the background."""
        ...

    async def delivered(self, keys: Sequence[str]) -> None:
        """``report(keys, Sent.DELIVERED)``."""
        ...

    # ----- languages -----------------------------------------------------------------------

    async def language(self, channel: ChannelRef) -> str:
        """The language the bot speaks in ``channel``."""
        ...

    async def language_for(self, player: PlayerRef, channel: ChannelRef) -> str:
        """The language ``player`` reads privately in ``channel`` (for an adapter's own
        private sentences)."""
        ...

    # ----- what adapters read and tell -----------------------------------------------------

    async def completions(self, player: PlayerRef, channel: ChannelRef) -> Completions:
        """Autocomplete data: the player's rack tiles and the numbered melds they see."""
        ...

    def set_server_channels(self, platform: str, lookup: ServerChannels) -> None:
        """How ``stats`` finds the other channels of a channel's server or group."""
        ...

    def set_server_of(self, platform: str, lookup: ServerOf) -> None:
        """How ratings learn a channel's server (Discord guild): one ladder per server."""
        ...

    def set_notice_style(self, platform: str, style: str) -> None:
        """How subscribers on ``platform`` are told a lobby opened (``mention``, ``private``)."""
        ...

    @property
    def messages(self) -> MessageSlots | None:
        """Where adapters keep the ids of the messages they edit in place (the lobby, table,
        racks and panels), across restarts and processes; None: the adapter keeps them
        itself."""
        ...

    @property
    def metrics(self) -> BotMetrics | None:
        """The process's Prometheus metrics (adapters count their platform API calls); None:
        nothing is counted."""
        ...

    # ----- a game nobody waits for while it is closed (the terminal) -----------------------

    def hold_clock(self, channel: ChannelRef) -> None:
        """Load the channel's game without running its clock until ``start_clock``."""
        ...

    async def pause_clock(self, channel: ChannelRef) -> None:
        """Stop the channel's turn clock, storing the time left."""
        ...

    async def start_clock(self, channel: ChannelRef) -> None:
        """Give a stopped clock its time left back and arm the timers."""
        ...

    async def board(self, player: PlayerRef, channel: ChannelRef) -> BoardState:
        """``player``'s board of ``channel`` as it is now, read under the channel's lock from
        the stored game. Only the seat's owner gets that seat's rack and draft; anyone else
        gets the public table (``phase`` "none" where no game or lobby is open)."""
        ...

    def watch(self, channel: ChannelRef) -> AsyncIterator[int]:
        """The channel's change counter now, then again each time the channel may have
        changed (a draft step, a commit, a timeout, an AI move, the game ending, a reply
        sent again): a board reads ``board`` again when it moves. Never ends by itself;
        the caller stops iterating when its viewer leaves."""
        ...

    async def deliver(self, replies: Sequence[Reply]) -> None:
        """Send replies that no adapter is answering (what a board action caused in the
        chat) through the outboxes registered with ``set_outbox``, as a timer's replies are
        sent."""
        ...


async def report_sent(service: GameService, replies: Sequence[Reply], outcome: Sent) -> None:
    """Tell ``service`` what the platform said to ``replies`` (the outbox entries they carry).
    Never raises: a failure here is a bug, logged; the entries are then sent again (at least
    once)."""
    keys = [key for reply in replies for key in reply.delivers]
    if not keys:
        return
    try:
        await service.report(keys, outcome)
    except Exception:
        log_internal(logging.getLogger(__name__), "could not report %d outbox entries", len(keys))


async def confirm_delivery(service: GameService, replies: Sequence[Reply]) -> None:
    """``report_sent(service, replies, Sent.DELIVERED)``: the platform accepted them."""
    await report_sent(service, replies, Sent.DELIVERED)


async def channel_language(service: GameService, channel: ChannelRef) -> str:
    """The language ``service`` speaks in ``channel``, for an adapter's own sentences (English
    when even that cannot be read: an apology must not fail)."""
    try:
        lang = await service.language(channel)
    except Exception:  # an adapter's apology must not fail on a settings read
        log_internal(logging.getLogger(__name__), "cannot read the language of %s", channel.key)
        return "en"
    return lang if lang in LANGUAGES else "en"


async def private_language(service: GameService, player: PlayerRef, channel: ChannelRef) -> str:
    """The language ``player`` reads privately in ``channel``, for an adapter's own private
    sentences (English when it cannot be read)."""
    try:
        lang = await service.language_for(player, channel)
    except Exception:  # an adapter's apology must not fail on a settings read
        log_internal(logging.getLogger(__name__), "cannot read the language of %s", player.key)
        return "en"
    return lang if lang in LANGUAGES else "en"


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible
    (a longer line is cut where it must). Platforms use it for their message size limits."""
    pieces: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            pieces.append(current)
            current = ""
        current += line
    if current:
        pieces.append(current)
    return pieces
