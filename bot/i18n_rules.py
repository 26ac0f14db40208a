"""Polish for the rules errors and engine sentences (engine/).

Keys are the English templates exactly as the code writes them (the message id); values are the
same sentence in Polish with the same {placeholders}. bot.i18n.translator reads this table.
"""

from __future__ import annotations

PL: dict[str, str] = {}
