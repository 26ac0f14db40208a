"""Each person's language: what the bot sends them privately follows their client's language
(Discord ``interaction.locale``, Telegram ``language_code``) or the one they chose with
``language me``; public messages stay in the channel's language."""

from __future__ import annotations

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import MINE
from bot.i18n import LANGUAGES, known_language, language_name, t
from storage import PlayerLanguage

FOLLOW_CLIENT = ("auto", "client", "app", "off", "default")


class LanguageRoom:
    """Per-player languages, kept in memory and in the ``player_language`` table.

    A part of :class:`bot.manager.GameManager`; it works on the manager's state."""

    async def _know_player(self, player: PlayerRef) -> None:
        """Read the person's stored language once per process, and store their client's
        language when it differs from the one stored (a restart keeps both)."""
        known = self._player_langs.get(player.key)
        if known is None:
            known = await self.player_languages.get(player.platform, player.user_id)
        if player.locale:
            client = known_language(player.locale) or ""
            if client != known.client:
                known = await self.player_languages.put(
                    player.platform, player.user_id, client=client
                )
        self._player_langs[player.key] = known

    def _lang_for(self, lang: str, player: PlayerRef | None) -> str:
        """The language for what ``player`` alone sees, where the channel speaks ``lang``:
        the one they chose, else their client's when we have it, else the channel's."""
        if player is None:
            return lang
        known = self._player_langs.get(player.key, PlayerLanguage())
        for code in (known.language, known.client, known_language(player.locale)):
            if code in LANGUAGES:
                return str(code)
        return lang

    async def _player_lang(self, lang: str, player: PlayerRef | None) -> str:
        """``_lang_for``, reading the person's stored language first when this process has
        not seen them yet (a rack sent by a timer after a restart)."""
        if player is not None and player.key not in self._player_langs:
            try:
                await self._know_player(player)
            except Exception:  # the channel's language is a fine answer; the bug is logged
                self._internal("cannot read the language of %s", player.key)
                return lang
        return self._lang_for(lang, player)

    async def language_for(self, player: PlayerRef, channel: ChannelRef) -> str:
        """The language ``player`` reads privately in ``channel`` (for an adapter's own
        private sentences)."""
        return await self._player_lang(await self._safe_language(channel), player)

    async def _my_language(
        self, channel: ChannelRef, player: PlayerRef, args: str, channel_lang: str
    ) -> Reply:
        """``language me [en|pl|auto]``: show or set the speaker's own language, privately."""
        wanted = args.strip().lower()
        if not wanted:
            lang = self._lang_for(channel_lang, player)
            known = self._player_langs.get(player.key, PlayerLanguage())
            why = "my_language_chosen" if known.language in LANGUAGES else "my_language_follows"
            return self._note(channel, player, t(lang, why, name=language_name(lang, lang)))
        if wanted in FOLLOW_CLIENT:
            choice = ""
        elif wanted in LANGUAGES:
            choice = wanted
        else:
            said = self._lang_for(channel_lang, player)
            return self._note(channel, player, t(said, "my_languages", codes=", ".join(LANGUAGES)))
        stored = await self.player_languages.put(player.platform, player.user_id, language=choice)
        self._player_langs[player.key] = stored
        lang = self._lang_for(channel_lang, player)
        key = "my_language_set" if choice else "my_language_auto"
        channel_name = language_name(lang, channel_lang)
        return self._note(
            channel, player, t(lang, key, name=language_name(lang, lang), channel=channel_name)
        )

    @staticmethod
    def _is_mine(args: str) -> tuple[bool, str]:
        """Whether ``language`` args start with ``me`` (the speaker's own), and the rest."""
        first, _, rest = args.strip().partition(" ")
        if first.lower() in MINE:
            return True, rest
        return False, args
