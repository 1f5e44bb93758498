"""Games exchanged with the community's platforms (Polemica, mafiaratings): each format a documented mapping
to and from the engine's game record, every import replayed through the engine. Pure functions over JSON
(docs/exchange.md)."""

from .files import detect, from_record, import_game, import_games, read_games
from .mafiaratings import from_mafiaratings, to_mafiaratings
from .model import ExportRefused, Imported, ImportRefused, ResultOnly
from .polemica import from_polemica, to_polemica

__all__ = ["ExportRefused", "ImportRefused", "Imported", "ResultOnly", "detect", "from_mafiaratings", "from_polemica",
           "from_record", "import_game", "import_games", "read_games", "to_mafiaratings", "to_polemica"]
