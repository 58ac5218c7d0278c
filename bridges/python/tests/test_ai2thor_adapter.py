"""The AI2-THOR adapter (examples/ai2thor_llamar.py) against the stand-in controller (examples/ai2thor_standin.py),
which has ai2thor's Controller method and event shapes but is NOT AI2-THOR. Checks the protocol answers, the
household state shape LLaMAR reads, the released code's feedback texts, NavigateTo's failure kinds, conflicts in a
joint step, and the checker."""
from __future__ import annotations

import base64
import json
import struct
import sys
import zlib
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

from waypoint_sim import Dispatcher, protocol as P  # noqa: E402
from ai2thor_llamar import Ai2ThorLlamar  # noqa: E402
from ai2thor_standin import Controller as StandIn  # noqa: E402
from toy_tabletop import ToyTabletop  # noqa: E402

TASK = "put_bread_lettuce_tomato_fridge@FloorPlan1"


class Harness:
    def __init__(self, sim) -> None:
        self.out: list[dict] = []
        self.d = Dispatcher(sim, lambda text: self.out.append(json.loads(text)))
        self.n = 0

    def call(self, method: str, params=None) -> dict:
        self.n += 1
        self.d.handle(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}))
        return self.out[-1]


def decode_png(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of an 8-bit RGB PNG whose rows all use filter 0 (what encode_png writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:8]
    pos, idat, size = 8, b"", (0, 0)
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", png[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + data) & 0xFFFFFFFF, kind
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", data[:10])
            assert (depth, colour) == (8, 2), (depth, colour)
            size = (w, h)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + n
    raw = zlib.decompress(idat)
    w, h = size
    rows = [raw[y * (w * 3 + 1):(y + 1) * (w * 3 + 1)] for y in range(h)]
    assert all(r[0] == 0 for r in rows)
    return w, h, b"".join(r[1:] for r in rows)


def act(h: Harness, *actions):
    r = h.call("act_jointly", {"actions": [{"agent": a, "name": n, "args": list(args)} for a, n, *args in actions]})
    assert "result" in r, r
    return r["result"]["results"]


class Ai2ThorAdapterTest(unittest.TestCase):
    def setUp(self) -> None:
        self.controllers: list[StandIn] = []

        def factory(**kw):
            c = StandIn(**kw)
            self.controllers.append(c)
            return c

        self.sim = Ai2ThorLlamar(controller_factory=factory)
        self.h = Harness(self.sim)

    def test_capabilities_reset_and_the_household_state_llamar_reads(self):
        caps = self.h.call("initialize", {"protocolVersion": P.PROTOCOL_VERSION, "client": {"name": "t"}})["result"]
        self.assertTrue(caps["agentViews"] and caps["jointActions"])
        r = self.h.call("reset", {"task": TASK, "seed": 0, "api": "llamar", "agents": 2})["result"]
        self.assertEqual(r["agents"], ["Alice", "Bob"])
        self.assertEqual(self.controllers[0].agent_count, 2)
        self.assertEqual(self.controllers[0].calls[0]["action"], "Pass")  # the stand-in has no InitialRandomSpawn
        whole = r["observation"]["state"]["extra"]["household"]
        self.assertIn("plan", whole)
        self.assertEqual(len(whole["checker"]["subtasks"]), 14)
        alice = self.h.call("observe", {"agent": "Alice"})["result"]
        hh = alice["state"]["extra"]["household"]
        self.assertEqual(hh["agent"], "Alice")
        self.assertNotIn("checker", hh)
        self.assertRegex(alice["text"], r"^Alice's observation: \[('[A-Za-z]+_\d+'(, )?)*\]\nAlice's state: I am at co-ordinates: \(0\.0, 0\.0\) facing east and I am holding nothing$")
        self.assertEqual([o["props"]["label"] for o in alice["state"]["objects"]], hh["agents"]["Alice"]["visible"])
        self.assertEqual(self.h.call("reset", {"task": TASK, "seed": 0, "agents": 9})["error"]["data"], {"param": "agents"})

    def test_each_agent_view_carries_its_egocentric_frame_as_a_png(self):
        self.h.call("reset", {"task": TASK, "seed": 0, "api": "llamar", "agents": 2})
        frames = {}
        for name in ("Alice", "Bob"):
            images = self.h.call("observe", {"agent": name})["result"]["images"]
            self.assertEqual(len(images), 1)
            img = images[0]
            self.assertEqual((img["camera"], img["agent"], img["mediaType"], img["width"], img["height"]), ("egocentric", name, "image/png", 64, 64))
            w, h, rgb = decode_png(base64.b64decode(img["dataBase64"]))
            self.assertEqual((w, h), (64, 64))
            frames[name] = rgb
        # Alice faces the counter (bread, tomato): their colours are in her frame; Bob faces west, away from them.
        tomato = bytes((220, 40, 40))
        self.assertIn(tomato, [frames["Alice"][i:i + 3] for i in range(0, len(frames["Alice"]), 3)])
        self.assertNotIn(tomato, [frames["Bob"][i:i + 3] for i in range(0, len(frames["Bob"]), 3)])
        # The whole-scene observation has no camera of its own.
        self.assertNotIn("images", self.h.call("observe", {})["result"])

    def test_navigate_pickup_put_with_the_released_codes_texts(self):
        self.h.call("reset", {"task": TASK, "seed": 0, "agents": 2})
        # Alice faces east: the counter with the bread and the tomato is 1.5 m ahead.
        labels = {o["props"]["type"]: o["props"]["label"] for o in self.h.call("observe", {"agent": "Alice"})["result"]["state"]["objects"]}
        tomato = labels["Tomato"]
        r = act(self.h, ("Alice", "NavigateTo", "Fridge_7"), ("Bob", "Pickup", tomato))
        self.assertEqual(r[0]["error"], "I tried to navigate to Fridge_7 in the previous step but Fridge_7 doesn't exist, unsuccessful.")
        self.assertFalse(r[1]["ok"])  # Bob faces west and is 2 m away
        self.assertEqual(r[1]["error"], f"I tried to pick up {tomato} in the previous step but was unsuccessful.")
        r = act(self.h, ("Alice", "NavigateTo", tomato), ("Bob", "Idle"))
        self.assertTrue(r[0]["ok"], r[0])
        self.assertEqual(r[0]["output"], f"I navigated to {tomato} in the previous step and was successful.")
        r = act(self.h, ("Alice", "Pickup", tomato))
        self.assertEqual(r[0]["output"], f"I picked up {tomato} in the previous step and was successful.")
        st = self.h.call("observe")["result"]["state"]
        self.assertEqual(st["extra"]["household"]["agents"]["Alice"]["holding"], tomato)
        done = [s["text"] for s in st["extra"]["household"]["checker"]["subtasks"] if s["done"]]
        self.assertEqual(done, ["NavigateTo(Tomato)", "PickupObject(Tomato)"])

    def test_two_agents_opening_one_drawer_in_one_step(self):
        self.h.call("reset", {"task": "open_all_drawers@FloorPlan1", "seed": 0, "agents": 2})
        seen = self.h.call("observe", {"agent": "Alice"})["result"]["state"]["objects"]
        drawer = next(o["props"]["label"] for o in seen if o["props"]["type"] == "Drawer")
        act(self.h, ("Alice", "NavigateTo", drawer), ("Bob", "NavigateTo", drawer))
        r = act(self.h, ("Bob", "Open", drawer), ("Alice", "Open", drawer))
        alice, bob = r[1], r[0]
        self.assertTrue(alice["ok"], alice)
        self.assertFalse(bob["ok"])
        self.assertEqual(bob["value"], f"Alice acted on {drawer} earlier in this same step")

    def test_geometry_draws_fixed_objects_only(self):
        self.h.call("reset", {"task": TASK, "seed": 0, "agents": 1})
        g = self.h.call("geometry")["result"]
        types = {b.split("|")[0] for b in g["bodies"]}
        self.assertIn("Fridge", types)
        self.assertNotIn("Tomato", types)  # pickupable objects move; the 3D overview shows furniture
        fridge = next(x for x in g["geoms"] if x["body"].startswith("Fridge|"))
        self.assertEqual(fridge["pos"], [-1.5, 1.25, 0.9])  # AI2-THOR (x, y up, z) -> Waypoint (x, y north, z up)

    def test_an_adapter_without_a_team_size_refuses_one(self):
        h = Harness(ToyTabletop())
        a = h.call("reset", {"task": "pick_place", "seed": 0, "agents": 2})
        self.assertEqual(a["error"]["code"], P.INVALID_PARAMS)
        self.assertEqual(a["error"]["data"], {"param": "agents"})
        self.assertIn("fixed number of agents", a["error"]["message"])


if __name__ == "__main__":
    unittest.main()
