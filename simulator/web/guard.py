"""The workbench's door: only its own address, only small bodies (an ASGI middleware).

A page elsewhere on the web must not drive the server, even through a name that resolves to
127.0.0.1 (DNS rebinding): a request whose ``Host`` is not the server's own address and
port, or whose ``Origin`` (when there is one) is not the server's own origin, is refused
with 403 (one that gives either twice, or its type or length twice, with 400); a request
that writes must say it sends JSON (a plain form cannot) and an ``Origin`` of its own. A
body that says it is over :data:`MAX_BODY` bytes is refused with 413 here; one that does
not say is counted as it is read (:func:`simulator.web.app.body`).
Every answer forbids framing (:data:`FRAMING`): another site's page cannot click through it.
A WebSocket is refused whatever its ``Host`` (the page opens none; were a WebSocket library
installed beside uvicorn, one would otherwise reach the application unchecked).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

MAX_BODY = 64 * 1024
"""The largest request body: a page's edits are a few hundred bytes."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def own_hosts(port: int) -> set[str]:
    """The ``Host`` values of a server on 127.0.0.1 at ``port``."""
    return {f"127.0.0.1:{port}", f"localhost:{port}"}


class Guard:
    """Refuse what does not come from the server's own page (see the module).

    Args:
        app: The application behind.
        hosts: The accepted ``Host`` values (``127.0.0.1:8765``...); a callable so that a
            server on a port the system chose learns it once bound.
        max_body: The largest body accepted, in bytes.
    """

    def __init__(self, app: ASGIApp, hosts: Callable[[], Iterable[str]], max_body: int = MAX_BODY):
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 403 or 413 (see the module)."""
        if scope["type"] == "websocket":  # the page opens none; no Host or Origin of its own
            await send({"type": "websocket.close", "code": 1008})  # refused (HTTP 403)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        named = [k.decode("latin-1").lower() for k, _ in scope["headers"]]
        twice = sorted({k for k in named if k in _ONCE and named.count(k) > 1})
        if twice:  # which one would be checked? No browser sends two: refused, not guessed
            await _refuse(send, 400, f"refused: more than one {twice[0]} header")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        hosts = set(self.hosts())
        host = headers.get("host", "")
        origin = headers.get("origin")
        writes = scope["method"] not in ("GET", "HEAD")
        if host not in hosts:
            await _refuse(send, 403, f"refused: Host {host!r} is not this server's address")
            return
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            await _refuse(send, 403, f"refused: Origin {origin!r} is not this server's page")
            return
        if writes and (origin is None or _essence(headers.get("content-type", "")) != _JSON):
            await _refuse(send, 403, "refused: a change must come from this server's page, as JSON")
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, 413, f"refused: a request body of at most {self.max_body} bytes")
            return
        await self.app(scope, receive, _unframed(send))


_JSON = "application/json"

_ONCE = frozenset({"host", "origin", "content-type", "content-length"})
"""The headers the door checks: each must come at most once (the check read the last one,
the application may read the first)."""


def _essence(content_type: str) -> str:
    """A ``Content-Type``'s type and subtype alone (``text/plain; x=application/json``: text/plain).

    ``text/plain`` with any parameter is a type a page of another site may send without asking
    first (a CORS "simple request"): a parameter never makes it JSON.
    """
    return content_type.partition(";")[0].strip().lower()


FRAMING = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
]
"""No page of another site may frame the workbench (click-jacking would drive its buttons), and
no browser reads an answer as another type than it says (``nosniff``)."""


def _unframed(send: Send) -> Send:
    """``send``, every response start carrying :data:`FRAMING`."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *FRAMING]
        await send(message)

    return sending


BUSY = "refused: the server is busy (too many requests at once); try again in a moment"
"""The 503's text past the server's limit of connections (the page says it in its language)."""


async def busy(send: Send) -> None:
    """Answer 503 to a request past the server's limit (:mod:`simulator.web.server`).

    uvicorn's own 503 carried neither :data:`FRAMING` nor ``nosniff``; this one does, as every
    other answer, and closes the connection (as uvicorn's), which frees its place.
    """
    await _refuse(send, 503, BUSY, close=True)


async def _refuse(send: Send, status: int, text: str, close: bool = False) -> None:
    body = text.encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                *FRAMING,
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *([(b"connection", b"close")] if close else []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
