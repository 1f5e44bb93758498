"""sportmafia: runs the game Mafia for clubs and tournaments."""

__version__ = "0.1.0"
