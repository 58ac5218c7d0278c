# Native MuJoCo side of the simulator benchmark and of the scene-export test, through the official `mujoco`
# Python package. A line protocol on stdin/stdout (one JSON object per line each way), so the Node side can
# interleave its own measurements with these on a machine whose load changes from second to second.
# The stepping code mirrors test/bench/stepTimings.ts line by line: same calls, same order, same clock reads.
import json
import sys
import time

import mujoco
import numpy as np

# mj_forward's stages in order (sensors = pos + vel + acc sensors and energy), then the integrator.
STAGES = ["position", "velocity", "actuation", "acceleration", "constraint", "sensors", "integrate"]
models = {}


def load(path):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    models[path] = (m, d)
    return {"nq": m.nq, "nv": m.nv, "nbody": m.nbody, "ngeom": m.ngeom, "nkey": m.nkey, "integrator": int(m.opt.integrator)}


def reset(m, d):
    mujoco.mj_resetDataKeyframe(m, d, 0)


def rate(m, d, steps):
    reset(m, d)
    step = mujoco.mj_step
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(steps):
        step(m, d)
    cpu = time.process_time() - c0
    secs = time.perf_counter() - t0
    return {"stepsPerSec": steps / secs, "stepsPerCpuSec": steps / cpu, "ncon": int(d.ncon), "nefc": int(d.nefc), "qpos": d.qpos.tolist(), "time": d.time}


def stages(m, d, steps):
    """mj_step taken apart into mj_forward's stages plus the integrator: median microseconds per stage (implicit/implicitfast only)."""
    reset(m, d)
    # Per-step samples; the median is reported, so steps during which the process was descheduled do not count.
    acc = {s: [] for s in STAGES}
    acc["collision"] = []
    scratch = mujoco.MjData(m)
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    buf = np.zeros(mujoco.mj_stateSize(m, spec))
    now = time.perf_counter
    for k in range(steps):
        t0 = now()
        mujoco.mj_fwdPosition(m, d)
        t1 = now()
        mujoco.mj_sensorPos(m, d)
        mujoco.mj_energyPos(m, d)
        t2 = now()
        mujoco.mj_fwdVelocity(m, d)
        t3 = now()
        mujoco.mj_sensorVel(m, d)
        mujoco.mj_energyVel(m, d)
        t4 = now()
        mujoco.mj_fwdActuation(m, d)
        t5 = now()
        mujoco.mj_fwdAcceleration(m, d)
        t6 = now()
        mujoco.mj_fwdConstraint(m, d)
        t7 = now()
        mujoco.mj_sensorAcc(m, d)
        t8 = now()
        mujoco.mj_implicit(m, d)
        t9 = now()
        acc["position"].append(t1 - t0)
        acc["sensors"].append((t2 - t1) + (t4 - t3) + (t8 - t7))
        acc["velocity"].append(t3 - t2)
        acc["actuation"].append(t5 - t4)
        acc["acceleration"].append(t6 - t5)
        acc["constraint"].append(t7 - t6)
        acc["integrate"].append(t9 - t8)
        # Collision alone, on a scratch copy (it clears the constraint rows, so never on the simulated data).
        if k % 10 == 0:
            mujoco.mj_getState(m, d, buf, spec)
            mujoco.mj_setState(m, scratch, buf, spec)
            mujoco.mj_fwdPosition(m, scratch)
            c0 = now()
            mujoco.mj_collision(m, scratch)
            acc["collision"].append(now() - c0)
    return {"usPerStep": {k: float(np.median(v)) * 1e6 for k, v in acc.items()}, "ncon": int(d.ncon)}


def main():
    print(json.dumps({"ready": True, "version": mujoco.mj_versionString(), "python": sys.version.split()[0]}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            op = req["op"]
            if op == "load":
                out = load(req["path"])
            elif op == "rate":
                out = rate(*models[req["path"]], req["steps"])
            elif op == "stages":
                out = stages(*models[req["path"]], req["steps"])
            elif op == "keyframe":
                m, d = models[req["path"]]
                reset(m, d)
                mujoco.mj_forward(m, d)
                names = req.get("bodies", [])
                out = {"bodies": {n: d.body(n).xpos.tolist() for n in names}, "ncon": int(d.ncon), "time": d.time}
            else:
                raise ValueError(f"unknown op {op!r}")
            print(json.dumps({"ok": True, **out}), flush=True)
        except Exception as e:  # a bad file is an answer, not a crash
            print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}), flush=True)


if __name__ == "__main__":
    main()
