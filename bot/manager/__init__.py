"""The game manager: the one owner of live games, with no platform in it.

Per channel at most one table (lobby, then a match of games). Every command runs under the
table's ``asyncio.Lock``, so double clicks and simultaneous commands take turns. Turn timers
live in a ``Scheduler``; deadlines are stored, and re-armed with the remaining time after a
restart. A committed turn is saved (its transaction committed) before any reply announces it.
Replies are neutral data (``bot.api.Reply``); a rack only ever goes privately to its owner.

``GameManager`` (``service``) is a facade over parts that each take what they use in their
constructor: ``tables`` (live tables and locks), ``languages``, ``views``, ``records``,
``deadlines``, ``store``, ``turns``, ``lobby``, ``timers``, ``delivery``, ``resend`` and
``routes`` (the verb table); ``state`` holds the live table and its stored description,
``outbox`` the stored announcements.
"""

from bot.manager.service import GameManager
from bot.manager.state import DEFAULT_AI, LiveTable, SeatInfo, describe
from engine.hints import hint_text

__all__ = ["DEFAULT_AI", "GameManager", "LiveTable", "SeatInfo", "describe", "hint_text"]
