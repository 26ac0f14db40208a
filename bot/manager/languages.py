"""Languages: each channel's (what everyone sees) and each person's (what the bot sends them
alone, following their client's language, Discord ``interaction.locale`` or Telegram
``language_code``, or the one they chose with ``language me``)."""

from __future__ import annotations

from typing import Any

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import MINE
from bot.i18n import LANGUAGES, known_language, language_name, say, t
from bot.manager.channels import Defaults, rules_fields
from bot.manager.faults import Faults
from bot.manager.state import LiveTable, _short_quotes, note
from bot.manager.tables import Tables
from bot.operations import note_refusal, note_told
from engine import RummikubError
from engine.messages import Msg
from storage import PlayerLanguage, PlayerLanguageRepository, SettingsRepository

FOLLOW_CLIENT = ("auto", "client", "app", "off", "default")


class Languages:
    """Channel languages (from the live table or the stored settings) and per-person
    languages, kept in memory and in the ``player_language`` table."""

    def __init__(
        self,
        tables: Tables,
        settings: SettingsRepository,
        players: PlayerLanguageRepository,
        defaults: Defaults,
        faults: Faults,
    ) -> None:
        self._tables = tables
        self._settings = settings
        self._players = players
        self._defaults = defaults
        self._faults = faults
        self._known: dict[str, PlayerLanguage] = {}  # player key -> stored languages

    # ----- channels ------------------------------------------------------------------------

    async def of_channel(self, channel: ChannelRef) -> str:
        """The language the bot speaks in ``channel``: its table's, else the stored one."""
        table = self._tables.of(channel)
        if table is not None:
            return table.lang
        return self._defaults.language_of(
            await self._settings.get(channel.platform, channel.chat_id)
        )

    async def safe(self, channel: ChannelRef) -> str:
        """The channel's language, or English when even that cannot be read."""
        try:
            return await self.of_channel(channel)
        except Exception:
            self._faults("cannot read the language of %s", channel.key)
            return "en"

    async def set_channel(
        self, table: LiveTable | None, channel: ChannelRef, player: PlayerRef, args: str
    ) -> Reply:
        """``language en|pl`` (the channel's), or ``language me ...`` (the speaker's own)."""
        said = table.lang if table is not None else await self.of_channel(channel)
        mine, args = is_mine(args)
        if mine:  # ``language me pl`` (a private chat's ``language pl``): the speaker's own
            return await self.set_mine(channel, player, args, said)
        lang = args.strip().lower()
        if lang not in LANGUAGES:
            return self.tell(channel, player, said, "languages", codes=", ".join(LANGUAGES))
        current = await self._settings.get(channel.platform, channel.chat_id)
        rules = self._defaults.rules_of(current)
        await self._settings.update(
            channel.platform, channel.chat_id, language=lang, **rules_fields(rules)
        )
        if table is not None:
            table.lang = lang
        return Reply(channel, t(lang, "language_set"))

    # ----- people --------------------------------------------------------------------------

    async def know(self, player: PlayerRef) -> None:
        """Read the person's stored language once per process, and store their client's
        language when it differs from the one stored (a restart keeps both)."""
        known = self._known.get(player.key)
        if known is None:
            known = await self._players.get(player.platform, player.user_id)
        if player.locale:
            client = known_language(player.locale) or ""
            if client != known.client:
                known = await self._players.put(player.platform, player.user_id, client=client)
        self._known[player.key] = known

    def for_player(self, lang: str, player: PlayerRef | None) -> str:
        """The language for what ``player`` alone sees, where the channel speaks ``lang``:
        the one they chose, else their client's when we have it, else the channel's."""
        if player is None:
            return lang
        known = self._known.get(player.key, PlayerLanguage())
        for code in (known.language, known.client, known_language(player.locale)):
            if code in LANGUAGES:
                return str(code)
        return lang

    async def read_for(self, lang: str, player: PlayerRef | None) -> str:
        """``for_player``, reading the person's stored language first when this process has
        not seen them yet (a rack sent by a timer after a restart)."""
        if player is not None and player.key not in self._known:
            try:
                await self.know(player)
            except Exception:  # the channel's language is a fine answer; the bug is logged
                self._faults("cannot read the language of %s", player.key)
                return lang
        return self.for_player(lang, player)

    async def private(self, player: PlayerRef, channel: ChannelRef) -> str:
        """The language ``player`` reads privately in ``channel``."""
        return await self.read_for(await self.safe(channel), player)

    async def set_mine(
        self, channel: ChannelRef, player: PlayerRef, args: str, channel_lang: str
    ) -> Reply:
        """``language me [en|pl|auto]``: show or set the speaker's own language, privately."""
        wanted = args.strip().lower()
        if not wanted:
            lang = self.for_player(channel_lang, player)
            known = self._known.get(player.key, PlayerLanguage())
            why = "my_language_chosen" if known.language in LANGUAGES else "my_language_follows"
            return note(channel, player, t(lang, why, name=language_name(lang, lang)))
        if wanted in FOLLOW_CLIENT:
            choice = ""
        elif wanted in LANGUAGES:
            choice = wanted
        else:
            said = self.for_player(channel_lang, player)
            return note(channel, player, t(said, "my_languages", codes=", ".join(LANGUAGES)))
        stored = await self._players.put(player.platform, player.user_id, language=choice)
        self._known[player.key] = stored
        lang = self.for_player(channel_lang, player)
        key = "my_language_set" if choice else "my_language_auto"
        channel_name = language_name(lang, channel_lang)
        return note(
            channel, player, t(lang, key, name=language_name(lang, lang), channel=channel_name)
        )

    # ----- saying things -------------------------------------------------------------------

    def tell(
        self, channel: ChannelRef, player: PlayerRef, lang: str, message: str, **values: Any
    ) -> Reply:
        """The private note ``message`` in the language ``player`` reads (``lang`` is the
        channel's, used when theirs is not known)."""
        note_told(message)  # counted when it is a refusal (bot.operations)
        return Reply(
            channel, t(self.for_player(lang, player), message, **values), private_to=player
        )

    async def error(self, channel: ChannelRef, err: RummikubError, player: PlayerRef) -> str:
        """A rules or input error in the language ``player`` reads privately, quoting at most
        a short piece of what was typed."""
        note_refusal(err)  # for the metrics (bot.operations)
        lang = self.for_player(await self.safe(channel), player)
        message = getattr(err, "msg", None)
        if isinstance(message, Msg):
            return say(lang, _short_quotes(message))
        return say(lang, err)


def is_mine(args: str) -> tuple[bool, str]:
    """Whether ``language`` args start with ``me`` (the speaker's own), and the rest."""
    first, _, rest = args.strip().partition(" ")
    if first.lower() in MINE:
        return True, rest
    return False, args
