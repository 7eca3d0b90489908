"""postmortem: an edit made with a file tool is one of the changes a rise followed.

The agent measured 60 tok/s, fixed the draft's aux layer ids with Claude Code's Edit tool on
/models/e3/config.json, restarted the server and measured 96.8. The Resolution and "What went
well" said the rise came "after relaunching the server with `--speculative-algorithm EAGLE3 ...`"
(or, since hardening55, "after restarting the server (the same speculative flags)"): the edit,
the fix itself, is no command, and the postmortem read only commands. The analysis now keeps a
file tool's edits (outside the JSON contract) and the postmortem tells them with the commands.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer, _bench

LAUNCH = ("nohup python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3 --port 30000 > /tmp/s.log 2>&1 &")
BENCH = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64"


def _analysis(tmp_path):
    w = _Writer("55550000-0000-4000-8000-0000000000ed", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 is slow.")
    w.bash(LAUNCH, "", text="Launching.")
    w.bash(BENCH, _bench(60.0, 1.4), text="Benchmark.")
    edit = w.tool("Edit", {"file_path": "/models/e3/config.json",
                           "old_string": '"eagle_aux_hidden_state_layer_ids": [2, 30, 58]',
                           "new_string": '"eagle_aux_hidden_state_layer_ids": [3, 31, 59]'},
                  "The file /models/e3/config.json has been updated.")[0]
    restart = w.bash("pkill -f sglang.launch_server; " + LAUNCH, "", text="Restarting to load the config.")[0]
    risen = w.bash(BENCH, _bench(96.8, 2.9), text="Benchmark.")[1]
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path), edit, restart, risen


def test_the_resolution_tells_the_edit(tmp_path):
    a, edit, restart, risen = _analysis(tmp_path)
    assert postmortem_view(a)["resolution"] == [
        f"Throughput rose from 60 to 96.8 tok/s [msg {risen}] after editing `/models/e3/config.json` (Edit) "
        f"[msg {edit}], restarting the server (the same speculative flags) [msg {restart}]."]
    assert "file_edits" not in a.to_json()


def test_the_edit_has_its_supporting_entry(tmp_path):
    a, edit, _, _ = _analysis(tmp_path)
    md = render_postmortem(a, "md", redact=False)
    assert f'- <a id="msg-{edit}"></a>**[msg {edit}]** (main): Edit: /models/e3/config.json' in md
    anchors = set(re.findall(r'<a id="(msg-\d+)"></a>', md))
    assert set(re.findall(r"\]\(#(msg-\d+)\)", md)) <= anchors
