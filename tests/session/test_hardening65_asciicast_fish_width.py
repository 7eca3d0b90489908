"""An asciinema recording of fish in an 80-column terminal where the first command typed took
three rows. fish's wrapped command is played on a screen of the terminal's width; at the first
prompt (no ``⏎`` mark before it to tell the width) that width came only from a ``Script started``
line, which a recording has none of, though its header gives it (v2 ``width``,
docs.asciinema.org/manual/asciicast/v2): the command was its first row's part, ``... sys.exit(3)'
-``. The output stream is the real one of data_hardening65/fish_wrapped_three_rows.typescript
(util-linux script records the same pty output asciinema does), cut into events of 50 characters."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3")


def test_the_header_s_width_reads_a_command_wrapped_at_the_first_prompt(tmp_path: Path) -> None:
    rows = (DATA / "fish_wrapped_three_rows.typescript").read_bytes().decode("utf-8").split("\n")  # (its \r kept)
    stream = "\n".join(rows[1:-2]) + "\n"  # without script(1)'s "Script started" and "Script done" lines
    events = [json.dumps({"version": 2, "width": 80, "height": 30, "timestamp": 1796560053,
                          "env": {"SHELL": "/usr/bin/fish", "TERM": "xterm-256color"}})]
    events += [json.dumps([round(0.01 * (n + 1), 6), "o", stream[at:at + 50]])
               for n, at in enumerate(range(0, len(stream), 50))]
    path = tmp_path / "fish.cast"
    path.write_text("\n".join(events) + "\n", encoding="utf-8")
    assert [(c.command, c.host, c.exit_code) for c in analyze_path(path).commands] == [
        (LAUNCH, "vm", 3), ("echo done", "vm", 0), ("exit", "vm", None)]
