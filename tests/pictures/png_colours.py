"""png_colours.py - is a PNG a picture, or blank?

Reads a non-interlaced 8-bit PNG (what Chromium writes) with the standard
library only, counts its distinct colours and the share of pixels that are
not the most common colour, and exits 0 when the image has at least 8
colours and at least 5% of its pixels differ from the background.

    python3 png_colours.py FILE.png
"""
import struct
import sys
import zlib


def pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace or colour not in (0, 2, 4, 6):
                raise ValueError("unsupported PNG: depth %d colour %d interlace %d" % (depth, colour, interlace))
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return [row[x:x + channels] for row in rows for x in range(0, stride, channels)]


def main():
    px = pixels(sys.argv[1])
    counts = {}
    for p in px:
        counts[p] = counts.get(p, 0) + 1
    most = max(counts.values())
    share = 1 - most / len(px)
    print("%d colours, %.1f%% of the pixels differ from the background" % (len(counts), 100 * share))
    return 0 if len(counts) >= 8 and share >= 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
