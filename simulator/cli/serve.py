"""The ``serve`` command: the workbench, a page on this machine to edit a scenario and see its odds.

The page and its server: :mod:`simulator.web`.
"""

from __future__ import annotations

import click

from simulator.cli.common import user_errors
from simulator.cli.words import WordedCommand


@click.command(cls=WordedCommand)
@click.argument("target", default="scenarios", required=False, metavar="[SCENARIO | DIR]")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port on 127.0.0.1 (0: any free port).",
)
@click.option(
    "--lang", type=click.Choice(["en", "fr"]), default="en", show_default=True,
    help="The page's language (a link on the page switches it).",
)  # fmt: skip
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
@user_errors
def serve(target: str, port: int, lang: str, no_open: bool) -> None:
    """Open the workbench on a scenario file or a folder of them (default: scenarios/).

    \b
    A page on this machine only (127.0.0.1): the scenario's whole wound table and its other
    keys as cells; change one and the chance of death, healing... moves (exact when the
    exact engine answers within about a second, else the trials of run, streamed), with the
    fate curves, a campaign told roll by roll, save-as, and the --set line of the edits.
    Stop it with Ctrl-C.
    """  # noqa: D301 (click's \b keeps the lines as they are)
    from simulator.web.server import start

    running = start(target, port=port, lang=lang)
    url = running.url + ("?lang=fr" if lang == "fr" else "")
    click.echo(
        f"The workbench on {target}: {url} (ready in {running.warm_s:.1f} s; Ctrl-C stops it)"
    )
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    running.wait()


COMMAND = serve
