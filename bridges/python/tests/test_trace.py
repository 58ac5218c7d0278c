"""Tests of waypoint_trace (standard library unittest).

Standalone: the column codec, the committed schema v1 fixture traces (complete, truncated, corrupt), missing content
and bad columns, and the optional pandas path. With WAYPOINT_TRACE_FIXTURES naming a manifest written by
test/conformance/dataExport.test.ts (`npm test` runs it), also: traces the TypeScript writer wrote (a real sweep's
and a synthetic one with every column encoding and an image) read to the very events the TypeScript reader returns,
and load_sweep's rows equal to the CSV `waypoint export` wrote.

Run: python3 -m unittest discover -s bridges/python/tests -p 'test_trace*.py'
"""
from __future__ import annotations

import base64
import csv
import json
import os
import struct
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPO = ROOT.parents[1]
sys.path.insert(0, str(ROOT))

import waypoint_trace as wt  # noqa: E402
from waypoint_trace._columns import ColumnError, decode_column, decode_samples  # noqa: E402

FIXTURES = REPO / "test" / "fixtures" / "traces"
MANIFEST = os.environ.get("WAYPOINT_TRACE_FIXTURES")


def varints(ks, order):
    """The test's own encoder (docs/trace.md): zigzag LEB128 of first or second differences, base64."""
    out = bytearray()
    for i, k in enumerate(ks):
        k1 = ks[i - 1] if i > 0 else 0
        k2 = ks[i - 2] if i > 1 else 0
        d = k - k1 if order == 1 else k - 2 * k1 + k2
        z = 2 * d if d >= 0 else -2 * d - 1
        while z >= 128:
            out.append((z & 127) | 128)
            z >>= 7
        out.append(z)
    return str(order) + base64.b64encode(bytes(out)).decode()


class Columns(unittest.TestCase):
    def test_each_column_encoding_decodes_to_k_over_ten_to_e(self):
        ks = [0, 1, -1, 300, -70000, 2 ** 40, 2 ** 40 - 3]
        for order in (1, 2):
            self.assertEqual(decode_column(varints(ks, order), len(ks), 3), [k / 1000 for k in ks])
        self.assertEqual(decode_column(0.75, 4, 5), [0.75] * 4)
        raw = [1e300, -3.0, 2.5]
        self.assertEqual(decode_column("f" + base64.b64encode(struct.pack("<3d", *raw)).decode(), 3, 5), raw)

    def test_malformed_columns_raise(self):
        good = varints([1, 2, 3], 1)
        for bad, n in ((good, 4), (varints([1, 2, 3, 4], 1), 3), ("1!!", 1), ("x" + good[1:], 3), ("f" + base64.b64encode(b"12345678").decode(), 2), (float("nan"), 2)):
            with self.assertRaises(ColumnError, msg=repr(bad)):
                decode_column(bad, n, 5)

    def test_samples_from_columns_with_runs_of_grasped_and_contacts(self):
        cols = {
            "n": 3,
            "tSecs": {"e": 6, "v": [varints([0, 20000, 40000], 2)]},
            "ee": {"e": 5, "v": [0.3, varints([0, 1, 2], 1), 1.1, 0]},
            "gripperWidth": {"e": 5, "v": [0.08]},
            "qpos": {"e": 5, "v": [varints([5, 6, 7], 1), -1]},
            "grasped": [[0, None], [2, "red block"]],
            "contacts": [[0, None], [1, []], [2, [["finger", "red block"]]]],
        }
        s = decode_samples(cols)
        self.assertEqual([x["tSecs"] for x in s], [0.0, 0.02, 0.04])
        self.assertEqual(s[1]["ee"], [0.3, 1e-05, 1.1, 0.0])
        self.assertEqual([x["grasped"] for x in s], [None, None, "red block"])
        self.assertNotIn("contacts", s[0])  # no list on that sample
        self.assertEqual(s[1]["contacts"], [])  # a list, empty
        self.assertEqual(s[2]["contacts"], [["finger", "red block"]])
        self.assertEqual(s[2]["qpos"], [7e-05, -1.0])
        with self.assertRaises(ColumnError):
            decode_samples({**cols, "grasped": [[1, None]]})  # runs must start at sample 0


class V1Fixture(unittest.TestCase):
    def test_complete_fixture_reads_every_event_inline(self):
        events, warnings = wt.read_trace((FIXTURES / "malmm-pick-place.jsonl").read_text())
        self.assertEqual(warnings, [])
        lines = [json.loads(x) for x in (FIXTURES / "malmm-pick-place.jsonl").read_text().splitlines() if x.strip()]
        self.assertEqual(events, lines)  # schema v1: stored as they are
        run = wt.load_run(FIXTURES / "malmm-pick-place.jsonl")
        self.assertEqual(run["run_id"], "2026-03-14T10-22-05-malmm-pick_place-s7")
        calls = wt.turns(run)
        self.assertEqual(len(calls), sum(1 for e in events if e["type"] == "role_call"))
        self.assertTrue(all(c["ok"] is not None and isinstance(c["messages"], list) for c in calls))
        samples = wt.trajectory(run)
        self.assertEqual(len(samples), sum(len(e["samples"]) for e in events if e["type"] == "trajectory"))

    def test_truncated_and_corrupt_fixtures_warn_and_keep_the_rest(self):
        full, _ = wt.read_trace((FIXTURES / "malmm-pick-place.jsonl").read_text())
        cut_text = (FIXTURES / "malmm-pick-place.truncated.jsonl").read_text()
        cut, w = wt.read_trace(cut_text)
        self.assertEqual(len(cut), len(full) - 1)
        self.assertEqual([(x["kind"], x["line"]) for x in w], [("truncated_last_line", len(cut_text.split("\n")))])
        bad, w = wt.read_trace((FIXTURES / "malmm-pick-place.corrupt.jsonl").read_text())
        self.assertEqual(len(bad), len(full) - 1)
        self.assertEqual([x["kind"] for x in w], ["corrupt_line"])
        self.assertEqual(w[0]["line"], len(full) // 2 + 1)


class Compact(unittest.TestCase):
    START = {"seq": 0, "tMs": 0, "type": "episode_start", "schemaVersion": 2, "runId": "r"}

    def test_missing_message_and_blob_are_placeholders_with_warnings_naming_them(self):
        msg = {"record": "message", "hash": "aaaaaaaaaaaaaaaa", "message": {"role": "user", "content": "look", "parts": [{"type": "image", "mediaType": "image/png", "sha256": "b" * 64, "blob": True}]}}
        call = {"seq": 1, "tMs": 1, "type": "role_call", "callId": "c1", "messages": ["aaaaaaaaaaaaaaaa", "ffffffffffffffff"]}
        events, w = wt.read_trace("\n".join(json.dumps(x) for x in (self.START, msg, call)) + "\n")
        m = events[1]["messages"]
        self.assertEqual(m[0]["parts"][0], {"type": "image", "mediaType": "image/png", "sha256": "b" * 64})
        self.assertEqual(m[1], {"role": "user", "content": "[message ffffffffffffffff is missing from this trace]"})
        self.assertEqual([x["kind"] for x in w], ["missing_content", "missing_content"])
        self.assertIn("b" * 64, w[0]["message"])
        self.assertIn("ffffffffffffffff", w[1]["message"])

    def test_bad_columns_skip_that_trajectory_only(self):
        traj = {"seq": 1, "tMs": 1, "type": "trajectory", "turn": 0, "rateHz": 50, "columns": {"n": 2, "tSecs": {"e": 6, "v": ["1AA"]}}}
        end = {"seq": 2, "tMs": 2, "type": "episode_end", "success": True}
        events, w = wt.read_trace("\n".join(json.dumps(x) for x in (self.START, traj, end)) + "\n")
        self.assertEqual([e["type"] for e in events], ["episode_start", "episode_end"])
        self.assertEqual((w[0]["kind"], w[0]["line"]), ("invalid_event", 2))


class Frames(unittest.TestCase):
    @unittest.skipIf(wt.have_pandas(), "pandas is installed")
    def test_without_pandas_to_frame_says_what_to_install(self):
        with self.assertRaises(ImportError) as cm:
            wt.to_frame([{"a": 1}])
        self.assertIn("pandas", str(cm.exception))

    @unittest.skipUnless(wt.have_pandas(), "pandas is not installed")
    def test_with_pandas_rows_become_a_frame_in_column_order(self):
        df = wt.to_frame([{"b": 1, "a": "x"}, {"b": 2, "a": None, "c": True}])
        self.assertEqual(list(df.columns), ["b", "a", "c"])
        self.assertEqual(df["b"].tolist(), [1, 2])


def typed(text, like):
    """A CSV field read as the type of the value it should equal."""
    if like is None:
        return None if text == "" else text
    if isinstance(like, bool):
        return {"true": True, "false": False}.get(text, text)
    if isinstance(like, (int, float)):
        return type(like)(float(text)) if isinstance(like, float) else int(text)
    return text


@unittest.skipUnless(MANIFEST, "WAYPOINT_TRACE_FIXTURES not set (test/conformance/dataExport.test.ts sets it)")
class WrittenByTypeScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = json.loads(Path(MANIFEST).read_text())

    def test_traces_read_to_the_events_the_typescript_reader_returns(self):
        self.assertGreaterEqual(len(self.m["traces"]), 3)
        for t in self.m["traces"]:
            with self.subTest(trace=t["trace"]):
                expected = json.loads(Path(t["expected"]).read_text())
                events, warnings = wt.read_trace(Path(t["trace"]).read_text())
                self.assertEqual([w["kind"] for w in warnings], expected["warnings"])
                self.assertEqual(len(events), len(expected["events"]))
                for got, want in zip(events, expected["events"]):
                    self.assertEqual(got, want, f"event seq {want.get('seq')} ({want.get('type')})")

    def test_views_count_what_the_trace_holds(self):
        for t in self.m["traces"]:
            expected = json.loads(Path(t["expected"]).read_text())["events"]
            run = wt.load_run(t["trace"])
            calls = wt.turns(run)
            self.assertEqual(len(calls), sum(1 for e in expected if e["type"] == "role_call"))
            answered = [e for e in expected if e["type"] == "model_response"]
            self.assertEqual(sum(c["tokens_in"] or 0 for c in calls), sum((e.get("usage") or {}).get("promptTokens", 0) for e in answered))
            trajs = [e for e in expected if e["type"] == "trajectory"]
            rows = wt.trajectory(run, bodies=True)
            self.assertEqual(len(rows), sum(len(e["samples"]) for e in trajs))
            scene = next((e for e in expected if e["type"] == "scene"), None)
            with_bodies = [s for e in trajs for s in e["samples"] if "bodies" in s]
            if scene and with_bodies:
                first = next(r for r in rows if f"{scene['bodies'][0]}.x" in r)
                self.assertEqual(first[f"{scene['bodies'][0]}.qw"], with_bodies[0]["bodies"][3])

    def test_load_sweep_rows_equal_the_exported_csv(self):
        rows = wt.load_sweep(self.m["sweep"])
        with open(self.m["csv"], newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        header, body = table[0], table[1:]
        self.assertEqual(list(rows[0].keys()), header)
        self.assertEqual(len(rows), len(body))
        for row, line in zip(rows, body):
            for name, text in zip(header, line):
                self.assertEqual(typed(text, row[name]), row[name], f"{row['key']} {name}")
        # Sweep names resolve under ./.waypoint/sweeps too.
        cwd = os.getcwd()
        try:
            os.chdir(self.m["workspace"])
            self.assertEqual(wt.load_sweep(self.m["sweep_name"]), rows)
        finally:
            os.chdir(cwd)

    @unittest.skipUnless(wt.have_pandas(), "pandas is not installed")
    def test_frame_of_the_sweep(self):
        df = wt.load_sweep(self.m["sweep"], frame=True)
        self.assertEqual(len(df), len(wt.load_sweep(self.m["sweep"])))
        self.assertIn("tokens_in", df.columns)


if __name__ == "__main__":
    unittest.main()
