"""A list or mapping var outside a `run:` command was Python's repr. A finding's title read
`files ['a.log', 'b.log'] cfg {'k': 1}` (and `True`/`None` inside), where the step's command
wrote the same vars as JSON (`["a.log", "b.log"]`); a `fetch:` path built from a list var was
`/var/log/['a.log', 'b.log']` and the step ended "no file on the host matches this pattern",
which sent the user looking on the host. Now text (finding title, evidence, remediation, `with:`
values) writes them as JSON, as `run:` does, and a fetch path refuses them by name: a list or
mapping var is no path, list the files under src: or match them with a pattern.
Real `spec-debug run --host local` runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, playbook: str) -> tuple[subprocess.CompletedProcess, dict]:
    (tmp_path / "p.yaml").write_text(playbook)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    return proc, json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


PLAYBOOK = """name: p
vars:
  files: [a.log, b.log]
  cfg: {method: eagle3, draft: null, fused: true}
steps:
  - id: show
    run: echo {{ files }}
  - id: fail
    run: "false"
    findings:
      - code: SD001
        title: "files {{ files }} cfg {{ cfg }}"
        remediation: "check {{ files }}"
        evidence: ["{{ cfg }}"]
"""


def test_finding_text_writes_a_list_var_as_json_as_the_command_does(tmp_path: Path) -> None:
    proc, record = _run(tmp_path, PLAYBOOK)
    assert proc.returncode == 1, proc.stderr
    show = next(s for s in record["steps"] if s["id"] == "show")
    assert show["stdout"] == '["a.log", "b.log"]\n'
    finding = next(f for f in record["findings"] if f["step"] == "fail")
    assert finding["title"] == 'files ["a.log", "b.log"] cfg {"method": "eagle3", "draft": null, "fused": true}'
    assert finding["remediation"] == 'check ["a.log", "b.log"]'
    assert finding["evidence"][0] == '{"method": "eagle3", "draft": null, "fused": true}'


def test_a_fetch_path_from_a_list_var_says_so(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    for name in ("a.log", "b.log"):
        (tmp_path / "src" / name).write_text(name)
    playbook = (f"name: p\nvars:\n  files: [a.log, b.log]\nsteps:\n  - id: grab\n"
                f"    fetch: {{src: '{tmp_path}/src/{{{{ files }}}}'}}\n")
    proc, record = _run(tmp_path, playbook)
    grab = record["steps"][0]
    assert grab["status"] == "error"
    assert grab["message"].endswith(
        "step 'grab', fetch.src[0]: a list or mapping var is no path (it is [\"a.log\", \"b.log\"]): a fetch path is "
        "one file or glob pattern; list them under src: (src: [a.log, b.log]) or match them (*.log)"), grab["message"]
    assert "['a.log', 'b.log']" not in proc.stdout + proc.stderr
    assert "no file on the host matches" not in grab["message"]


def test_a_scalar_in_a_fetch_path_still_copies(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.log").write_text("a")
    playbook = (f"name: p\nvars:\n  files: [a.log, b.log]\nsteps:\n  - id: grab\n"
                f"    fetch: {{src: '{tmp_path}/src/{{{{ files[0] }}}}'}}\n")
    proc, record = _run(tmp_path, playbook)
    assert proc.returncode == 0, proc.stderr
    assert record["steps"][0]["artifacts"] == ["artifacts/local/a.log"]
