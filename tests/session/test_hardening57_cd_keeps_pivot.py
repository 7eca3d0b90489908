"""analyze/distill: a bare ``cd`` (or ``source venv/bin/activate``) between a failure and the
agent's new approach ended the wait for that approach: ``cd`` is setup, so the line had no sole
program and was not idle, and a command of kind "other" right after a failure is no pivot. The
change of approach was lost: no pivot in analyze, and distill's playbook kept neither the failed
check nor the source read that followed (one step of three). A line of setup alone now waits, as
``pwd`` and ``sleep`` did."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer, _bench

CHECK = "ssh gpu01 'python /root/check_draft.py'"
GREP = "ssh gpu01 'grep -n eagle_aux_hidden_state_layer_ids /root/sglang/python/sglang/srt/models/llama.py'"


def _session(tmp_path, between: str):
    w = _Writer("57570000-0000-4000-8000-0000000000c1", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 60 tok/s; without speculation it was 90 tok/s.")
    w.bash("ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'", _bench(60.0, 1.3))
    w.bash(CHECK, "Traceback (most recent call last):\n  File \"/root/check_draft.py\", line 3, in <module>\n"
           "KeyError: 'eagle_aux_hidden_state_layer_ids'", exit_code=1, text="Checking the draft config.")
    w.bash(between, "", text="Let me look at the source instead.")
    w.bash(GREP, "123:        self.layers_to_capture = config.eagle_aux_hidden_state_layer_ids")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("between", ["cd /root/sglang", "source ~/ml-env/bin/activate && cd /root/sglang", "pwd"])
def test_setup_between_a_failure_and_a_new_approach_keeps_the_pivot(tmp_path, between):
    path = _session(tmp_path, between)
    a = analyze_path(path)
    grep = next(c for c in a.commands if c.command == GREP)
    check = next(c for c in a.commands if c.command == CHECK)
    assert [(p.seq, p.trigger_seq, p.to_category) for p in a.pivots] == [(grep.seq, check.result_seq, "read_source")]
    runs = [s["run"] for s in distill_playbook(a)["steps"] if "run" in s]
    assert any("check_draft" in r for r in runs) and any(r.startswith("grep -n eagle_aux") for r in runs)
    assert not any(r.startswith(("cd ", "source ")) for r in runs)
