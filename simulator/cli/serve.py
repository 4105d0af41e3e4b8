"""The ``serve`` command: the workbench, a page on this machine to edit a scenario and see its odds.

The page and its server: :mod:`simulator.web`.
"""

from __future__ import annotations

import contextlib
import sys

import click

from simulator.cli.common import user_errors
from simulator.cli.words import WholeRange, WordedCommand
from simulator.errors import N_


@click.command(cls=WordedCommand)
@click.argument("target", default="scenarios", required=False, metavar="[SCENARIO | DIR]")
@click.option(
    "--port",
    type=WholeRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port on 127.0.0.1 (0: any free port).",
)
@click.option(
    "--lang", type=click.Choice(["en", "fr"]), default=None,
    help="The page's language (a link on the page switches it); default: the command "
    "line's --lang, else en.",
)  # fmt: skip
@click.option("--no-open", is_flag=True, help="Do not open the browser.")
@user_errors
def serve(target: str, port: int, lang: str | None, no_open: bool) -> None:
    """Open the workbench on a scenario file or a folder of them (default: scenarios/).

    \b
    A page on this machine only (127.0.0.1): the scenario's whole wound table and its other
    keys as cells; change one and the chance of death, healing... moves (exact when the
    exact engine answers within about a second, else the trials of run, streamed), with the
    fate curves, a campaign told roll by roll, save-as, and the --set line of the edits.
    Stop it with Ctrl-C.
    """  # noqa: D301 (click's \b keeps the lines as they are)
    from simulator.cli.common import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated
    from simulator.cli.options import sigterm_as_interrupt
    from simulator.report.i18n import current_language, language, number_text, tr
    from simulator.web.server import Running, start

    lang = lang or current_language()  # `harmonies-sim --lang fr serve` speaks French too
    running: Running | None = None
    try:
        with sigterm_as_interrupt():  # from the start: a SIGTERM while warming up says so too
            running = start(target, port=port, lang=lang)
            url = running.url + ("?lang=fr" if lang == "fr" else "")
            with language(lang):
                ready = tr(READY).format(
                    target=target, url=url, seconds=number_text(running.warm_s, decimals=1)
                )
            click.echo(ready)
            if not no_open:
                import webbrowser

                webbrowser.open(url)
            running.wait()
    except KeyboardInterrupt as exc:  # Ctrl-C (130) or SIGTERM (143): one line, as CONTRACT says
        if running is not None:
            running.stop()  # (wait has stopped it already; stopping twice does nothing)
        terminated = isinstance(exc, Terminated)
        with contextlib.suppress(OSError, ValueError), language(lang):
            click.echo("\n" + tr(STOPPED) + (" (SIGTERM)" if terminated else ""), err=True)
        sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


READY = N_("The workbench on {target}: {url} (ready in {seconds} s; Ctrl-C stops it)")
"""The line ``serve`` prints once the page is served."""
STOPPED = N_("the workbench has stopped; nothing it saved is lost")
"""The one line ``serve`` prints after Ctrl-C (or SIGTERM)."""


COMMAND = serve
