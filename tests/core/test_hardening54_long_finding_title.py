"""A finding whose title quotes a long fact.

`title: "served {{ facts.model_config }}"` with a long captured fact (a config dump on
one line) printed a 131,000-character line under the step on the terminal, and the report's
heading for the finding was as long. The title is now cut to one readable line that says how
much more there is; the whole title is kept as the finding's first evidence item."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = r"""name: long_title
steps:
  - id: config
    run: "printf 'config: '; head -c 200000 /dev/zero | tr '\\0' 'b'; echo"
    capture:
      - regex: 'config: (?P<config>\S+)'
    expect:
      - that: "facts.config | length < 10"
        finding:
          code: SD001
          title: "served config is {{ facts.config }}"
"""


def test_a_long_title_is_one_line_and_kept_whole_in_the_evidence(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 1, result.stderr
    assert max(len(line) for line in (result.stdout + result.stderr).splitlines()) < 1000
    (run_dir,) = result.run_dirs(tmp_path / "runs")
    (finding,) = json.loads((run_dir / "run.json").read_text())["findings"]
    assert finding["title"].startswith("served config is bbb"), finding["title"][:80]
    assert len(finding["title"]) < 500
    assert finding["title"].endswith("characters more: the whole title is its first evidence)"), finding["title"][-80:]
    whole = finding["evidence"][0]
    assert whole.startswith("title: served config is bbb") and len(whole) > 100_000
    heading = [line for line in (run_dir / "report.md").read_text().splitlines() if "served config is" in line][0]
    assert len(heading) < 1000, len(heading)
