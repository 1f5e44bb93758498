"""The application's use cases over the store and the pure layers (docs/tournament.md, "The service"):
the tournament service, its announced settings and its discipline. A module here may import the store and
every pure layer; the web layer imports it."""
