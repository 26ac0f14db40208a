"""The paced sender: one queue and one worker per Telegram chat, so a chat's messages and edits
land in order while other chats go on, and every send's outcome is reported to the game.

A group's news lines waiting together share one message. A private reply goes to the user's
private chat; one Telegram refuses becomes a deep-link button in the group, with nothing of
the private content. What Telegram said is reported (``report_sent``) for the outbox entries
a send carried: accepted, refused for good (blocked, chat not found, bot removed) or failed
for now (5xx, network faults, a 429 beyond the pacing's patience).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.helpers import create_deep_linked_url

from bot.api import (
    GameService,
    PlayerRef,
    Reply,
    Sent,
    channel_language,
    private_language,
    report_sent,
)
from bot.i18n import t
from bot.platforms.telegram.chats import PLATFORM, Chats, is_group
from bot.platforms.telegram.codes import CallbackCodes
from bot.platforms.telegram.render import (
    build_keyboard,
    build_parts,
    join_payload,
    notice_keyboard,
    start_payload,
    to_html,
)
from bot.platforms.telegram.slots import SlotMessages
from bot.web.links import BoardLinks, is_turn_panel, with_button

log = logging.getLogger(__name__)

Job = Callable[[], Coroutine[Any, Any, Sent]]


@dataclass
class QueueItem:
    """One thing to send to one chat; ``reply`` is set when it shows a game reply."""

    job: Job
    future: asyncio.Future[Sent]
    reply: Reply | None = None


def is_plain_news(reply: Reply | None) -> bool:
    """A public line with nothing to press or edit: it may share a message with its neighbours."""
    return (
        reply is not None
        and reply.private_to is None
        and reply.slot is None
        and not (reply.images or reply.buttons or reply.selects)
    )


def combine(replies: list[Reply]) -> Reply:
    """One message saying what several news lines said, mentioning everyone they mention."""
    mentions: list[PlayerRef] = []
    for reply in replies:
        mentions += [p for p in reply.mentions if not any(p.same_person(m) for m in mentions)]
    text = "\n".join(r.text.strip() for r in replies if r.text.strip())
    return replace(replies[0], text=text, mentions=tuple(mentions))


def closed_for_good(error: TelegramError) -> bool:
    """Telegram will not take messages for that chat again: the user blocked the bot or never
    started it, the bot was removed from the group, or the chat is gone."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


def outcome_of(error: Exception) -> Sent:
    """What a send that raised means for its outbox entries."""
    if isinstance(error, TelegramError) and closed_for_good(error):
        return Sent.REFUSED
    return Sent.FAILED  # 5xx, network faults, a 429 the pacing gave up on: try again later


class Outgoing:
    """Queues replies per chat and sends them in order through the paced bot."""

    def __init__(
        self,
        service: GameService,
        bot: Bot,
        chats: Chats,
        slots: SlotMessages,
        codes: CallbackCodes,
        board: BoardLinks | None,
    ) -> None:
        self.service = service
        self.bot = bot
        self.chats = chats
        self.slots = slots
        self.codes = codes
        self.board = board
        self._queues: dict[int, collections.deque[QueueItem]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being sent."""
        return not self._workers

    # --- the outbox (``bot.api.BatchOutbox``) -------------------------------------------------

    async def __call__(self, reply: Reply) -> None:
        """Send one reply from a timer or an AI turn and wait until it is out."""
        await self.many([reply])

    async def many(self, replies: Sequence[Reply]) -> None:
        """Send the replies of one timer or AI turn together (news lines share a message) and
        wait until they are out. Replies for another platform's channels are left alone."""
        ours = [r for r in replies if r.channel.platform == PLATFORM]
        if len(ours) < len(replies):
            log.debug("Telegram: ignoring %d replies for other platforms", len(replies) - len(ours))
        if ours:
            await asyncio.gather(*self.send_all(ours))

    # --- queueing ------------------------------------------------------------------------------

    def send_all(
        self, replies: list[Reply], *, new_lobby: bool = False
    ) -> list[asyncio.Future[Sent]]:
        """Queue one command's (or one timer's) replies together, so that a group's news lines
        can share one message. ``new_lobby``: the command opened a lobby, so its lobby and
        table are new messages at the bottom of the chat, not edits of the old ones."""
        if new_lobby:
            for reply in replies:
                if reply.slot == "lobby" and reply.private_to is None:
                    group = reply.channel.chat_id
                    chat = int(self.chats.post_chat(group))
                    self.enqueue_job(chat, functools.partial(self._new_lobby, group))
                    break
        return [self.enqueue(reply) for reply in replies]

    async def _new_lobby(self, group: str) -> Sent:
        # A new game: the group is told again about anyone it cannot reach.
        self.chats.forget_told(lambda told: told[1] == group)
        for slot in ("lobby", "table"):
            await self.slots.forget(group, self.chats.post_chat(group), slot)
        return Sent.DELIVERED

    def enqueue(self, reply: Reply) -> asyncio.Future[Sent]:
        """Queue a reply behind earlier ones for the same chat, so edits land in order."""
        if reply.private_to is not None:
            destination = int(reply.private_to.user_id)
        else:
            destination = int(self.chats.post_chat(reply.channel.chat_id))
        return self.enqueue_job(destination, lambda: self._send(destination, reply), reply=reply)

    def enqueue_job(
        self, destination: int, job: Job, *, reply: Reply | None = None
    ) -> asyncio.Future[Sent]:
        future: asyncio.Future[Sent] = asyncio.get_running_loop().create_future()
        queue = self._queues.setdefault(destination, collections.deque())
        queue.append(QueueItem(job, future, reply))
        if destination not in self._workers:
            self._workers[destination] = asyncio.create_task(self._work(destination, queue))
        return future

    async def _work(self, destination: int, queue: collections.deque[QueueItem]) -> None:
        """Send one chat's queue in order; the worker ends when the queue is empty.

        News lines waiting together become one message, sent after the edits of messages
        already in the chat that came between them (an edit does not move a message), so a
        turn costs the group one new message, however many lines it has.
        """
        try:
            while queue:
                item = queue.popleft()
                if not is_plain_news(item.reply):
                    await self._run_items(destination, [item], item.job)
                    continue
                news, edits = self._gather_news(item, queue)
                for edit in edits:
                    await self._run_items(destination, [edit], edit.job)
                job = item.job
                if len(news) > 1:
                    merged = combine([n.reply for n in news if n.reply is not None])
                    job = functools.partial(self._send, destination, merged)
                await self._run_items(destination, news, job)
        finally:
            del self._workers[destination]
            if not queue:
                self._queues.pop(destination, None)

    def _gather_news(
        self, first: QueueItem, queue: collections.deque[QueueItem]
    ) -> tuple[list[QueueItem], list[QueueItem]]:
        """Take from the queue the news lines to merge with ``first`` and the in-place edits
        that may go before them, up to the first item that is neither."""
        news, edits = [first], []
        assert first.reply is not None
        while queue:
            item = queue[0]
            reply = item.reply
            if reply is None or reply.channel != first.reply.channel:
                break
            if is_plain_news(reply):
                news.append(queue.popleft())
            elif reply.private_to is None and reply.slot is not None and self.slots.shown(reply):
                edits.append(queue.popleft())
            else:
                break
        return news, edits

    async def _run_items(self, destination: int, items: list[QueueItem], job: Job) -> None:
        """Run one send (which may carry several queued replies, merged) and report what
        Telegram said to the outbox entries of every reply it carried."""
        try:
            outcome = await job()
        except Exception as error:
            log.exception("Telegram: sending to %s failed", destination)
            outcome = outcome_of(error)
        await report_sent(self.service, [i.reply for i in items if i.reply is not None], outcome)
        for item in items:
            if not item.future.done():
                item.future.set_result(outcome)

    # --- sending -------------------------------------------------------------------------------

    async def _send(self, destination: int, reply: Reply) -> Sent:
        """Show one reply in one chat; a private one to an unreachable user becomes a link."""
        if reply.notice:
            return await self._send_notice(destination, reply)
        player = reply.private_to
        if player is not None:
            if is_group(reply.channel.chat_id):
                self.chats.set_home(player.user_id, reply.channel.chat_id)
            if self.chats.unreachable(player.user_id):
                self.chats.keep_for_later(reply, player)
                self._link_notice(reply, player)
                return Sent.REFUSED
        elsewhere = player is not None and reply.channel.chat_id != str(destination)
        if player is not None:  # private replies go to the user's private chat
            reply = await self._with_board(reply)
        markup = build_keyboard(
            reply.selects, reply.buttons, self.codes, reply.channel.chat_id if elsewhere else None
        )
        parts = build_parts(reply, markup)
        try:
            await self.slots.show(destination, reply, parts)
        except ChatMigrated as error:  # upgraded while we were not looking
            if player is not None:
                raise
            self.chats.moved(str(destination), str(error.new_chat_id))
            await self.slots.show(int(self.chats.post_chat(reply.channel.chat_id)), reply, parts)
        except TelegramError as error:
            if not closed_for_good(error):
                raise
            if player is None:
                log.warning("Telegram: cannot post in chat %s: %s", destination, error)
                return Sent.REFUSED
            log.info("Telegram: %s cannot be reached privately: %s", player.key, error)
            self.chats.close(player.user_id)
            self.chats.keep_for_later(reply, player)
            self._link_notice(reply, player)
            return Sent.REFUSED
        return Sent.DELIVERED

    async def _send_notice(self, destination: int, reply: Reply) -> Sent:
        """A subscriber's notice that a lobby opened: to their private chat when they started
        it, else dropped (never a link in the group); it does not change their private chat's
        game. Its Join button is a deep link that joins from the private chat."""
        player = reply.private_to
        if player is None or self.chats.unreachable(player.user_id):
            return Sent.REFUSED
        group = reply.channel.chat_id
        url = create_deep_linked_url(str(self.bot.username), join_payload(group))
        parts = build_parts(reply, notice_keyboard(reply.buttons, self.codes, group, url))
        try:
            await self.slots.send(destination, parts)
        except TelegramError as error:
            if not closed_for_good(error):
                raise
            log.info("Telegram: no notice for %s (no private chat): %s", player.key, error)
            self.chats.close(player.user_id)
            return Sent.REFUSED
        return Sent.DELIVERED

    async def _with_board(self, reply: Reply) -> Reply:
        """A turn panel in the private chat, with the web board one tap away (a Mini App:
        Telegram signs the user in, so the address names only the game's chat)."""
        if self.board is None or not is_turn_panel(reply) or reply.private_to is None:
            return reply
        lang = await private_language(self.service, reply.private_to, reply.channel)
        return with_button(reply, self.board.mini_app_button(reply.channel, lang))

    def _link_notice(self, reply: Reply, player: PlayerRef) -> None:
        """Post in the group a button that opens the private chat (never the private content),
        once each time the user's private chat closes (and once per new lobby)."""
        group = reply.channel.chat_id
        if not is_group(group) or not self.chats.tell_once(player.user_id, group):
            return
        url = create_deep_linked_url(str(self.bot.username), start_payload(group))
        chat = int(self.chats.post_chat(group))

        async def post() -> Sent:
            lang = await channel_language(self.service, reply.channel)
            text = t(lang, "tg_open_private", name=player.display_name)
            button = InlineKeyboardButton(t(lang, "button_open_private"), url=url)
            await self.bot.send_message(
                chat,
                to_html(text, (player,)),
                parse_mode=ParseMode.HTML,
                reply_markup=InlineKeyboardMarkup([[button]]),
            )
            return Sent.DELIVERED

        self.enqueue_job(chat, post)
