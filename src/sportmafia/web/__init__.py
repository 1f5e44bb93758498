"""The web layer: the JSON API of the host console (FastAPI). See ``docs/api.md``."""

from .app import create_app
from .demo import DemoSetup, ensure_demo

__all__ = ["DemoSetup", "create_app", "ensure_demo"]
