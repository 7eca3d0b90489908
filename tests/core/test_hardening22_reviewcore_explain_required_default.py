"""explain said "needs `--var model=...`" for a required var with a non-empty `vars:` default,
though the runner counts the default (runner/engine.py skips a step only when a required var's
value is empty), so a newcomer was told to set what was already set. A var with no or an empty
default still reads "needs --var" as before."""

from __future__ import annotations

import os
import subprocess
import sys

PLAYBOOK = """\
name: req
vars:
  model: meta-llama/Llama-3.1-8B
  draft: ""
steps:
  - id: serve
    why: the target and the drafter
    requires: [model, draft]
    run: echo {{ model }} {{ draft }}
"""


def _explain(tmp_path, *flags):
    (tmp_path / "req.yaml").write_text(PLAYBOOK, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "req.yaml", *flags], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_a_var_with_a_default_is_not_asked_for(tmp_path):
    text = _explain(tmp_path)
    assert "--var model=" not in text
    assert "uses `model` = `meta-llama/Llama-3.1-8B` by default (skipped with a note if set empty)" in text


def test_a_var_without_a_default_is_still_asked_for(tmp_path):
    text = _explain(tmp_path)
    assert "needs `--var draft=...` (skipped with a note otherwise)" in text


def test_json_runs_when_says_the_same(tmp_path):
    import json
    runs_when = json.loads(_explain(tmp_path, "--json"))["steps"][0]["runs_when"]
    assert runs_when[0] == "needs `--var draft=...` (skipped with a note otherwise)"
    assert runs_when[1].startswith("uses `model`")
