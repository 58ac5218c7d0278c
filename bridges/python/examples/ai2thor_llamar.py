"""Serve AI2-THOR to Waypoint's LLaMAR over the simulator protocol (stdio or WebSocket).

It wraps a multi-agent `ai2thor.controller.Controller` the way LLaMAR's released code drives one: agents named Alice,
Bob, ...; objects named "<Type>_<n>" in the order the team first sees them; high-level actions mapped to AI2-THOR's
(Pickup -> PickupObject, Put -> PutObject with forceAction for a fridge, ToggleOn -> ToggleObjectOn, ...); NavigateTo
as a shortest path on the reachable 0.25 m grid around the other agents, then a teleport facing the object, failing
with the code's three texts (the object does not exist, no clear path, not interactable after arrival); and the
agents' feedback lines "I picked up Tomato_1 in the previous step and was successful." It reports the same
structured state as Waypoint's embedded household (WorldState.extra.household, docs/household.md), so LLaMAR's
prompts, the reference policies and the floor-plan, step and subtask views work unchanged.

    pip install ai2thor            # downloads the Unity build on first start (needs a display or Xvfb / CloudRendering)
    waypoint run --arch llamar --sim "stdio:python3 bridges/python/examples/ai2thor_llamar.py" \
        --task put_bread_lettuce_tomato_fridge@FloorPlan1 --agents 2 --model reference

`--stand-in` uses examples/ai2thor_standin.py instead of AI2-THOR: a tiny symbolic kitchen with the Controller's
method and event shapes, for testing this adapter where AI2-THOR cannot run. It is not AI2-THOR.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from waypoint_sim import InvalidParams, Simulator, UnknownTask, api_function, frame_image, main  # noqa: E402

AGENT_NAMES = ["Alice", "Bob", "Charlie", "David", "Emma"]
HEADINGS = ["north", "east", "south", "west"]
GRID = 0.25
VISIBILITY = 1.5

# MAP-THOR tasks on AI2-THOR floor plans, with checkers in the released code's form: subtasks on types,
# "NavigateTo(R, X)" / "PutObject(R, X)" while holding X, and "OpenObject(Drawer*)" for every instance of a type.
TASKS: list[dict[str, Any]] = [
    {
        "id": "put_bread_lettuce_tomato_fridge", "category": 1, "scenes": ["FloorPlan1", "FloorPlan2", "FloorPlan3", "FloorPlan4", "FloorPlan5"],
        "instruction": "Put the bread, the lettuce and the tomato in the fridge.",
        "subtasks": ["NavigateTo(Bread)", "PickupObject(Bread)", "NavigateTo(Fridge, Bread)", "PutObject(Fridge, Bread)",
                     "NavigateTo(Lettuce)", "PickupObject(Lettuce)", "NavigateTo(Fridge, Lettuce)", "PutObject(Fridge, Lettuce)",
                     "NavigateTo(Tomato)", "PickupObject(Tomato)", "NavigateTo(Fridge, Tomato)", "PutObject(Fridge, Tomato)",
                     "OpenObject(Fridge)", "CloseObject(Fridge)"],
        "coverage": ["Bread", "Lettuce", "Tomato", "Fridge"],
    },
    {
        "id": "open_all_drawers", "category": 2, "scenes": ["FloorPlan1", "FloorPlan2", "FloorPlan3", "FloorPlan4", "FloorPlan5"],
        "instruction": "Open all the drawers.",
        "subtasks": ["NavigateTo(Drawer*)", "OpenObject(Drawer*)"],
        "coverage": ["Drawer*"],
    },
    {
        "id": "turn_off_faucet_and_light", "category": 1, "scenes": ["FloorPlan1", "FloorPlan2", "FloorPlan3"],
        "instruction": "Turn off the faucet and the light if either of them is on.",
        "subtasks": ["NavigateTo(Faucet)", "ToggleObjectOff(Faucet)", "NavigateTo(LightSwitch)", "ToggleObjectOff(LightSwitch)"],
        "coverage": ["Faucet", "LightSwitch"],
    },
    {
        "id": "make_living_room_dark", "category": 4, "scenes": ["FloorPlan201", "FloorPlan202", "FloorPlan203"],
        "instruction": "Make the living room dark.",
        "subtasks": ["NavigateTo(LightSwitch)", "ToggleObjectOff(LightSwitch)"],
        "coverage": ["LightSwitch"],
    },
]

ACT_TO_THOR = {"Pickup": "PickupObject", "Put": "PutObject", "Open": "OpenObject", "Close": "CloseObject", "Slice": "SliceObject", "Clean": "CleanObject", "ToggleOn": "ToggleObjectOn", "ToggleOff": "ToggleObjectOff"}
EXCLUSIVE = {"Pickup", "Open", "Close", "Slice", "Clean", "ToggleOn", "ToggleOff"}
PAST = {"Pickup": ("picked up", "pick up"), "Open": ("opened", "open"), "Close": ("closed", "close"), "Slice": ("sliced", "slice"), "Clean": ("cleaned", "clean"), "ToggleOn": ("turned on", "turn on"), "ToggleOff": ("turned off", "turn off")}
STATE_KEYS = ["isOpen", "isToggled", "isSliced", "isDirty", "isCooked"]

API = [
    api_function("Move", [("direction", "str")], "Step 0.25 m Ahead, Back, Left or Right."),
    api_function("Rotate", [("direction", "str")], "Turn 90 degrees Left or Right."),
    api_function("LookUp", [("angle", "int")], "Tilt the camera up by a multiple of 30 degrees."),
    api_function("LookDown", [("angle", "int")], "Tilt the camera down by a multiple of 30 degrees."),
    *[api_function(n, [("object_id", "str")], d) for n, d in [
        ("NavigateTo", "Walk next to an object the team has seen and face it."), ("Pickup", "Pick up an object within 1.5 m and in view."),
        ("Put", "Put the held object in or on a receptacle within reach."), ("Open", "Open an object within reach."), ("Close", "Close an object within reach."),
        ("Slice", "Slice an object within reach."), ("Clean", "Clean an object within reach."), ("ToggleOn", "Turn an object on."), ("ToggleOff", "Turn an object off.")]],
    api_function("Explore", [("rounds", "int"), ("moves", "int"), ("hint", "str")], "Look around in four directions and move toward what the hint names."),
    api_function("Idle", [], "Stay in place for one step."),
    api_function("Done", [], "Declare the task complete."),
]


def _type(label: str) -> str:
    return label.rsplit("_", 1)[0]


def real_controller(**kwargs: Any) -> Any:
    from ai2thor.controller import Controller  # imported only when AI2-THOR is used

    return Controller(**kwargs)


class Ai2ThorLlamar(Simulator):
    name = "ai2thor-llamar"
    version = "1"
    robots = [{"name": "thor-agent", "description": "AI2-THOR default agent (multi-agent), 0.25 m grid, 90° turns"}]
    agent_views = True
    joint_actions = True

    def __init__(self, controller_factory: Callable[..., Any] = real_controller) -> None:
        self.factory = controller_factory
        self.controller: Any = None
        self.task: Optional[dict[str, Any]] = None

    # --- tasks and reset ----------------------------------------------------------------------------------------
    def tasks(self) -> list[dict[str, Any]]:
        out = []
        for t in TASKS:
            for scene in t["scenes"]:
                out.append({"id": f"{t['id']}@{scene}", "description": f"{t['instruction']} (AI2-THOR {scene}; MAP-THOR category {t['category']})", "instruction": t["instruction"],
                            "suite": f"map-thor-{t['category']}", "arms": 2, "imitates": f"MAP-THOR {t['id'].replace('_', ' ')}"})
        return out

    def api_sets(self) -> list[dict[str, Any]]:
        return [{"id": "llamar", "functions": API}]

    def reset(self, task: str, seed: int, api: Optional[str], agents: Optional[int] = None) -> dict[str, Any]:
        info = next((t for t in self.tasks() if t["id"] == task), None)
        if info is None:
            raise UnknownTask(task, [t["id"] for t in self.tasks()])
        if api not in (None, "llamar"):
            raise InvalidParams("api", f"this adapter serves the 'llamar' actions, not '{api}'")
        n = 2 if agents is None else agents
        if not 1 <= n <= len(AGENT_NAMES):
            raise InvalidParams("agents", f"agents must be 1 to {len(AGENT_NAMES)}, got {n}")
        tid, scene = task.split("@")
        self.task = next(t for t in TASKS if t["id"] == tid)
        if self.controller is None:
            self.controller = self.factory(scene=scene, agentCount=n, gridSize=GRID, visibilityDistance=VISIBILITY, renderInstanceSegmentation=True, width=300, height=300)
        else:
            self.controller.reset(scene=scene)
        self.agent_count = n
        self.names = AGENT_NAMES[:n]
        self.event = self.controller.step(action="InitialRandomSpawn", randomSeed=seed, forceVisible=True, numPlacementAttempts=5) if self._supports_spawn() else self.controller.step(action="Pass")
        self.labels: dict[str, str] = {}  # objectId -> label, in discovery order
        self.seen_by: dict[str, list[str]] = {n_: [] for n_ in self.names}
        self.paths: dict[str, list[list[int]]] = {}
        self.steps = 0
        self._grid_from_reachable()
        self._checker_init()
        self._update_views()
        self.paths = {n_: [self._cell(self._agent(i)["position"])] for i, n_ in enumerate(self.names)}
        return {"task": {**info, "arms": n}, "observation": self.observe(), "api": API, "workspace": self.workspace, "agents": list(self.names)}

    def _supports_spawn(self) -> bool:
        return not getattr(self.controller, "__module__", "").endswith("ai2thor_standin")

    # --- AI2-THOR state -------------------------------------------------------------------------------------------
    def _meta(self, i: int) -> dict[str, Any]:
        ev = self.event
        events = getattr(ev, "events", None) or [ev]
        return events[i].metadata

    def _agent(self, i: int) -> dict[str, Any]:
        return self._meta(i)["agent"]

    def _objects(self, i: int = 0) -> list[dict[str, Any]]:
        return self._meta(i)["objects"]

    def _holding(self, i: int) -> Optional[str]:
        inv = self._meta(i).get("inventoryObjects") or []
        return inv[0]["objectId"] if inv else None

    def _heading(self, i: int) -> int:
        return int(round(self._agent(i)["rotation"]["y"] / 90.0)) % 4

    def _detected(self, i: int) -> list[str]:
        """Objects in agent i's camera (instance segmentation), restricted to scene objects, in metadata order."""
        ev = self.event
        events = getattr(ev, "events", None) or [ev]
        det = getattr(events[i], "instance_detections2D", None)
        ids = [o["objectId"] for o in self._objects(i)]
        if det is None:
            return [o["objectId"] for o in self._objects(i) if o.get("visible")]
        return [oid for oid in ids if oid in det]

    def _update_views(self) -> None:
        for i, name in enumerate(self.names):
            for oid in self._detected(i):
                if oid not in self.seen_by[name]:
                    self.seen_by[name].append(oid)
                if oid not in self.labels:
                    t = oid.split("|")[0]
                    self.labels[oid] = f"{t}_{sum(1 for x in self.labels if x.split('|')[0] == t) + 1}"

    def _grid_from_reachable(self) -> None:
        ev = self.controller.step(action="GetReachablePositions")
        pts = (getattr(ev, "metadata", {}) or {}).get("actionReturn") or []
        xs = [p["x"] for p in pts] + [o["position"]["x"] for o in self._objects()]
        zs = [p["z"] for p in pts] + [o["position"]["z"] for o in self._objects()]
        # Cells are aligned with the reachable positions (AI2-THOR's own grid), with a margin for the objects.
        rx, rz = min(p["x"] for p in pts), max(p["z"] for p in pts)
        self.x0 = rx - (math.ceil((rx - min(xs)) / GRID - 1e-9) + 1) * GRID
        self.z1 = rz + (math.ceil((max(zs) - rz) / GRID - 1e-9) + 1) * GRID
        cols = int(math.ceil((max(xs) + GRID - self.x0) / GRID - 1e-9)) + 1
        rows = int(math.ceil((self.z1 - (min(zs) - GRID)) / GRID - 1e-9)) + 1
        self.reachable = {(self._cell({"x": p["x"], "z": p["z"]})[0], self._cell({"x": p["x"], "z": p["z"]})[1]) for p in pts}
        self.rows = ["".join("." if (r, c) in self.reachable else "#" for c in range(cols)) for r in range(rows)]
        self.workspace = {"tableTopZ": 0.0, "xRange": [self.x0, self.x0 + (cols - 1) * GRID], "yRange": [self.z1 - (rows - 1) * GRID, self.z1], "axes": "x east, y north (AI2-THOR's z), z up; 0.25 m grid"}

    def _cell(self, p: dict[str, float]) -> list[int]:
        return [int(round((self.z1 - p["z"]) / GRID)), int(round((p["x"] - self.x0) / GRID))]

    # --- observations -----------------------------------------------------------------------------------------------
    def observe(self) -> dict[str, Any]:
        lines = [self._agent_lines(i) for i in range(self.agent_count)]
        return {"text": "\n".join(lines), "state": self._state(None)}

    def observe_agent(self, agent: str) -> dict[str, Any]:
        if agent not in self.names:
            raise InvalidParams("agent", f"no agent '{agent}'; agents: {', '.join(self.names)}")
        i = self.names.index(agent)
        out: dict[str, Any] = {"text": self._agent_lines(i), "state": self._state(i)}
        frame = self._frame(i)
        if frame is not None:
            out["images"] = [frame_image("egocentric", frame, agent)]
        return out

    def _frame(self, i: int) -> Any:
        """Agent i's egocentric RGB frame (AI2-THOR's `event.frame`), or None when the controller renders none."""
        ev = self.event
        events = getattr(ev, "events", None) or [ev]
        return getattr(events[i], "frame", None)

    def _agent_lines(self, i: int) -> str:
        name = self.names[i]
        visible = [self.labels[o] for o in self._detected(i) if o in self.labels]
        pos = self._agent(i)["position"]
        held = self._holding(i)
        return (f"{name}'s observation: [{', '.join(repr(v) for v in visible)}]\n"
                f"{name}'s state: I am at co-ordinates: ({round(pos['x'], 2)}, {round(pos['z'], 2)}) facing {HEADINGS[self._heading(i)]} and I am holding {self.labels.get(held, 'nothing') if held else 'nothing'}")

    def _state(self, viewer: Optional[int]) -> dict[str, Any]:
        objs = self._objects(viewer or 0)
        shown = set(self._detected(viewer)) if viewer is not None else None
        holders = {self._holding(i): self.names[i] for i in range(self.agent_count) if self._holding(i)}
        objects = []
        for o in objs:
            if shown is not None and o["objectId"] not in shown:
                continue
            p = o["position"]
            parents = o.get("parentReceptacles") or []
            props = {"type": o["objectType"], "label": self.labels.get(o["objectId"]), "parent": holders.get(o["objectId"]) or (parents[0] if parents else "Floor"),
                     "cells": [self._cell(p)], "pickupable": bool(o.get("pickupable")), "receptacle": bool(o.get("receptacle"))}
            for k in STATE_KEYS:
                able = {"isOpen": "openable", "isToggled": "toggleable", "isSliced": "sliceable", "isDirty": "dirtyable", "isCooked": "cookable"}[k]
                if o.get(able):
                    props[k] = bool(o.get(k))
            if not o.get("pickupable"):
                props["fixed"] = "furniture"
            objects.append({"name": o["objectId"], "pos": [p["x"], p["z"], p["y"]], "euler": [0, 0, 0], "size": [0.2, 0.2, 0.2], "color": "", "props": props})
        robots = []
        agents = {}
        for i, name in enumerate(self.names):
            a = self._agent(i)
            held = self._holding(i)
            robots.append({"name": name, "pos": [a["position"]["x"], a["position"]["z"], 1.5], "yawRad": math.pi / 2 - math.radians(a["rotation"]["y"]), "holding": held})
            agents[name] = {"cell": self._cell(a["position"]), "heading": HEADINGS[self._heading(i)], "horizonDeg": float(a.get("cameraHorizon", 0)),
                            "holding": self.labels.get(held) if held else None, "visible": [self.labels[x] for x in self._detected(i) if x in self.labels]}
        household: dict[str, Any] = {"agents": agents, "known": [{"label": l, "object": o} for o, l in self.labels.items()], "step": self.steps}
        if viewer is not None:
            household["agent"] = self.names[viewer]
        else:
            household.update({
                "plan": {"id": self.task["id"], "label": f"AI2-THOR {self.controller.scene if hasattr(self.controller, 'scene') else ''} (reachable grid)", "cellM": GRID,
                         "rows": self.rows, "rooms": [{"name": "scene", "rect": [0, 0, len(self.rows) - 1, len(self.rows[0]) - 1]}], "legend": {".": "floor", "#": "wall"}},
                "seenBy": {k: list(v) for k, v in self.seen_by.items()},
                "paths": {k: [list(c) for c in v] for k, v in self.paths.items()},
                "checker": self._checker_state(),
            })
        first = robots[0]
        return {"objects": objects, "ee": {"pos": first["pos"], "yawRad": first["yawRad"]}, "gripperOpen": first["holding"] is None, "grasped": first["holding"], "robots": robots, "extra": {"household": household}}

    # --- actions -------------------------------------------------------------------------------------------------------
    def act(self, fn: str, args: list[Any]) -> dict[str, Any]:
        r = self.act_jointly([{"agent": self.names[0], "name": fn, "args": args}])["results"][0]
        return {"ok": True, "output": r["output"]} if r["ok"] else {"ok": False, "error": r["error"]}

    def act_jointly(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        self.steps += 1
        self.paths = {n: [self._cell(self._agent(i)["position"])] for i, n in enumerate(self.names)}
        touched: dict[str, str] = {}
        results: dict[int, dict[str, Any]] = {}
        order = sorted(range(len(actions)), key=lambda k: (self.names.index(actions[k]["agent"]) if actions[k]["agent"] in self.names else 99, k))
        for k in order:
            a = actions[k]
            name = a["agent"]
            if name not in self.names:
                results[k] = {"agent": name, "name": a["name"], "ok": False, "error": f"There is no agent named {name}.", "value": f"agents: {', '.join(self.names)}"}
                continue
            i = self.names.index(name)
            held_before = self._holding(i)
            r = self._one(i, a["name"], list(a.get("args", [])), touched)
            self._update_views()
            self._checker_record(i, r, held_before)
            results[k] = r
        return {"results": [{kk: v for kk, v in results[k].items() if not kk.startswith("_")} for k in range(len(actions))]}

    def _step(self, i: int, **kwargs: Any) -> tuple[bool, str]:
        self.event = self.controller.step(agentId=i, **kwargs)
        m = self._meta(i)
        return bool(m.get("lastActionSuccess")), str(m.get("errorMessage") or "")

    def _label_id(self, label: str) -> Optional[str]:
        return next((o for o, l in self.labels.items() if l == label), None)

    def _one(self, i: int, action: str, args: list[Any], touched: dict[str, str]) -> dict[str, Any]:
        name = self.names[i]
        arg = str(args[0]) if args else ""
        held = self._holding(i)
        held_label = self.labels.get(held, "nothing") if held else "nothing"

        def res(ok: bool, text: str, detail: str, target: Optional[str] = None) -> dict[str, Any]:
            out: dict[str, Any] = {"agent": name, "name": action, "ok": ok, "value": detail, "_target": target}
            out["output" if ok else "error"] = text
            return out

        if action in ("Idle", "Done"):
            return res(True, "I was idle in the previous step." if action == "Idle" else "I completed the task in the previous step and was successful.", "no step")
        if action in ("Move", "Rotate"):
            d = arg.capitalize()
            ok, err = self._step(i, action=f"{action}{d}") if d in (("Ahead", "Back", "Left", "Right") if action == "Move" else ("Left", "Right")) else (False, f"bad direction {arg!r}")
            self.paths[name].append(self._cell(self._agent(i)["position"])) if ok and action == "Move" else None
            verb = "moved" if action == "Move" else "rotated"
            return res(ok, f"I {verb} {d.lower()} in the previous step and was successful.", err or "ok") if ok else res(False, f"I tried to {action.lower()} {d.lower()} in the previous step but was unsuccessful.", err)
        if action in ("LookUp", "LookDown"):
            ok, err = self._step(i, action=action, degrees=int(arg or 30))
            word = "up" if action == "LookUp" else "down"
            return res(ok, f"I looked {word} {arg} degrees in the previous step and was successful.", "ok") if ok else res(False, f"I tried to look {word} {arg} degrees in the previous step but was unsuccessful.", err)
        if action == "Explore":
            return self._explore(i, args)
        oid = self._label_id(arg)
        if action == "NavigateTo":
            return self._navigate(i, arg, oid)
        if action not in ACT_TO_THOR:
            return res(False, f"I tried to do {action}({arg}) in the previous step but was unsuccessful.", f"unknown action '{action}'")
        if oid is None:
            return res(False, self._fail_text(action, arg, held_label), f"no object '{arg}' has been seen by the team")
        if action in EXCLUSIVE and oid in touched:
            return res(False, self._fail_text(action, arg, held_label), f"{touched[oid]} acted on {arg} earlier in this same step", oid)
        kwargs: dict[str, Any] = {"action": ACT_TO_THOR[action], "objectId": oid}
        if action == "Put" and "fridge" in arg.lower():
            kwargs["forceAction"] = True  # as the released code does (AI2-THOR issue #1210)
        ok, err = self._step(i, **kwargs)
        if ok and action in EXCLUSIVE:
            touched[oid] = name
        if not ok:
            return res(False, self._fail_text(action, arg, held_label), err or "AI2-THOR reported failure", oid)
        text = f"I put the {held_label} in my hand on {arg} in the previous step and was successful." if action == "Put" else f"I {PAST[action][0]} {arg} in the previous step and was successful."
        return res(True, text, "ok", oid)

    def _fail_text(self, action: str, arg: str, held_label: str) -> str:
        if action == "Put":
            return f"I tried to put the {held_label} in my hand on {arg} in the previous step but was unsuccessful."
        return f"I tried to {PAST[action][1]} {arg} in the previous step but was unsuccessful."

    def _navigate(self, i: int, label: str, oid: Optional[str]) -> dict[str, Any]:
        name = self.names[i]

        def out(ok: bool, kind: str, detail: str) -> dict[str, Any]:
            texts = {"ok": f"I navigated to {label} in the previous step and was successful.",
                     "unknown": f"I tried to navigate to {label} in the previous step but {label} doesn't exist, unsuccessful.",
                     "no_path": f"I tried to navigate to {label} in the previous step but there isn't a clear path to {label}, unsuccessful.",
                     "blocked": f"I tried to navigate to {label} in the previous step but due to blockage {label} won't be interactable, unsuccessful."}
            r: dict[str, Any] = {"agent": name, "name": "NavigateTo", "ok": ok, "value": detail, "_target": oid}
            r["output" if ok else "error"] = texts[kind]
            return r

        if oid is None:
            return out(False, "unknown", f"no object '{label}' has been seen by the team")
        obj = next(o for o in self._objects(i) if o["objectId"] == oid)
        target = self._cell(obj["position"])
        start = tuple(self._cell(self._agent(i)["position"]))
        others = {tuple(self._cell(self._agent(j)["position"])) for j in range(self.agent_count) if j != i}
        dist = self._bfs(start, others)
        def near(maxm: float) -> list[tuple[int, int]]:
            return [c for c in dist if math.hypot(c[0] - target[0], c[1] - target[1]) * GRID <= maxm]
        goal = min(near(1.0), key=lambda c: (dist[c], c), default=None) or min(near(VISIBILITY), key=lambda c: (dist[c], c), default=None)
        close = goal is not None
        if goal is None:
            goal = min(near(2.5), key=lambda c: (math.hypot(c[0] - target[0], c[1] - target[1]), dist[c]), default=None)
        if goal is None:
            return out(False, "no_path", f"no reachable position within 2.5 m of {label}")
        x, z = round(self.x0 + goal[1] * GRID, 4), round(self.z1 - goal[0] * GRID, 4)
        yaw = (round(math.degrees(math.atan2(obj["position"]["x"] - x, obj["position"]["z"] - z)) / 90) * 90) % 360
        horizon = 30 if obj["position"]["y"] < 1.0 else 0
        ok, err = self._step(i, action="Teleport", position={"x": x, "y": self._agent(i)["position"]["y"], "z": z}, rotation={"x": 0, "y": yaw, "z": 0}, horizon=horizon, standing=True)
        if not ok:
            return out(False, "no_path", f"teleport failed: {err}")
        self.paths[name].append(list(goal))
        visible = next((o.get("visible") for o in self._objects(i) if o["objectId"] == oid), False)
        if not close or not visible:
            return out(False, "blocked", f"arrived {dist[goal]} cells away, but {label} is not interactable from there")
        return out(True, "ok", f"{dist[goal]} cells on the reachable grid; facing {HEADINGS[int(yaw // 90) % 4]}")

    def _bfs(self, start: tuple[int, ...], blocked: set[tuple[int, ...]]) -> dict[tuple[int, int], int]:
        dist = {(start[0], start[1]): 0}
        queue = [(start[0], start[1])]
        for cur in queue:
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                n = (cur[0] + dr, cur[1] + dc)
                if n in dist or n not in self.reachable or n in blocked:
                    continue
                dist[n] = dist[cur] + 1
                queue.append(n)
        return dist

    def _explore(self, i: int, args: list[Any]) -> dict[str, Any]:
        name = self.names[i]
        rounds = int(args[0]) if len(args) > 0 and str(args[0]).isdigit() else 3
        moves = int(args[1]) if len(args) > 1 and str(args[1]).isdigit() else 2
        hint = str(args[2]).lower() if len(args) > 2 else ""
        notes = []
        for k in range(rounds):
            scores = []
            for d in range(4):
                self._step(i, action="RotateRight")
                new = [o for o in self._detected(i) if o not in self.labels or any(w in hint for w in [o.split("|")[0].lower()])]
                scores.append((len(new), (self._heading(i)), d))
                self._update_views()
            best = max(scores, key=lambda s: (s[0], -s[2]))
            while self._heading(i) != best[1]:
                self._step(i, action="RotateRight")
            moved = 0
            for _ in range(moves):
                ok, _err = self._step(i, action="MoveAhead")
                if not ok:
                    break
                moved += 1
                self.paths[name].append(self._cell(self._agent(i)["position"]))
            self._update_views()
            notes.append(f"round {k + 1}: {HEADINGS[best[1]]} ({best[0]} new), moved {moved}")
        return {"agent": name, "name": "Explore", "ok": True, "output": "I explored the environment in the previous step and was successful.", "value": "; ".join(notes), "_target": None}

    # --- checker (the released code's semantics) ---------------------------------------------------------------
    def _checker_init(self) -> None:
        objs = self._objects()
        def instances(t: str) -> list[str]:
            return [o["objectId"] for o in objs if o["objectType"] == t]
        self.subtasks: list[dict[str, Any]] = []
        for s in self.task["subtasks"]:
            act, inner = s.split("(", 1)
            parts = [p.strip() for p in inner.rstrip(")").split(",")]
            if parts[0].endswith("*"):
                for oid in instances(parts[0][:-1]):
                    self.subtasks.append({"text": f"{act}({parts[0][:-1]} {oid})", "act": act, "obj": oid, "rec": None, "done": False})
            elif len(parts) == 2:
                self.subtasks.append({"text": s, "act": act, "obj": parts[1], "rec": parts[0], "done": False})
            else:
                self.subtasks.append({"text": s, "act": act, "obj": parts[0], "rec": None, "done": False})
        self.coverage = [oid for c in self.task["coverage"] for oid in (instances(c[:-1]) if c.endswith("*") else instances(c)[:1])]
        self.coverage_done: list[str] = []

    def _checker_record(self, i: int, r: dict[str, Any], held_before: Optional[str]) -> None:
        target = r.get("_target")
        if not r["ok"] or not target:
            return
        act = "NavigateTo" if r["name"] == "NavigateTo" else ACT_TO_THOR.get(r["name"], r["name"])
        ttype = target.split("|")[0]
        htype = held_before.split("|")[0] if held_before else None
        def matches(s: dict[str, Any], a: str) -> bool:
            if s["act"] != a:
                return False
            if s["rec"] is not None:
                return s["rec"] == ttype and s["obj"] == htype
            return s["obj"] == target or s["obj"] == ttype
        for a in ([act, "NavigateTo"] if act != "NavigateTo" else [act]):
            for s in self.subtasks:
                if not s["done"] and matches(s, a):
                    s.update(done=True, by=self.names[i], step=self.steps)
        if target in self.coverage and target not in self.coverage_done:
            self.coverage_done.append(target)

    def _checker_state(self) -> dict[str, Any]:
        subs = [{"id": f"s{k + 1}", "text": s["text"], "done": s["done"], **({"by": s["by"], "step": s["step"]} if s["done"] else {})} for k, s in enumerate(self.subtasks)]
        return {"subtasks": subs, "coverageTotal": list(self.coverage), "coverageDone": list(self.coverage_done), "success": bool(subs) and all(s["done"] for s in subs)}

    def check(self) -> dict[str, Any]:
        st = self._checker_state()
        done = sum(1 for s in st["subtasks"] if s["done"])
        return {"success": st["success"], "detail": f"{done}/{len(st['subtasks'])} checker subtasks done"}

    def geometry(self) -> dict[str, Any]:
        """Fixed objects (furniture, appliances) as boxes, z up: AI2-THOR's axisAlignedBoundingBox when the metadata
        has it, else a 0.25 m cube at the object's position. Enough for a 3D overview, not a render of the scene."""
        bodies, geoms = [], []
        for o in self._objects():
            if o.get("pickupable"):
                continue
            box = o.get("axisAlignedBoundingBox") or {}
            c, sz = box.get("center") or o["position"], box.get("size") or {"x": GRID, "y": GRID, "z": GRID}
            bodies.append(o["objectId"])
            geoms.append({"body": o["objectId"], "kind": "box", "size": [sz["x"] / 2, sz["z"] / 2, sz["y"] / 2], "pos": [c["x"], c["z"], c["y"]],
                          "quat": [1, 0, 0, 0], "rgba": [0.6, 0.45, 0.3, 1]})
        return {"bodies": bodies, "geoms": geoms}

    def sim_time_secs(self) -> float:
        return float(getattr(self, "steps", 0))

    def close(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


if __name__ == "__main__":
    if "--stand-in" in sys.argv:
        sys.argv.remove("--stand-in")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from ai2thor_standin import Controller as StandIn  # noqa: E402

        main(lambda: Ai2ThorLlamar(controller_factory=StandIn))
    else:
        main(Ai2ThorLlamar)
