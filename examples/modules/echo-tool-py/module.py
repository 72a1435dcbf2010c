"""echo-tool-py: a CortexFS `tool` module with two capabilities, echo and reverse.

The host starts it with CORTEXFS_MODULE_SOCKET set; it serves until the host
sends shutdown. Only the standard library and the SDK are used.
"""

import os
import sys

try:
    import cortexfs_module
except ImportError:
    # In this repository the SDK lives in module-abi/python; a vendored copy beside
    # this file wins when the module is installed elsewhere.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "..", "module-abi", "python"))
    import cortexfs_module

from cortexfs_module import ModuleError, run_module

METADATA = {
    "id": "tool.echo",
    "version": "1.0.0",
    "kind": "tool",
    "capabilities": [
        {"name": "echo", "description": "returns the text it is given"},
        {"name": "reverse", "description": "returns the text reversed"},
    ],
}


def text_of(payload):
    if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
        raise ModuleError("args_invalid", "expected {\"text\": string}")
    return payload["text"]


def echo(payload, ctx):
    return {"text": text_of(payload)}


def reverse(payload, ctx):
    return {"text": text_of(payload)[::-1]}


def on_lifecycle(operation, ctx):
    print("lifecycle %s (instance %s)" % (operation, ctx.instance), file=sys.stderr, flush=True)


if __name__ == "__main__":
    assert cortexfs_module.WIRE_ABI == "cortexfs.module.socket/v1"
    run_module(METADATA, {"echo": echo, "reverse": reverse}, on_lifecycle=on_lifecycle)
