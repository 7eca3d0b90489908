"""A server's command line read from /proc: `cat /proc/$(pgrep -f vllm)/cmdline`, to see the flags
the server was really launched with (the speculative config, the port, the key the client must
send). The kernel separates its arguments with NUL bytes, not spaces, and the patterns that mask
a flag's value (`--api-key VALUE`, `--token=VALUE`) took only a space or "=" after the flag:
`--api-key\\0KEY\\0--port\\08000` kept the key in clear in run.json and the reports. Now a NUL
separates a flag from its value as a space does; the next flag is still no value."""

from __future__ import annotations

from spec_debug.redact import MASK, redact_text
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"


def test_a_servers_cmdline_from_proc_is_masked(tmp_path):
    (tmp_path / "key.txt").write_text(VALUE + "\n")
    (tmp_path / "p.yaml").write_text(
        "name: b\nsteps:\n  - id: cmdline\n    run: |\n"
        f"      python3 -c 'import time; time.sleep(20)' --api-key \"$(cat {tmp_path}/key.txt)\" --port 8000 &\n"
        "      sleep 1; cat /proc/$!/cmdline; kill $!\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert f"--api-key\x00{MASK}\x00--port\x008000" in record["steps"][0]["stdout"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


def test_nul_separated_flags():
    assert redact_text(f"python3\x00-m\x00vllm.entrypoints.openai.api_server\x00--api-key\x00{VALUE}\x00--port\x008000\x00") \
        == f"python3\x00-m\x00vllm.entrypoints.openai.api_server\x00--api-key\x00{MASK}\x00--port\x008000\x00"
    assert redact_text(f"python3\x00-m\x00sglang.launch_server\x00--api-key={VALUE}\x00") \
        == f"python3\x00-m\x00sglang.launch_server\x00--api-key={MASK}\x00"
    assert redact_text(f"huggingface-cli\x00login\x00--token\x00{VALUE}\x00") == f"huggingface-cli\x00login\x00--token\x00{MASK}\x00"
    assert redact_text("vllm\x00serve\x00m\x00--api-key\x00--port\x008000\x00") == "vllm\x00serve\x00m\x00--api-key\x00--port\x008000\x00"
