"""dstack's `${{ run.args }}` where the server's flags go.

dstack fills `${{ run.args }}` in with the arguments the run was started with before a shell runs
the commands (dstack docs, "Tasks": "Parametrize tasks ... using ${{ run.args }}"). The audit split
it into three words (`${{`, `run.args`, `}}`) and said nothing: a server whose speculative flags
come from the run's arguments read as one serving without speculation, nothing wrong. Now it is
one word where flags go, and the flags it may hold are said to be unread, as for `$EXTRA_ARGS`.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import names_no_draft_path, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVICE = """type: service
name: sglang-eagle3
image: lmsysorg/sglang:latest
env:
  - HF_TOKEN
  - MODEL_ID=meta-llama/Llama-3.1-8B-Instruct
commands:
  - python3 -m sglang.launch_server --model-path $MODEL_ID --port 8000 {extra}${{{{ run.args }}}}
port: 8000
"""


def _audit(text):
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return launch_step.check(ctx)


def test_run_args_where_flags_go_are_said_unread():
    (note,) = _audit(SERVICE.format(extra=""))
    assert note.code == "SD004" and "${{run.args}} where its flags go" in note.evidence[0]
    assert "the arguments the run was started with" in note.evidence[0]


def test_run_args_is_one_word_that_may_hold_the_draft():
    cfg = parse_launch_command(SERVICE.format(extra="--speculative-algorithm EAGLE3 "))
    assert cfg.argv[-1] == "${{run.args}}" and not names_no_draft_path(cfg)
