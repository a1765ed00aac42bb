#!/usr/bin/env python3
"""Added latency of one pipeline stage: writes one input record at a time into the stage's
stdin and times until its output reaches us, N times; prints "median_us p99_us" (or "held"
when the stage wrote nothing within the timeout, i.e. it holds the event back).

  latency.py --count N --preamble FILE --event FILE [--event FILE...] [--pty] [--gap S] -- COMMAND [ARGS...]

With --pty the stage writes to a pseudo-terminal (80x24), as on a user's screen: then ps-render
draws its live region. --gap waits S seconds between events (a model's pace).

The preamble (records that open a message, say) is written first and its output drained. Then
the events are written N times in all, in turn (several --event: the words of a paragraph, then
its end, say); each time we wait until output stops arriving for a moment
(at least one byte must come), so the figure is "write to first byte read".
"""
import argparse
import fcntl
import os
import pty
import struct
import termios
import select
import statistics
import subprocess
import sys
import time


def drain(fd, quiet_seconds):
    """Reads whatever the stage writes until it is quiet for `quiet_seconds`."""
    while True:
        ready, _, _ = select.select([fd], [], [], quiet_seconds)
        if not ready:
            return
        try:
            if not os.read(fd, 1 << 16):
                return
        except OSError:  # a pty reads EIO once its stage has gone
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--preamble", default=None)
    parser.add_argument("--event", action="append", required=True)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--pty", action="store_true")
    parser.add_argument("--gap", type=float, default=0.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command and args.command[0] == "--" else args.command
    events = [open(path, "rb").read() for path in args.event]
    # The probe closes the stream without finishing the message, which ps-parts rightly reports on
    # stderr; that line is not part of the figures.
    if args.pty:
        out, slave = pty.openpty()
        fcntl.ioctl(out, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=slave, stderr=subprocess.DEVNULL,
                                   bufsize=0, env=environment)
        os.close(slave)
    else:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, bufsize=0)
        out = process.stdout.fileno()
    inp = process.stdin.fileno()
    if args.preamble:
        os.write(inp, open(args.preamble, "rb").read())
        drain(out, 0.3)
    samples = []
    held = False
    for number in range(args.count):
        if args.gap:
            time.sleep(args.gap)
        start = time.perf_counter_ns()
        os.write(inp, events[number % len(events)])
        ready, _, _ = select.select([out], [], [], args.timeout)
        if not ready:
            held = True
            break
        try:
            os.read(out, 1 << 16)
        except OSError:  # a pty whose stage has gone
            held = True
            break
        samples.append(time.perf_counter_ns() - start)
        # Let anything else the stage writes for this event arrive before the next one.
        drain(out, 0.0005)
    process.stdin.close()
    drain(out, 5.0)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    if held or not samples:
        print("held")
        return
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{statistics.median(samples) / 1000:.1f} {p99 / 1000:.1f}")


if __name__ == "__main__":
    main()
