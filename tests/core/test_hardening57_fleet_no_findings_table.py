"""A fleet run with no finding (every host passed, or a run stopped before any) put a table of
only its header under the fleet summary, `| code | severity | hosts sharing it |` and its
`|---|` row, in report.md, and an empty table in report.html: a table of nothing, where
GitHub and editors draw an empty grid. The table is now there only when it has rows."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = "name: fleet\nsteps:\n  - id: one\n    run: {command}\n"


def _fleet_run(tmp_path, command: str) -> tuple[str, str]:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(PLAYBOOK.format(command=command), encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu01 ansible_connection=local\ngpu02 ansible_connection=local\n", encoding="utf-8")
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "-i", str(inventory), "--out", str(out), "--batch")
    run_dir, _ = only_run(out)
    return (run_dir / "report.md").read_text(encoding="utf-8"), (run_dir / "report.html").read_text(encoding="utf-8")


def test_a_fleet_with_no_finding_has_no_empty_code_table(tmp_path) -> None:
    markdown, html = _fleet_run(tmp_path, "echo fine")
    fleet = markdown.split("## Fleet summary", 1)[1].split("\n## ", 1)[0]
    assert "| `gpu01` | passed |" in fleet
    assert "hosts sharing it" not in fleet, fleet
    assert "hosts sharing it" not in html


def test_a_fleet_with_findings_keeps_the_code_table(tmp_path) -> None:
    markdown, html = _fleet_run(tmp_path, "exit 3")
    fleet = markdown.split("## Fleet summary", 1)[1].split("\n## ", 1)[0]
    assert "| code | severity | hosts sharing it |\n|---|---|---|\n| SD001 | error | gpu01, gpu02 |" in fleet, fleet
    assert "<td>SD001</td><td>error</td><td>gpu01, gpu02</td>" in html
