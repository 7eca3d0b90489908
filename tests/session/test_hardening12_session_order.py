"""A folder of Claude Code sessions is read in file-name order, and Claude Code names each
session by a random UUID (``~/.claude/projects/<cwd>/<sessionId>.jsonl``, TRANSCRIPTS.md 1a).
When the incident ran over two sessions (the context ran out, or the work went on the next
morning), the later one was as likely to be listed first: the postmortem said throughput went
from the fixed reading to the broken one, took its title from "continue on gpu01…", and never
found the relaunch that the rise followed. The postmortem now lists sessions by their first time."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem

FIRST = "f3a9c1d2-5b6e-4c1a-9d2f-7e8a9b0c1d2e"  # 08:00, sorts last by name
SECOND = "0b7e4a55-8c9d-4e0f-a1b2-c3d4e5f6a7b8"  # 10:00 the same day, sorts first
BENCH = "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 80'"
# the launch line of SGLang's EAGLE-3 example (sgl-project/sglang docs/advanced_features/speculative_decoding.ipynb)
LAUNCH = ("ssh gpu01 'python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
          "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --port 30000'")


def _bench_output(tok_s: str) -> str:
    # sglang.bench_serving's result block (python/sglang/bench_serving.py)
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Successful requests:                     80\n"
            "Benchmark duration (s):                  60.00\n"
            f"Output token throughput (tok/s):         {tok_s}\n"
            "==================================================")


def _line(sid: str, uuid: str, parent: str | None, ts: str, kind: str, content) -> str:
    # the envelope Claude Code writes (TRANSCRIPTS.md 1a; daaain/claude-code-log models.py)
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": sid, "timestamp": ts,
                       "isSidechain": False, "cwd": "/work", "version": "2.1.30",
                       "message": {"role": kind, "content": content}})


def _call(sid, uuid, parent, ts, call_id, command):
    return _line(sid, uuid, parent, ts, "assistant",
                 [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}])


def _result(sid, uuid, parent, ts, call_id, output):
    return _line(sid, uuid, parent, ts, "user",
                 [{"type": "tool_result", "tool_use_id": call_id, "is_error": False, "content": output}])


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "-work"
    project.mkdir()
    (project / f"{FIRST}.jsonl").write_text("\n".join([
        _line(FIRST, "u1", None, "2026-03-02T08:00:00.000Z", "user",
              "gpu01 serves 40 tok/s with EAGLE-3 since the upgrade; find out why"),
        _call(FIRST, "a1", "u1", "2026-03-02T08:01:00.000Z", "toolu_a1", BENCH),
        _result(FIRST, "u2", "a1", "2026-03-02T08:03:00.000Z", "toolu_a1", _bench_output("40.12")),
    ]) + "\n", encoding="utf-8")
    (project / f"{SECOND}.jsonl").write_text("\n".join([
        _line(SECOND, "v1", None, "2026-03-02T10:00:00.000Z", "user",
              "continue on gpu01: relaunch with the draft settings we found and measure again"),
        _call(SECOND, "b1", "v1", "2026-03-02T10:01:00.000Z", "toolu_b1", LAUNCH),
        _result(SECOND, "v2", "b1", "2026-03-02T10:02:00.000Z", "toolu_b1", "The server is fired up and ready to roll!"),
        _call(SECOND, "b2", "v2", "2026-03-02T10:05:00.000Z", "toolu_b2", BENCH),
        _result(SECOND, "v3", "b2", "2026-03-02T10:07:00.000Z", "toolu_b2", _bench_output("121.5")),
    ]) + "\n", encoding="utf-8")
    return project


def test_two_sessions_of_one_incident_read_in_the_order_they_happened(tmp_path: Path) -> None:
    a = analyze_path(_project(tmp_path))
    assert [s["id"] for s in a.sessions] == [SECOND, FIRST]  # the folder's (name) order
    view = postmortem_view(a)
    assert [s["id"] for s in view["sessions"]] == [FIRST, SECOND]
    assert view["title"].startswith("gpu01 serves 40 tok/s")
    (row,) = view["impact"]["rows"]
    assert (row["before"], row["after"]) == (40.12, 121.5)
    # the rise followed the relaunch, in the second session
    (resolution,) = view["resolution"]
    assert resolution.startswith("Throughput rose from 40.12 to 121.5 tok/s on gpu01") and "--speculative-num-steps 5" in resolution


def test_the_rendered_postmortem_numbers_sessions_in_time_order(tmp_path: Path) -> None:
    md = render_postmortem(analyze_path(_project(tmp_path)), "md")
    assert md.index(f"`{FIRST}`") < md.index(f"`{SECOND}`")
    assert "Throughput went from 40.12 tok/s [[msg 1:2]](#msg-1-2) to 121.5 tok/s [[msg 2:4]](#msg-2-4)." in md
    assert '<a id="msg-2-1"></a>**[msg 2:1]**' in md and "relaunching the server with" in md
    # Phases are numbered in the same order
    phases = md[md.index("## Phases"):md.index("## Agents")]
    assert phases.index("1. gpu01 serves 40 tok/s") < phases.index("2. continue on gpu01")


def test_sessions_without_times_keep_the_folder_order(tmp_path: Path) -> None:
    """An aider history or a shell log has no times: nothing to order by, nothing reordered."""
    project = _project(tmp_path)
    for path in project.iterdir():
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            del line["timestamp"]
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    view = postmortem_view(analyze_path(project))
    assert [s["id"] for s in view["sessions"]] == [SECOND, FIRST]


def test_a_playbook_distilled_from_two_sessions_runs_their_checks_in_the_order_they_ran(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from spec_debug.session.distill import distill_playbook
    from tests.session.incident_story import _Writer

    project = tmp_path / "-root-work"
    project.mkdir()
    first = _Writer(FIRST, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    first.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    first.bash("ssh root@gpu01 'grep -c \"accept len\" /root/sglang/server.log'", "grep: /root/sglang/server.log: "
               "No such file or directory", exit_code=2)
    first.bash("ssh root@gpu01 cat /root/eagle3/config.json", '{"draft_vocab_size": 32000}')
    second = _Writer(SECOND, None, datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc))
    second.prompt("continue on gpu01 where we stopped: check the target model next")
    second.bash("ssh root@gpu01 'grep -c \"accept len\" /var/log/sglang.log'", "grep: /var/log/sglang.log: "
                "Permission denied", exit_code=2)
    second.bash("ssh root@gpu01 cat /models/llama/config.json", '{"vocab_size": 128256}')
    for writer in (first, second):
        (project / f"{writer.session}.jsonl").write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    playbook = distill_playbook(analyze_path(project))
    provenance = [step["provenance"]["session"] for step in playbook["steps"]]
    assert provenance == sorted(provenance, key=[FIRST, SECOND].index) and set(provenance) == {FIRST, SECOND}
    assert playbook["description"].startswith(f"Distilled by spec-debug from session {FIRST}: EAGLE-3 on gpu01")
