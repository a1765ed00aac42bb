#!/usr/bin/python3
"""Syntax highlighting of fenced code as a terminal shows it: ps-render on a pseudo-terminal,
its output read by pyte (through live_terminal.Terminal), colours read cell by cell.

  highlight_terminal.py PS_RENDER SCENARIO

Prints one JSON object: {"ok": bool, "failures": [...], ...facts}. Scenarios:
  colours   code streamed live in random pieces: keywords, strings, numbers coloured; the end
            screen, colours included, equals the whole message rendered at once
  nocolor   the same with NO_COLOR set: the same text, not one coloured cell
  hostile   code holding escape sequences (clear screen, OSC 52 clipboard, window title, C1 CSI)
            and a language name holding one: shown as visible stand-ins, nothing done
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_terminal import Terminal, end_message, record, start_message, streamed  # noqa: E402

CODE = ('Before.\n\n```python\ndef greet(name):\n    """Say hello\n    over lines"""\n'
        '    return "hi " + name  # done\nx = 42\n```\n\n'
        '```json\n{"key": "value", "n": 12, "ok": true}\n```\n\nAfter.\n')


def cells(terminal):
    """Every line shown or scrolled away: its text and the colour of each character."""
    def line_of(line):
        chars = [line[x] for x in range(terminal.columns)]
        text = "".join(c.data for c in chars).rstrip()
        return text, [chars[x].fg for x in range(len(text))]
    rows = [line_of(line) for line in terminal.screen.history.top]
    rows += [line_of(terminal.screen.buffer[y]) for y in range(terminal.rows)]
    while rows and not rows[-1][0]:
        rows.pop()
    return rows


def colour_of(rows, word):
    """The colours of the first place `word` is shown."""
    for text, colours in rows:
        at = text.find(word)
        if at >= 0:
            return set(colours[at:at + len(word)])
    return None


def whole(ps_render, text, env=None):
    terminal = Terminal([ps_render, "--no-live"], env=env)
    terminal.send(record(id="m1", role="assistant", parts=[{"type": "text", "text": text, "state": "done"}]))
    terminal.close()
    return cells(terminal)


def colours(ps_render, failures, facts):
    terminal, status = streamed(ps_render, CODE)
    got = cells(terminal)
    expected = whole(ps_render, CODE)
    facts["endLines"] = [text for text, _ in got]
    if status != 0:
        failures.append(f"exit status {status}")
    if got != expected:
        failures.append("the streamed screen (text and colours) differs from the whole render:\n"
                        + "\n".join(f"{t} {c}" for t, c in got) + "\n--- whole ---\n"
                        + "\n".join(f"{t} {c}" for t, c in expected))
    wanted = {"def": "magenta", "return": "magenta", '"hi "': "green", "42": "brown", "greet": "blue",
              "key": "cyan", "true": "magenta", "name):": "default"}
    seen = {word: sorted(colour_of(got, word) or []) for word in wanted}
    facts["colours"] = seen
    for word, colour in wanted.items():
        if seen[word] != [colour]:
            failures.append(f"{word!r} is {seen[word]}, not {colour}")
    # The prose around the code is not coloured as code.
    if colour_of(got, "Before.") != {"default"}:
        failures.append(f"the prose is coloured: {colour_of(got, 'Before.')}")
    if not all(terminal.sane().values()):
        failures.append(f"terminal left {terminal.sane()}")


def nocolor(ps_render, failures, facts):
    terminal, status = streamed(ps_render, CODE, env={"NO_COLOR": "1"})
    got = cells(terminal)
    facts["endLines"] = [text for text, _ in got]
    if status != 0:
        failures.append(f"exit status {status}")
    coloured = [text for text, colours in got if any(c != "default" for c in colours)]
    if coloured:
        failures.append(f"coloured lines with NO_COLOR: {coloured}")
    with_colour = [text for text, _ in whole(ps_render, CODE)]
    if [text for text, _ in got] != with_colour:
        failures.append("the text differs from the coloured render's")


def hostile(ps_render, failures, facts):
    code = ('Before.\n\n```python\n'
            's = "\x1b[2J\x1b[H\x1b]52;c;aGk=\x07"  # \x1b]0;title\x07 comment\n'
            'def f(): return "\u009b31m red"\n```\n\n'
            '```\x1b]0;owned\x07python\nprint(1)\n```\n\nAfter.\n')
    terminal, status = streamed(ps_render, code)
    got = cells(terminal)
    lines = [text for text, _ in got]
    facts["endLines"] = lines
    if status != 0:
        failures.append(f"exit status {status}")
    if terminal.screen.title:
        failures.append(f"the window title was set: {terminal.screen.title!r}")
    if len(lines) < 3 or not lines[0].startswith("── Assistant") or lines[2] != "Before.":
        failures.append(f"the screen was cleared or moved: {lines}")
    if not any("\u241b[2J\u241b[H\u241b]52;c;aGk=\u2407" in line for line in lines):
        failures.append("the escape sequences in the code are not shown as visible stand-ins")
    if not any("<U+009B>31m red" in line for line in lines):
        failures.append("the C1 control is not shown as <U+009B>")
    if not any(line.startswith("```\u241b]0;owned\u2407python") for line in lines):
        failures.append("the language name's escape sequence is not shown as stand-ins")
    # pyte calls SGR 33 brown: the yellow of plain code.
    if colour_of(got, "print(1)") != {"brown"}:
        failures.append(f"a block whose language name is not a name is not plain code: {colour_of(got, 'print(1)')}")
    if colour_of(got, "def") != {"magenta"}:
        failures.append(f"the code after them is not highlighted: {colour_of(got, 'def')}")
    if not all(terminal.sane().values()):
        failures.append(f"terminal left {terminal.sane()}")


def main():
    ps_render, scenario = sys.argv[1], sys.argv[2]
    failures, facts = [], {}
    globals()[scenario](ps_render, failures, facts)
    print(__import__("json").dumps({"ok": not failures, "failures": failures, **facts}))


if __name__ == "__main__":
    main()
