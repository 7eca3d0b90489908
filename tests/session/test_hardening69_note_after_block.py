"""An engineer's Markdown notes: a plain ``` block holds a run (``$ cmd`` and what it printed),
then the notes go on in prose. The prose was read as more of the command's output: the paper's
"accept length: 3.1" the note compares against became a second reading of the benchmark (the
postmortem's Impact read 1.02 -> 3.1 tokens, the opposite of what happened), and an error the
note recalls ("last week it printed RuntimeError: CUDA error ...") an error of that run. The
block's end ends its output now; the prose is a note of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

NOTES = """# Acceptance on gpu01

```{lang}
$ python bench_speculative.py --port 30000
accept length: 1.02
```

The EAGLE-3 paper reports accept length: 3.1 for this model, so the draft is broken.
Last week the same run printed RuntimeError: CUDA error: device-side assert triggered, fixed since.

```{lang}
$ nvidia-smi --query-gpu=memory.used --format=csv
memory.used [MiB]
61234 MiB
```
"""


@pytest.mark.parametrize("lang", ["", "console", "text"])
def test_the_prose_after_a_run_block_is_no_output_of_its_command(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "notes.md"
    path.write_text(NOTES.format(lang=lang))
    analysis = analyze_path(path)
    bench, smi = analysis.commands
    assert (bench.command, bench.is_error, bench.exit_code) == ("python bench_speculative.py --port 30000", False, None)
    assert smi.command == "nvidia-smi --query-gpu=memory.used --format=csv"
    # the run's one reading is the bench's output; the paper's figure is the note's
    readings = [(m.value, m.source, m.seq) for m in analysis.metrics if m.name == "accept_length"]
    assert readings == [(1.02, "output", bench.seq), (3.1, "prose", bench.seq + 1)]
    assert [e.command_seq for e in analysis.errors] == []


def test_a_block_of_commands_alone_still_takes_the_output_block_after_it(tmp_path: Path) -> None:
    # the command in one block, what it printed in the next: still that command's output
    path = tmp_path / "notes.md"
    path.write_text("Ran the bench:\n\n```\n$ python bench_speculative.py --port 30000\n```\n\n"
                    "```\naccept length: 1.02\n```\n")
    analysis = analyze_path(path)
    (bench,) = analysis.commands
    assert [(m.value, m.source, m.seq) for m in analysis.metrics] == [(1.02, "output", bench.seq)]
