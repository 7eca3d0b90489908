"""Just enough PNG decoding (8-bit RGB/RGBA, non-interlaced, as Chromium writes) to look at pixels."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def decode_png(path: Path) -> tuple[int, int, int, bytes]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, b"".join(rows)


def ink_fraction(path: Path, step: int = 7) -> tuple[float, int]:
    """Share of sampled pixels that are not near-white, and how many distinct colours there are."""
    width, height, channels, pixels = decode_png(path)
    inked, total, colours = 0, 0, set()
    for y in range(0, height, step):
        for x in range(0, width, step):
            offset = (y * width + x) * channels
            r, g, b = pixels[offset : offset + 3]
            colours.add((r >> 4, g >> 4, b >> 4))
            total += 1
            inked += (r + g + b) < 720
    return inked / total, len(colours)
