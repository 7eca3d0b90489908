"""`--retry-failed RUN` typed by hand for a run that read its secret from a --var-file.

run.json masks the secret, so the retry stops and asks for it; the hint said only
`--var hf_token=...`, sending the user to type the token on the command line (into shell
history) when the first run had it from a file. The hint now names that file first. Through
the real CLI on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def test_the_masked_var_hint_names_the_var_file_that_run_read(tmp_path):
    ready = tmp_path / "ready"
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(f'name: t\nvars:\n  hf_token: ""\nsteps:\n  - id: a\n    run: test -e {ready}\n', encoding="utf-8")
    secrets = tmp_path / "secrets.yaml"
    secrets.write_text("hf_token: hf_abcdefghijklmnopqrstuvwxyz\n", encoding="utf-8")
    runs = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--var-file", str(secrets), "--out", str(runs))
    assert first.code == 1, first.stderr
    run_dir, _ = only_run(runs)
    ready.touch()
    result = run_cli("run", str(playbook), "--out", str(tmp_path / "again"), "--retry-failed", str(run_dir))
    assert result.code == 2 and "the value of hf_token was masked" in result.stderr, result.stderr
    assert f"--var-file {secrets}" in result.stderr, result.stderr
    # As the hint says, it runs.
    again = run_cli("run", str(playbook), "--out", str(tmp_path / "again"), "--retry-failed", str(run_dir),
                    "--var-file", str(secrets))
    assert again.code == 0, again.stderr
