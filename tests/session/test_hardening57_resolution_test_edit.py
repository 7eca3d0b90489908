"""postmortem: an edit of a test script the agent then ran is no change behind a rise. The agent
fixed its standalone drafter test (Edit of /tmp/test_drafter_standalone.py), ran it on the host,
then applied the real fix (a patch to SGLang) and restarted the server: the Resolution said the
rise came "after editing `/tmp/test_drafter_standalone.py` (Edit), `git apply ...`, restarting the
server". An edit of a file a launch names (the launch script) is still one."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer, _bench

BENCH = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
RESTART = "ssh gpu01 'bash /root/launch_eagle3.sh'"
LAUNCH_OUT = "The server is fired up and ready to roll!"


def _resolution(tmp_path, edited: str, run: str) -> str:
    w = _Writer("57570000-0000-4000-8000-0000000000a7", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 60 tok/s; without speculation 90 tok/s.")
    w.bash(RESTART, LAUNCH_OUT)
    w.bash(BENCH, _bench(60.0, 1.0))
    w.tool("Edit", {"file_path": edited, "old_string": "x = h", "new_string": "x = norm(h)"}, "updated")
    w.bash("scp " + edited + " root@gpu01:" + edited, "")
    w.bash(run, "standalone acceptance: 72.4%")
    w.bash("ssh gpu01 'cd /root/sglang && git apply /root/patches/eagle3_embed_capture.patch'", "")
    w.bash(RESTART, LAUNCH_OUT)
    w.bash(BENCH, _bench(96.8, 3.2))
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    md = render_postmortem(analyze_path(path), "md")
    return md.split("## Resolution", 1)[1].split("## Lessons", 1)[0]


def test_an_edited_test_is_no_part_of_the_fix(tmp_path):
    text = _resolution(tmp_path, "/tmp/test_drafter_standalone.py",
                       "ssh gpu01 '~/ml-env/bin/python /tmp/test_drafter_standalone.py'")
    assert "Throughput rose from 60 to 96.8 tok/s" in text
    assert "git apply /root/patches/eagle3_embed_capture.patch" in text
    assert "test_drafter_standalone" not in text


def test_a_tool_whose_test_ran_is_still_part_of_it(tmp_path):
    # `pytest tests/test_export_eagle3.py` names the test, not the exporter export_eagle3.py
    text = _resolution(tmp_path, "/root/tools/export_eagle3.py", "ssh gpu01 'cd /root && pytest tests/test_export_eagle3.py'")
    assert "editing `/root/tools/export_eagle3.py` (Edit)" in text


def test_an_edited_launch_script_is_part_of_it(tmp_path):
    text = _resolution(tmp_path, "/root/launch_eagle3.sh", "ssh gpu01 'python /root/test_smoke.py'")
    assert "editing `/root/launch_eagle3.sh` (Edit)" in text
