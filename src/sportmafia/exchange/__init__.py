"""Games exchanged with the community's platforms (Polemica, mafiaratings): each format a documented mapping
to and from the engine's game record, every import replayed through the engine. Pure functions over JSON
(docs/exchange.md)."""

from .model import ExportRefused, Imported, ImportRefused, ResultOnly
from .polemica import from_polemica, to_polemica

__all__ = ["ExportRefused", "ImportRefused", "Imported", "ResultOnly", "from_polemica", "to_polemica"]
