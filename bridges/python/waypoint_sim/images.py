"""Camera frames for an observation's `images` (docs/simulator-protocol.md): PNG encoding with the standard library
only (zlib + struct), so a simulator without PIL or numpy can still send what a vision model sees."""
from __future__ import annotations

import base64
import struct
import zlib
from typing import Any, Optional


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG from `rgb`: rows top to bottom, 3 bytes per pixel (numpy's `frame.tobytes()` for an HxWx3 uint8 frame)."""
    if width <= 0 or height <= 0:
        raise ValueError(f"a PNG needs a positive size, got {width}x{height}")
    if len(rgb) != width * height * 3:
        raise ValueError(f"{width}x{height} RGB needs {width * height * 3} bytes, got {len(rgb)}")
    stride = width * 3
    # Filter type 0 (none) before each row.
    raw = b"".join(b"\x00" + rgb[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")


def observation_image(camera: str, png: bytes, width: int, height: int, agent: Optional[str] = None) -> dict[str, Any]:
    """One entry of an observation's `images` for PNG bytes."""
    out: dict[str, Any] = {"camera": camera, "mediaType": "image/png", "dataBase64": base64.b64encode(png).decode("ascii"), "width": width, "height": height}
    if agent is not None:
        out["agent"] = agent
    return out


def frame_image(camera: str, frame: Any, agent: Optional[str] = None) -> dict[str, Any]:
    """An entry of `images` from an HxWx3 uint8 frame: a numpy array (AI2-THOR's `event.frame`) or anything with
    `shape` and `tobytes()`."""
    height, width = int(frame.shape[0]), int(frame.shape[1])
    if len(frame.shape) != 3 or int(frame.shape[2]) != 3:
        raise ValueError(f"a frame must be height x width x 3 (RGB), got shape {tuple(frame.shape)}")
    return observation_image(camera, encode_png(width, height, frame.tobytes()), width, height, agent)
