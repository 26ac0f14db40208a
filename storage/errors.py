"""Errors raised by storage. Each message is one sentence a log or an admin can act on."""

from __future__ import annotations


class StorageError(Exception):
    """Root of every storage error."""


class NotFoundError(StorageError, LookupError):
    """The game, match or row asked for does not exist."""


class ConflictError(StorageError):
    """Someone else wrote first: the caller's version is stale (optimistic locking).

    The caller should reload, decide whether its change still applies, and retry or give up.
    """

    def __init__(self, message: str, *, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class ChannelBusyError(ConflictError):
    """The channel already has an unfinished game (at most one per channel)."""
