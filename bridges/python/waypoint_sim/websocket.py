"""A minimal WebSocket server (RFC 6455, standard library only) carrying the simulator protocol.

Enough for Waypoint's client: text frames (fragmented or not), ping/pong, close; no extensions. One thread and
one simulator per connection. Connections that carry an Origin header (i.e. from a browser page) are refused.
"""
from __future__ import annotations

import base64
import hashlib
import socket
import socketserver
import struct
import sys
from typing import Callable, Optional

from .server import Dispatcher
from .simulator import Simulator

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class _Closed(Exception):
    pass


def _read_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise _Closed("peer closed the connection")
        buf += chunk
    return bytes(buf)


def _frame(opcode: int, payload: bytes) -> bytes:
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 1 << 16:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    return head + payload


def _read_frame(sock: socket.socket) -> tuple[bool, int, bytes]:
    b0, b1 = _read_exact(sock, 2)
    fin, opcode, masked, n = bool(b0 & 0x80), b0 & 0x0F, bool(b1 & 0x80), b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack(">H", _read_exact(sock, 2))
    elif n == 127:
        (n,) = struct.unpack(">Q", _read_exact(sock, 8))
    if n > _MAX_MESSAGE_BYTES:
        raise _Closed(f"frame of {n} bytes is over the limit")
    mask = _read_exact(sock, 4) if masked else b""
    data = _read_exact(sock, n)
    if masked and n:
        # XOR as one big integer: far faster than a per-byte loop in pure Python.
        key = (mask * (n // 4 + 1))[:n]
        data = (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return fin, opcode, data


def _handshake(sock: socket.socket) -> bool:
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(4096)
        if not chunk or len(raw) > 65536:
            return False
        raw += chunk
    lines = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    key = headers.get("sec-websocket-key")
    if not lines[0].startswith("GET ") or headers.get("upgrade", "").lower() != "websocket" or not key or "origin" in headers:
        sock.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        return False
    accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
    sock.sendall(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n".encode())
    return True


def serve_connection(sock: socket.socket, make_sim: Callable[[], Simulator]) -> None:
    """Handshake, then dispatch text messages until the client closes."""
    if not _handshake(sock):
        return
    sim = make_sim()
    d = Dispatcher(sim, lambda text: sock.sendall(_frame(0x1, text.encode("utf-8"))))
    parts: list[bytes] = []
    try:
        while not d.closed:
            fin, opcode, data = _read_frame(sock)
            if opcode == 0x8:  # close: echo it and stop
                sock.sendall(_frame(0x8, data[:2]))
                break
            if opcode == 0x9:
                sock.sendall(_frame(0xA, data))
                continue
            if opcode == 0xA:
                continue
            if opcode in (0x1, 0x2, 0x0):
                parts.append(data)
                if fin:
                    message, parts = b"".join(parts), []
                    d.handle(message.decode("utf-8", errors="replace"))
        if d.closed:
            sock.sendall(_frame(0x8, struct.pack(">H", 1000)))
    except (_Closed, OSError):
        pass  # the client went away; the simulator is closed below either way
    finally:
        if not d.closed:
            d.closed = True
            sim.close()


class _Handler(socketserver.BaseRequestHandler):
    make_sim: Callable[[], Simulator]

    def handle(self) -> None:
        serve_connection(self.request, self.server.make_sim)  # type: ignore[attr-defined]


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve_websocket(make_sim: Callable[[], Simulator], host: str = "127.0.0.1", port: int = 8765, ready: Optional[Callable[[int], None]] = None) -> None:
    """Serve until interrupted. `ready(port)` is called once listening (port 0 picks a free one)."""
    with _Server((host, port), _Handler) as server:
        server.make_sim = make_sim  # type: ignore[attr-defined]
        actual = server.server_address[1]
        print(f"serving on ws://{host}:{actual}", file=sys.stderr, flush=True)
        if ready:
            ready(actual)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
