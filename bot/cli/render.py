"""``rummikub render``: draw a table, a rack or a saved game to a PNG (or print it as text).

Examples::

    rummikub render --table "R4 R5 R6 / K9 B9 O9" --out table.png
    rummikub render --table "R4 R5 R6 / K9 B9 O9" --rack "R7 J" --theme dark --out view.png
    rummikub render --rack "R7 J K1 B5" --sort number --positions --out rack.png
    rummikub render --snapshot game.txt --names "Ann,Ben,Cy" --out table.png
    rummikub render --snapshot game.txt --seat 1 --out rack.png
    rummikub render --table "R4 R5 R6" --text --emoji
    rummikub render --snapshot game.txt --lang pl --out stol.png
    rummikub render --samples docs/images --lang pl   # table-opening-pl.png, ...
    rummikub render --replay game.rkr --out game.gif
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.cli.box import EDITIONS, check_box
from bot.i18n import LANGUAGES

if TYPE_CHECKING:
    from engine.messages import Translate
    from engine.tiles import Tile


def configure(parser: argparse.ArgumentParser) -> None:
    what = parser.add_argument_group("what to draw (a table, a rack, both, or a snapshot)")
    what.add_argument(
        "--table", metavar="MELDS", help='melds separated by "/", e.g. "R4 R5 R6 / K9 B9 O9"'
    )
    what.add_argument("--rack", metavar="TILES", help='rack tiles, e.g. "R7 J K1"')
    what.add_argument(
        "--snapshot", metavar="FILE", type=Path, help="a saved game (Game.to_text) to draw"
    )
    what.add_argument(
        "--seat", type=int, metavar="N", help="with --snapshot: draw seat N's rack (0-based)"
    )
    what.add_argument(
        "--result", action="store_true", help="with --snapshot of a finished game: the result"
    )
    what.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="a game record (docs/records.md): an animation, --out game.gif or game.png",
    )
    what.add_argument(
        "--samples",
        metavar="FOLDER",
        type=Path,
        help="draw the sample images of docs/rendering.md into FOLDER (in --theme and --lang; "
        "the names say both, e.g. table-opening-dark-pl.png)",
    )
    what.add_argument(
        "--edition",
        choices=EDITIONS,
        default=None,
        help="with --table or --rack: the box the tiles come from, classic (2 of each tile, 2 "
        "jokers; default) or xp (3 of each, 4 jokers)",
    )
    look = parser.add_argument_group("how it looks")
    look.add_argument(
        "--theme", choices=("light", "dark"), default=None, help="default: THEME, else light"
    )
    look.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language of the words (LANGUAGE, en)"
    )
    look.add_argument(
        "--width", type=int, default=None, help="image width in pixels (1200; --replay 800)"
    )
    look.add_argument("--sort", choices=("color", "number", "none"), default="color")
    look.add_argument(
        "--positions",
        action="store_true",
        help="number the tiles of a rack drawn alone (--rack, or --snapshot with --seat)",
    )
    look.add_argument("--highlight", metavar="TILES", help="table tiles to mark as the last move")
    look.add_argument(
        "--names", metavar="A,B,...", help="with --snapshot: player names in seat order"
    )
    look.add_argument("--title", help="title line of the table image")
    out = parser.add_argument_group("output")
    out.add_argument("--out", type=Path, metavar="FILE.png", help="write the PNG here")
    out.add_argument("--text", action="store_true", help="also print the text rendering")
    out.add_argument("--emoji", action="store_true", help="text: colour squares before tiles")
    out.add_argument("--ansi", action="store_true", help="text: terminal colours")


def main(args: argparse.Namespace) -> int:
    from bot.config import SettingsError, load_settings
    from engine.errors import RummikubError

    try:
        config = load_settings(theme=args.theme, language=args.lang)
    except SettingsError as err:
        print(f"rummikub render: {err}", file=sys.stderr)
        return 2
    args.theme, args.lang = config.theme, config.language
    if args.width is None:
        args.width = 800 if args.replay is not None else 1200
    if args.samples is not None:
        return _samples(args)
    if args.replay is not None:
        return _replay(args)
    try:
        png, text = _render(args)
    except (RummikubError, ValueError, OSError) as err:
        print(f"rummikub render: {err}", file=sys.stderr)
        return 2
    if args.out is not None:
        problem = _write(args.out, png)
        if problem:
            print(f"rummikub render: {problem}", file=sys.stderr)
            return 2
        print(f"wrote {args.out} ({len(png) // 1024} KB)")
    if args.text or args.out is None:
        print(text)
    return 0


def _render(args: argparse.Namespace) -> tuple[bytes, str]:
    """PNG bytes and the text rendering of what the arguments ask for."""
    from engine.messages import Msg
    from renderers import (
        draft_text,
        rack_text,
        render_draft,
        render_rack,
        render_table,
        table_text,
    )
    from renderers.views import (
        DraftView,
        RackView,
        TableView,
        invalid_meld_problems,
        slots_from_text,
        tiles_from_text,
    )

    theme, emoji, ansi = args.theme, args.emoji, args.ansi
    tr = _translate(args)
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if args.snapshot is not None:
        if args.table or args.rack or args.edition:
            raise ValueError(
                "Use --snapshot on its own, without --table, --rack or --edition (a saved game "
                "knows its box)."
            )
        if args.positions and args.seat is None:
            raise ValueError("--positions numbers a rack: with --snapshot, give --seat N.")
        return _render_snapshot(args, names)
    if args.seat is not None or args.result:
        raise ValueError("--seat and --result need --snapshot.")
    if args.names:
        raise ValueError("--names names the seats of a saved game, so it needs --snapshot.")
    if not args.table and not args.rack:
        raise ValueError('Say what to draw: --table "R4 R5 R6 / K9 B9 O9", --rack, or --snapshot.')
    slots = slots_from_text(args.table) if args.table else ()
    on_table: list[Tile] = [t for s in slots for t in s.tiles]
    on_rack = tiles_from_text(args.rack, used=on_table) if args.rack is not None else []
    check_box([*on_table, *on_rack], args.edition or "classic")
    if args.positions and (args.rack is None or args.table is not None):
        raise ValueError("--positions numbers a rack drawn alone: --rack without --table.")
    highlight = _pick(on_table, args.highlight) if args.highlight else frozenset()
    if args.rack is None:
        view = TableView(slots, highlight=highlight, title=args.title or "Rummikub")
        return (
            render_table(view, theme=theme, width=args.width, translate=tr),
            table_text(view, emoji=emoji, ansi=ansi, translate=tr),
        )
    rack = RackView(tuple(on_rack), sort_by=args.sort)
    if args.table is None:
        rack_png = render_rack(rack, theme=theme, positions=args.positions, translate=tr)
        text = rack_text(rack, emoji=emoji, ansi=ansi, positions=args.positions, translate=tr)
        return rack_png, text
    problems = invalid_meld_problems(slots)
    title = args.title or Msg("Table and rack")
    draft = DraftView(slots, rack, changed=highlight, problems=problems, title=title)
    return (
        render_draft(draft, theme=theme, width=args.width, translate=tr),
        draft_text(draft, emoji=emoji, ansi=ansi, translate=tr),
    )


def _replay(args: argparse.Namespace) -> int:
    """Draw ``--replay FILE`` as an animated GIF or PNG, by the suffix of ``--out``."""
    from bot.cli.replay import read_record_file
    from engine.record import parse_record
    from renderers.animation import animate

    out = args.out
    if args.table or args.rack or args.snapshot:
        problem = "use --replay on its own, with --out, --theme, --width and --lang."
    elif out is None or out.suffix.lower() not in (".gif", ".png"):
        problem = "--replay needs --out FILE.gif or --out FILE.png."
    else:
        problem = ""
    if problem:
        print(f"rummikub render: {problem}", file=sys.stderr)
        return 2
    try:
        record = parse_record(read_record_file(args.replay))
        fmt: Literal["gif", "png"] = "gif" if out.suffix.lower() == ".gif" else "png"
        data = animate(
            record, fmt=fmt, theme=args.theme, width=args.width, translate=_translate(args)
        )
    except (ValueError, OSError) as err:  # RecordError is a ValueError
        print(f"rummikub render: {args.replay}: {err}", file=sys.stderr)
        return 2
    problem = _write(out, data)
    if problem:
        print(f"rummikub render: {problem}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({len(record.turns) + 1} frames, {len(data) // 1024} KB)")
    return 0


def _write(out: Path, data: bytes) -> str:
    """Write ``data`` to ``out`` (making its folder); "" when done, else one sentence why not."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as err:
        return f"cannot write {out}: {(err.strerror or type(err).__name__).lower()}."
    return ""


def _translate(args: argparse.Namespace) -> Translate:
    from bot.i18n import translator

    return translator(args.lang)


def _samples(args: argparse.Namespace) -> int:
    """Draw the docs' sample views into ``--samples FOLDER``."""
    from bot.cli.samples import write_samples

    if args.table or args.rack or args.snapshot:
        print(
            "rummikub render: use --samples on its own, with --theme and --lang.", file=sys.stderr
        )
        return 2
    try:
        paths = write_samples(args.samples, (args.theme,), _translate(args), args.lang)
    except OSError as err:
        reason = (err.strerror or type(err).__name__).lower()
        print(f"rummikub render: cannot write into {args.samples}: {reason}.", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


def _pick(tiles: list[Tile], text: str) -> frozenset[Tile]:
    """The table tiles matching the faces in ``text`` (each face once per mention)."""
    from engine.notation import parse_tiles

    left = list(tiles)
    chosen = []
    for wanted in parse_tiles(text):
        match = next((t for t in left if str(t) == str(wanted)), None)
        if match is None:
            raise ValueError(f"--highlight names {wanted}, which is not on the table.")
        left.remove(match)
        chosen.append(match)
    return frozenset(chosen)


def _render_snapshot(args: argparse.Namespace, names: list[str]) -> tuple[bytes, str]:
    from engine.game import Game
    from renderers import (
        rack_text,
        render_rack,
        render_standings,
        render_table,
        standings_text,
        table_text,
    )
    from renderers.views import (
        game_end_view,
        rack_view_from_game,
        seat_name,
        table_view_from_game,
    )

    tr = _translate(args)
    game = Game.from_text(args.snapshot.read_text(encoding="utf-8"))
    count = len(game.players)
    if args.result:
        if not game.finished:
            raise ValueError("That game is not over yet, so it has no result to draw.")
        view = game_end_view(game, names)
        return (
            render_standings(view, theme=args.theme, translate=tr),
            standings_text(view, translate=tr),
        )
    if args.seat is not None:
        if not 0 <= args.seat < count:
            raise ValueError(f"--seat must be between 0 and {count - 1} for this game.")
        owner = seat_name(names, args.seat)
        rack = rack_view_from_game(game, args.seat, sort_by=args.sort, owner=owner)
        return (
            render_rack(rack, theme=args.theme, positions=args.positions, translate=tr),
            rack_text(
                rack, emoji=args.emoji, ansi=args.ansi, positions=args.positions, translate=tr
            ),
        )
    table = table_view_from_game(game, names, title=args.title)
    return (
        render_table(table, theme=args.theme, width=args.width, translate=tr),
        table_text(table, emoji=args.emoji, ansi=args.ansi, translate=tr),
    )
