"""Games exchanged with the community's platforms (Polemica, mafiaratings): each format a documented mapping
to and from the engine's game record, every import replayed through the engine. Pure functions over JSON."""
