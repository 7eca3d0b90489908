"""README's on-call story passes `--var server_log=/var/log/sglang.log`. A path that is no file
on the host (a typo, the log of another host, a folder) gave "SD004 Not checked: --var
measured_tok_s=N or --var server_log=PATH" with the evidence "no measured throughput with
speculation": the user was asked for the --var they had passed, with no word that its file was
not there. The note now names the path and says it is no file on this host; with the throughput
given by --var measured_tok_s, that the accept length the log holds goes unchecked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: tp
vars:
  server_log: ""
  baseline_tok_s: ""
  measured_tok_s: ""
steps:
  - id: throughput
    probe: throughput_model
    with:
      server_log: "{{ server_log }}"
      baseline_tok_s: "{{ baseline_tok_s }}"
      measured_tok_s: "{{ measured_tok_s }}"
"""


def _notes(tmp_path: Path, *var_args: str) -> list[tuple[str, list[str]]]:
    (tmp_path / "tp.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "tp.yaml", "--host", "local", "--out", "runs", "--json", *var_args, cwd=tmp_path)
    record = json.loads(result.stdout)
    return [(f["title"], f["evidence"]) for f in record["findings"] if f["code"] == "SD004"]


def test_a_server_log_that_is_not_there_is_named(tmp_path: Path):
    missing = tmp_path / "logs" / "sglang.log"
    assert _notes(tmp_path, "--var", f"server_log={missing}", "--var", "baseline_tok_s=90") == [
        ("Not checked: --var server_log=PATH (a file on this host) or --var measured_tok_s=N",
         [f"no measured throughput with speculation: the server log {missing} is no file on this host"])]


def test_a_folder_given_beside_a_measured_throughput_is_said(tmp_path: Path):
    folder = tmp_path / "logs"
    folder.mkdir()
    assert _notes(tmp_path, "--var", f"server_log={folder}", "--var", "baseline_tok_s=90",
                  "--var", "measured_tok_s=50") == [
        ("Not checked: --var server_log=PATH (a file on this host)",
         [f"the server log {folder} is no file on this host: the accept length it logs is not compared"])]


def test_no_server_log_given_reads_as_before(tmp_path: Path):
    assert _notes(tmp_path, "--var", "baseline_tok_s=90") == [
        ("Not checked: --var measured_tok_s=N or --var server_log=PATH", ["no measured throughput with speculation"])]
