"""Tests of the SDK's server side (standard library unittest). Run: python3 -m unittest discover -s bridges/python/tests"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from waypoint_sim import Dispatcher, Simulator, protocol as P  # noqa: E402
from waypoint_sim.websocket import serve_connection  # noqa: E402


class Minimal(Simulator):
    name = "minimal"

    def __init__(self) -> None:
        self.t = 0.0
        self.closed = False

    def tasks(self):
        return [{"id": "t", "description": "d", "instruction": "i", "suite": "s", "arms": 1, "imitates": "x"}]

    def reset(self, task, seed, api):
        return {"task": self.tasks()[0], "observation": self.observe(), "api": [], "workspace": {"tableTopZ": 0, "xRange": [0, 1], "yRange": [0, 1], "axes": "z up"}}

    def observe(self):
        return {"text": "x", "state": {"objects": [], "ee": {"pos": [0, 0, 0], "yawRad": 0}, "gripperOpen": True, "grasped": None}}

    def act(self, fn, args):
        if fn == "explode":
            raise ZeroDivisionError("division by zero")
        if fn == "nan":
            return {"ok": True, "output": float("nan")}
        if fn == "chatty":
            print("debug print from the adapter")
            os.write(1, b"C-level write to fd 1\n")
            self.log("about to move", "debug")
        self.t += 0.5
        return {"ok": True}

    def check(self):
        return {"success": False, "detail": "nothing checked"}

    def sim_time_secs(self):
        return self.t

    def close(self):
        self.closed = True


class Harness:
    def __init__(self, sim: Simulator) -> None:
        self.out: list[dict] = []
        self.d = Dispatcher(sim, lambda text: self.out.append(json.loads(text)))
        self.next_id = 0

    def call(self, method: str, params=None) -> dict:
        self.next_id += 1
        self.d.handle(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.out[-1]


class DispatcherTest(unittest.TestCase):
    def test_invalid_params_name_the_field(self):
        h = Harness(Minimal())
        for params, field in [({"task": "t", "seed": "1"}, "seed"), ({"seed": 1}, "task"), ({"task": "t", "seed": True}, "seed"), ({"task": "", "seed": 1}, "task")]:
            a = h.call("reset", params)
            self.assertEqual(a["error"]["code"], P.INVALID_PARAMS, a)
            self.assertEqual(a["error"]["data"], {"param": field})
            self.assertIn(field, a["error"]["message"])

    def test_episode_order_unknown_task_and_method(self):
        h = Harness(Minimal())
        self.assertEqual(h.call("observe")["error"]["code"], P.NO_EPISODE)
        a = h.call("reset", {"task": "nope", "seed": 0})
        self.assertEqual(a["error"]["code"], P.UNKNOWN_TASK)
        self.assertEqual(a["error"]["data"]["known"], ["t"])
        self.assertEqual(h.call("fly")["error"]["code"], P.METHOD_NOT_FOUND)
        r = h.call("reset", {"task": "t", "seed": 0})["result"]
        self.assertEqual(r["simTimeSecs"], 0.0)
        self.assertEqual(h.call("act", {"fn": "go", "args": []})["result"], {"ok": True, "simTimeSecs": 0.5})

    def test_adapter_exception_is_simulator_crashed_and_serving_continues(self):
        h = Harness(Minimal())
        h.call("reset", {"task": "t", "seed": 0})
        a = h.call("act", {"fn": "explode", "args": []})
        self.assertEqual(a["error"]["code"], P.SIMULATOR_CRASHED)
        self.assertEqual(a["error"]["message"], "act raised ZeroDivisionError: division by zero")
        self.assertIn("result", h.call("observe"))

    def test_nan_in_a_result_is_an_internal_error_not_invalid_json(self):
        h = Harness(Minimal())
        h.call("reset", {"task": "t", "seed": 0})
        a = h.call("act", {"fn": "nan", "args": []})
        self.assertEqual(a["error"]["code"], P.INTERNAL_ERROR)
        self.assertIn("not JSON", a["error"]["message"])

    def test_capabilities_and_unsupported_optional_methods(self):
        h = Harness(Minimal())
        caps = h.call("initialize", {"protocolVersion": P.PROTOCOL_VERSION, "client": {"name": "t"}})["result"]
        self.assertEqual(caps["snapshots"], "none")
        self.assertEqual(caps["codeLanguages"], [])
        h.call("reset", {"task": "t", "seed": 0})
        self.assertEqual(h.call("snapshot")["error"]["code"], P.SNAPSHOT_UNSUPPORTED)
        self.assertEqual(h.call("execute", {"code": "1", "language": "python"})["error"]["code"], P.UNSUPPORTED)

    def test_envelope_errors(self):
        out: list[dict] = []
        d = Dispatcher(Minimal(), lambda t: out.append(json.loads(t)))
        d.handle("{oops")
        d.handle("[1, 2]")
        d.handle(json.dumps({"jsonrpc": "2.0", "method": "observe"}))  # notification: no answer
        self.assertEqual([o["error"]["code"] for o in out], [P.PARSE_ERROR, P.INVALID_REQUEST])
        self.assertEqual([o["id"] for o in out], [None, None])

    def test_close_closes_the_simulator(self):
        sim = Minimal()
        h = Harness(sim)
        self.assertEqual(h.call("close")["result"], {})
        self.assertTrue(sim.closed)


class StdioTest(unittest.TestCase):
    def test_prints_go_to_stderr_and_logs_are_notifications(self):
        script = f"import sys; sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(Path(__file__).parent)!r})\nfrom test_sdk import Minimal\nfrom waypoint_sim import serve_stdio\nserve_stdio(Minimal())\n"
        lines = [
            {"jsonrpc": "2.0", "id": 1, "method": "reset", "params": {"task": "t", "seed": 0}},
            {"jsonrpc": "2.0", "id": 2, "method": "act", "params": {"fn": "chatty", "args": []}},
        ]
        p = subprocess.run([sys.executable, "-c", script], input="".join(json.dumps(l) + "\n" for l in lines), capture_output=True, text=True, timeout=30)
        out = [json.loads(l) for l in p.stdout.splitlines()]
        self.assertEqual([o.get("id") for o in out], [1, None, 2])
        self.assertEqual(out[1], {"jsonrpc": "2.0", "method": "log", "params": {"level": "debug", "message": "about to move"}})
        self.assertIn("debug print from the adapter", p.stderr)
        self.assertIn("C-level write to fd 1", p.stderr)


class WebSocketTest(unittest.TestCase):
    def _pair(self):
        a, b = socket.socketpair()
        t = threading.Thread(target=serve_connection, args=(b, Minimal), daemon=True)
        t.start()
        return a, t

    def test_browser_origin_is_refused(self):
        a, t = self._pair()
        a.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n\r\n")
        self.assertTrue(a.recv(100).startswith(b"HTTP/1.1 403"))
        a.close()
        t.join(5)

    def test_handshake_accept_key_follows_rfc6455(self):
        a, t = self._pair()
        a.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        # The example key and answer from RFC 6455 section 1.3.
        self.assertIn(b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", a.recv(1000))
        a.close()
        t.join(5)


class ImagesTest(unittest.TestCase):
    def test_encode_png_round_trips_pixels_and_refuses_a_wrong_size(self):
        from test_ai2thor_adapter import decode_png
        from waypoint_sim import encode_png, observation_image

        rgb = bytes(range(2 * 3 * 3))  # 3 wide, 2 high
        self.assertEqual(decode_png(encode_png(3, 2, rgb)), (3, 2, rgb))
        with self.assertRaisesRegex(ValueError, "3x2 RGB needs 18 bytes, got 17"):
            encode_png(3, 2, rgb[:-1])
        img = observation_image("top", encode_png(3, 2, rgb), 3, 2, agent="Alice")
        self.assertEqual({k: img[k] for k in ("camera", "agent", "mediaType")}, {"camera": "top", "agent": "Alice", "mediaType": "image/png"})


if __name__ == "__main__":
    unittest.main()
