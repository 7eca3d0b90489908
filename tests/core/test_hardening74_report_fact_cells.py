"""The reports' facts tables mark a value they cut, and show an empty value as "".

A fact longer than the table's cell (200 characters in report.md, 500 in report.html: a
captured server command line, a model's architectures list) was cut there with no mark, and
read as the whole value; an empty fact (`served_model_name` captured as "") was a code span of
nothing, which report.md showed as two stray backticks and report.html as an empty cell. Now
the cut value says how many characters more run.json holds, and the empty one reads `""`.
Through the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import only_run, run_cli

ARGS = "--model-path /models/llama-3.1-8b --speculative-algorithm EAGLE3 " * 10
PLAYBOOK = """\
name: facts
steps:
  - id: server
    run: cat server.json
    capture:
      - {json: server_args, name: server_args}
      - {json: served_model_name, name: served_model_name}
"""


def test_a_cut_fact_says_so_and_an_empty_one_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "server.json").write_text(json.dumps({"server_args": ARGS.strip(), "served_model_name": ""}))
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    assert result.code == 0, result.stderr
    run_dir, record = only_run(tmp_path / "runs")
    assert record["facts"]["local"] == {"server_args": ARGS.strip(), "served_model_name": ""}
    shown = len(ARGS.strip())
    markdown = (run_dir / "report.md").read_text()
    assert f"| server_args | `{ARGS[:200]}… ({shown - 200} characters more in run.json)` |" in markdown
    assert '| served_model_name | `""` |' in markdown  # was: | served_model_name | `` |
    html = (run_dir / "report.html").read_text()
    assert f"<td>server_args</td><td><code>{ARGS[:500]}… ({shown - 500} characters more in run.json)</code>" in html
    assert "<td>served_model_name</td><td><code>&#34;&#34;</code>" in html
