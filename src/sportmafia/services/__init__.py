"""The application's use cases over the store and the pure layers: games (``games``: rule sets, a new game,
the next step's preview), result sheets (``sheets``), the tournament service (``tournament``), its announced
settings and its discipline (docs/tournament.md, "The service"). A refusal is a ``errors.Refusal`` with a kind
and a code; the web maps kinds to HTTP statuses. A module here may import the store and every pure layer; the
web layer imports it."""
