"""`.*`-led capture regexes over benchmark output, after runner/output_regex.py made first
matches linear.

sglang.bench_serving and vLLM's benchmarks draw tqdm bars that redraw with `\\r` and no newline,
so their output is one long line. A first match of `(?P<rate>.*) tok/s` is now guarded by the
runner (1 MB in well under a second), yet validation still refused it and told the user to
rewrite a regex that was fine. Meanwhile a capture with `all: true` that starts with a lazy
`.*?` (`.*?accept len: (?P<a>[\\d.]+)`, the "skip to the text" habit) loaded, and its finditer
took 19 s on 40 KB of tqdm redraws, minutes on 256 KiB, with Ctrl-C held off."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

# 1 MB of tqdm redraws (no newline), then the summary line the capture wants.
BENCH = ("python3 -c \"import sys; bar=' 45%|####5     | 450/1000 [00:01<00:02, 300.00it/s]\\r'; "
         "sys.stdout.write(bar * 19000 + 'Output token throughput: 54.8 tok/s\\n')\"")


def _playbook(capture: str) -> str:
    return f"name: bench\nsteps:\n  - id: bench\n    run: {json.dumps(BENCH)}\n    capture: [{capture}]\n"


def test_a_first_match_dot_star_loads_and_runs_over_a_megabyte_progress_line_in_seconds(tmp_path):
    text = _playbook(r"{regex: '.* (?P<rate>[\d.]+) tok/s', type: str}")
    load_playbook_text(text, "bench.yaml")  # refused before: "starts with .*"
    (tmp_path / "bench.yaml").write_text(text)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "bench.yaml", "--host", "local", "--out", "runs",
                           "--capture-limit", "2000000"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert time.monotonic() - started < 60  # the backtracking this guards takes hours; a quiet run ~3 s
    record = json.loads(next(tmp_path.glob("runs/*/run.json")).read_text())
    assert record["facts"]["local"]["rate"] == "54.8"


def test_a_lazy_lead_under_all_true_is_refused_with_a_form_that_keeps_every_value():
    regex = r".*?accept len: (?P<a>[\d.]+)"
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(_playbook(f"{{regex: '{regex}', all: true, type: float}}"), "bench.yaml")
    error = caught.value
    assert (error.line, error.column) == (5, 15), error.message
    advised = error.message.split("with the same groups in every match: ")[1].split(" (at ")[0]
    assert advised == r"accept len: (?P<a>[\d.]+)"
    load_playbook_text(_playbook(f"{{regex: '{advised}', all: true, type: float}}"), "bench.yaml")
    # The advice finds what the regex as written found, on a log small enough to search both ways.
    log = "Decode batch. accept len: 1.93, gen throughput: 54.8\nx accept len: 2.10 y accept len: 2.2\n"
    assert [m.groups() for m in re.finditer(advised, log, re.M)] == [m.groups() for m in re.finditer(regex, log, re.M)]


def test_a_lazy_group_under_all_true_is_refused_and_points_at_a_class():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(_playbook("{regex: '(?P<rate>.*?) tok/s', all: true}"), "bench.yaml")
    assert r"(?P<rate>[\d.]+) tok/s" in caught.value.message


@pytest.mark.parametrize("regex", [r"(?P<rate>.*) tok/s", r"(?P<rate>.*?) tok/s", r".+throughput: (?P<rate>\S+)"])
def test_first_match_leads_the_runner_guards_load(regex):
    load_playbook_text(_playbook(f"{{regex: '{regex}'}}"), "bench.yaml")


def test_a_lead_the_runner_cannot_guard_is_still_refused():
    # A leading (?x) keeps the runner's guard off (a trailing comment would swallow its ")"):
    # searched as written, it is quadratic. (?i) and (?s) are guarded and load.
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(_playbook(r"{regex: '(?x).*throughput:\ (?P<rate>[\d.]+)'}"), "bench.yaml")
    assert r"with the same match: (?x)^.*throughput:\ (?P<rate>[\d.]+)" in caught.value.message
    load_playbook_text(_playbook(r"{regex: '(?i).*throughput: (?P<rate>[\d.]+)'}"), "bench.yaml")
