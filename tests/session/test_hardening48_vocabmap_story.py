"""The vocab-map incident of tests/data/transcripts_vocabmap (a draft's d2t held absolute target
ids, acceptance near zero, found over SSH by a sub-agent, fixed by regenerating the map), analyzed
end to end: what `spec-debug analyze` extracts, what the postmortem says, what distill keeps."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.conftest import run_cli

STORY = Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap"
HOST = "gpu-h100-03"
SUB = "a4e0d7c2b91f36e58"


@pytest.fixture(scope="module")
def story():
    return analyze_path(STORY)


def test_one_session_two_agents_one_host(story):
    assert story.format == "claude-code"
    assert (story.stats["events"], story.stats["lines_skipped"], story.stats["tool_calls"], story.stats["errors"]) == \
        (154, 0, 43, 2)
    assert [(g["id"], g["parent"], g["spawned_by"], g["events"], g["tool_calls"], g["errors"], g["status"])
            for g in story.agents] == [
        ("main", None, None, 123, 35, 1, "completed"),
        (SUB, "main", "toolu_01Spawn7Vc2d", 31, 8, 1, "completed")]
    assert story.hosts == [HOST]
    remote = {(c.host, c.user, c.port, c.jump) for c in story.commands if c.host}
    assert remote == {(HOST, "ubuntu", None, None)}
    # the local steps: the training config, git, the export's tests and the commit
    assert [(c.seq, c.category) for c in story.commands if c.host is None] == [
        (58, "inspect_config"), (65, "other"), (79, "run_test"), (119, "other")]


def test_readings_and_the_baseline(story):
    got = [(m.seq, m.agent, m.name, m.value, m.host, m.baseline) for m in story.metrics
           if m.source == "output" and m.name in ("throughput", "accept_length", "accept_rate")]
    assert got == [
        (11, "main", "throughput", 96.31, HOST, False), (11, "main", "accept_length", 1.018, HOST, False),
        (11, "main", "accept_rate", 0.257, HOST, False),
        (31, "main", "throughput", 94.71, HOST, False), (31, "main", "accept_length", 1.02, HOST, False),
        # bench_serving of the server started with `nohup ... > /tmp/nospec.log 2>&1 & echo $!`
        (41, "main", "throughput", 141.38, HOST, True),
        # the wider settings (topk 4, 8 draft tokens) on port 30002: no better
        (51, "main", "throughput", 88.02, HOST, False), (51, "main", "accept_length", 1.04, HOST, False),
        (104, "main", "throughput", 236.52, HOST, False), (104, "main", "accept_length", 3.21, HOST, False),
        (107, "main", "throughput", 239.22, HOST, False), (107, "main", "accept_length", 3.208, HOST, False),
        (107, "main", "accept_rate", 0.805, HOST, False),
        (111, "main", "throughput", 1410.57, HOST, False), (111, "main", "accept_length", 3.12, HOST, False),
        (111, "main", "accept_rate", 0.78, HOST, False)]
    contexts = {m.seq: m.context for m in story.metrics if m.name == "throughput" and m.source == "output"}
    assert contexts[11] == "SGLang Decode batch, mean of 6 lines, batch size 1"
    assert contexts[111] == "SGLang Decode batch, mean of 3 lines, batch size 12"


def test_errors_pivots_findings_phases(story):
    assert [(e.seq, e.agent, e.kind, e.exception, e.host) for e in story.errors] == [
        (87, "main", "traceback", "FileNotFoundError", HOST),
        (130, SUB, "traceback", "ModuleNotFoundError", HOST)]
    # the wider settings did not help: the agent turns to the layers. Re-measuring one server (the
    # log, then bench_serving) is no failed attempt, nor is listing the folder of the frequency
    # file the regeneration could not find
    assert [(p.seq, p.trigger_seq, p.kind, p.from_category, p.to_category) for p in story.pivots] == [
        (55, 51, "metric", "benchmark", "read_source")]
    assert [(f.code, f.seq, f.evidence_seqs, f.read_seqs) for f in story.findings] == [
        ("SD501", 11, [11, 41, 31, 27, 42, 51, 52, 121], []),
        # the sub-agent's words after its d2t check (seq 151, result 152)
        ("SD302", 62, [62, 63, 121, 153], [152])]
    assert [(s.start_seq, s.end_seq, s.agent) for s in story.segments] == [
        (0, 54, "main"), (55, 122, "main"), (123, 153, SUB)]
    # "either its hidden-state layers or its vocab map": the layers were ruled out, the map confirmed
    # the closing "Root cause: commit 9c4e2f1 ... wrote d2t as absolute target ids" restates it: no new guess
    assert [(h.seq, h.status, h.outcome_seq) for h in story.hypotheses] == [(52, "confirmed", 63)]


def test_the_postmortem_tells_the_fix_not_the_baseline(story):
    md = render_postmortem(story, "md")
    assert ("Throughput went from 96.31 tok/s [[msg 11]](#msg-11) to 239.22 tok/s [[msg 107]](#msg-107) "
            "against a 141.38 tok/s baseline [[msg 41]](#msg-41).") in md
    assert "| throughput | 96.31 tok/s [[msg 11]](#msg-11) | 239.22 tok/s [[msg 107]](#msg-107) | 5 | gpu-h100-03 |" in md
    # the exporter fixed with the Edit tool, then the switch to the regenerated draft (test_hardening55_postmortem_file_edits);
    # the exporter's test, edited and run, changed nothing served (test_hardening57_resolution_test_edit)
    assert ("Throughput rose from 96.31 to 236.52 tok/s on gpu-h100-03 [[msg 104]](#msg-104) after editing "
            "`/home/priya/serving-infra/tools/export_eagle3.py` (Edit) [[msg 70]](#msg-70), `sudo sed -i") in md
    assert "rose from 96.31 to 141.38" not in md and "1410.57 tok/s [[msg 111]](#msg-111) against" not in md
    assert ("Changed approach after throughput 88.02 tok/s not improving on 96.31, baseline 141.38 [[msg 51]](#msg-51): "
            "benchmarking → reading source code [[msg 55]](#msg-55)") in md
    assert "Hypothesis ruled out" not in md
    # every link points at an anchor the document has
    anchors = set(re.findall(r'<a id="(msg-\d+)"></a>', md))
    assert set(re.findall(r"\]\(#(msg-\d+)\)", md)) <= anchors


def test_distill_keeps_the_checks_and_validates(story, tmp_path):
    out = tmp_path / "vocabmap.yaml"
    result = run_cli("distill", str(STORY), "-o", str(out))
    assert result.code == 0, result.stderr
    doc = out.read_text()
    steps = [line.split(": ", 1)[1] for line in doc.splitlines() if line.startswith("- id: ")]
    # not the baseline's benchmark: the playbook starts no server on port 30001
    # (the wider settings' benchmark of port 30002 stays: the pivot's trigger)
    assert steps == ["logs_server_log", "benchmark_bench_serving", "benchmark_bench_serving_2", "read_source_llama_py",
                     "inspect_config_model_safetensors", "vocab_maps"]
    assert "--port 30001" not in doc
    assert "its output led to SD302" in doc and "d2t[1000:1006]" in doc
    # the regeneration (it writes a checkpoint) and the folder listing that put its path right are no checks
    assert "regen_vocab_map" not in doc and "/data/eagle3" not in doc
    assert "/home/priya" not in doc and "kill" not in doc
    check = run_cli("playbooks", "validate", str(out))
    assert check.code == 0, check.stdout + check.stderr


def test_the_json_names_the_contract_fields(tmp_path):
    result = run_cli("analyze", str(STORY), "--format", "json")
    assert result.code == 0, result.stderr
    a = json.loads(result.stdout)
    assert {"format", "sessions", "agents", "stats", "commands", "errors", "metrics", "pivots", "findings",
            "segments"} <= set(a)
    assert [f["code"] for f in a["findings"]] == ["SD501", "SD302"]
