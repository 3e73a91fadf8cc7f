"""Draws extension/images/icon.png (128x128 RGBA) with the standard library only: a dark rounded square, three
sharp orange spikes (the sharp bits) over a teal baseline. Run: python3 extension/images/make_icon.py"""

import struct
import zlib
from pathlib import Path

N = 128
BG, SPIKE, EDGE, BASE = (30, 42, 56), (255, 152, 0), (255, 196, 92), (38, 198, 180)


def inside_triangle(x: float, y: float, a, b, c) -> bool:
    def side(p, q, r):
        return (p[0] - r[0]) * (q[1] - r[1]) - (q[0] - r[0]) * (p[1] - r[1])
    d1, d2, d3 = side((x, y), a, b), side((x, y), b, c), side((x, y), c, a)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def pixel(x: float, y: float):
    r = 22  # corner radius
    cx, cy = min(max(x, r), N - r), min(max(y, r), N - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return (0, 0, 0, 0)
    spikes = [((18, 92), (34, 30), (50, 92)), ((44, 92), (64, 14), (84, 92)), ((78, 92), (94, 38), (110, 92))]
    for a, tip, c in spikes:
        if inside_triangle(x, y, a, tip, c):
            # the left face lighter: a cut edge
            return (*(EDGE if x < tip[0] else SPIKE), 255)
    if 96 <= y <= 104 and 16 <= x <= 112:
        return (*BASE, 255)
    return (*BG, 255)


def render() -> bytes:
    rows = []
    for y in range(N):
        row = bytearray([0])
        for x in range(N):
            # 4x4 supersampling for smooth edges
            acc = [0, 0, 0, 0]
            for sy in range(4):
                for sx in range(4):
                    p = pixel(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)
                    for i in range(4):
                        acc[i] += p[i] * (p[3] / 255 if i < 3 else 1)
            alpha = acc[3] / 16
            rgb = [round(acc[i] / 16 / (alpha / 255)) if alpha else 0 for i in range(3)]
            row += bytes([*[min(255, v) for v in rgb], round(alpha)])
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).with_name("icon.png")
    out.write_bytes(render())
    print(out)
