"""The incident of INCIDENT.md, retold as a 4,400-message Claude Code session with three
sub-agents (one nested), analyzed end to end: what `spec-debug analyze` must find in it."""

from __future__ import annotations

import json

import pytest

from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import GPU, SESSION_ID, analyzed_story


@pytest.fixture(scope="module")
def story():
    return analyzed_story()


def test_the_story_is_long_and_has_sub_agents_at_two_depths(story):
    planted, a = story
    assert a.format == "claude-code"
    assert a.stats["events"] >= 1000 and a.stats["events"] == 4440
    assert a.stats["lines_skipped"] == 0
    assert a.stats["compactions"] == 1 and a.stats["unknown_types"] == 1
    trunk_calls = planted.session_file.read_text().count('"type": "tool_use"')
    tree = {ag["id"]: (ag["parent"], ag["spawned_by"], ag["status"], ag["tool_calls"], ag["errors"]) for ag in a.agents}
    assert tree == {
        "main": (None, None, "completed", trunk_calls, 7),
        "a1flags": ("main", "toolu_spawn_a1flags", "completed", 2, 1),
        "b2layers": ("main", "toolu_spawn_b2layers", "completed", 2, 1),
        # nested: linked only through agent-c3capture.meta.json's toolUseId
        "c3capture": ("b2layers", "toolu_spawn_c3capture", "completed", 1, 0),
    }


def test_hosts_with_their_ssh_options(story):
    _, a = story
    assert a.hosts == [GPU, "train-node-2"]
    targets = {(c.host, c.user, c.port, c.jump) for c in a.commands if c.host}
    assert targets == {(GPU, "root", None, None), (GPU, "root", None, "bastion.example.net"),
                       ("train-node-2", "ubuntu", 2222, None)}
    crash = next(c for c in a.commands if c.seq == 4399)
    assert crash.inner == "~/ml-env/bin/python /tmp/test_drafter_standalone.py"
    assert (crash.exit_code, crash.is_error, crash.category) == (1, True, "run_test")


def test_errors(story):
    _, a = story
    got = [(e.seq, e.agent, e.kind, e.exception, e.file, e.line) for e in a.errors]
    test = "/tmp/test_drafter_standalone.py"
    assert got == [
        (18, "main", "connection", None, None, None),
        (20, "main", "connection", None, None, None),
        (22, "main", "connection", None, None, None),
        (24, "main", "connection", None, None, None),
        (4388, "main", "traceback", "NameError", test, 79),
        (4394, "main", "traceback", "UnboundLocalError", test, 79),
        (4400, "main", "traceback", "UnboundLocalError", test, 79),
        (4425, "a1flags", "timeout", None, None, None),
        (4431, "b2layers", "cuda_oom", "torch.OutOfMemoryError",
         "/root/ml-env/lib/python3.12/site-packages/torch/nn/modules/module.py", 1343),
    ]
    assert a.errors[6].message == "cannot access local variable 'attn_input' where it is not associated with a value"
    assert all(e.host == GPU for e in a.errors)


def test_metrics_with_units_and_sources(story):
    _, a = story
    got = [(m.seq, m.name, m.value, m.unit, m.host, m.source) for m in a.metrics]
    assert got == [
        (0, "baseline_throughput", 90.0, "tok/s", None, "prose"),
        (0, "validation_accuracy", 74.7, "%", None, "prose"),
        (0, "throughput", 54.8, "tok/s", None, "prose"),
        (7, "throughput", 54.8, "tok/s", GPU, "output"),        # mean of 6 SGLang Decode batch lines
        (7, "accept_length", 1.02, "tokens", GPU, "output"),
        (7, "accept_rate", 0.51, "ratio", GPU, "output"),
        (9, "validation_accuracy", 74.7, "%", "train-node-2", "output"),  # val_acc=0.747
        (30, "throughput", 61.2, "tok/s", GPU, "output"),      # bench_serving after the flag fix
        (30, "accept_length", 2.31, "tokens", GPU, "output"),
        (45, "throughput", 63.5, "tok/s", GPU, "output"),      # "improved only marginally"
        (45, "accept_length", 2.38, "tokens", GPU, "output"),
        (4409, "standalone_accuracy", 72.4, "%", GPU, "output"),
        (4420, "throughput", 96.8, "tok/s", GPU, "output"),    # after the format fix
        (4420, "accept_length", 3.41, "tokens", GPU, "output"),
        (4421, "baseline_throughput", 90.0, "tok/s", None, "prose"),
        (4421, "throughput", 96.8, "tok/s", None, "prose"),
    ]


def test_pivots_including_msg_4401(story):
    _, a = story
    got = [(p.seq, p.trigger_seq, p.kind, p.agent, p.from_category, p.to_category) for p in a.pivots]
    assert got == [
        (47, 45, "metric", "main", "benchmark", "inspect_config"),
        (4401, 4400, "error", "main", "run_test", "read_source"),   # the moment of INCIDENT.md
        # `timeout 60 ... launch_server --help` only asks for the usage: no launch (was "launch_server")
        (4426, 4425, "error", "a1flags", "python", "read_source"),
    ]
    assert "UnboundLocalError" in a.pivots[1].summary and "core.py" in a.pivots[1].summary


def test_findings_map_to_the_catalog(story):
    _, a = story
    got = {f.code: (f.seq, f.evidence_seqs, f.severity) for f in a.findings}
    assert got == {
        "SD501": (0, [0, 7, 30, 45], "error"),
        "SD101": (5, [5], "error"),
        "SD201": (33, [33, 36, 4412, 4434], "error"),
    }
    sd201 = next(f for f in a.findings if f.code == "SD201")
    assert "cat([embed_output, layer3, layer31]) vs cat([layer3, layer31, layer59])" in sd201.evidence[0]
    assert [o["order"] for o in a.concat_orders] == [
        ["embed_output", "layer3", "layer31"], ["layer3", "layer31", "layer59"], ["input_embeds", "hidden_states"]]


def test_loops_hypotheses_and_segments(story):
    _, a = story
    assert [(lp.agent, lp.count, lp.first_seq, lp.last_seq, lp.error) for lp in a.loops] == [
        ("main", 4, 17, 23, "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"),
        ("main", 3, 4387, 4399, "NameError"),
    ]
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [
        (12, "confirmed", 31), (37, "confirmed", 4410), (4401, "open", None)]
    assert [(s.start_seq, s.end_seq, s.agent) for s in a.segments] == [
        (0, 46, "main"), (47, 2000, "main"), (2001, 4382, "main"), (4383, 4400, "main"), (4401, 4422, "main"),
        (4423, 4428, "a1flags"), (4429, 4434, "b2layers"), (4435, 4438, "c3capture")]
    titles = [s.title for s in a.segments]
    assert titles[3] == f"Running tests on {GPU}"
    assert titles[4] == f"Reading source code (pivot after [msg 4400]) on {GPU}"
    assert titles[2].startswith("After context compaction")


def test_json_contract_field_names(story, tmp_path):
    _, a = story
    doc = json.loads(json.dumps(a.to_json()))
    for key in ("format", "sessions", "agents", "stats", "commands", "errors", "metrics", "pivots", "findings",
                "segments"):
        assert key in doc
    contract = {
        "agents": {"id", "parent", "spawned_by", "events", "tool_calls", "errors", "status"},
        "commands": {"seq", "agent", "host", "command", "exit_code", "is_error"},
        "errors": {"seq", "agent", "kind", "exception", "message", "file", "line"},
        "metrics": {"seq", "agent", "name", "value", "unit", "host", "context"},
        "pivots": {"seq", "trigger_seq", "kind", "summary"},
        "findings": {"code", "seq", "evidence"},
        "segments": {"index", "start_seq", "end_seq", "title"},
    }
    for key, fields in contract.items():
        assert doc[key] and all(fields <= set(item) for item in doc[key]), key
    assert {"events", "lines_skipped", "tool_calls", "errors"} <= set(doc["stats"])
    assert doc["sessions"][0]["id"] == SESSION_ID


def test_postmortem_links_every_claim_to_its_message(story):
    _, a = story
    md = render_postmortem(a, "md")
    for section in ("## Summary", "## Impact", "## Detection", "## Timeline", "## Root causes (as found)",
                    "### What went well", "### What went wrong", "## Action items"):
        assert section in md
    assert "| throughput | 54.8 tok/s [[msg 7]](#msg-7) | 96.8 tok/s [[msg 4420]](#msg-4420) |" in md
    import re
    linked = set(re.findall(r"\(#msg-(\d+)\)", md))
    anchors = set(re.findall(r'<a id="msg-(\d+)"></a>', md))
    assert {"4400", "4401", "5", "33"} <= linked
    assert linked <= anchors, linked - anchors

    html = render_postmortem(a, "html")
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html and "http" not in html.split("<body>")[0]
    hrefs = set(re.findall(r'href="#msg-(\d+)"', html))
    ids = set(re.findall(r'id="msg-(\d+)"', html))
    assert hrefs and hrefs <= ids


def test_distilled_playbook_loads_and_keeps_provenance(story, tmp_path):
    from spec_debug.playbook import load_playbook

    _, a = story
    doc = distill_playbook(a)
    path = tmp_path / "incident.yaml"
    path.write_text(dump_playbook(doc), encoding="utf-8")
    playbook = load_playbook(path).playbook
    steps = {s.id: s for s in playbook.steps}
    assert list(steps) == ["launch_flags", "process_ps", "logs_sglang_server_log", "benchmark_bench_serving",
                           "read_source_deepseek_v2_py", "inspect_config_hidden_states",
                           "run_test_test_drafter_standalone_py", "read_source_core_py",
                           "python_dump_served_hidden_py",
                           # the sub-agent's `launch_server --help` that timed out (a read of the usage, no launch)
                           "python_launch_server",
                           "read_source_server_args_py", "model_configs"]
    core = steps["read_source_core_py"]
    assert core.provenance == {"session": SESSION_ID, "seq": 4401, "agent": "main"}
    assert core.run.startswith('grep -n "def forward')
    assert "{{ site_packages }}/speculators/models/eagle3/core.py" in core.run
    assert "Let me check the actual speculators code" in core.why
    assert playbook.vars["site_packages"] == "/root/ml-env/lib/python3.12/site-packages"
    assert playbook.vars["python"] == "/root/ml-env/bin/python"
    assert steps["run_test_test_drafter_standalone_py"].run == "{{ python }} {{ test_drafter_standalone_py }}"
    assert "SD101" in steps["process_ps"].why
    # the first bug of the story, checked as the shipped playbooks check it: the launch-flag probe
    audit = steps["launch_flags"]
    assert audit.probe == "launch_flags" and audit.with_ == {"server_cmdline": "{{ server_cmdline }}"}
    assert "SD101" in audit.why and playbook.vars["server_cmdline"] == ""
    assert all(s.provenance["session"] == SESSION_ID for s in playbook.steps)
    # edits, copies and server launches are repairs, not diagnostics
    assert not any("sed -i" in s.run or "launch_server --model" in s.run or s.run.startswith("scp")
                   for s in playbook.steps if s.run is not None)


def test_cli_analyze_and_distill(story, tmp_path, cli):
    planted, _ = story
    out = cli("analyze", str(planted.root), "--format", "json", "-o", str(tmp_path / "a.json"))
    assert out.code == 0, out.stderr
    assert json.loads((tmp_path / "a.json").read_text())["stats"]["events"] == 4440
    assert "4440 events in 1 session; 0 lines skipped" in out.stderr
    out = cli("distill", str(planted.session_file), "-o", str(tmp_path / "p.yaml"))
    assert out.code == 0, out.stderr
    out = cli("playbooks", "validate", str(tmp_path / "p.yaml"))
    assert out.code == 0, out.stdout + out.stderr
