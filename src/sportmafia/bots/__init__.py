"""Bots: players that choose among ``legal_commands``, and ``play_random`` for many games."""

from .random_play import RARE, play_random, random_command

__all__ = ["RARE", "play_random", "random_command"]
