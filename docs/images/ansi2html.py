"""Turns `tmux capture-pane -e -p` output (24-bit SGR colours) into an HTML page, for
docs/images/editor.png (docs/editors.md says how it is made). Usage:
python3 ansi2html.py < capture.ansi > capture.html"""

import html
import re
import sys

FG, BG = "#d4d4d4", "#1e1e1e"


def rgb(parts):
    return "#%02x%02x%02x" % tuple(int(p) for p in parts[:3])


def main():
    state = {"fg": None, "bg": None, "bold": False, "under": None, "rev": False}
    out = []
    for chunk in re.split(r"(\x1b\[[0-9;:]*m)", sys.stdin.read()):
        if not chunk.startswith("\x1b["):
            fg, bg = state["fg"] or FG, state["bg"] or BG
            if state["rev"]:
                fg, bg = bg, fg
            style = f"color:{fg};background:{bg}"
            if state["bold"]:
                style += ";font-weight:bold"
            if state["under"]:
                style += f";text-decoration:underline wavy {state['under']}"
            out.append(f'<span style="{style}">{html.escape(chunk)}</span>')
            continue
        # `4:3` (curly underline) is an underline here.
        codes = [int(c.split(":")[0]) for c in chunk[2:-1].split(";") if c] or [0]
        while codes:
            code = codes.pop(0)
            if code == 0:
                state = {"fg": None, "bg": None, "bold": False, "under": None, "rev": False}
            elif code == 1:
                state["bold"] = True
            elif code == 4:
                state["under"] = state["under"] or FG
            elif code == 7:
                state["rev"] = True
            elif code in (38, 48, 58) and codes[:1] == [2]:
                key = {38: "fg", 48: "bg", 58: "under"}[code]
                state[key] = rgb(codes[1:4])
                codes = codes[4:]
            elif code == 39:
                state["fg"] = None
            elif code == 49:
                state["bg"] = None
            elif code == 22:
                state["bold"] = False
            elif code == 24:
                state["under"] = None
            elif code == 27:
                state["rev"] = False
    print(
        f'<html><body style="margin:0;background:{BG}"><pre style="margin:0;padding:12px;'
        f'font:15px/1.35 \'DejaVu Sans Mono\',monospace">{"".join(out)}</pre></body></html>'
    )


main()
