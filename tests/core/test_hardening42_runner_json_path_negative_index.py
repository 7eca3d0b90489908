"""A JSON capture path that counts from the end: `samples[-1]`.

JSONPath (RFC 9535) and jq read `[-1]` as the last item, the usual way to take the latest of a
benchmark's samples. Here it was read as the key "-1": the fact was None (or the capture's
default) with no word, and a check on it was skipped or raised a finding about missing data."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_a_negative_index_counts_from_the_end(tmp_path):
    (tmp_path / "p.yaml").write_text("""name: last_sample
steps:
  - id: bench
    run: |
      echo '{"samples": [{"accept_len": 2.1}, {"accept_len": 3.4}], "gpus": ["H100", "H200"]}'
    capture:
      - json: samples[-1].accept_len
        name: last_accept_len
      - json: gpus[-2]
        name: first_gpu
      - json: gpus[-3]
        name: before_the_first
        default: none
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "passed", step["message"]
    assert step["facts"] == {"last_accept_len": 3.4, "first_gpu": "H100", "before_the_first": "none"}
