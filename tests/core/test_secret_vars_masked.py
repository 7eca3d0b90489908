"""A var named like a secret is masked wherever its value shows in the record, not only in
``vars``: in the command it was templated into, in what the command printed, in findings."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

KEY = "s3cr3t-Value-42"


def test_secret_var_values_never_reach_run_json(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nvars:\n  api_key: ''\n  short_token: ''\nsteps:\n"
        "  - id: call\n"
        "    run: |\n      echo \"X-Auth: {{ api_key }} n={{ short_token }}\"; echo \"{{ api_key }}\" >&2; exit 3\n"
        "    expect:\n      - exit_code: 0\n"
        "    findings:\n      - code: SD900\n        severity: error\n        title: call failed\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out),
                     "--var", f"api_key={KEY}", "--var", "short_token=7")
    assert result.code == 1, result.stderr
    run_dir, record = only_run(out)
    saved = (run_dir / "run.json").read_text(encoding="utf-8")
    assert KEY not in saved
    step = record["steps"][0]
    assert step["stdout"] == "X-Auth: ***REDACTED*** n=7\n"  # a 1-character value is left: it guards nothing
    assert step["stderr"] == "***REDACTED***\n"
    assert "***REDACTED***" in step["command"]
    for report in run_dir.glob("report.*"):
        assert KEY not in report.read_text(encoding="utf-8")
    # --no-redact keeps the record as it happened
    kept = tmp_path / "kept"
    run_cli("run", str(playbook), "--host", "local", "--out", str(kept), "--var", f"api_key={KEY}", "--no-redact")
    assert KEY in (only_run(kept)[0] / "run.json").read_text(encoding="utf-8")
