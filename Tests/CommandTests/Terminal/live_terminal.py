#!/usr/bin/python3
"""Drives ps-render on a pseudo-terminal and reads its output with a terminal emulator (pyte),
so the live display is checked by what a terminal shows, not by its escape bytes.

  live_terminal.py PS_RENDER SCENARIO

Prints one JSON object: {"ok": bool, "failures": [...], ...facts}. Scenarios:
  words     a paragraph word by word: each word shows before the next is sent; the screen at the
            end equals the whole message rendered
  blocks    a long message of mixed blocks in random pieces: the end screen equals the whole render
  tall      a code block taller than the window: the live rows show its newest lines; end as whole
  resize    the window narrows mid-paragraph: the rest is wrapped to the new width, nothing twice
  interrupt Ctrl-C while a block is live: the terminal is left sane (wrap on, styles reset)
  cut       the input ends mid-message: the incomplete notice, and the terminal sane
  error     a stream error while a block is live: shown once
"""
import fcntl
import json
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pyte

COLUMNS, ROWS = 60, 16


def record(**fields):
    return (json.dumps(fields) + "\n").encode()


class Terminal:
    """ps-render on a pty of the given size, its output fed to a pyte screen with scrollback."""

    def __init__(self, command, columns=COLUMNS, rows=ROWS, env=None):
        self.columns, self.rows = columns, rows
        self.screen = pyte.HistoryScreen(columns, rows, history=100000)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = pty.openpty()
        self.master = master
        self.set_size(columns, rows)
        environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
        environment["TERM"] = "xterm-256color"
        environment.update(env or {})
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                                        env=environment, close_fds=True, start_new_session=True)
        os.close(slave)

    def set_size(self, columns, rows):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def resize(self, columns):
        self.set_size(columns, self.rows)
        self.screen.resize(self.rows, columns)
        self.columns = columns
        os.kill(self.process.pid, signal.SIGWINCH)

    def send(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def pump(self, seconds):
        """Reads what the program wrote for `seconds`."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.stream.feed(data)

    def wait_for(self, predicate, timeout=5.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            self.pump(0.01)
        return predicate()

    def close(self, timeout=10.0):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self.pump(0.05)
        self.pump(0.2)
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait()

    def lines(self):
        """Every line the terminal shows or scrolled away, trailing blank lines dropped."""
        def text(line):
            return "".join(line[x].data for x in range(self.columns)).rstrip()
        rows = [text(line) for line in self.screen.history.top] + [text(self.screen.buffer[y]) for y in range(self.rows)]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def visible_text(self):
        return "\n".join(self.screen.display)

    def sane(self):
        """Line wrap on, no style left set, the cursor shown."""
        return {
            "wrap": (7 << 5) in self.screen.mode,
            "cursorShown": (25 << 5) in self.screen.mode,
            "plainStyle": not (self.screen.cursor.attrs.bold or self.screen.cursor.attrs.reverse
                               or self.screen.cursor.attrs.underscore or self.screen.cursor.attrs.fg != "default"),
        }


def start_message(part_type="text"):
    return (record(type="message-start", messageId="m1", role="assistant")
            + record(type="part-start", index=0, part={"type": part_type, "text": "", "state": "streaming"}))


def end_message(text, part_type="text"):
    return (record(type="part-update", index=0, part={"type": part_type, "text": text, "state": "done"})
            + record(type="message-end", status="complete",
                     message={"id": "m1", "role": "assistant", "parts": [{"type": part_type, "text": text, "state": "done"}]}))


def whole_lines(ps_render, text, columns=COLUMNS, rows=ROWS, extra=()):
    """The message given whole, on the same terminal, not live."""
    terminal = Terminal([ps_render, "--no-live", *extra], columns, rows)
    terminal.send(record(id="m1", role="assistant", parts=[{"type": "text", "text": text, "state": "done"}]))
    terminal.close()
    return terminal.lines()


def words(ps_render, failures, facts):
    text = " ".join(f"word{n:02d}" for n in range(40)) + "\n"
    terminal = Terminal([ps_render])
    terminal.send(start_message())
    shown_before_next = 0
    for token in text.split(" "):
        piece = token if token.endswith("\n") else token + " "
        terminal.send(record(type="part-delta", index=0, delta=piece))
        word = token.strip()
        if terminal.wait_for(lambda: word in terminal.visible_text(), timeout=3.0):
            shown_before_next += 1
    facts["wordsShownBeforeTheNext"] = shown_before_next
    if shown_before_next != 40:
        failures.append(f"only {shown_before_next} of 40 words showed before the next one was sent")
    terminal.send(end_message(text))
    status = terminal.close()
    compare_end(terminal, whole_lines(ps_render, text), status, failures, facts)


def compare_end(terminal, expected, status, failures, facts):
    got = terminal.lines()
    facts["endLines"] = got
    if status != 0:
        failures.append(f"exit status {status}")
    if got != expected:
        failures.append("the end screen differs from the whole render:\n" + "\n".join(got) + "\n--- whole ---\n" + "\n".join(expected))
    sane = terminal.sane()
    if not all(sane.values()):
        failures.append(f"terminal left {sane}")


def mixed_document():
    blocks = []
    for n in range(12):
        kind = n % 6
        if kind == 0:
            blocks.append(f"## Section {n}")
        elif kind == 1:
            blocks.append(f"1. first item of {n}, long enough to wrap past the width of the window here\n2. second *item*")
        elif kind == 2:
            blocks.append("```python\n" + "\n".join(f"print({n}, {i})" for i in range(4)) + "\n```")
        elif kind == 3:
            blocks.append(f"> a quoted line {n}\n> and more quoted text that wraps at the width of the window")
        elif kind == 4:
            blocks.append(f"| a | b |\n|---|--:|\n| {n} | **{n * 2}** |\n| x | y |")
        else:
            blocks.append(f"Paragraph {n} with `code`, a [link](https://example.com/{n}) and words " * 2)
    return "\n\n".join(blocks) + "\n"


def streamed(ps_render, text, env=None, seed=3, largest=9):
    """ps-render on the terminal fed `text` as part-delta records of 1 to `largest` characters
    (a seeded random size), pumping the screen between them; the terminal and exit status."""
    terminal = Terminal([ps_render], env=env)
    terminal.send(start_message())
    rng = random.Random(seed)
    position = 0
    while position < len(text):
        size = rng.randint(1, largest)
        terminal.send(record(type="part-delta", index=0, delta=text[position:position + size]))
        position += size
        terminal.pump(0.002)
    terminal.send(end_message(text))
    status = terminal.close()
    return terminal, status


def blocks(ps_render, failures, facts):
    text = mixed_document()
    terminal, status = streamed(ps_render, text, seed=7, largest=12)
    compare_end(terminal, whole_lines(ps_render, text), status, failures, facts)


def tall(ps_render, failures, facts):
    rows = 10
    code = "\n".join(f"line {n:03d} of the code" for n in range(40))
    text = "Before.\n\n```\n" + code + "\n```\n\nAfter.\n"
    terminal = Terminal([ps_render], rows=rows)
    terminal.send(start_message())
    terminal.send(record(type="part-delta", index=0, delta="Before.\n\n```\n"))
    newest_shown = True
    for n, line in enumerate(code.split("\n")):
        terminal.send(record(type="part-delta", index=0, delta=line + "\n"))
        latest = f"line {n:03d} of the code"
        if not terminal.wait_for(lambda: latest in terminal.visible_text(), timeout=3.0):
            newest_shown = False
    facts["newestLineShown"] = newest_shown
    if not newest_shown:
        failures.append("the newest line of the tall block was not on the screen")
    terminal.send(record(type="part-delta", index=0, delta="```\n\nAfter.\n"))
    terminal.send(end_message(text))
    status = terminal.close()
    compare_end(terminal, whole_lines(ps_render, text, rows=rows), status, failures, facts)


def resize(ps_render, failures, facts):
    first = "First paragraph, finished before the window changes size.\n\n"
    words = [f"w{n:02d}" for n in range(30)]
    terminal = Terminal([ps_render])
    terminal.send(start_message())
    terminal.send(record(type="part-delta", index=0, delta=first))
    terminal.send(record(type="part-delta", index=0, delta=" ".join(words[:15]) + " "))
    terminal.wait_for(lambda: words[14] in terminal.visible_text())
    # Stopped, ps-render finds the resize and the rest of the message waiting together when it
    # runs again (as on a loaded machine): the signal came first, so the rest must follow it.
    os.kill(terminal.process.pid, signal.SIGSTOP)
    terminal.resize(30)
    terminal.send(record(type="part-delta", index=0, delta=" ".join(words[15:]) + "\n"))
    text = first + " ".join(words) + "\n"
    terminal.send(end_message(text))
    os.kill(terminal.process.pid, signal.SIGCONT)
    status = terminal.close()
    got = terminal.lines()
    facts["endLines"] = got
    body = " ".join(got)
    counts = {w: body.split().count(w) for w in words}
    if any(count != 1 for count in counts.values()):
        failures.append(f"words not shown exactly once after the resize: {counts}")
    paragraph = [line for line in got if line.startswith("w")]
    if not paragraph or max(len(line) for line in paragraph) > 30 or len(paragraph) < 3:
        failures.append(f"the live paragraph was not wrapped to the new width: {paragraph}")
    if status != 0:
        failures.append(f"exit status {status}")
    if not all(terminal.sane().values()):
        failures.append(f"terminal left {terminal.sane()}")


def interrupt(ps_render, failures, facts):
    terminal = Terminal([ps_render, "--format", "ansi"])
    terminal.send(start_message())
    terminal.send(record(type="part-delta", index=0, delta="Some **bold and still open"))
    terminal.wait_for(lambda: "still open" in terminal.visible_text())
    os.killpg(terminal.process.pid, signal.SIGINT)
    status = terminal.close()
    facts["status"] = status
    if status != -signal.SIGINT:
        failures.append(f"status {status}, not killed by SIGINT")
    if "still open" not in terminal.visible_text():
        failures.append("the partial reply was not left on the screen")
    sane = terminal.sane()
    facts["sane"] = sane
    if not all(sane.values()):
        failures.append(f"terminal left {sane}")
    if terminal.screen.cursor.x != 0:
        failures.append("the cursor was not moved to the start of a line")


def cut(ps_render, failures, facts):
    terminal = Terminal([ps_render])
    terminal.send(start_message())
    terminal.send(record(type="part-delta", index=0, delta="A reply cut in the mid"))
    terminal.wait_for(lambda: "cut in the mid" in terminal.visible_text())
    status = terminal.close()
    got = terminal.lines()
    facts["endLines"] = got
    if status != 10:
        failures.append(f"exit status {status}, not 10")
    if sum("A reply cut in the mid" in line for line in got) != 1:
        failures.append(f"the partial text is not shown exactly once: {got}")
    if not any("incomplete" in line for line in got):
        failures.append("no incomplete notice")
    if not all(terminal.sane().values()):
        failures.append(f"terminal left {terminal.sane()}")


def error(ps_render, failures, facts):
    terminal = Terminal([ps_render])
    terminal.send(start_message())
    terminal.send(record(type="part-delta", index=0, delta="Partial answer"))
    terminal.wait_for(lambda: "Partial answer" in terminal.visible_text())
    terminal.send(record(type="stream-error", errorText="quota exceeded"))
    terminal.send(record(type="message-end", status="incomplete", reason="error", detail="quota exceeded"))
    status = terminal.close()
    got = terminal.lines()
    facts["endLines"] = got
    if sum("quota exceeded" in line for line in got) != 1:
        failures.append(f"the error is not shown exactly once: {got}")
    if sum("Partial answer" in line for line in got) != 1:
        failures.append(f"the partial text is not shown exactly once: {got}")
    if status != 10:
        failures.append(f"exit status {status}, not 10")


def main():
    ps_render, scenario = sys.argv[1], sys.argv[2]
    failures, facts = [], {}
    globals()[scenario](ps_render, failures, facts)
    print(json.dumps({"ok": not failures, "failures": failures, **facts}))


if __name__ == "__main__":
    main()
