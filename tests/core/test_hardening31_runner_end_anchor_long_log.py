"""A capture or `matches:` anchored to the end of the output (`\\Z`) on a log longer than the
capture limit (256 KiB kept as head and tail; the middle is searched as it streams by).

That search goes a block of lines at a time, and `\\Z` matched at the end of every block:
`throughput: (?P<tput>[\\d.]+) tok/s\\s*\\Z`, meant for the benchmark's final figure, read the
one at the end of the first block (a wrong number in the report), and `matches: 'DONE\\s*\\Z'`
passed on a log that ended in a CUDA error. The kept tail holds the log's true end; a regex
anchored to the text's ends is now answered from the kept head and tail alone."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _run(tmp_path, playbook: str) -> dict:
    (tmp_path / "p.yaml").write_text(playbook)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)


def test_an_end_anchored_capture_on_a_long_log_reads_the_last_figure(tmp_path):
    record = _run(tmp_path, r"""name: bench
steps:
  - id: bench
    run: |
      python3 -c "[print(f'throughput: {i}.5 tok/s') for i in range(100000)]"
    capture:
      - regex: 'throughput: (?P<tput>[\d.]+) tok/s\s*\Z'
""")
    (step,) = record["steps"]
    assert step["truncated"], "the log must be longer than the record keeps"
    assert step["facts"]["tput"] == 99999.5


def test_an_end_anchored_expectation_fails_on_a_long_log_that_ends_otherwise(tmp_path):
    record = _run(tmp_path, r"""name: bench
steps:
  - id: bench
    run: |
      python3 -c "[print(f'step {i} DONE') for i in range(100000)]; print('RuntimeError: CUDA error: an illegal memory access was encountered')"
    expect:
      - matches: 'DONE\s*\Z'
        description: the benchmark ran to its end
""")
    (step,) = record["steps"]
    assert step["truncated"]
    assert step["status"] == "failed", step["message"]
    assert [f["code"] for f in record["findings"]] == ["SD001"]


def test_an_end_anchored_capture_on_a_short_log_is_unchanged(tmp_path):
    record = _run(tmp_path, r"""name: bench
steps:
  - id: bench
    run: |
      printf 'throughput: 1.5 tok/s\nthroughput: 2.5 tok/s\n'
    capture:
      - regex: 'throughput: (?P<tput>[\d.]+) tok/s\s*\Z'
""")
    assert record["steps"][0]["facts"]["tput"] == 2.5
