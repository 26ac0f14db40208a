"""What the page is made of: its files (package data, no build step), the bot's palette as
CSS and the page's sentences from the bot's catalog, read once and served from memory."""

from __future__ import annotations

import json
from importlib import resources

from aiohttp import web

from bot.i18n import LANGUAGES, MESSAGES
from renderers.theme import DARK, INK, LIGHT, RGB, SHAPES, Theme

FILES = {
    "board.html": "text/html",
    "board.css": "text/css",
    "board.js": "text/javascript",
    "tiles.js": "text/javascript",
}
"""The page's own files (bot/web/static/); nothing else is served from there."""

PAGE_KEYS = (
    "button_undo",
    "button_reset",
    "button_auto",
    "button_draw",
    "button_done",
    "button_sort_colour",
    "button_sort_number",
)
"""Catalog sentences the page uses besides its own ``board_*`` ones."""

CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' https://telegram.org",  # telegram-web-app.js, what Telegram requires
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self' https://web.telegram.org",
    )
)


CLIPS = {
    "square": "inset(8%)",
    "circle": "circle(50%)",
    "triangle": "polygon(50% 4%, 98% 96%, 2% 96%)",
    "diamond": "polygon(50% 0, 100% 50%, 50% 100%, 0 50%)",
}
"""Each renderer shape as a CSS clip path (the mark under a tile's number)."""


def _rgb(color: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*color)


def _ink_on(color: RGB) -> RGB:
    """White or near-black, whichever reads better on ``color`` (WCAG relative luminance)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in color)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (255, 255, 255) if (1.05 / (luminance + 0.05)) >= 4.0 else (16, 24, 26)


def _variables(theme: Theme) -> str:
    names = {
        "bg": theme.background,
        "tray": theme.tray,
        "tray-edge": theme.tray_edge,
        "text": theme.text,
        "muted": theme.muted,
        "accent": theme.accent,
        "accent-text": theme.accent_text,
        "chip": theme.chip,
        "tile-face": theme.tile_face,
        "tile-edge": theme.tile_edge,
        "tile-outline": theme.tile_outline,
        "changed": theme.changed_ring,
        "new": theme.new_ring,
        "new-text": _ink_on(theme.new_ring),
        "highlight": theme.highlight_ring,
        "error": theme.error,
        "error-tray": theme.error_tray,
        "rack": theme.rack,
        "rack-ledge": theme.rack_ledge,
        "joker-a": theme.joker_ink[0],
        "joker-b": theme.joker_ink[1],
    }
    return "".join(f"--{name}:{_rgb(value)};" for name, value in names.items())


def theme_css() -> str:
    """The renderers' colours as CSS variables: light by default, dark when the client
    prefers it or Telegram says so (``data-theme``), the same ink and shapes as the images."""
    ink = "".join(f"--ink-{c.code}:{_rgb(rgb)};" for c, rgb in INK.items())
    shapes = "".join(
        f".tile[data-color={c.code}]{{color:var(--ink-{c.code})}}"
        f".tile[data-color={c.code}] .shape{{clip-path:{CLIPS[shape]}}}"
        for c, shape in SHAPES.items()
    )
    return (
        f":root{{{ink}{_variables(LIGHT)}color-scheme:light}}\n"
        f"@media (prefers-color-scheme: dark){{:root:not([data-theme=light])"
        f"{{{_variables(DARK)}color-scheme:dark}}}}\n"
        f":root[data-theme=dark]{{{_variables(DARK)}color-scheme:dark}}\n"
        f"{shapes}\n"
    )


def catalog_json() -> str:
    """The page's sentences in every language: ``{"en": {...}, "pl": {...}}``."""
    table = {
        lang: {
            key: text
            for key, text in MESSAGES[lang].items()
            if key.startswith("board_") or key in PAGE_KEYS
        }
        for lang in LANGUAGES
    }
    return json.dumps(table, ensure_ascii=False, sort_keys=True)


class Assets:
    """The page's files and generated parts, as ready responses' bodies."""

    def __init__(self) -> None:
        folder = resources.files("bot.web").joinpath("static")
        self._bodies: dict[str, tuple[bytes, str]] = {
            name: (folder.joinpath(name).read_bytes(), kind) for name, kind in FILES.items()
        }
        self._bodies["theme.css"] = (theme_css().encode(), "text/css")
        self._bodies["i18n.json"] = (catalog_json().encode(), "application/json")

    def response(self, name: str) -> web.Response:
        found = self._bodies.get(name)
        if found is None:
            raise web.HTTPNotFound(text="not found")
        body, kind = found
        headers = {
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        }
        if kind == "text/html":
            headers["Content-Security-Policy"] = CSP
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)
