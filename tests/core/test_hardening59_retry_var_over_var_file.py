"""`--retry-failed` of a run given a var both in a --var-file and by --var. In that run --var won
(cli_run: "--var wins over the file"); the retry, given the --var-file again (as the report's
retry command gives it), took the file's value over the one run.json recorded: the retry ran
with another model folder than the run it retries, without a word. Now the recorded value wins
for a var that run was given by --var, as it did then; a secret run.json masked is asked for
again rather than silently taken from the file. Through the real CLI on --host local."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: var_over_file
vars:
  model_dir: ""
  hf_token: ""
steps:
  - id: model
    run: test -e {{ model_dir }}/config.json
    expect:
      - exit_code: 0
"""


def test_the_retry_keeps_the_var_that_won_over_the_file(write_playbook, tmp_path):
    playbook = write_playbook(PLAYBOOK)
    from_file, from_var = tmp_path / "a", tmp_path / "b"
    from_file.mkdir(), from_var.mkdir()
    (from_file / "config.json").write_text("{}")  # the file's folder would pass: the retry must not use it
    var_file = tmp_path / "vars.yaml"
    var_file.write_text(f"model_dir: {from_file}\n", encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var-file", str(var_file),
                    "--var", f"model_dir={from_var}")
    assert first.code == 1, first.stderr
    run_dir, record = only_run(out)
    assert record["vars"]["model_dir"] == str(from_var)
    (from_var / "config.json").write_text("{}")  # what was missing is fixed
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--var-file", str(var_file), "--out", str(again), "--retry-failed", str(run_dir))
    assert "Traceback" not in result.stderr, result.stderr
    assert only_run(again)[1]["vars"]["model_dir"] == str(from_var)
    assert result.code == 0, result.stderr
    # said, since a file given to change it loses to the recorded --var
    assert "model_dir: the value that run was given by --var is used over the --var-file's" in result.stderr


def test_a_var_given_again_wins_over_the_recorded_one(write_playbook, tmp_path):
    playbook = write_playbook(PLAYBOOK)
    var_file = tmp_path / "vars.yaml"
    var_file.write_text(f"model_dir: {tmp_path / 'a'}\n", encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var-file", str(var_file),
                    "--var", f"model_dir={tmp_path / 'b'}")
    assert first.code == 1, first.stderr
    run_dir, _ = only_run(out)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "config.json").write_text("{}")
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--var-file", str(var_file), "--out", str(again), "--retry-failed", str(run_dir),
                     "--var", f"model_dir={tmp_path / 'c'}")
    assert result.code == 0, result.stderr
    assert only_run(again)[1]["vars"]["model_dir"] == str(tmp_path / "c")
    assert "notice" not in result.stderr


def test_a_masked_secret_that_won_over_the_file_is_asked_for(write_playbook, tmp_path):
    playbook = write_playbook(PLAYBOOK)
    var_file = tmp_path / "secrets.yaml"
    var_file.write_text(f"hf_token: hf_fromthefileabcdefghijklmnop\nmodel_dir: {tmp_path}\n", encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var-file", str(var_file),
                    "--var", "hf_token=hf_typedonthelineabcdefghijklm")
    assert first.code == 1, first.stderr
    run_dir, _ = only_run(out)
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--var-file", str(var_file), "--out", str(again), "--retry-failed", str(run_dir))
    assert result.code == 2, result.stderr
    assert "the value of hf_token was masked" in result.stderr
    assert "--var-file" not in result.stderr  # the file holds another token than the one that run used
    # given again, as the report's retry command asks, it runs with that value
    given = run_cli("run", str(playbook), "--var-file", str(var_file), "--out", str(again), "--retry-failed", str(run_dir),
                    "--var", "hf_token=hf_typedonthelineabcdefghijklm")
    assert given.code == 1 and "was masked" not in given.stderr, given.stderr
