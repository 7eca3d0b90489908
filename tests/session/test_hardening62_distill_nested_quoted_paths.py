"""distill: a path with spaces quoted inside a quoted `-c` script is one var.

`docker exec sglang sh -c "tail -n 5 '/data/My Models/eagle3/train.log'"`: the single quotes
are the quotes of the shell `sh -c` runs (inside the double quotes they are plain characters to
the outer shell), so the path is the whole quoted name. Only a quote outside every other quote
counted (test_hardening43_distill_spaced_paths), so the step read `'{{ my }} Models/eagle3/train.log'`
with the var `my: /data/My`, and `--var my=/other/dir` ran a file nobody named.
"""

from __future__ import annotations

from spec_debug.session.distill import _with_spaces
from tests.session.test_hardening38_distill import HEALTH, _run_local, _session


def test_a_spaced_path_quoted_in_a_containers_shell_is_one_var(tmp_path):
    doc, _ = _session(tmp_path, HEALTH,
                      ("docker exec sglang sh -c \"tail -n 5 '/data/My Models/eagle3/train.log'\"", "accept len: 1.02", 0))
    assert doc["steps"][1]["run"] == "docker exec sglang sh -c \"tail -n 5 '{{ train_log }}'\"", doc["steps"]
    assert doc["vars"] == {"train_log": "/data/My Models/eagle3/train.log"}


def test_the_distilled_step_reads_the_file_a_var_names(tmp_path):
    """Run with --host local and the var pointed at another folder with a space in its name."""
    log = "accept len: 1.02, gen throughput (token/s): 41.3"
    doc, playbook = _session(tmp_path, HEALTH, (
        "ssh root@gpu01 \"sh -c \\\"grep -o 'throughput[^:]*: [0-9.]*' '/data/My Logs/server.log'\\\"\"", log, 0))
    (step,) = [s for s in doc["steps"] if "grep" in s.get("run", "")]
    assert step["run"] == "sh -c \"grep -o 'throughput[^:]*: [0-9.]*' '{{ server_log }}'\"", step
    other = tmp_path / "other logs"
    other.mkdir()
    (other / "server.log").write_text("Decode batch. gen throughput (token/s): 77.7\n", encoding="utf-8")
    ran = _run_local(tmp_path, playbook, f"server_log={other / 'server.log'}")[step["id"]]
    assert (ran["status"], ran["stdout"]) == ("passed", "throughput (token/s): 77.7\n"), ran


def test_a_quote_of_the_same_kind_closes_the_outer_string():
    """`"x" /data/My Models"`: the second `"` closes the first one's string; the path after it
    is one word (`/data/My`), as before."""
    text = 'echo "x"/data/My Models"'
    start = text.index("/data")
    assert _with_spaces(text, start, start + len("/data/My"), "/data/My") == (start + len("/data/My"), "/data/My")
