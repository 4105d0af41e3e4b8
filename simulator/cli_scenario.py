"""Commands about one scenario: ``validate`` and ``trace``."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
