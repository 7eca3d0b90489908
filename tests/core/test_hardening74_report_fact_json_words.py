"""The reports' facts tables showed a fact captured from a host's JSON in Python's words:
`{"ready": true, "draft": null, "gpus": ["a", "b"]}` read `True`, `None` and `['a', 'b']`,
which neither the host's output, run.json nor a playbook's `that:` says. Both report.md and
report.html now write such a value as run.json does (true, null, ["a", "b"]); text as before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """name: fact_words
steps:
  - id: s1
    run: |
      echo '{"ready": true, "off": false, "draft": null, "gpus": ["a", "b"], "name": "gpu01", "n": 3}'
    capture:
      - {json: ready, name: ready}
      - {json: "off", name: "off"}
      - {json: draft, name: draft}
      - {json: gpus, name: gpus}
      - {json: name, name: name}
      - {json: n, name: n}
"""


def test_facts_tables_write_json_words(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    run_dir = tmp_path / "runs" / record["run_id"]
    md = (run_dir / "report.md").read_text(encoding="utf-8").splitlines()
    start = md.index("| fact | value |")
    assert md[start + 2:start + 8] == [
        "| ready | `true` |",
        "| off | `false` |",
        "| draft | `null` |",
        '| gpus | `["a", "b"]` |',
        "| name | `gpu01` |",
        "| n | `3` |",
    ]
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    for name, shown in [("ready", "true"), ("off", "false"), ("draft", "null"), ("gpus", "[&#34;a&#34;, &#34;b&#34;]"),
                        ("name", "gpu01")]:
        assert f"<td>{name}</td><td><code>{shown}</code></td>" in html, name
