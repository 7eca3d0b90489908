"""`spec-debug run p.yaml --retry-failed RUN -i hosts.ini --limit gpu02` where gpu01 failed.

The selection held no host to re-run, and the error said "no host of that run failed; nothing
to re-run": the reader opened the report, saw gpu01 failed, and was left with two answers. It
now names the hosts selected and the ones that failed. Through the real CLI, on an inventory of
two `ansible_connection=local` hosts.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = 'name: p\nsteps:\n  - id: gpu\n    run: test "{{ host }}" = gpu02\n'


def test_a_limit_that_selects_only_passed_hosts_names_the_failed_ones(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu01 ansible_connection=local\ngpu02 ansible_connection=local\n", encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(out))
    assert first.code == 1, first.stderr
    run_dir, record = only_run(out)
    assert {h["name"]: h["status"] for h in record["hosts"]} == {"gpu01": "failed", "gpu02": "passed"}

    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--retry-failed", str(run_dir), "-i", str(inventory), "--limit", "gpu02",
                     "--out", str(again))
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert "no host of that run failed" not in result.stderr, result.stderr
    assert ("--retry-failed: no host selected here (gpu02) failed or went unanswered in that run; those that did: gpu01"
            in result.stderr), result.stderr
    assert "leave out --limit" in result.stderr
    assert not again.exists()

    # Without the --limit, gpu01 alone is re-run.
    result = run_cli("run", str(playbook), "--retry-failed", str(run_dir), "-i", str(inventory), "--out", str(again))
    assert result.code == 1, result.stderr
    assert [h["name"] for h in only_run(again)[1]["hosts"]] == ["gpu01"]
