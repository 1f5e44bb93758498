"""Bots: agents that play a seat from what its phone sees (``agents``, ``baseline``), the claims they speak in
(``claims``), a table of agents (``table``), and the host-side random and plausible players of simulations and
demos."""

from .agents import Agent, RandomAgent
from .baseline import BaselineAgent
from .belief import BeliefAgent
from .plausible import PlausibleTable, play_plausible
from .random_play import RARE, play_random, random_command

AGENTS: dict[str, type[Agent]] = {RandomAgent.name: RandomAgent, BaselineAgent.name: BaselineAgent,
                                  BeliefAgent.name: BeliefAgent}
"""The agents by name (``sportmafia simulate --agent``, ``bench/bots.py``)."""

__all__ = ["AGENTS", "RARE", "Agent", "BaselineAgent", "BeliefAgent", "PlausibleTable", "RandomAgent", "play_plausible",
           "play_random", "random_command"]
