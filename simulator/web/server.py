"""The workbench's server: uvicorn on 127.0.0.1, on a port given or chosen by the system.

:func:`start` binds the socket first (so the port is known before any request, and the
:class:`~simulator.web.guard.Guard` accepts exactly that address), warms up (reads the
scenario, computes its answer as written, loads the figure code), then serves in a thread;
:meth:`Running.stop` ends it. The command ``harmonies-sim serve`` and the tests both use it.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.errors import UserError, os_reason, phrase
from simulator.web.app import create_app
from simulator.web.folder import Folder
from simulator.web.guard import FRAMING, ASGIApp, Receive, Scope, Send, busy
from simulator.web.requests import Bench
from simulator.web.scratch import sweep

HOST = "127.0.0.1"
"""The only address the workbench listens on."""

MAX_CONNECTIONS = 32
"""The most connections (and requests) served at once: past it a request is answered 503
(uvicorn's ``limit_concurrency``), and past twice as many a new connection is closed at once;
at most twice as many wait to be accepted (the socket's backlog, which is also how many
asyncio accepts at a time), so that a client opening connections without end never uses up
the process's files (256 on macOS by default). A browser opens at most six to one
server."""

HEAD_SECONDS = 10.0
"""How long a connection may take to send a request's head, once opened or once its last
answer was sent: a client that opens connections and says nothing, or trickles a head a
byte at a time, would otherwise hold them for ever. (The body's time is counted by
:func:`simulator.web.requests.body`; an answer that streams is never cut.)"""


@dataclass
class Running:
    """A workbench serving in a thread.

    Attributes:
        url: Its address (``http://127.0.0.1:PORT/``).
        bench: What it serves.
        warm_s: Seconds from the call to :func:`start` until it answered.
    """

    url: str
    bench: Bench
    warm_s: float
    _server: object
    _thread: threading.Thread

    def wait(self) -> None:
        """Serve until stopped.

        Raises:
            KeyboardInterrupt: After Ctrl-C in the main thread (or SIGTERM turned into one),
                once the server has stopped: the command says so and ends with 130 (or 143).
        """
        try:
            while self._thread.is_alive():
                self._thread.join(timeout=0.5)
        except KeyboardInterrupt:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self._server.should_exit = True  # type: ignore[attr-defined]
        self._thread.join(timeout=10)
        if self.bench.pool is not None:
            self.bench.pool.close()


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: one the system chooses).

    Raises:
        UserError: When the port is taken or not allowed.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise UserError(
            phrase(
                "--port: got {port}; cannot listen on {address} ({why}); expected a free port "
                "(or 0 for any)",
                port=str(port),
                address=f"{HOST}:{port}",
                why=os_reason(exc),
            )
        ) from None
    sock.listen(2 * MAX_CONNECTIONS)
    return sock


def warm(bench: Bench) -> None:
    """Draw a figure once, and answer the first scenario as written when it is exact.

    The figure code's first drawing takes a second or two; a sampled answer is left to the
    page, which shows it as it comes.
    """
    from simulator.web import answer
    from simulator.web.cells import load

    name = bench.folder.first()
    if name is None:
        return
    try:
        written = load(bench.folder.resolve(name), bench.folder.shown(name), ())  # as it is now
    except UserError:
        return  # the page shows the problems
    if bench.pool is not None:
        bench.pool.warm(written)
    if answer.try_exact(written) is not None:  # a sampled answer streams when the page opens
        with ThreadPoolExecutor(1) as thread:  # its own event loop (the caller may run one)
            base = thread.submit(asyncio.run, answer.full_numbers(written, 10_000, 0, bench.pool))
        path = bench.folder.resolve(name)
        bench.keep_base((name, path.stat().st_mtime_ns, 10_000, 0), base.result())
    result = answer.try_exact(
        written.__class__(name="warm-up", horizon=3600.0, patient=written.patient)
    )
    if result is not None:  # the figure code's first drawing takes a second or two: here
        answer.figure(result, "fate", bench.lang)


def start(
    target: str | Path,
    port: int = 0,
    lang: str = "en",
    warm_up: bool = True,
    workers: int | None = None,
) -> Running:
    """Serve the workbench on ``target`` (a scenario file or a folder) in a thread.

    Args:
        target: A scenario file or a folder of them.
        port: The port on 127.0.0.1 (0: one the system chooses).
        lang: The page's language by default.
        warm_up: Answer the first scenario before serving (the page then opens at once).
        workers: Workers for the trials, the runner's (threads of the compiled kernel;
            None: every core but one, none on two cores or fewer; 0 or 1: the server's own
            process, chunk after chunk).

    Raises:
        UserError: For a missing target or a port that cannot be used.
    """
    import uvicorn

    began = time.perf_counter()
    from simulator.web.sampling import Pool, default_workers

    bench = Bench(Folder.of(target), lang=lang)
    sweep()  # the private folders of a Solve whose server was killed (kill -9, a crash)
    sock = bind(port)
    count = default_workers() if workers is None else workers
    bench.pool = Pool(count) if count > 1 else None
    bench.port = sock.getsockname()[1]
    if warm_up:
        warm(bench)
    config = uvicorn.Config(
        create_app(bench),
        log_level="warning",
        lifespan="off",
        http=_protocol(),
        limit_concurrency=MAX_CONNECTIONS,
        backlog=2 * MAX_CONNECTIONS,  # uvicorn's 2,048: as many files taken in one go
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.01)
    url = f"http://{HOST}:{bench.port}/"
    return Running(url, bench, time.perf_counter() - began, server, thread)


def _protocol() -> type[asyncio.Protocol]:
    """The HTTP/1.1 of uvicorn (h11), with :data:`HEAD_SECONDS` and a hard cap on connections.

    uvicorn bounds the time between two requests of a connection (``timeout_keep_alive``),
    but not the time a connection takes to send a head: any byte received cancels that
    bound, and a first request has none.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _waiting: object = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # uvicorn's 503 past limit_concurrency bypasses the application, so it lacked
            # the headers every other answer carries (guard.FRAMING): the same test, ours
            self._limit, self.limit_concurrency = self.limit_concurrency, None
            self.app = self._limited(self.app)

        def _limited(self, app: ASGIApp) -> ASGIApp:
            """``app``, or :func:`~simulator.web.guard.busy` past the limit (as uvicorn's)."""

            async def limited(scope: Scope, receive: Receive, send: Send) -> None:
                over = self._limit is not None and (
                    len(self.connections) >= self._limit
                    or len(self.tasks) > self._limit  # this request's task is among them
                )
                if scope["type"] == "http" and over:
                    self.logger.warning("Exceeded concurrency limit.")
                    await busy(send)
                    return
                await app(scope, receive, send)

            return limited

        def send_400_response(self, msg: str) -> None:
            """Answer bytes that are no HTTP request as uvicorn does, with :data:`FRAMING` too."""
            event = h11.Response(
                status_code=400,
                headers=[
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"connection", b"close"),
                    *FRAMING,
                ],
                reason=b"Bad Request",
            )
            for sent in (event, h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
                self.transport.write(self.conn.send(sent))
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > 2 * MAX_CONNECTIONS:  # no answer: it costs a file
                transport.close()
                return
            self._await_head()

        def on_response_complete(self) -> None:
            self._await_head()  # before: a pipelined request's head is read in there
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

        def _await_head(self) -> None:
            """Close the connection unless a new request's head comes in time."""
            if self._timer is not None:
                self._timer.cancel()
            self._waiting = self.scope  # the last request's: a new head replaces it
            self._timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

        def _too_slow(self) -> None:
            if self.scope is self._waiting and not self.transport.is_closing():
                self.transport.close()

    return Protocol
