"""Replays the wire vectors in ../testdata against the Python SDK's codec.

Run: python3 -m unittest discover -s module-abi/python -p 'test_*.py'
"""

import asyncio
import base64
import json
import math
import os
import tempfile
import unittest

import cortexfs_module as m

TESTDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata")


def load(name):
    with open(os.path.join(TESTDATA, name), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def expand_bytes(spec):
    if isinstance(spec, str):
        return spec.encode("utf-8", "surrogatepass")
    if isinstance(spec, list):
        return b"".join(expand_bytes(part) for part in spec)
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    return (spec["repeat"] * spec["count"]).encode("utf-8")


def expand_value(value):
    if isinstance(value, list):
        return [expand_value(v) for v in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("$repeat"), str):
        return value["$repeat"] * value["count"]
    if isinstance(value.get("$nest"), int):
        nested = []
        for _ in range(value["$nest"] - 1):
            nested = [nested]
        return nested
    return {k: expand_value(v) for k, v in value.items()}


def same(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


class Vectors(unittest.TestCase):
    def check_error(self, vector, run):
        with self.assertRaises(m.WireError, msg=vector["name"]) as caught:
            run()
        self.assertEqual(caught.exception.code, vector["error"], vector["name"])
        if "field" in vector:
            self.assertEqual(caught.exception.field, vector["field"], vector["name"])

    def test_decode(self):
        vectors = load("decode.jsonl")
        self.assertGreater(len(vectors), 80)
        for vector in vectors:
            data = expand_bytes(vector["raw"])
            if "error" in vector:
                self.check_error(vector, lambda: m.decode_frame(data))
            else:
                self.assertTrue(same(m.decode_frame(data), expand_value(vector["frame"])), vector["name"])

    def test_encode(self):
        for vector in load("encode.jsonl"):
            frame = expand_value(vector["frame"])
            if "error" in vector:
                self.check_error(vector, lambda: m.encode_frame(frame))
            else:
                self.assertEqual(m.encode_frame(frame), expand_bytes(vector["raw"]), vector["name"])

    def test_stream(self):
        for vector in load("stream.jsonl"):
            data = expand_bytes(vector["input"])
            expected = expand_value(vector["results"])
            for size in (len(data), 1 if len(data) < 65536 else 997, 4096):
                reader = m.FrameReader()
                got = []
                for at in range(0, len(data), max(size, 1)):
                    got += reader.push(data[at:at + max(size, 1)])
                simple = [{"error": r.code} if isinstance(r, m.WireError) else {"frame": r} for r in got]
                self.assertTrue(same(simple, expected), "%s (chunks of %d)" % (vector["name"], size))
                end = [{"error": r.code} for r in reader.end()]
                self.assertEqual(end, vector["end"], vector["name"])

    def test_encode_refuses_values_json_cannot_carry(self):
        call = {"type": "call", "request_id": "r", "method": "m"}
        for payload in (math.nan, math.inf, {1: "x"}, "\ud800", object()):
            with self.assertRaises(m.WireError):
                m.encode_frame(dict(call, payload=payload))


class Session(unittest.TestCase):
    """Drives a ModuleSession from a raw host end over a real Unix socket."""

    def test_handshake_lifecycle_calls_and_garbage(self):
        asyncio.run(self._run())

    async def _run(self):
        accepted = asyncio.get_running_loop().create_future()

        async def on_connect(reader, writer):
            accepted.set_result((reader, writer))

        log = []

        async def slow_init(operation, ctx):
            log.append(operation)
            await asyncio.sleep(0.01)

        def fails(payload, ctx):
            raise RuntimeError("secret=hunter2")

        async def deny(payload, ctx):
            await asyncio.sleep(0)
            raise m.ModuleError("permission_denied", "not for you")

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.sock")
            server = await asyncio.start_unix_server(on_connect, path)
            meta = {"id": "py.test", "version": "1", "kind": "tool", "capabilities": []}
            session = m.ModuleSession(meta, {"echo": lambda p, ctx: p, "fails": fails, "deny": deny}, slow_init, 5)
            serving = asyncio.ensure_future(session.serve(path))
            reader, writer = await accepted
            frames = m.FrameReader()
            queue = []

            async def next_frame():
                while not queue:
                    chunk = await reader.read(65536)
                    queue.extend(frames.push(chunk) if chunk else ["eof"])
                return queue.pop(0)

            def send(frame):
                writer.write(m.encode_frame(frame))

            send({"type": "hello", "abi": m.WIRE_ABI, "instance": "i-1"})
            self.assertEqual(await next_frame(), {"type": "ready", "metadata": meta})
            # Sent back to back: the SDK must run them in order.
            send({"type": "lifecycle", "request_id": "l1", "operation": "init"})
            send({"type": "lifecycle", "request_id": "l2", "operation": "start"})
            self.assertEqual(await next_frame(), {"type": "result", "request_id": "l1", "payload": None})
            self.assertEqual(await next_frame(), {"type": "result", "request_id": "l2", "payload": None})
            self.assertEqual(log, ["init", "start"])
            send({"type": "call", "request_id": "c1", "method": "echo", "payload": {"a": [1]}})
            self.assertEqual(await next_frame(), {"type": "result", "request_id": "c1", "payload": {"a": [1]}})
            send({"type": "call", "request_id": "c2", "method": "fails", "payload": None})
            self.assertEqual(await next_frame(), {"type": "error", "request_id": "c2",
                                                  "code": "handler_failed", "message": "the handler failed"})
            send({"type": "call", "request_id": "c5", "method": "deny", "payload": None})
            self.assertEqual(await next_frame(), {"type": "error", "request_id": "c5",
                                                  "code": "permission_denied", "message": "not for you"})
            send({"type": "call", "request_id": "c3", "method": "nope", "payload": None})
            self.assertEqual((await next_frame())["code"], "unknown_method")
            writer.write(b"{not json}\n")
            answer = await next_frame()
            self.assertEqual((answer["type"], answer["code"]), ("error", "frame_not_json"))
            self.assertEqual(await next_frame(), "eof")
            await serving
            writer.close()
            server.close()
            await server.wait_closed()


if __name__ == "__main__":
    unittest.main()
