"""The neutral contract between the game manager and the platform adapters.

Identities are plain data; everything the bot says is a typed ``Reply`` that each adapter knows
how to send. Adapters turn platform events into ``GameService.handle`` calls (command text, or a
button's ``command``) and send back what it returns; replies caused by timers and AI turns arrive
through the outbox callback the adapter registers. A reply that a stored turn announced carries
its outbox keys (``Reply.delivers``); the adapter confirms them with ``confirm_delivery`` once
the platform accepted the message, and what is never confirmed is sent again after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.commands import CommandError, parse_command
from bot.logs import log_internal


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
    """A button; pressing it is the same as its ``command`` typed by the presser."""

    label: str
    command: str
    style: str = "secondary"  # primary | secondary | success | danger


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
    this message carries: once the platform accepted it, the adapter passes them to
    ``confirm_delivery`` (a message that merges several replies confirms all of theirs).
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


class BatchOutbox(Protocol):
    """An outbox that can also take the replies of one timer or AI turn together (so an
    adapter can, for example, put a turn's news lines into one message). The manager calls
    ``many`` when the registered outbox has it, else the outbox once per reply."""

    async def __call__(self, reply: Reply) -> None: ...

    async def many(self, replies: Sequence[Reply]) -> None: ...


class GameService(Protocol):
    """What an adapter needs from the game manager."""

    async def handle(
        self, player: PlayerRef, channel: ChannelRef, text: str, *, admin: bool = False
    ) -> list[Reply]:
        """Run one command (typed or from a button) and return the replies it causes."""
        ...

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """Register where replies caused by timers and AI turns are sent (per platform)."""
        ...

    async def delivered(self, keys: Sequence[str]) -> None:
        """The platform accepted the messages carrying these outbox entries (``Reply.delivers``):
        they are not sent again after a restart. Cheap; the write happens in the background."""
        ...


async def confirm_delivery(service: object, replies: Sequence[Reply]) -> None:
    """Tell ``service`` that ``replies`` reached their platform (a service without
    ``delivered``, such as a test double, keeps no outbox). Never raises."""
    keys = [key for reply in replies for key in reply.delivers]
    delivered = getattr(service, "delivered", None)
    if not keys or delivered is None:
        return
    try:
        await delivered(keys)
    except Exception:  # a bug; the entries are sent again after a restart: at least once
        log_internal(logging.getLogger(__name__), "could not confirm %d outbox entries", len(keys))


def opens_new_lobby(service: object, channel: ChannelRef, text: str) -> bool:
    """Whether ``text``, about to run in ``channel``, opens a new lobby (a new message at the
    bottom, and a new table after it): ``start``, or ``rematch`` where no table is open (in
    its own waiting lobby, Rematch only confirms). Asks the service's ``has_table``; a
    service without it never gets a rematch lobby of its own."""
    try:
        verb = parse_command(text).verb
    except CommandError:
        return False
    if verb == "start":
        return True
    has_table = getattr(service, "has_table", None)
    return verb == "rematch" and callable(has_table) and not has_table(channel)


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
