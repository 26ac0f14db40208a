"""One ``async def`` per kind of Telegram update, PTB-examples style: a command, text typed in
the private chat, a reply to the bot in a group, /start (plain or from a deep link), a button
press, a group's upgrade to a supergroup, and the error hook.

Each reads the update's text once into a ``Command`` (``read_command``) and hands it on; the
``Games`` room runs it. ``app`` registers them with the ``Games`` they act through bound first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import replace

from telegram import CallbackQuery, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.api import ChannelRef, PlayerRef, Reply, private_language
from bot.commands import Command, read_command
from bot.i18n import locale_language, t
from bot.platforms.telegram.chats import PLATFORM, is_group
from bot.platforms.telegram.codes import Pressed
from bot.platforms.telegram.games import Games, privately
from bot.platforms.telegram.render import SELECTED_MARK, parse_join_payload, parse_start_payload

log = logging.getLogger(__name__)

TOAST_LIMIT = 200  # Telegram shows at most 200 characters in a callback answer
Context = ContextTypes.DEFAULT_TYPE


def player_of(user: User) -> PlayerRef:
    """The person, with the language their Telegram app reports (``language_code``)."""
    name = user.full_name or user.username or str(user.id)
    return PlayerRef(PLATFORM, str(user.id), name, locale=user.language_code or "")


def command_text(message_text: str) -> tuple[str, str]:
    """``("/play@bot R5 R6")`` -> ``("play", "play R5 R6")``; /rummikub passes its arguments."""
    head, _, args = message_text.strip().partition(" ")
    name = head.lstrip("/").split("@", 1)[0].lower()
    args = args.strip()
    if name == "rummikub":
        return name, args or "help"
    return name, f"{name} {args}".strip()


def for_us(text: str, command: Command, bot_username: str, in_group: bool) -> bool:
    """Whether a command is ours: not addressed to another bot, and in a group a known one
    (an unknown bare command there may belong to another bot, so it is left alone)."""
    head = text.split(maxsplit=1)[0]
    name, _, target = head.lstrip("/").partition("@")
    if target:
        return target.lower() == bot_username.lower()
    return not in_group or name.lower() == "rummikub" or command.verb != ""


async def on_command(games: Games, update: Update, context: Context) -> None:
    """A command in a group (acts on that group's game) or in the private chat."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None or not message.text:
        return
    private = chat.type == ChatType.PRIVATE
    command = read_command(command_text(message.text)[1])
    if not for_us(message.text, command, str(context.bot.username), not private):
        return
    async with games.handling():
        player = player_of(user)
        channel = await games.channel_for(chat.id, private, player)
        await games.run(player, channel, privately(command) if private else command)


async def on_text(games: Games, update: Update, context: Context) -> None:
    """Anything typed in the private chat goes to the user's current game."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None or not message.text:
        return
    async with games.handling():
        text = command_text(message.text)[1] if message.text.startswith("/") else message.text
        command = privately(read_command(text))  # this handler only sees the private chat
        player = player_of(user)
        channel = await games.channel_for(chat.id, True, player)
        await games.run(player, channel, command)


async def on_group_reply(games: Games, update: Update, context: Context) -> None:
    """A reply to one of the bot's group messages is read as a command ("play R5 R6 R7")."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None or not message.text:
        return
    replied: Message | None = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
        return
    async with games.handling():
        command = read_command(message.text)
        player = player_of(user)
        channel = await games.channel_for(chat.id, False, player)
        await games.run(player, channel, command)


async def on_start(games: Games, update: Update, context: Context) -> None:
    """/start in the private chat, plain or from a deep link naming a game chat."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    async with games.handling():
        player = player_of(user)
        payload = context.args[0] if context.args else ""
        joining = parse_join_payload(payload)
        if joining is not None:
            await join_from_notice(games, player, joining)
            return
        game = parse_start_payload(payload)
        if game is not None:
            games.chats.set_home(player.user_id, game)
        game = game or games.chats.home(player.user_id)
        if await games.reconnected(player):
            return
        if game is None:
            await games.run(player, ChannelRef(PLATFORM, player.user_id), read_command("help"))
        else:
            await games.run(player, ChannelRef(PLATFORM, game), read_command("rack"))


async def join_from_notice(games: Games, player: PlayerRef, group: str) -> None:
    """A notice's Join link: a seat in that group's lobby, and the private chat acts on
    that game from now on; the player is told here when the group's lobby says it."""
    games.chats.set_home(player.user_id, group)
    await games.reconnected(player)
    channel = ChannelRef(PLATFORM, group)
    replies, new_lobby = await games.handle(player, channel, read_command("join"))
    if not any(player.same_person(r.private_to) for r in replies):
        lang = await private_language(games.service, player, channel)
        replies.append(Reply(channel, t(lang, "notify_joined"), private_to=player))
    games.outgoing.send_all(replies, new_lobby=new_lobby)


async def on_migrate(games: Games, update: Update, context: Context) -> None:
    """A group became a supergroup (Telegram gives it a new id): its game follows it."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        games.chats.moved(str(message.chat.id), str(message.migrate_to_chat_id))
    elif message.migrate_from_chat_id:
        games.chats.moved(str(message.migrate_from_chat_id), str(message.chat.id))


async def on_button(games: Games, update: Update, context: Context) -> None:
    """A button press: answered within a second, then what it caused is sent."""
    query = update.callback_query
    if query is None:
        return
    async with games.handling():
        pressed = games.outgoing.codes.decode(query.data or "")
        message = query.message
        if pressed is None or message is None:
            await answer_expired(games, query)
            return
        player = player_of(query.from_user)
        command = clicked(pressed)
        game = pressed.chat or games.chats.game_chat(str(message.chat.id))
        if is_group(game):
            games.chats.set_home(player.user_id, game)
        replies, new_lobby = await run_press(
            games, query, player, ChannelRef(PLATFORM, game), command
        )
        if message.chat.type == ChatType.PRIVATE:
            await games.reconnected(player)
        games.outgoing.send_all(replies, new_lobby=new_lobby)


def clicked(pressed: Pressed) -> Command:
    """The command a press gives: the button's command, read once, with the turn the button
    was made for (``Command.turn``; None for buttons made for no turn or before turns)."""
    command = read_command(pressed.command)
    return command if pressed.turn is None else replace(command, turn=pressed.turn)


async def answer_expired(games: Games, query: CallbackQuery) -> None:
    """A press on a button whose code is gone: an alert, in the presser's own language."""
    message = query.message
    if message is not None:
        channel = ChannelRef(PLATFORM, str(message.chat.id))
        lang = await private_language(games.service, player_of(query.from_user), channel)
    else:
        lang = locale_language(query.from_user.language_code)
    await answer(query.answer(t(lang, "tg_expired"), show_alert=True))


async def run_press(
    games: Games, query: CallbackQuery, player: PlayerRef, channel: ChannelRef, command: Command
) -> tuple[list[Reply], bool]:
    """Run the press's command and answer the press: with its short result when the game has
    one within ``answer_within`` (the toast is then not sent again), else at once, so the
    button stops spinning during a long AI turn. Never waits behind the chat's output."""
    running = asyncio.ensure_future(games.handle(player, channel, command))
    await asyncio.wait({running}, timeout=games.config.answer_within)
    if not running.done():
        await answer(query.answer())
        return await running
    replies, new_lobby = running.result()
    toast = next((r for r in replies if is_toast(r, player)), None)
    if toast is not None:
        replies.remove(toast)
        text = toast.text.strip()
        await answer(query.answer(text, show_alert=len(text) > 60))
    else:
        await answer(query.answer(pressed_result(query, command)))
    return replies, new_lobby


def is_toast(reply: Reply, presser: PlayerRef) -> bool:
    """A short private text for the presser is shown on the button press itself."""
    return (
        presser.same_person(reply.private_to)
        and not (reply.images or reply.buttons or reply.selects or reply.slot)
        and 0 < len(reply.text.strip()) <= TOAST_LIMIT
    )


def pressed_result(query: CallbackQuery, command: Command) -> str | None:
    """The short answer to a press that worked and said nothing itself: the button's label
    with a tick ("Place ✓"). Tile and target toggles show their ✅ on the button instead."""
    if command.verb in ("pick", "target"):
        return None
    markup = query.message.reply_markup if isinstance(query.message, Message) else None
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            if button.callback_data == query.data and button.text:
                return f"{button.text.removeprefix(SELECTED_MARK)} ✓"[:TOAST_LIMIT]
    return None


async def answer(answering: Awaitable[bool]) -> None:
    """Send a callback answer; one Telegram refuses (too late, or twice) is only logged."""
    try:
        await answering
    except TelegramError as error:  # the press still counted
        log.info("Telegram: callback answer refused: %s", error)


async def on_error(update: object, context: Context) -> None:
    """The central error hook: whatever a handler let through is logged, never shown."""
    log.error("Telegram: error while handling an update", exc_info=context.error)
