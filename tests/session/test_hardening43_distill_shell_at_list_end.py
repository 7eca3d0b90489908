"""A remote command that ends by opening a shell needs someone at a terminal.

`ssh -t gpu02 "cd ~/sglang && bash"` (or `...; exec zsh -l`, `cd x && tmux attach`, `cd x &&
python`) runs a list whose last command waits for keys. `unattended.interactive`, which
`distill` uses to leave such commands out of a playbook (a step would hang until its timeout
over a pipe, having checked nothing), looked at the whole text only, so these were taken for
checks. A shell fed by a pipe (`echo ls | bash`) or given a script stays a check."""

from __future__ import annotations

import pytest

from spec_debug.session.unattended import interactive


@pytest.mark.parametrize(("inner", "why"), [
    ("cd ~/sglang && bash", "an interactive shell"),
    ("cd /srv/sglang; exec zsh -l", "an interactive shell"),
    ("source venv/bin/activate && exec bash -l", "an interactive shell"),
    ("cd ~/runs && tmux attach -t bench", "attaching to a terminal session"),
    ("cd ~/eagle3 && python", "an interactive interpreter"),
])
def test_a_list_that_ends_in_a_shell_waits_for_keys(inner: str, why: str) -> None:
    assert interactive(inner, host="gpu02") == why


@pytest.mark.parametrize("inner", [
    "echo ls | bash",
    "cd ~/sglang && bash run_bench.sh",
    "cd ~/sglang && bash -c 'nvidia-smi -L'",
    "cd ~/eagle3 && python eval.py",
    "cd ~/runs && tmux ls",
    "cd ~/sglang; git log -1",
])
def test_a_list_that_ends_in_a_check_is_a_check(inner: str) -> None:
    assert interactive(inner, host="gpu02") is None
