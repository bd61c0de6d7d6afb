#!/usr/bin/env python3
"""Make the paths in fuzz seeds relative: relative-paths.py DIR[:DIR...] FILE...

Seeds are traces recorded on some machine, and name its directories: the program's path in a
rank file's header, source files in call sites, the working directory in a counterexample.
A committed seed should not carry the machine it was made on. A DIR (the source trees the
seeds were made in) or a directory of /tmp becomes ".", a path under one becomes relative.

In text (JSON, a counterexample, a steering file) a path is replaced where it stands. In a
binary rank trace (doc/trace-format.md) a string is a uvarint length and that many bytes, so
the length before a path is rewritten with it; a path with no length before it is left as it
is and named on stderr, so that no seed is silently broken. Exits 0 if every path was
rewritten."""
import re
import sys

MAGIC = b"MPIVTRC\0"
NAME = rb"[A-Za-z0-9._-]"


def uvarint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def paths(roots, text):
    """The pattern of a path to rewrite: a root or a directory of /tmp, alone or before
    more. In
    text, one that starts where a word does; in a binary string, the byte before is its
    length, any byte."""
    start = rb"(?<![A-Za-z0-9._/-])" if text else b""
    dirs = b"|".join(re.escape(d) for d in roots)
    return re.compile(start + rb"(?:" + dirs + rb"|/tmp/" + NAME + rb"+)(?!" + NAME + rb")/?")


def relative(match):
    """What a path's prefix becomes: a directory alone is ".", one before more is nothing."""
    return b"" if match.group(0).endswith(b"/") else b"."


def rewrite_binary(data, pattern, name):
    out = bytearray()
    i = 0
    ok = True
    for m in pattern.finditer(data):
        start = m.start()
        if start < i:
            continue
        done = False
        for width in (1, 2):
            raw = data[start - width:start]
            if start - width < i or raw[-1] & 0x80 or (width == 2 and not raw[0] & 0x80):
                continue
            n = sum((b & 0x7F) << (7 * k) for k, b in enumerate(raw))
            text = data[start:start + n]
            if len(text) != n or n < len(m.group(0)) or not all(32 <= b < 127 for b in text):
                continue
            new = pattern.sub(relative, text)
            out += data[i:start - width] + uvarint(len(new)) + new
            i = start + n
            done = True
            break
        if not done:
            sys.stderr.write("%s: the path at byte %d has no length before it: left as it is\n"
                             % (name, start))
            ok = False
    out += data[i:]
    return bytes(out), ok


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: relative-paths.py DIR FILE...\n")
        return 2
    root = [d.rstrip("/").encode() for d in sys.argv[1].split(":")]
    status = 0
    for name in sys.argv[2:]:
        with open(name, "rb") as f:
            data = f.read()
        if MAGIC in data:
            new, ok = rewrite_binary(data, paths(root, False), name)
            status |= not ok
        else:
            new = paths(root, True).sub(relative, data)
        if new != data:
            with open(name, "wb") as f:
                f.write(new)
    return status


if __name__ == "__main__":
    sys.exit(main())
