"""Discord: slash commands, buttons and ephemeral panels through discord.py."""
