"""``notify on|off`` and the notice when a lobby opens: each subscriber of the channel is told
once per lobby (never the player who opened it, nor anyone already seated), in the way their
platform does it best.

Two ways, chosen per platform by its adapter (``set_style``): ``mention`` (the default;
Discord) puts one line at the top of the lobby message that mentions the subscribers, with a
Stop notices button, for as long as the lobby is open (an edit never mentions anyone again);
``private`` (Telegram) sends each subscriber a private notice with a Join link and a Stop
notices button (``Reply.notice``: dropped when the platform cannot reach them privately).
"""

from __future__ import annotations

from dataclasses import replace

from bot.api import Button, ChannelRef, PlayerRef, Reply
from bot.commands import NOTIFY_OFF, NOTIFY_ON
from bot.i18n import t
from bot.manager.languages import Languages
from bot.manager.state import LiveTable, note
from storage import Database

MENTION = "mention"
PRIVATE = "private"
STYLES = (MENTION, PRIVATE)
MOST_MENTIONED = 50
"""Subscribers one lobby message mentions at most: Discord lets a message mention 100 users,
and 50 mentions (about 1,150 characters) leave the lobby text room in 2,000."""

ON = NOTIFY_ON
OFF = NOTIFY_OFF


class Notices:
    """Subscriptions (``notify``) and telling subscribers that a lobby opened."""

    def __init__(self, db: Database, languages: Languages) -> None:
        self._db = db
        self._languages = languages
        self._styles: dict[str, str] = {}

    def set_style(self, platform: str, style: str) -> None:
        """How ``platform`` tells subscribers: ``mention`` (in the lobby message) or
        ``private`` (a private notice each)."""
        if style not in STYLES:
            raise ValueError(f"A notice style is one of {', '.join(STYLES)}, not {style!r}.")
        self._styles[platform] = style

    def style(self, platform: str) -> str:
        return self._styles.get(platform, MENTION)

    async def command(
        self, player: PlayerRef, channel: ChannelRef, args: str, lang: str
    ) -> list[Reply]:
        """``notify on``, ``notify off``, or ``notify`` (which it is now); privately."""
        word = args.strip().lower()
        platform, chat = channel.platform, channel.chat_id
        if word in ON:
            name = player.display_name or player.user_id
            new = await self._db.notices.subscribe(platform, chat, player.user_id, name)
            message = f"notify_on_{self.style(platform)}" if new else "notify_already_on"
        elif word in OFF:
            gone = await self._db.notices.unsubscribe(platform, chat, player.user_id)
            message = "notify_off" if gone else "notify_already_off"
        else:  # nothing: which it is now (bot.commands.SYNTAX lets only on and off words by)
            on = await self._db.notices.is_on(platform, chat, player.user_id)
            message = "notify_state_on" if on else "notify_state_off"
        return [note(channel, player, t(lang, message))]

    async def opened(
        self, table: LiveTable | None, opener: PlayerRef, replies: list[Reply]
    ) -> list[Reply]:
        """A lobby just opened at ``table`` (the replies that opened it): tell its channel's
        subscribers. Returns the replies, the lobby message with its notice line (``mention``)
        or followed by the private notices (``private``)."""
        if table is None or table.phase != "lobby":
            return replies  # a rematch that dealt at once: no lobby to join
        channel = table.channel
        seated = {s.player.user_id for s in table.seats if s.player is not None}
        subscribers = [
            s
            for s in await self._db.notices.subscribers(channel.platform, channel.chat_id)
            if s.user_id != opener.user_id and s.user_id not in seated
        ]
        if not subscribers:
            return replies
        people = [PlayerRef(channel.platform, s.user_id, s.name) for s in subscribers]
        if self.style(channel.platform) == MENTION:
            table.notified = people[:MOST_MENTIONED]
            return [
                with_notice(r, table) if r.slot == "lobby" and not r.is_private else r
                for r in replies
            ]
        host = opener.display_name or opener.user_id
        seats = ", ".join(s.name for s in table.seats)
        told = []
        for person in people:
            lang = await self._languages.read_for(table.lang, person)
            buttons = (
                (
                    Button(t(lang, "button_join"), "join", "success"),
                    Button(t(lang, "button_notify_off"), "notify off"),
                ),
            )
            text = t(lang, "notify_private", host=host, seats=seats)
            told.append(Reply(channel, text, buttons=buttons, private_to=person, notice=True))
        return [*replies, *told]


def with_notice(reply: Reply, table: LiveTable) -> Reply:
    """The lobby message with its notice line on top, mentioning the subscribers it told,
    and a Stop notices button (unchanged when it told nobody)."""
    if not table.notified:
        return reply
    lang = table.lang
    stop = (Button(t(lang, "button_notify_off"), "notify off"),)
    return replace(
        reply,
        text=t(lang, "notify_line") + "\n" + reply.text,
        mentions=(*table.notified, *reply.mentions),
        buttons=(*reply.buttons, stop),
    )
