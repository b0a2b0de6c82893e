"""Draw the extension's icon, images/icon.png: a green trident on a dark rounded square.

Run from vscode-extension/: python3 scripts/make_icon.py. The standard library only (zlib and
struct write the PNG); each pixel is the average of 4x4 samples, which smooths the edges.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SIZE = 128
SAMPLES = 4
BACKGROUND = (0x1E, 0x2A, 0x38)
TRIDENT = (0x76, 0xB9, 0x00)
CORNER = 22.0  # radius of the square's corners


def in_rounded_square(x: float, y: float) -> bool:
    """Whether (x, y) lies in the icon's square with rounded corners."""
    nearest_x = min(max(x, CORNER), SIZE - CORNER)
    nearest_y = min(max(y, CORNER), SIZE - CORNER)
    return (x - nearest_x) ** 2 + (y - nearest_y) ** 2 <= CORNER**2


def in_prong(x: float, y: float, centre: float, top: float) -> bool:
    """A prong: a bar from the crossbar up to `top`, ending in a point."""
    half = 5.0
    point = 14.0  # the height of the pointed tip
    if top + point <= y <= 78 and abs(x - centre) <= half:
        return True
    if top <= y < top + point:
        return abs(x - centre) <= (half + 3.0) * (y - top) / point
    return False


def in_trident(x: float, y: float) -> bool:
    """The trident: three prongs on a crossbar, and a shaft."""
    if abs(x - 64) <= 5.0 and 70 <= y <= 112:
        return True  # the shaft
    if 70 <= y <= 82 and 31 <= x <= 97:
        return True  # the crossbar
    return any(in_prong(x, y, centre, top) for centre, top in ((36, 28), (64, 16), (92, 28)))


def pixel(px: int, py: int) -> tuple[int, int, int, int]:
    """The RGBA of one pixel, averaged over its samples."""
    colour = [0.0, 0.0, 0.0]
    alpha = 0.0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = px + (sx + 0.5) / SAMPLES
            y = py + (sy + 0.5) / SAMPLES
            if not in_rounded_square(x, y):
                continue
            rgb = TRIDENT if in_trident(x, y) else BACKGROUND
            colour = [c + v for c, v in zip(colour, rgb, strict=True)]
            alpha += 1
    if alpha == 0:
        return (0, 0, 0, 0)
    r, g, b = (round(c / alpha) for c in colour)
    return (r, g, b, round(255 * alpha / SAMPLES**2))


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG of the given rows (each without its filter byte)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    rows = [bytes(v for px in range(SIZE) for v in pixel(px, py)) for py in range(SIZE)]
    target = Path(__file__).resolve().parent.parent / "images" / "icon.png"
    target.write_bytes(png(SIZE, SIZE, rows))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
