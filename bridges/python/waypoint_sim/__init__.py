"""Waypoint simulator SDK: subclass Simulator, then call main(MySim) (stdio) or serve_websocket(MySim).

See bridges/python/README.md and docs/simulator-protocol.md.
"""
from . import _protocol as protocol
from .errors import InvalidParams, SimError, SnapshotUnsupported, UnknownTask, Unsupported
from .images import encode_png, frame_image, observation_image
from .server import Dispatcher, main, serve_stdio
from .simulator import Simulator, api_function

__all__ = [
    "Simulator",
    "api_function",
    "main",
    "serve_stdio",
    "Dispatcher",
    "SimError",
    "UnknownTask",
    "InvalidParams",
    "SnapshotUnsupported",
    "Unsupported",
    "protocol",
    "encode_png",
    "observation_image",
    "frame_image",
]
__version__ = "0.1.0"
