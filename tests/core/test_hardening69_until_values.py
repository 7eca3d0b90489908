"""A step polling a server (`until: facts.loaded >= vars.shards`) that never got there said
"until 'facts.loaded >= vars.shards' was still false after 3 attempt(s)": how far it got, and
what it was held to, were in run.json's facts and vars only. It now names the last attempt's
values, as a failed `that:` does."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_an_until_that_never_held_names_the_last_values(tmp_path):
    (tmp_path / "p.yaml").write_text(r"""name: wait
vars:
  shards: 8
steps:
  - id: wait_loaded
    run: echo 'loaded 3 of 8 shards'
    capture:
      - regex: 'loaded (?P<loaded>\d+) of'
        type: int
    retries: 2
    retry_delay: 0
    until: facts.loaded >= vars.shards and exit_code == 0
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    record = json.loads(result.stdout)
    (step,) = record["steps"]
    said = ("until 'facts.loaded >= vars.shards and exit_code == 0' was still false after 3 attempt(s) "
            "(facts.loaded = 3, vars.shards = 8, exit_code = 0)")
    assert (step["status"], step["message"]) == ("failed", said)
    (finding,) = record["findings"]
    assert (finding["code"], finding["title"], finding["evidence"][0]) == ("SD001", f"Step 'wait_loaded': {said}", said)
