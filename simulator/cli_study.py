"""Commands of Monte Carlo studies: ``run``, ``sweep``, ``compare``, ``study``."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
