"""Bots: players that choose among ``legal_commands``, and ``play_random`` for many games."""

from .plausible import PlausibleTable, play_plausible
from .random_play import RARE, play_random, random_command

__all__ = ["RARE", "PlausibleTable", "play_plausible", "play_random", "random_command"]
