"""Scenario files: the typed model, reading and checking, overrides, writing back to TOML."""
