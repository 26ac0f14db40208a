"""A scripted stand-in ``GameService`` (a lobby, racks, a panel) for the adapter tests, so
each test isolates one adapter duty; the whole-game tests use the real GameManager."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.api import (
    Button,
    ChannelRef,
    Completions,
    Image,
    PlayerRef,
    Reply,
    Select,
    SelectOption,
)
from bot.commands import Command
from tests.bot.doubles import StandIn, as_text

PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 64


@dataclass(frozen=True)
class Call:
    player: PlayerRef
    channel: ChannelRef
    text: str
    admin: bool


class ScriptedService(StandIn):
    """A stand-in GameService: just enough behaviour to exercise the adapter's duties."""

    def __init__(self, rack_size: int = 14) -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.commands: list[Command] = []  # what handle was given, as the adapter read it
        self.seats: list[PlayerRef] = []
        self.rack_size = rack_size
        self.picked: list[str] = []
        self.outbox = None

    def set_outbox(self, outbox, *, platform=None) -> None:  # type: ignore[no-untyped-def]
        self.outbox = outbox

    def rack_text(self, player: PlayerRef) -> str:
        return f"SECRET-RACK-OF-{player.display_name}"

    def rack_tiles(self) -> list[str]:
        colours = "KBOR"
        return [f"{colours[i % 4]}{i % 10 + 1}" for i in range(self.rack_size)]

    def lobby(self, channel: ChannelRef) -> Reply:
        names = ", ".join(p.display_name for p in self.seats)
        row = (
            Button("Join", "join", "primary"),
            Button("Leave", "leave"),
            Button("Add AI", "addbot"),
            Button("Deal", "deal", "success"),
        )
        return Reply(channel, f"Lobby: {names}", buttons=(row,), slot="lobby")

    def panel(self, channel: ChannelRef, player: PlayerRef, note: str) -> Reply:
        tiles = self.rack_tiles()
        codes = [t if t not in tiles[:i] else f"{t}#1" for i, t in enumerate(tiles)]
        options = tuple(
            SelectOption(t, c, c in self.picked) for t, c in zip(tiles, codes, strict=True)
        )
        return Reply(
            channel,
            f"Your draft. {note}",
            images=(Image("draft.png", PNG, "your draft"),),
            selects=(
                Select("pick", "Pick rack tiles", options, min_values=0, max_values=len(options)),
                Select("target", "Put them on", (SelectOption("new meld", "new"),)),
            ),
            buttons=(
                (
                    Button("Place", "place", "primary"),
                    Button("Auto", "auto"),
                    Button("Undo", "undo"),
                    Button("Reset", "reset"),
                ),
                (Button("Draw", "draw"), Button("Done", "done", "success")),
            ),
            private_to=player,
            slot="panel",
        )

    async def handle(  # type: ignore[override]  # scripted by the command's text
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        if isinstance(text, Command):
            self.commands.append(text)
        text = as_text(text)
        self.calls.append(Call(player, channel, text, admin))
        verb, _, rest = text.partition(" ")
        if verb == "start":
            self.seats = [player]
            return [self.lobby(channel)]
        if verb == "join":
            if player not in self.seats:
                self.seats.append(player)
            return [self.lobby(channel), Reply(channel, "You joined.", private_to=player)]
        if verb == "deal":
            racks = [
                Reply(channel, self.rack_text(p), private_to=p, slot="rack") for p in self.seats
            ]
            table = Reply(
                channel,
                f"Game on. It is {self.seats[0].display_name}'s turn, 60 s left.",
                images=(Image("table.png", PNG),),
                buttons=((Button("My turn panel", "panel", "primary"),),),
                mentions=(self.seats[0],),
                slot="table",
            )
            return [*racks, table]
        if verb == "rack":
            return [Reply(channel, self.rack_text(player), private_to=player, slot="rack")]
        if verb == "hint":  # here: opens the turn panel
            return [self.panel(channel, player, "Nothing placed yet.")]
        if verb == "pick":
            for code in rest.split():
                if code in self.picked:
                    self.picked.remove(code)
                else:
                    self.picked.append(code)
        if verb in ("pick", "place", "undo"):
            return [self.panel(channel, player, f"{verb}: {rest}".strip())]
        if verb == "cancel":
            if not admin and (not self.seats or player != self.seats[0]):
                return [
                    Reply(
                        channel, "Only the host or a channel admin can cancel.", private_to=player
                    )
                ]
            return [Reply(channel, "The game was cancelled.")]
        if text == "help slow":
            await asyncio.sleep(0.5)
            return [Reply(channel, "Slow answer.", private_to=player)]
        if text == "help long":
            return [Reply(channel, "\n".join(f"line {i:04d} " + "x" * 40 for i in range(120)))]
        return [Reply(channel, f"echo {text}", private_to=player)]

    async def completions(self, player: PlayerRef, channel: ChannelRef) -> Completions:
        return Completions(
            rack=("R5", "R6", "R7", "K9", "K9", "J"),
            melds=((1, "B1 B2 B3"), (2, "O7 K7 R7")),
        )
