"""Of two calls answered in one message, only the one whose output prompted a pivot is a step.

In the Gemini CLI checkpoint checkpoint-eagle3-accept the model made two calls, `grep -c "accept
len"` (output 1184) and `tail -n 4` of one server log (the IndexError), answered in one turn.
The pivot names the `tail` (pivots[].trigger_command, hardening 71), yet distill kept the
`grep -c` as a step too: select_commands took every call of the pivot's trigger message as
read, though it drops a call beside the one whose output showed a finding (hardening 71). It
is no step now. A pivot that names no call (a metric's) still keeps each call of its message.

The turn's words ("Counting the decode lines. The log says how often the draft was accepted.")
lead the first call, the `grep -c`; the `tail` step, now the message's only step, is not given
them (distill._led_by_their_words: words explain the first command they led to, step or not)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, select_commands

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"
GREP = "ssh gpu01 'grep -c \"accept len\" /tmp/sglang.log'"
TAIL = "ssh gpu01 'tail -n 4 /tmp/sglang.log'"
LS = "ssh gpu01 'ls /models/eagle3-draft/config.jsn'"
INDEX = "IndexError: index 32000 is out of bounds for dimension 0 with size 32000"


def test_the_count_beside_the_tail_is_no_step() -> None:
    analysis = analyze_path(DATA / "checkpoint-eagle3-accept.json")
    assert [(p.trigger_seq, p.trigger_command) for p in analysis.pivots] == [(4, TAIL)]
    assert [c.command for c in select_commands(analysis)] == [TAIL, LS]
    steps = distill_playbook(analysis)["steps"]
    assert [(s["run"], s["why"]) for s in steps] == [
        ("tail -n 4 {{ sglang_log }}", f"Its result ({INDEX}) prompted a change of approach at [msg 5]."),
        ("ls {{ config_jsn }}", f"It was the first step of a change of approach after {INDEX} [msg 4]."),
    ]


def _two_calls(tmp_path: Path, outputs: dict[str, str]) -> Path:
    """A Gemini CLI checkpoint: two calls with ids, both answered in one turn of functionResponse parts."""
    calls = [("c1", GREP), ("c2", TAIL)]
    history = [
        {"role": "user", "parts": [{"text": "EAGLE3 on gpu01 dies. Look at the server log."}]},
        {"role": "model", "parts": [{"functionCall": {"id": i, "name": "run_shell_command", "args": {"command": c}}}
                                    for i, c in calls]},
        {"role": "user", "parts": [{"functionResponse": {"id": i, "name": "run_shell_command", "response": {
            "output": f"Command: {c}\nOutput: {outputs[c]}\nExit Code: 0"}}} for i, c in calls]},
        {"role": "model", "parts": [{"functionCall": {"id": "c3", "name": "run_shell_command", "args": {"command": LS}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c3", "name": "run_shell_command",
                                                         "response": {"output": "Output: config.json\nExit Code: 0"}}}]},
    ]
    path = tmp_path / "checkpoint-parallel.json"
    path.write_text(json.dumps(history, indent=2), encoding="utf-8")
    return path


def test_the_call_that_prompted_it_is_kept_whichever_it_is(tmp_path: Path) -> None:
    crash = f"Traceback (most recent call last):\n  File \"eagle_worker.py\", line 502, in verify\n{INDEX}"
    for outputs, kept in (({GREP: "1184", TAIL: crash}, TAIL), ({GREP: crash, TAIL: "server started"}, GREP)):
        analysis = analyze_path(_two_calls(tmp_path, outputs))
        assert [p.trigger_command for p in analysis.pivots] == [kept], (kept, analysis.pivots)
        chosen = [c.command for c in select_commands(analysis)]
        assert chosen == [kept, LS], chosen
