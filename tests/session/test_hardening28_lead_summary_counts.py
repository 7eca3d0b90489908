"""The lines `analyze` and `distill` print on stderr says "1 event in 1 session; 1 line skipped", not
"1 events in 1 session(s); 1 line(s) skipped" (the postmortem's counts were made singular and
plural a round ago; the CLI's summary was left)."""

from __future__ import annotations

import json

import yaml

from spec_debug.session.commands import _read_summary


def test_one_of_each_is_singular(cli, tmp_path):
    path = tmp_path / "one.jsonl"
    good = {"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": "why is the drafter slower?"}}
    path.write_text(json.dumps(good) + "\n{broken\n", encoding="utf-8")
    done = cli("analyze", str(path), "--format", "json", "-o", str(tmp_path / "a.json"))
    assert done.code == 0, done.stderr
    assert "1 event in 1 session; 1 line skipped (broken JSON 1," in done.stderr


def test_several_are_plural_and_files_counted():
    stats = {"events": 12, "sessions": 3, "lines_skipped": 0, "broken_json": 0, "non_object": 0, "too_long": 0,
             "binary": 0, "missing_files": 1, "damaged_files": 2}
    assert _read_summary(stats) == ("12 events in 3 sessions; 0 lines skipped (broken JSON 0, not an object 0, "
                                    "too long 0, binary 0), 1 sub-agent file missing, 2 files cut short or corrupt")


def test_distill_says_how_many_steps_in_the_number_it_needs(cli, tmp_path):
    path = tmp_path / "s.jsonl"  # a launch whose flags cap speculation, nothing else
    lines = [{"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
              "message": {"role": "user", "content": "why is the drafter slower?"}},
             {"type": "assistant", "uuid": "u2", "timestamp": "2026-01-01T00:00:01Z",
              "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                            "input": {"command": "ssh gpu01 python -m sglang.launch_server --model-path "
                                                                                  "m --speculative-algorithm EAGLE3 --speculative-num-steps 1"}}]}},
             {"type": "user", "uuid": "u3", "timestamp": "2026-01-01T00:00:02Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                       "content": "server started"}]}}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "p.yaml"
    done = cli("distill", str(path), "-o", str(out))
    assert done.code == 0, done.stderr
    assert f"wrote {out}: 1 step, 1 var\n" in done.stderr, done.stderr
    # the session's one diagnostic lesson is the launch flag (SD101 on the launch command): the
    # playbook audits the host's server with the launch-flag probe (was "nothing to distill")
    doc = yaml.safe_load(out.read_text())
    assert doc["vars"] == {"server_cmdline": ""}
    (step,) = doc["steps"]
    assert step["probe"] == "launch_flags" and step["with"] == {"server_cmdline": "{{ server_cmdline }}"}
    assert step["why"].startswith("The session found SD101 [msg 1]: Speculation capped at one drafted token")
    assert step["provenance"] == {"session": "s", "seq": 1, "agent": "main"}
    assert "--host gpu01" in doc["description"]
    assert cli("playbooks", "validate", str(out)).code == 0
