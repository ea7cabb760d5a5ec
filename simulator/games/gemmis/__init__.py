"""GEMMiS: Fures Codice, a two-player gem-matching game from a designer's draft rulebook."""
