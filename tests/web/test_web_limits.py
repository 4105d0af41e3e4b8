"""The workbench's server against clients that hold it: too many connections, slow requests.

A local client that opened connections without end, or sent a request's head or body a
byte at a time, held the server's files and requests for ever (with 256 files, as macOS
gives by default, the page no longer opened). Each limit is lowered here so that the tests
take a second.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.web import requests, server
from simulator.web.server import Running, start
from tests.support import REPO


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    monkeypatch.setattr(server, "HEAD_SECONDS", 0.5)
    monkeypatch.setattr(requests, "BODY_SECONDS", 0.5)
    monkeypatch.setattr(server, "MAX_CONNECTIONS", 4)
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", tmp_path / "lone_traveller.toml")
    running = start(tmp_path, warm_up=False, workers=0)
    yield running
    running.stop()


def connect(running: Running) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", running.bench.port), timeout=5)
    return sock


def head(running: Running, method: str = "GET", path: str = "/", more: str = "") -> bytes:
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{running.bench.port}\r\n{more}\r\n"
    ).encode()


def answer(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (or 5 s pass: a failure)."""
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except TimeoutError:
        got += b"<still open>"
    return got


def status(running: Running) -> int:
    with connect(running) as sock:
        sock.sendall(head(running, more="Connection: close\r\n"))
        return int(answer(sock).split(b" ", 2)[1])


def test_a_connection_that_never_sends_its_head_whole_is_closed(served: Running) -> None:
    silent, partial, kept = connect(served), connect(served), connect(served)
    partial.sendall(head(served)[:20])
    kept.sendall(head(served))  # one request answered, then the next head trickles
    time.sleep(0.2)
    kept.sendall(b"GET / HT")
    began = time.monotonic()
    for sock in (silent, partial):
        assert answer(sock) == b""  # closed, without a word: no request came
    assert answer(kept).startswith(b"HTTP/1.1 200 ")
    assert time.monotonic() - began < 3
    assert status(served) == 200


def test_a_body_that_trickles_is_a_408(served: Running) -> None:
    own = f"http://127.0.0.1:{served.bench.port}"
    more = f"Origin: {own}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
    with connect(served) as sock:
        sock.sendall(head(served, "POST", "/api/answer", more) + b"{")
        got = answer(sock)
    assert got.startswith(b"HTTP/1.1 408 "), got[:200]
    assert b"did not come whole within 0.5 seconds" in got


def test_past_the_limit_a_request_is_a_503_and_the_server_comes_back(
    served: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "HEAD_SECONDS", 60.0)  # the idle ones stay for the test
    idle = [connect(served) for _ in range(4)]
    try:
        time.sleep(0.2)
        assert status(served) == 503
        more = [connect(served) for _ in range(8)]  # past twice the limit: closed at once
        time.sleep(0.2)
        assert answer(more[-1]) == b""
        for sock in more:
            sock.close()
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    assert status(served) == 200


FEW_FILES = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))  # macOS's default
from simulator.web import server
server.HEAD_SECONDS = 1.0
running = server.start(sys.argv[1], warm_up=False, workers=0)
print(running.url, flush=True)
running.wait()
"""


def test_connections_without_end_never_use_up_the_servers_files(tmp_path: Path) -> None:
    """uvicorn's backlog (2,048) let asyncio accept as many at once: past 256 files, every
    accept failed ("Too many open files", over and over) until the client let go."""
    shutil.copy(REPO / "scenarios" / "lone_traveller.toml", tmp_path / "lone_traveller.toml")
    command = [sys.executable, "-c", FEW_FILES, str(tmp_path)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline().strip().rstrip("/").rpartition(":")[2])
        flood = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(400)]
        time.sleep(2)  # the idle ones are closed after HEAD_SECONDS
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert sock.recv(100).startswith(b"HTTP/1.1 200 ")
        for sock in flood:
            sock.close()
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a server out of files may not even stop
            child.kill()
            child.wait(timeout=30)
    said = child.stderr.read() if child.stderr else ""
    assert "Too many open files" not in said, said[-2000:]


def test_the_servers_own_refusals_carry_the_headers_of_every_answer(
    served: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn's 503 and its 400 for bytes that are no request had neither nosniff nor
    frame-ancestors: they bypass the application and its door (guard.FRAMING)."""
    monkeypatch.setattr(server, "HEAD_SECONDS", 60.0)
    idle = [connect(served) for _ in range(4)]
    try:
        time.sleep(0.2)
        with connect(served) as sock:
            sock.sendall(head(served))
            busy = answer(sock)  # closed after it, as uvicorn's
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    with connect(served) as sock:
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        garbled = answer(sock)
    for got, status_line in ((busy, b"HTTP/1.1 503 "), (garbled, b"HTTP/1.1 400 ")):
        assert got.startswith(status_line), got[:300]
        headers = got.partition(b"\r\n\r\n")[0].lower()
        assert b"\r\nx-content-type-options: nosniff\r\n" in headers, got[:300]
        assert b"\r\nx-frame-options: deny\r\n" in headers, got[:300]
        assert b"\r\ncontent-security-policy: frame-ancestors 'none'\r\n" in headers, got[:300]
    assert busy.endswith(
        b"refused: the server is busy (too many requests at once); try again in a moment"
    )
    assert status(served) == 200
