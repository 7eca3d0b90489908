"""A capture that starts with `.*` over benchmark output. sglang.bench_serving and vLLM's
benchmarks draw tqdm progress bars that redraw with a carriage return and no newline, so the
output is one long line; `(?P<rate>.*) tok/s` was tried from each of its characters (40 KB took
10 s, 256 KiB minutes), and Python's re does not let Ctrl-C or SIGTERM in while it matches: the
run hung until SIGKILL, its record left "running". Validation said ok."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

# 256 KiB of tqdm redraws (no newline), then the summary line the capture wants.
BENCH = ("python3 -c \"import sys; bar=' 45%|####5     | 450/1000 [00:01<00:02, 300.00it/s]\\r'; "
         "sys.stdout.write(bar * 4800 + 'Output token throughput: 54.8 tok/s\\n')\"")


def _playbook(regex: str) -> str:
    return ("name: bench\nsteps:\n  - id: bench\n"
            f"    run: {json.dumps(BENCH)}\n"
            f"    capture: [{{regex: {json.dumps(regex)}, type: str}}]\n")


def test_a_leading_dot_star_is_refused_with_the_anchored_form():
    # Under all: true (every match): a first match is searched in linear time (hardening19_ux_dot_star).
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(_playbook(r"(?P<rate>.*) tok/s").replace("type: str", "type: str, all: true"), "bench.yaml")
    error = caught.value
    assert (error.line, error.column) == (5, 15), error.message
    assert "starts with .*" in error.message and "Ctrl-C cannot stop" in error.message
    assert "with the same matches: ^(?P<rate>.*) tok/s" in error.message


@pytest.mark.parametrize("regex, anchored", [(r"(?x).*CUDA\ out\ of\ memory.*", r"(?x)^.*CUDA\ out\ of\ memory.*"),
                                             (r"(?x).+error", r"(?x)^.+error")])
def test_expect_matches_and_inline_flags(regex, anchored):
    # (?i) and (?s) leads are guarded by the runner and load; a (?x) lead is not.
    text = f"name: p\nsteps:\n  - id: a\n    run: echo hi\n    expect: [{{matches: {json.dumps(regex)}}}]\n"
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "p.yaml")
    assert f"with the same match: {anchored} (at steps[0].expect[0]" in caught.value.message
    load_playbook_text(text.replace("(?x)", "(?i)").replace("\\ ", " "), "p.yaml")


@pytest.mark.parametrize("regex", [r"(?P<rate>[\d.]+) tok/s", r"^(?P<line>.*)$", r"(?P<rest>.*)",
                                   r"throughput: (?P<rate>.*) tok/s", r"(?P<rate>.*?) tok/s"])
def test_regexes_that_do_not_start_with_a_greedy_dot_star_load(regex):
    load_playbook_text(_playbook(regex), "bench.yaml")


def test_the_flagged_form_captures_the_value_from_progress_bar_output_in_seconds(tmp_path):
    # `(?i).* (?P<rate>[\d.]+) tok/s` was refused (its flags hid the .* from the runner's guard);
    # the guard now goes after the flags, and the capture runs in linear time.
    (tmp_path / "bench.yaml").write_text(_playbook(r"(?i).* (?P<rate>[\d.]+) tok/s"))
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "bench.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 60
    record = json.loads(next(tmp_path.glob("runs/*/run.json")).read_text())
    assert record["facts"]["local"]["rate"] == "54.8"
