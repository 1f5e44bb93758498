"""A club's season as data: what each finished game says about each seat (its facts, read from the engine's
log), statistics over many games, and ratings (a mafiaratings-compatible team Elo, OpenSkill). Pure functions
over plain data, like :mod:`sportmafia.tournament`: no database, no clock, no HTTP."""
