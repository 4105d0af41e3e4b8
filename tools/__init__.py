"""Development tooling of harmonies-simulator (not part of the installed package)."""
