"""CortexFS module SDK for Python: the `cortexfs.module.socket/v1` wire ABI.

Dependency-free (standard library only, Python 3.9+). A module connects to the
socket named by CORTEXFS_MODULE_SOCKET, answers the host's hello with ready,
follows the lifecycle the host drives, answers calls, publishes events and
calls into the runtime:

    from cortexfs_module import ModuleError, run_module

    def echo(payload, ctx):
        return payload

    run_module(
        metadata={"id": "tool.echo", "version": "1.0.0", "kind": "tool",
                  "capabilities": [{"name": "echo", "description": "returns its input"}]},
        handlers={"echo": echo},
    )

Handlers may be plain or async functions. Raise ModuleError(code, message) to
answer with that code; any other exception answers `handler_failed` with a
generic message, so a stray exception never sends its text to the host.
"""

import asyncio
import json
import math
import os
import re
import sys

WIRE_ABI = "cortexfs.module.socket/v1"
MAX_FRAME_BYTES = 1024 * 1024
# serde_json, the reference decoder, stops at 128 levels; the frame object counts as one.
MAX_FRAME_DEPTH = 127
FRAME_TYPES = ("hello", "ready", "lifecycle", "call", "result", "event", "error")
OPERATIONS = ("init", "start", "stop", "shutdown")
KINDS = ("agent", "tool", "channel", "model", "context")
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
_BLANK = re.compile(r"\s*\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TRANSITIONS = {
    "init": ("registered", "initialized"),
    "start": ("initialized", "running"),
    "stop": ("running", "stopped"),
    "shutdown": ("stopped", "shutdown"),
}
_FIELDS = {
    "hello": (("abi", "string"), ("instance", "string")),
    "ready": (("metadata", "metadata"),),
    "lifecycle": (("request_id", "string"), ("operation", "operation")),
    "call": (("request_id", "string"), ("method", "string"), ("payload", "json")),
    "result": (("request_id", "string"), ("payload", "json")),
    "event": (("name", "string"), ("payload", "json")),
    "error": (("request_id", "optional"), ("code", "string"), ("message", "string")),
}
_NAMED = {
    "hello": ("instance",), "ready": (), "lifecycle": ("request_id",),
    "call": ("request_id", "method"), "result": ("request_id",), "event": ("name",),
    "error": ("request_id", "code"),
}


class WireError(Exception):
    """A malformed frame: `code` names the case, `field` the offending field if any."""

    def __init__(self, code, message, field=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


class ModuleError(Exception):
    """Raise from a handler to answer with a stable `code` and a plain `message`."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def is_valid_name(value):
    """The name rule: 1 to 64 ASCII letters, digits, '.', '-' or '_'."""
    return isinstance(value, str) and _NAME.match(value) is not None


def _invalid(field, why):
    return WireError("frame_field_invalid", "field %s %s" % (field, why), field)


def _missing(field):
    return WireError("frame_field_missing", "field %s is missing" % field, field)


def _json_problem(value, depth):
    # bool is a subclass of int in Python, so it is tested first.
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return "string" if _SURROGATE.search(value) else None
    if isinstance(value, int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "number"
    if isinstance(value, (list, dict)):
        if depth > MAX_FRAME_DEPTH:
            return "depth"
        items = value if isinstance(value, list) else value.values()
        if isinstance(value, dict) and any(not isinstance(k, str) or _SURROGATE.search(k) for k in value):
            return "string"
        for item in items:
            found = _json_problem(item, depth + 1)
            if found:
                return found
        return None
    return "value"


def _check_shape(field, shape, value):
    if shape == "json":
        return
    if shape == "optional":
        if value is not None and not isinstance(value, str):
            raise _invalid(field, "must be a string")
    elif shape == "string":
        if not isinstance(value, str):
            raise _invalid(field, "must be a string")
    elif shape == "operation":
        if not (isinstance(value, str) and value in OPERATIONS):
            raise _invalid(field, "must be one of " + ", ".join(OPERATIONS))
    elif shape == "metadata":
        _check_metadata_shape(value)


def _check_metadata_shape(value):
    if not isinstance(value, dict):
        raise _invalid("metadata", "must be an object")
    shapes = (
        ("id", lambda v: isinstance(v, str)),
        ("version", lambda v: isinstance(v, str)),
        ("kind", lambda v: isinstance(v, str) and v in KINDS),
        ("capabilities", lambda v: isinstance(v, list)),
    )
    for field, ok in shapes:
        if field in value and not ok(value[field]):
            raise _invalid("metadata." + field, "has a bad value")
        if field == "capabilities" and field in value:
            for i, cap in enumerate(value[field]):
                at = "metadata.capabilities.%d" % i
                if not isinstance(cap, dict):
                    raise _invalid(at, "must be an object")
                for key in ("name", "description"):
                    if key in cap and not isinstance(cap[key], str):
                        raise _invalid(at + "." + key, "must be a string")
                for key in ("name", "description"):
                    if key not in cap:
                        raise _missing(at + "." + key)
    for field, _ in shapes:
        if field not in value:
            raise _missing("metadata." + field)


def _check_metadata_rules(meta):
    if not is_valid_name(meta["id"]):
        raise _invalid("metadata.id", "breaks the name rule")
    if _BLANK.match(meta["version"]):
        raise _invalid("metadata.version", "must not be blank")
    for i, cap in enumerate(meta["capabilities"]):
        if not is_valid_name(cap["name"]):
            raise _invalid("metadata.capabilities.%d.name" % i, "breaks the name rule")
        if "\0" in cap["description"]:
            raise _invalid("metadata.capabilities.%d.description" % i, "must hold no NUL")


def parse_frame(value):
    """Validates a parsed JSON value as one frame; returns a new dict of known fields only."""
    if not isinstance(value, dict):
        raise WireError("frame_not_object", "the frame body is not a JSON object")
    if "type" not in value:
        raise WireError("frame_type_missing", "the frame has no type")
    kind = value["type"]
    if not isinstance(kind, str) or kind not in FRAME_TYPES:
        raise WireError("frame_type_unknown", "type must be one of " + ", ".join(FRAME_TYPES), "type")
    fields = _FIELDS[kind]
    for field, shape in fields:
        if field in value:
            _check_shape(field, shape, value[field])
    frame = {"type": kind}
    for field, shape in fields:
        if field in value and not (shape == "optional" and value[field] is None):
            frame[field] = value[field]
        elif shape != "optional":
            raise _missing(field)
    if kind == "hello" and frame["abi"] != WIRE_ABI:
        raise WireError("frame_abi_mismatch", "abi must be " + WIRE_ABI, "abi")
    if kind == "ready":
        _check_metadata_rules(frame["metadata"])
        meta = frame["metadata"]
        frame["metadata"] = {
            "id": meta["id"], "version": meta["version"], "kind": meta["kind"],
            "capabilities": [{"name": c["name"], "description": c["description"]}
                             for c in meta["capabilities"]],
        }
    for field in _NAMED[kind]:
        if field in frame and not is_valid_name(frame[field]):
            raise _invalid(field, "breaks the name rule")
    if kind == "error" and (frame["message"] == "" or "\0" in frame["message"]):
        raise _invalid("message", "must be non-empty and hold no NUL")
    return frame


def _refuse_constant(name):
    raise ValueError("not JSON: " + name)


def decode_frame(data):
    """Decodes one complete frame (bytes, newline included) to a dict; raises WireError."""
    if len(data) > MAX_FRAME_BYTES:
        raise WireError("frame_too_large", "a frame is at most %d bytes" % MAX_FRAME_BYTES)
    if len(data) < 2:
        raise WireError("frame_too_short", "a frame is at least 2 bytes")
    if data[-1:] != b"\n":
        raise WireError("frame_unterminated", "a frame must end in a newline")
    body = data[:-1]
    if b"\n" in body:
        raise WireError("frame_embedded_newline", "a frame body must hold no newline")
    try:
        value = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise WireError("frame_not_json", "the frame body is not UTF-8 JSON") from None
    found = _json_problem(value, 1)
    if found:
        raise WireError("frame_not_json", "the frame body holds JSON the ABI refuses (%s)" % found)
    return parse_frame(value)


def encode_frame(frame):
    """Encodes one frame dict as UTF-8 JSON plus newline, fields in the crate's order."""
    for field, value in frame.items():
        found = _json_problem(value, 2)
        if found:
            raise _invalid(field, "is not wire JSON (%s)" % found)
    clean = parse_frame(frame)
    text = json.dumps(clean, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    data = text.encode("utf-8") + b"\n"
    if len(data) > MAX_FRAME_BYTES:
        raise WireError("frame_too_large", "the encoded frame is %d bytes" % len(data))
    return data


class FrameReader:
    """Splits a byte stream into frames. push() returns a list of dicts or WireErrors.

    A line whose first 1 MiB holds no newline is refused with frame_too_large at once;
    the reader then drops bytes up to the next newline and resynchronizes there.
    """

    def __init__(self):
        self._buffer = bytearray()
        self._discarding = False

    def push(self, chunk):
        results = []
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            if end == -1:
                self._hold(chunk[start:], False, results)
                break
            piece = chunk[start:end + 1]
            start = end + 1
            if self._discarding:
                self._discarding = False
                continue
            if self._hold(piece, True, results):
                results.append(self._decode(bytes(self._buffer)))
                self._buffer.clear()
        return results

    def end(self):
        held = len(self._buffer) > 0
        self._buffer.clear()
        self._discarding = False
        return [WireError("frame_unterminated", "the stream ended inside a frame")] if held else []

    def _hold(self, piece, complete, results):
        if self._discarding:
            return False
        limit = MAX_FRAME_BYTES if complete else MAX_FRAME_BYTES - 1
        if len(self._buffer) + len(piece) > limit:
            self._buffer.clear()
            self._discarding = not complete
            results.append(WireError("frame_too_large", "a frame is at most %d bytes" % MAX_FRAME_BYTES))
            return False
        self._buffer += piece
        return True

    @staticmethod
    def _decode(line):
        try:
            return decode_frame(line)
        except WireError as error:
            return error


def _error_for(request_id, error):
    frame = {"type": "error"}
    if request_id is not None:
        frame["request_id"] = request_id
    if isinstance(error, (ModuleError, WireError)) and is_valid_name(error.code):
        message = str(error.message).replace("\0", "")[:1024]
        message = message.encode("utf-8", "replace").decode("utf-8")
        frame.update(code=error.code, message=message or error.code)
    else:
        frame.update(code="handler_failed", message="the handler failed")
    return frame


class ModuleSession:
    """One connection to the host. Handlers get it as `ctx`."""

    def __init__(self, metadata, handlers, on_lifecycle, call_timeout):
        self.metadata = metadata
        self.handlers = handlers
        self.on_lifecycle = on_lifecycle
        self.call_timeout = call_timeout
        self.instance = None
        self.state = "registered"
        self._writer = None
        self._pending = {}
        self._next_id = 1
        self._closed = False
        self._tasks = set()
        self._lifecycle_lock = None

    def emit(self, name, payload):
        """Publishes an event to the host."""
        self._send({"type": "event", "name": name, "payload": payload})

    async def call_host(self, method, payload, timeout=None):
        """Calls a runtime method; returns its result or raises ModuleError."""
        if self._closed:
            raise ModuleError("connection_closed", "the connection is closed")
        request_id = "m%d" % self._next_id
        self._next_id += 1
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            self._send({"type": "call", "request_id": request_id, "method": method, "payload": payload})
            return await asyncio.wait_for(future, timeout or self.call_timeout)
        except asyncio.TimeoutError:
            raise ModuleError("call_timeout", "host call %s got no answer" % method) from None
        finally:
            self._pending.pop(request_id, None)

    def _send(self, frame):
        data = encode_frame(frame)
        if not self._closed:
            self._writer.write(data)

    def _reply(self, frame):
        try:
            self._send(frame)
        except WireError as error:
            self._send(_error_for(frame.get("request_id"), error))

    def _spawn(self, coro):
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _close(self):
        if self._closed:
            return
        self._closed = True
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ModuleError("connection_closed", "the connection to the host closed"))
        self._writer.close()

    def _violation(self, code, message):
        try:
            self._send({"type": "error", "code": code, "message": message})
        finally:
            self._close()

    def _on_frame(self, frame):
        kind = frame["type"]
        if self.instance is None:
            if kind != "hello":
                return self._violation("protocol_violation", "expected hello")
            self.instance = frame["instance"]
            return self._send({"type": "ready", "metadata": self.metadata})
        if kind == "lifecycle":
            return self._spawn(self._lifecycle_in_order(frame["request_id"], frame["operation"]))
        if kind == "call":
            return self._spawn(self._call(frame["request_id"], frame["method"], frame["payload"]))
        if kind in ("result", "error"):
            request_id = frame.get("request_id")
            if request_id is None:
                print("host error %s: %s" % (frame["code"], frame["message"]), file=sys.stderr)
                return None
            future = self._pending.get(request_id)
            if future is None:
                return self._violation("protocol_violation", "an answer to an unknown request")
            if not future.done():
                if kind == "result":
                    future.set_result(frame["payload"])
                else:
                    future.set_exception(ModuleError(frame["code"], frame["message"]))
            return None
        return self._violation("protocol_violation", "a host may not send " + kind)

    async def _lifecycle_in_order(self, request_id, operation):
        # One at a time, in arrival order (asyncio.Lock is FIFO): each operation
        # needs the state the previous one left.
        async with self._lifecycle_lock:
            await self._lifecycle(request_id, operation)

    async def _lifecycle(self, request_id, operation):
        current, following = _TRANSITIONS[operation]
        if self.state != current:
            error = ModuleError("invalid_state", "cannot %s: the module is %s" % (operation, self.state))
            return self._reply(_error_for(request_id, error))
        try:
            if self.on_lifecycle is not None:
                await _settle(self.on_lifecycle(operation, self))
        except Exception as error:  # noqa: BLE001 - any failure becomes an error frame
            return self._reply(_error_for(request_id, error))
        self.state = following
        self._reply({"type": "result", "request_id": request_id, "payload": None})
        if following == "shutdown":
            await self._writer.drain()
            self._close()
        return None

    async def _call(self, request_id, method, payload):
        handler = self.handlers.get(method)
        if handler is None:
            return self._reply(_error_for(request_id, ModuleError("unknown_method", "no method " + method)))
        if self.state != "running":
            error = ModuleError("module_not_running", "the module is " + self.state)
            return self._reply(_error_for(request_id, error))
        try:
            result = await _settle(handler(payload, self))
        except Exception as error:  # noqa: BLE001 - any failure becomes an error frame
            return self._reply(_error_for(request_id, error))
        return self._reply({"type": "result", "request_id": request_id, "payload": result})

    async def serve(self, path):
        """Connects to `path` and serves until the host closes the connection or shutdown."""
        self._lifecycle_lock = asyncio.Lock()
        reader, self._writer = await asyncio.open_unix_connection(path)
        frames = FrameReader()
        try:
            while not self._closed:
                chunk = await reader.read(65536)
                results = frames.push(chunk) if chunk else frames.end()
                for item in results:
                    if self._closed:
                        break
                    if isinstance(item, WireError):
                        self._violation(item.code, item.message)
                    else:
                        self._on_frame(item)
                if not chunk:
                    break
                await self._writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._close()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)


async def _settle(value):
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value
    return value


def run_module(metadata, handlers, on_lifecycle=None, socket_path=None, call_timeout=30.0):
    """Runs a module until the host shuts it down or closes the socket.

    `handlers` maps method names to functions `(payload, ctx)`; `on_lifecycle` is
    called as `(operation, ctx)` for init, start, stop and shutdown.
    """
    path = socket_path or os.environ.get("CORTEXFS_MODULE_SOCKET")
    if not path:
        raise SystemExit("CORTEXFS_MODULE_SOCKET is not set; start this module from a host")
    encode_frame({"type": "ready", "metadata": metadata})  # fail fast on bad metadata
    session = ModuleSession(metadata, dict(handlers), on_lifecycle, call_timeout)
    asyncio.run(session.serve(path))
