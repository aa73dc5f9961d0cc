#!/usr/bin/env python3
"""tests/fresh/typist.py - runs a command on a terminal of its own and types
a password whenever sudo asks for it, as a person at the keyboard would.

    python3 tests/fresh/typist.py PASSWORD_FILE COMMAND [ARG...]

Everything the command writes is copied to standard output. sudo reads the
password from its terminal, not from standard input, and flushes what was
typed ahead, so the password is written only once its prompt
("[sudo] password for NAME:") has appeared. Exits with the command's status;
the last line on standard error says how many times the password was typed.
"""
import os
import pty
import re
import select
import sys
import time

PROMPT = re.compile(rb"\[sudo\] password for [^:\r\n]*: ?$")
LIMIT = 3 * 3600  # seconds; a hang is a failure, not a wait


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        password = f.read().strip()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[2], sys.argv[2:])
    typed = 0
    tail = b""
    start = time.time()
    out = sys.stdout.buffer
    while True:
        if time.time() - start > LIMIT:
            os.kill(pid, 9)
            print(f"typist: the command ran over {LIMIT} s: killed", file=sys.stderr)
            break
        r, _, _ = select.select([fd], [], [], 5)
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the terminal closed, the command ended
            break
        if not data:
            break
        out.write(data)
        out.flush()
        tail = (tail + data)[-200:]
        if PROMPT.search(tail):
            time.sleep(0.2)  # sudo has switched echo off once its prompt is out
            os.write(fd, password + b"\n")
            typed += 1
            tail = b""
    _, status = os.waitpid(pid, 0)
    print(f"typist: the password was typed {typed} time(s)", file=sys.stderr)
    return os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8


if __name__ == "__main__":
    code = main()
    sys.exit(code if code >= 0 else 128 - code)
