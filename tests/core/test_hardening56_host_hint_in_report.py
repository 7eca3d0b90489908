"""A host stopped by an error that is no connection failure (an ssh config value it cannot
expand, no login name for a random uid) records how to fix it (`hint` in run.json) and the
console says it, but no SD005 finding carries it, and the reports showed the cause alone.
Now the "Could not be checked" line gives the hint, in report.md, report.html and the GitHub
summary. Through the real CLI with a real ssh config (`-F`).
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

HINT = "set NOPE_UNSET_R6, or write the path without it"


def test_could_not_be_checked_gives_the_hosts_hint(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    config = tmp_path / "ssh_config"
    config.write_text("Host box\n  HostName 127.0.0.1\n  Port 1\n  User bob\n  IdentityFile ${NOPE_UNSET_R6}/id\n",
                      encoding="utf-8")
    summary = tmp_path / "summary.md"
    runs = tmp_path / "runs"
    done = run_cli("run", str(playbook), "--host", "box", "-F", str(config), "--batch", "-o", str(runs),
                   env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.code == 3, done.stdout + done.stderr
    run_dir, record = only_run(runs)
    assert record["hosts"][0]["hint"] == HINT
    markdown = (run_dir / "report.md").read_text(encoding="utf-8").replace("\\_", "_")
    line = next(line for line in markdown.splitlines() if line.startswith("- `box`:"))
    assert line.endswith(f"(hint: {HINT})"), line
    assert f"(hint: {HINT})" in (run_dir / "report.html").read_text(encoding="utf-8")
    assert f"(hint: {HINT})" in summary.read_text(encoding="utf-8").replace("\\_", "_")  # GitHub's job summary
