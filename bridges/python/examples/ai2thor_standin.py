"""A stand-in for ai2thor's Controller, for testing the AI2-THOR adapter where AI2-THOR cannot run (its Python
package downloads a Unity build at run time). NOT AI2-THOR: a tiny symbolic kitchen with the same method and event
shapes the adapter uses:

    Controller(scene=..., agentCount=N, gridSize=0.25, visibilityDistance=1.5, renderInstanceSegmentation=True)
    controller.reset(scene=...), controller.step(action=..., agentId=..., ...) or step(dict(...)), controller.stop()
    -> MultiAgentEvent with .events (one Event per agent) and .metadata (the acting agent's), each Event having
       .metadata {"agent": {"position", "rotation", "cameraHorizon"}, "objects": [...], "lastActionSuccess",
       "errorMessage", "inventoryObjects", "actionReturn"} and .instance_detections2D {objectId: box}.

Objects carry AI2-THOR's keys (objectId "Type|x|y|z", objectType, position, visible, distance, openable/isOpen,
pickupable/isPickedUp, receptacle/parentReceptacles, toggleable/isToggled, sliceable/isSliced, dirtyable/isDirty).
`visible` means in view within visibilityDistance (interactable), as in AI2-THOR; instance_detections2D lists
what the camera shows at any distance. No occlusion, no physics.
"""
from __future__ import annotations

import copy
import math
from typing import Any, Optional

HALF_FOV = 45.0
DETECT_RANGE = 4.0


def _oid(t: str, x: float, y: float, z: float) -> str:
    return f"{t}|{x:+06.2f}|{y:+06.2f}|{z:+06.2f}"


# A 3 m x 3 m kitchen: furniture on the edges, small objects on it, agents in the middle.
_LAYOUT = [
    ("Fridge", (-1.5, 0.9, 1.25), dict(openable=True, receptacle=True)),
    ("CounterTop", (1.5, 0.9, 0.0), dict(receptacle=True)),
    ("Sink", (1.5, 0.85, 1.0), dict(receptacle=True)),
    ("Faucet", (1.6, 1.0, 1.0), dict(toggleable=True, isToggled=True)),
    ("DiningTable", (0.0, 0.7, -1.4), dict(receptacle=True)),
    ("Drawer", (1.5, 0.7, -0.75), dict(openable=True, receptacle=True)),
    ("Drawer", (1.5, 0.7, 0.5), dict(openable=True, receptacle=True)),
    ("LightSwitch", (-1.6, 1.25, -1.0), dict(toggleable=True, isToggled=True)),
    ("Bread", (1.4, 0.95, -0.25), dict(pickupable=True, sliceable=True, parent="CounterTop")),
    ("Tomato", (1.4, 0.95, 0.25), dict(pickupable=True, sliceable=True, parent="CounterTop")),
    ("Lettuce", (0.25, 0.8, -1.35), dict(pickupable=True, sliceable=True, parent="DiningTable")),
    ("Apple", (-0.25, 0.8, -1.35), dict(pickupable=True, sliceable=True, parent="DiningTable")),
    ("Mug", (1.45, 0.9, 1.0), dict(pickupable=True, dirtyable=True, isDirty=True, parent="Sink")),
]

_FLAGS = ["openable", "isOpen", "pickupable", "isPickedUp", "receptacle", "toggleable", "isToggled", "sliceable", "isSliced", "dirtyable", "isDirty", "cookable", "isCooked"]


# Colours of the stand-in's camera sketch, by object type (others grey).
_COLOURS = {"Fridge": (170, 200, 230), "CounterTop": (150, 120, 90), "Sink": (120, 160, 200), "Faucet": (200, 200, 210), "DiningTable": (130, 90, 60),
            "Drawer": (180, 140, 100), "LightSwitch": (240, 230, 120), "Bread": (222, 170, 100), "Tomato": (220, 40, 40), "Lettuce": (70, 190, 60),
            "Apple": (200, 30, 70), "Mug": (240, 240, 240)}
FRAME_PX = 64
FRAME_PX_PER_M = 14.0


class Frame:
    """The stand-in's camera frame with numpy's shape and tobytes() (AI2-THOR's `event.frame` is an HxWx3 uint8
    array). NOT a rendering of a scene: a top-down sketch around the agent, forward up, its field of view lighter,
    each object its camera detects a coloured square, the agent a white square. Drawn when asked for."""

    def __init__(self, agent: dict[str, Any], objects: list[dict[str, Any]]) -> None:
        self.shape = (FRAME_PX, FRAME_PX, 3)
        self._agent = dict(agent)
        self._objects = [(o["objectType"], o["position"]["x"], o["position"]["z"]) for o in objects]

    def tobytes(self) -> bytes:
        n, a = FRAME_PX, self._agent
        c = n / 2
        px = bytearray(n * n * 3)
        yaw = math.radians(a["yaw"])

        def put(x: int, y: int, rgb: tuple[int, int, int]) -> None:
            if 0 <= x < n and 0 <= y < n:
                px[(y * n + x) * 3:(y * n + x) * 3 + 3] = bytes(rgb)

        for y in range(n):
            for x in range(n):
                right, ahead = (x + 0.5 - c), (c - y - 0.5)
                in_view = ahead > 0 and abs(math.degrees(math.atan2(right, ahead))) <= HALF_FOV and math.hypot(right, ahead) <= DETECT_RANGE * FRAME_PX_PER_M
                put(x, y, (70, 70, 80) if in_view else (30, 30, 35))
        for t, ox, oz in self._objects:
            dx, dz = ox - a["x"], oz - a["z"]
            # Egocentric axes: ahead along the agent's yaw (0 = +z), right 90 degrees clockwise of it.
            ahead = dx * math.sin(yaw) + dz * math.cos(yaw)
            right = dx * math.cos(yaw) - dz * math.sin(yaw)
            sx, sy = int(c + right * FRAME_PX_PER_M), int(c - ahead * FRAME_PX_PER_M)
            for yy in range(sy - 2, sy + 3):
                for xx in range(sx - 2, sx + 3):
                    put(xx, yy, _COLOURS.get(t, (128, 128, 128)))
        for yy in range(int(c) - 2, int(c) + 2):
            for xx in range(int(c) - 2, int(c) + 2):
                put(xx, yy, (255, 255, 255))
        return bytes(px)


class Event:
    def __init__(self, metadata: dict[str, Any], detections: dict[str, list[int]], frame: Optional[Frame] = None) -> None:
        self.metadata = metadata
        self.instance_detections2D = detections
        self.frame = frame


class MultiAgentEvent:
    def __init__(self, active_agent_id: int, events: list[Event]) -> None:
        self.events = events
        self.metadata = events[active_agent_id].metadata


class Controller:
    """The stand-in (see the module docstring). `scene` is accepted and recorded; every scene is the same kitchen."""

    def __init__(self, scene: str = "FloorPlan1", agentCount: int = 1, gridSize: float = 0.25, visibilityDistance: float = 1.5, **_: Any) -> None:
        self.grid = gridSize
        self.visibility = visibilityDistance
        self.agent_count = agentCount
        self.stopped = False
        self.calls: list[dict[str, Any]] = []
        self.reset(scene)

    # --- controller API -----------------------------------------------------------------------------------------
    def reset(self, scene: str = "FloorPlan1", **_: Any) -> MultiAgentEvent:
        self.scene = scene
        self.objects: list[dict[str, Any]] = []
        ids: dict[str, str] = {}
        for t, (x, y, z), flags in _LAYOUT:
            o = {"objectId": _oid(t, x, y, z), "objectType": t, "position": {"x": x, "y": y, "z": z}}
            for f in _FLAGS:
                o[f] = bool(flags.get(f, False))
            o["parentReceptacles"] = None
            self.objects.append(o)
            ids.setdefault(t, o["objectId"])
        for (t, _, flags), o in zip(_LAYOUT, self.objects):
            if "parent" in flags:
                o["parentReceptacles"] = [ids[flags["parent"]]]
        starts = [(0.0, 0.0, 90), (-0.5, 0.0, 270), (0.0, 0.5, 0), (0.5, -0.5, 180), (-0.5, -0.5, 90)]
        self.agents = [{"x": sx, "z": sz, "yaw": yaw, "horizon": 0, "holding": None} for sx, sz, yaw in starts[: self.agent_count]]
        return self._event(0, True, "")

    def stop(self) -> None:
        self.stopped = True

    def step(self, action: Any = None, **kwargs: Any) -> MultiAgentEvent:
        args = dict(action) if isinstance(action, dict) else {"action": action, **kwargs}
        self.calls.append(args)
        agent_id = int(args.get("agentId", 0))
        ok, err, ret = self._do(args["action"], agent_id, args)
        return self._event(agent_id, ok, err, ret)

    # --- world ----------------------------------------------------------------------------------------------------
    def _reachable(self, x: float, z: float) -> bool:
        return -1.0 - 1e-9 <= x <= 1.0 + 1e-9 and -1.0 - 1e-9 <= z <= 1.0 + 1e-9

    def _obj(self, oid: str) -> Optional[dict[str, Any]]:
        return next((o for o in self.objects if o["objectId"] == oid), None)

    def _in_view(self, a: dict[str, Any], o: dict[str, Any], rng: float) -> bool:
        if o["isPickedUp"]:
            return False
        parents = o.get("parentReceptacles") or []
        if any(self._obj(p) and self._obj(p)["openable"] and not self._obj(p)["isOpen"] for p in parents):
            return False
        dx, dz = o["position"]["x"] - a["x"], o["position"]["z"] - a["z"]
        d = math.hypot(dx, dz)
        if d > rng:
            return False
        if d < 1e-6:
            return True
        bearing = math.degrees(math.atan2(dx, dz))  # 0 = +z (north), 90 = +x (east)
        off = (bearing - a["yaw"] + 180) % 360 - 180
        if abs(off) > HALF_FOV + 1e-6:
            return False
        # Camera at 1.5 m, 90° vertical field of view around the horizon (positive looks down).
        elev = math.degrees(math.atan2(o["position"]["y"] - 1.5, max(d, 0.1)))
        return -a["horizon"] - HALF_FOV <= elev <= -a["horizon"] + HALF_FOV

    def _do(self, name: str, i: int, args: dict[str, Any]) -> tuple[bool, str, Any]:
        a = self.agents[i]
        if name in ("MoveAhead", "MoveBack", "MoveLeft", "MoveRight"):
            turn = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}[name]
            rad = math.radians(a["yaw"] + turn)
            nx, nz = round(a["x"] + self.grid * math.sin(rad), 2), round(a["z"] + self.grid * math.cos(rad), 2)
            if not self._reachable(nx, nz):
                return False, f"{name}: blocked", None
            if any(j != i and abs(b["x"] - nx) < 1e-6 and abs(b["z"] - nz) < 1e-6 for j, b in enumerate(self.agents)):
                return False, f"{name}: another agent is in the way", None
            a["x"], a["z"] = nx, nz
            return True, "", None
        if name in ("RotateLeft", "RotateRight"):
            a["yaw"] = (a["yaw"] + (90 if name == "RotateRight" else -90)) % 360
            return True, "", None
        if name in ("LookUp", "LookDown"):
            deg = float(args.get("degrees", 30))
            h = a["horizon"] + (deg if name == "LookDown" else -deg)
            if h < -30 or h > 60:
                return False, "camera horizon out of range", None
            a["horizon"] = h
            return True, "", None
        if name in ("Teleport", "TeleportFull"):
            p = args.get("position", {})
            x, z = round(float(p.get("x", a["x"])), 2), round(float(p.get("z", a["z"])), 2)
            if not self._reachable(x, z):
                return False, "Teleport: position not reachable", None
            a["x"], a["z"] = x, z
            if "rotation" in args:
                a["yaw"] = float(args["rotation"].get("y", a["yaw"])) % 360
            if "horizon" in args:
                a["horizon"] = float(args["horizon"])
            return True, "", None
        if name == "GetReachablePositions":
            pts = []
            n = int(round(2.0 / self.grid))
            for ix in range(n + 1):
                for iz in range(n + 1):
                    pts.append({"x": round(-1.0 + ix * self.grid, 2), "y": 0.9, "z": round(-1.0 + iz * self.grid, 2)})
            return True, "", pts
        if name in ("Pass", "Done"):
            return True, "", None
        oid = args.get("objectId")
        o = self._obj(oid) if oid else None
        if o is None:
            return False, f"object {oid} not found", None
        if not self._in_view(a, o, self.visibility) and not (name == "PutObject" and args.get("forceAction")):
            return False, f"{oid} is not visible or not within reach", None
        if name == "PickupObject":
            if not o["pickupable"] or a["holding"]:
                return False, "cannot pick up", None
            o["isPickedUp"], o["parentReceptacles"], a["holding"] = True, None, oid
            return True, "", None
        if name == "PutObject":
            held = self._obj(a["holding"]) if a["holding"] else None
            if held is None or not o["receptacle"] or (o["openable"] and not o["isOpen"]):
                return False, "cannot put", None
            held["isPickedUp"], held["parentReceptacles"], a["holding"] = False, [oid], None
            held["position"] = dict(o["position"])
            return True, "", None
        flags = {"OpenObject": ("openable", "isOpen", True), "CloseObject": ("openable", "isOpen", False), "ToggleObjectOn": ("toggleable", "isToggled", True),
                 "ToggleObjectOff": ("toggleable", "isToggled", False), "SliceObject": ("sliceable", "isSliced", True), "CleanObject": ("dirtyable", "isDirty", False)}
        if name in flags:
            able, state, value = flags[name]
            if not o[able] or o[state] == value:
                return False, f"{name}: not possible on {oid}", None
            o[state] = value
            return True, "", None
        return False, f"unknown action {name}", None

    def _event(self, active: int, ok: bool, err: str, ret: Any = None) -> MultiAgentEvent:
        events = []
        for i, a in enumerate(self.agents):
            objs = []
            for o in self.objects:
                oo = copy.deepcopy(o)
                oo["visible"] = self._in_view(a, o, self.visibility)
                oo["distance"] = round(math.hypot(o["position"]["x"] - a["x"], o["position"]["z"] - a["z"]), 3)
                objs.append(oo)
            holding = self._obj(a["holding"]) if a["holding"] else None
            meta = {
                "agent": {"position": {"x": a["x"], "y": 0.9, "z": a["z"]}, "rotation": {"x": 0.0, "y": float(a["yaw"]), "z": 0.0}, "cameraHorizon": float(a["horizon"]), "isStanding": True},
                "objects": objs,
                "lastActionSuccess": ok if i == active else True,
                "errorMessage": err if i == active else "",
                "inventoryObjects": [{"objectId": holding["objectId"], "objectType": holding["objectType"]}] if holding else [],
                "actionReturn": ret if i == active else None,
            }
            detections = {o["objectId"]: [0, 0, 10, 10] for o in self.objects if self._in_view(a, o, DETECT_RANGE)}
            events.append(Event(meta, detections, Frame(a, [o for o in self.objects if o["objectId"] in detections])))
        return MultiAgentEvent(active, events)
