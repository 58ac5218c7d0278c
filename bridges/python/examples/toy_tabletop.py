"""A toy tabletop served over the Waypoint simulator protocol: a point-mass gripper moving in straight lines at
0.5 m/s and two 4 cm blocks. It has the same world and API as the TypeScript test fake, enough to pass the
conformance suite and to run a scripted pick-and-place. Replace the physics with your RLBench / MuJoCo / Isaac
calls; the protocol side stays these few lines:

    class MySim(Simulator): ...           # tasks, reset, observe, act, check, sim_time_secs
    main(MySim)                           # stdio;  `python3 my_sim.py --ws 8765` for WebSocket

Run by Waypoint as  stdio:python3 bridges/python/examples/toy_tabletop.py
"""
from __future__ import annotations

import copy
import io
import math
import random
import sys
import traceback
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Optional

# Lets the example run from a checkout without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from waypoint_sim import Simulator, UnknownTask, api_function, main  # noqa: E402

SPEED_M_PER_S = 0.5
RATE_HZ = 50.0
BLOCK_M = 0.04
WORKSPACE = {"tableTopZ": 0.0, "xRange": [-0.4, 0.4], "yRange": [-0.4, 0.4], "axes": "x to the right, y away from the robot, z up"}
TASKS = [
    {"id": "pick_place", "description": "Put the red block into the green zone.", "instruction": "Pick up the red block and place it in the green zone.", "suite": "toy", "arms": 1, "imitates": "MALMM put-block-in-zone"},
    {"id": "stack", "description": "Stack the red block on the blue block.", "instruction": "Stack the red block on top of the blue block.", "suite": "toy", "arms": 1, "imitates": "MALMM stack-blocks"},
]
API = [
    api_function("execute_trajectory", [("position", "vec3"), ("orientation", "float")], "Move the gripper in a straight line to [x, y, z] (metres) with yaw (radians)."),
    api_function("open_gripper", [], "Open the gripper; a held block drops onto what is below it."),
    api_function("close_gripper", [("object_name", "str")], "Grasp the named block; the gripper must be around it."),
    api_function("task_completed", [], "Declare the task finished."),
]


def r4(v: float) -> float:
    return round(v, 4)


class ToyTabletop(Simulator):
    name = "toy-tabletop-py"
    version = "1.0"
    robots = [{"name": "gripper", "description": "point-mass parallel gripper, 0.5 m/s straight-line moves"}]
    code_languages = ["python"]

    def __init__(self) -> None:
        self.w: Optional[dict[str, Any]] = None
        self.samples: list[dict[str, Any]] = []

    def tasks(self) -> list[dict[str, Any]]:
        return TASKS

    def api_sets(self) -> list[dict[str, Any]]:
        return [{"id": "malmm", "functions": API}]

    def reset(self, task: str, seed: int, api: Optional[str]) -> dict[str, Any]:
        info = next((t for t in TASKS if t["id"] == task), None)
        if info is None:
            raise UnknownTask(task, [t["id"] for t in TASKS])
        rng = random.Random(seed)
        # Red block 0.12-0.25 m from the centre, the zone opposite it, the blue block a quarter turn away:
        # every pair at least 0.17 m apart.
        angle, radius = rng.uniform(-math.pi, math.pi), rng.uniform(0.12, 0.25)
        rx, ry = r4(radius * math.cos(angle)), r4(radius * math.sin(angle))
        bx, by = r4(-ry), r4(rx)
        self.w = {
            "task": task,
            "ee": [0.0, 0.0, 0.3],
            "yaw": 0.0,
            "open": True,
            "grasped": None,
            "blocks": [
                {"name": "red_block", "color": "red", "pos": [rx, ry, BLOCK_M / 2]},
                {"name": "blue_block", "color": "blue", "pos": [bx, by, BLOCK_M / 2]},
            ],
            "zone": [r4(-rx), r4(-ry)],
            "t": 0.0,
        }
        self.samples = []
        return {"task": info, "observation": self.observe(), "api": API, "workspace": WORKSPACE}

    # --- state ------------------------------------------------------------------------------------------------
    def _block(self, name: Any) -> Optional[dict[str, Any]]:
        return next((b for b in self.w["blocks"] if b["name"] == name), None)

    def observe(self) -> dict[str, Any]:
        w = self.w
        objects = [{"name": b["name"], "pos": list(b["pos"]), "euler": [0, 0, 0], "size": [BLOCK_M] * 3, "color": b["color"]} for b in w["blocks"]]
        objects.append({"name": "green_zone", "pos": [w["zone"][0], w["zone"][1], 0.0], "euler": [0, 0, 0], "size": [0.1, 0.1, 0.001], "color": "green"})
        lines = [f"{o['name']}: center {o['pos']} m, yaw 0 rad, size {o['size']} m, colour {o['color']}" for o in objects]
        lines.append(f"gripper: position {[r4(v) for v in w['ee']]} m, yaw {r4(w['yaw'])} rad, {'open' if w['open'] else 'closed'}, holding {w['grasped'] or 'nothing'}")
        state = {"objects": objects, "ee": {"pos": list(w["ee"]), "yawRad": w["yaw"]}, "gripperOpen": w["open"], "grasped": w["grasped"]}
        return {"text": "\n".join(lines), "state": state}

    def _record(self) -> None:
        w = self.w
        self.samples.append({"tSecs": r4(w["t"]), "qpos": [*w["ee"], w["yaw"]], "ee": [*w["ee"], w["yaw"]], "gripperWidth": 0.08 if w["open"] else 0.04, "grasped": w["grasped"]})

    # --- API --------------------------------------------------------------------------------------------------
    def act(self, fn: str, args: list[Any]) -> dict[str, Any]:
        w = self.w
        if fn == "execute_trajectory":
            if len(args) != 2 or not isinstance(args[0], list) or len(args[0]) != 3 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in args[0]):
                return {"ok": False, "error": "execute_trajectory: position must be [x, y, z] in metres"}
            if not isinstance(args[1], (int, float)) or isinstance(args[1], bool):
                return {"ok": False, "error": "execute_trajectory: orientation must be a number (radians)"}
            target = [float(v) for v in args[0]]
            if not (WORKSPACE["xRange"][0] <= target[0] <= WORKSPACE["xRange"][1] and WORKSPACE["yRange"][0] <= target[1] <= WORKSPACE["yRange"][1] and 0 <= target[2] <= 0.6):
                return {"ok": False, "error": f"execute_trajectory: target {target} is outside the workspace"}
            start = list(w["ee"])
            steps = max(1, math.ceil(math.dist(start, target) / SPEED_M_PER_S * RATE_HZ))
            held = self._block(w["grasped"])
            for i in range(1, steps + 1):
                f = i / steps
                w["ee"] = [s + f * (t - s) for s, t in zip(start, target)]
                w["yaw"] = float(args[1])
                w["t"] += 1 / RATE_HZ
                if held:
                    held["pos"] = list(w["ee"])
                self._record()
            w["ee"] = [r4(v) for v in target]
            if held:
                held["pos"] = list(w["ee"])
            return {"ok": True}
        if fn == "open_gripper":
            held = self._block(w["grasped"])
            w["open"], w["grasped"] = True, None
            if held:
                below = [b for b in w["blocks"] if b is not held and abs(b["pos"][0] - held["pos"][0]) < BLOCK_M and abs(b["pos"][1] - held["pos"][1]) < BLOCK_M and b["pos"][2] < held["pos"][2]]
                support = max([b["pos"][2] + BLOCK_M / 2 for b in below], default=0.0)
                held["pos"] = [r4(held["pos"][0]), r4(held["pos"][1]), r4(support + BLOCK_M / 2)]
            w["t"] += 1 / RATE_HZ
            self._record()
            return {"ok": True}
        if fn == "close_gripper":
            b = self._block(args[0] if args else None)
            if b is None:
                names = ", ".join(x["name"] for x in w["blocks"])
                return {"ok": False, "error": f"close_gripper: no object named '{args[0] if args else ''}' (objects: {names})"}
            w["open"] = False
            w["t"] += 1 / RATE_HZ
            near = math.hypot(b["pos"][0] - w["ee"][0], b["pos"][1] - w["ee"][1]) < 0.02 and abs(b["pos"][2] - w["ee"][2]) < 0.02
            if near:
                w["grasped"] = b["name"]
            self._record()
            return {"ok": True} if near else {"ok": True, "output": f"warning: the gripper closed on nothing; '{b['name']}' is not between the fingers"}
        if fn == "task_completed":
            return {"ok": True}
        return {"ok": False, "error": f"unknown API function '{fn}' (known: {', '.join(f['name'] for f in API)})"}

    def check(self) -> dict[str, Any]:
        w = self.w
        red, blue = w["blocks"]
        if w["task"] == "stack":
            ok = w["grasped"] is None and math.hypot(red["pos"][0] - blue["pos"][0], red["pos"][1] - blue["pos"][1]) < 0.02 and abs(red["pos"][2] - (blue["pos"][2] + BLOCK_M)) < 0.005
            return {"success": ok, "detail": f"red_block {'rests' if ok else 'does not rest'} on blue_block (red z {red['pos'][2]} m, blue z {blue['pos'][2]} m)"}
        d = math.hypot(red["pos"][0] - w["zone"][0], red["pos"][1] - w["zone"][1])
        ok = w["grasped"] is None and d < 0.05 and abs(red["pos"][2] - BLOCK_M / 2) < 0.005
        return {"success": ok, "detail": f"red_block is {r4(d)} m from the zone centre (needs < 0.05 m, resting on the table)"}

    def drain_trajectory(self) -> dict[str, Any]:
        out, self.samples = self.samples, []
        return {"rateHz": RATE_HZ, "samples": out}

    def geometry(self) -> dict[str, Any]:
        w = self.w
        geoms = [{"body": "table", "kind": "plane", "size": [0.4, 0.4, 0.01], "pos": [0, 0, 0], "quat": [1, 0, 0, 0], "rgba": [0.8, 0.7, 0.6, 1]}]
        for b in w["blocks"]:
            geoms.append({"body": b["name"], "kind": "box", "size": [BLOCK_M / 2] * 3, "pos": list(b["pos"]), "quat": [1, 0, 0, 0], "rgba": [1, 0, 0, 1] if b["color"] == "red" else [0, 0, 1, 1]})
        geoms.append({"body": "gripper", "kind": "sphere", "size": [0.01], "pos": list(w["ee"]), "quat": [1, 0, 0, 0], "rgba": [0.2, 0.2, 0.2, 1]})
        return {"bodies": ["table", *(b["name"] for b in w["blocks"]), "gripper"], "geoms": geoms}

    def sim_time_secs(self) -> float:
        return r4(self.w["t"]) if self.w else 0.0

    def snapshot(self) -> Any:
        return copy.deepcopy(self.w)

    def restore(self, state: Any) -> None:
        self.w = copy.deepcopy(state)
        self.samples = []

    # --- the simulator runs the agent's Python itself (optional capability) ---------------------------------
    def execute(self, code: str, language: str, timeout_secs: Optional[float]) -> dict[str, Any]:
        calls: list[dict[str, Any]] = []

        def bind(fn: str):
            def call(*args: Any) -> None:
                r = self.act(fn, [list(a) if isinstance(a, tuple) else a for a in args])
                calls.append({"fn": fn, "args": list(args), "ok": r["ok"], **({"error": r["error"]} if not r["ok"] else {})})
                if not r["ok"]:
                    raise RuntimeError(r["error"])
                if r.get("output"):
                    print(r["output"])
            return call

        namespace: dict[str, Any] = {f["name"]: bind(f["name"]) for f in API}
        buf = io.StringIO()
        try:
            with redirect_stdout(buf):
                exec(compile(code, "<agent code>", "exec"), namespace)
        except Exception as e:  # the agent's code failed: that is a result, not a crash
            tb = traceback.extract_tb(e.__traceback__)
            line = next((f.lineno for f in reversed(tb) if f.filename == "<agent code>"), None)
            err: dict[str, Any] = {"type": type(e).__name__, "message": str(e)}
            if line is not None:
                err["line"] = line
            return {"ok": False, "exitCode": 1, "stdout": buf.getvalue(), "error": err, "apiCalls": calls}
        return {"ok": True, "exitCode": 0, "stdout": buf.getvalue(), "apiCalls": calls}


if __name__ == "__main__":
    main(ToyTabletop)
