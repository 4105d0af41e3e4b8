"""Tables as text: a pandas frame as Markdown, for notebooks, READMEs and rulebooks."""

from __future__ import annotations

import pandas as pd

__all__ = ["markdown_table"]


def markdown_table(frame: pd.DataFrame, index: bool = False) -> str:
    """A frame as a Markdown table (GitHub style), numbers right-aligned.

    Pandas' own ``to_markdown`` needs the optional ``tabulate`` package; this does not.

    Args:
        frame: The table; its cells are written with ``str`` (format them first).
        index: Whether to write the index as the first column.

    Returns:
        The Markdown text, one line per row, with a trailing newline.
    """
    table = frame.reset_index() if index else frame
    headers = [str(c) for c in table.columns]
    rows = [[str(v) for v in row] for row in table.itertuples(index=False, name=None)]
    numeric = [
        all(_looks_numeric(row[i]) for row in rows) and bool(rows) for i in range(len(headers))
    ]
    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---:" if n else "---" for n in numeric) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    return "\n".join(lines) + "\n"


def _looks_numeric(text: str) -> bool:
    cleaned = text.strip().rstrip("%").strip("\u202f ").replace("−", "-").replace(",", "")
    cleaned = cleaned.replace("\u202f", "").lstrip("+-<>≤≥ ")
    return cleaned.replace(".", "", 1).isdigit()
