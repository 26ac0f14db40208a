"""The platforms: each turns its events into GameService.handle calls and sends the replies."""
