"""` #` inside a quoted part of an unquoted `run:` no longer cuts the command silently.

In a plain YAML value ' #' starts a comment (YAML 1.2.2, 6.6). `run: grep -c "Decode batch.
#running-req" server.log` (SGLang's scheduler log line, python/sglang/srt/managers/scheduler.py)
or `run: sed 's/ #.*//' server.conf` loaded fine and ran as `grep -c "Decode batch.`: bash
then failed with "unexpected EOF while looking for matching", nowhere near the cause. A
comment after a whole command (`run: nvidia-smi  # the GPUs`) stays the author's comment.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

LOG = "Decode batch. #running-req: 1, #token: 1045, token usage: 0.00, accept len: 2.35"


@pytest.mark.parametrize("command, runs_as", [
    ('grep -c "Decode batch. #running-req" server.log', 'grep -c "Decode batch.'),
    ("sed 's/ #.*//' server.conf", "sed 's/"),
])
def test_a_comment_inside_an_open_quote_is_refused_with_what_would_run(write_playbook, command, runs_as):
    result = run_cli("playbooks", "validate", str(write_playbook(f"name: p\nsteps:\n  - id: a\n    run: {command}\n")))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert ":4:10:" in said and repr(runs_as) in said and "run: |" in said, said


def test_the_block_form_of_the_hint_runs_the_whole_command(write_playbook, tmp_path):
    (tmp_path / "server.log").write_text(f"{LOG}\n{LOG}\nother\n")
    text = 'name: p\nsteps:\n  - id: a\n    run: |\n      grep -c "Decode batch. #running-req" server.log\n'
    result = run_cli("run", str(write_playbook(text)), "--host", "local", "--out", str(tmp_path / "runs"), "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "2\n"


def test_a_comment_after_a_whole_command_is_still_a_comment(write_playbook, tmp_path):
    text = "name: p\nsteps:\n  - id: a\n    run: echo 'GPUs 8'  # what nvidia-smi -L would count\n"
    result = run_cli("run", str(write_playbook(text)), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "GPUs 8\n"
