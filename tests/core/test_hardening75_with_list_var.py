"""A probe's `with:` value written as one var, `reference_files: "{{ ref_files }}"`, where the
var is a list: the probe was handed the list's text (Python's repr, then JSON) and iterated its
characters, looking for files named '[', '"', '/', ... and finding none, so the forward-source
check compared no reference. A `with:` value that is one bare `{{ name }}` whose value is a list
or mapping now passes that value; any other text renders as before (`x {{ ref_files }}` is
text). A real `spec-debug run --host local` of the forward_source probe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from spec_debug.playbook.templating import TemplateSite, render_value

REPO = Path(__file__).resolve().parents[2]


def test_the_probe_gets_the_list(tmp_path: Path) -> None:
    (tmp_path / "ref.py").write_text("def forward(self, x):\n    return x\n")
    (tmp_path / "p.yaml").write_text(f"name: fs\nvars:\n  ref_files: ['{tmp_path / 'ref.py'}']\nsteps:\n  - id: fwd\n"
                                     "    probe: forward_source\n    with:\n      reference_files: \"{{ ref_files }}\"\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    reference = record["steps"][0]["facts"]["forward"]["reference"]
    assert reference["found"] is True
    assert reference["file"] == str(tmp_path / "ref.py")


def test_only_one_bare_name_passes_its_value() -> None:
    context = {"ref": ["/a/x.py", "/b/y.py"], "cfg": {"k": 1}, "n": 5, "vars": {"ref": ["/q.py"]}}
    rendered = render_value({"a": "{{ ref }}", "b": " {{ vars.ref }} ", "c": "{{cfg}}", "d": "x {{ ref }}", "e": "{{ n }}"},
                            context, TemplateSite("s", "with"))
    assert rendered == {"a": ["/a/x.py", "/b/y.py"], "b": ["/q.py"], "c": {"k": 1}, "d": 'x ["/a/x.py", "/b/y.py"]', "e": "5"}
