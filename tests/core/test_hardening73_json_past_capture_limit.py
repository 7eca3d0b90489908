"""A JSON document longer than the capture limit is read whole from its artifact.

run.json keeps the head and tail of each stream (--capture-limit, 256 KiB by default; the CLI's
hint offers 0 to keep run.json small, "the stream goes to artifacts/"). Regex captures and
`contains:` already searched the whole stream; a `json:` capture and every probe step parsed
only the kept head and tail: `--capture-limit 0` failed host_smoke's host_info probe with
"output is not JSON: it is longer than the capture limit" (and every later step that read its
facts), and `cat model.safetensors.index.json` of a large model failed its `json:` capture. The
document is now parsed from the step's artifact, which holds it whole; where the artifact does
not (cut by --artifact-limit) the step says so as before. Through the real CLI.
"""

from __future__ import annotations

import json

from tests.conftest import only_run, run_cli

INDEX = {"metadata": {"total_size": 1342177280},
         "weight_map": {f"model.layers.{i}.mlp.experts.{e}.down_proj.weight": f"model-{i:05d}-of-00061.safetensors"
                        for i in range(61) for e in range(64)}}
PLAYBOOK = """\
name: index
steps:
  - id: index
    run: cat index.json
    capture:
      - json: metadata.total_size
        name: total_size
    expect:
      - that: facts.total_size > 0
"""


def test_a_json_capture_reads_a_document_past_the_capture_limit(tmp_path):
    (tmp_path / "index.json").write_text(json.dumps(INDEX, indent=2))
    assert (tmp_path / "index.json").stat().st_size > 256 * 1024
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    _, record = only_run(tmp_path / "runs")
    (step,) = record["steps"]
    assert (step["status"], step["truncated"]) == ("passed", True), step["message"]  # was error, SD003
    assert record["facts"]["local"] == {"total_size": 1342177280}
    assert result.code == 0 and record["findings"] == []


def test_probe_steps_work_with_capture_limit_zero(tmp_path):
    result = run_cli("run", "host_smoke", "--host", "local", "--capture-limit", "0", "--out", "runs", cwd=tmp_path)
    _, record = only_run(tmp_path / "runs")
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]  # was "output is not JSON"
    # run.json kept none of it
    assert steps["host_info"]["stdout"].strip().startswith("... [") and steps["host_info"]["truncated"] is True
    assert isinstance(record["facts"]["local"]["host_python_version"], str)
    assert [f["code"] for f in record["findings"] if f["code"] == "SD003"] == [], result.stderr


def test_an_artifact_cut_by_the_artifact_limit_still_says_why(tmp_path):
    (tmp_path / "index.json").write_text(json.dumps(INDEX, indent=2))
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    run_cli("run", "p.yaml", "--host", "local", "--capture-limit", "0", "--artifact-limit", "100K", "--out", "runs",
            cwd=tmp_path)
    _, record = only_run(tmp_path / "runs")
    (step,) = record["steps"]
    assert step["status"] == "error"
    assert step["message"].startswith("capture failed: output is not JSON: it is longer than the capture limit"), step["message"]
