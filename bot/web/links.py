"""The board's addresses, and the "Open board" button an adapter adds to a turn panel."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import quote

from bot.api import Button, ChannelRef, PlayerRef, Reply
from bot.i18n import t
from bot.web.auth import Signer

PATH = "/board"


class BoardLinks:
    """Addresses under ``base_url`` (the public address, as ``WEB_BASE_URL`` says it).

    A signed link (``#t=<token>``: the fragment never reaches a server log or a referrer) is
    for one player at one channel and lasts the signer's lifetime. A Mini App address names
    only the channel: Telegram signs in the user itself (``initData``)."""

    def __init__(self, base_url: str, signer: Signer) -> None:
        self.base_url = base_url.rstrip("/")
        self.signer = signer

    @property
    def page(self) -> str:
        return self.base_url + PATH

    def link(self, player: PlayerRef, channel: ChannelRef) -> str:
        """``player``'s own signed link to ``channel``'s board."""
        return f"{self.page}#t={self.signer.sign(player, channel)}"

    def mini_app(self, channel: ChannelRef) -> str:
        """The Mini App address of ``channel``'s board (for a ``web_app`` button)."""
        return f"{self.page}?tg={quote(channel.chat_id, safe='')}"

    def link_button(self, player: PlayerRef, channel: ChannelRef, lang: str) -> Button:
        return Button(t(lang, "board_open"), "", "primary", url=self.link(player, channel))

    def mini_app_button(self, channel: ChannelRef, lang: str) -> Button:
        url = self.mini_app(channel)
        return Button(t(lang, "board_open"), "", "primary", url=url, web_app=True)


def is_turn_panel(reply: Reply) -> bool:
    """A player's private turn panel: where the "Open board" button goes."""
    return reply.slot == "panel" and reply.private_to is not None


def with_button(reply: Reply, button: Button) -> Reply:
    """``reply`` with ``button`` in a row of its own under the others."""
    return replace(reply, buttons=(*reply.buttons, (button,)))
