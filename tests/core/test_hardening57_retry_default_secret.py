"""`--retry-failed` of a run of a playbook whose own default holds a secret.

A playbook with `api_key: sk-...` among its vars runs with that default; run.json masks it, as
every secret. --retry-failed took the masked record for a value given to that run and stopped:
"the value of api_key was masked ...; pass it again", for a key the user never passed (the
playbook has it). Now a masked value that is the playbook default's own mask, for a var no
--var of that run named, is left to the default; a value given by --var is still asked for.
Through the real CLI on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: default_secret
vars:
  api_key: "sk-abcdefghijklmnopqrstuvwxyz0123"
  hf_token: ""
steps:
  - id: check
    run: test -e {ready} && test "{{{{ api_key }}}}" = sk-abcdefghijklmnopqrstuvwxyz0123
    expect:
      - exit_code: 0
"""


def _first(tmp_path, *extra: str):
    ready = tmp_path / "ready"
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK.format(ready=ready), encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *extra)
    assert first.code == 1, first.stderr  # not ready yet
    run_dir, record = only_run(out)
    assert "sk-abc" not in str(record["vars"])  # masked, as it must be
    ready.touch()
    return playbook, run_dir


def test_the_playbooks_own_secret_default_is_not_asked_for(tmp_path):
    playbook, run_dir = _first(tmp_path)
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--out", str(again), "--retry-failed", str(run_dir))
    assert result.code == 0, result.stderr
    assert [s["status"] for s in only_run(again)[1]["steps"]] == ["passed"]


def test_a_secret_given_by_var_is_still_asked_for(tmp_path):
    playbook, run_dir = _first(tmp_path, "--var", "hf_token=hf_abcdefghijklmnopqrstuvwxyz",
                               "-e", "api_key=sk-zyxwvutsrqponmlkjihgfedcba9876")
    result = run_cli("run", str(playbook), "--out", str(tmp_path / "again"), "--retry-failed", str(run_dir))
    assert result.code == 2
    assert "the value of api_key was masked" in result.stderr
    assert "--var api_key=... --var hf_token=..." in result.stderr
