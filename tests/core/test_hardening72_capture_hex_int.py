"""`type: int` reads a bitmask printed in hex (`0x0000000000000004`) as its value.

`nvidia-smi --query-gpu=clocks_throttle_reasons.active --format=csv,noheader` prints the
active reasons as NVML's bitmask in hex (0x0000000000000004 is
nvmlClocksThrottleReasonSwPowerCap, NVML API reference, NvmlClocksThrottleReasons). A capture
of it with `type: int`, for `that: facts.throttle == 0`, failed the step: "cannot read
'0x0000000000000004' as an int (a unit, a thousands separator or a decimal point in it?)",
an SD003 whose hint named none of those. The text is now read in base 16; a capture with no
type keeps it as text, as before, and text that is no number is still refused.
Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: p
steps:
  - id: throttle
    run: |
      echo '0x0000000000000004, 0X1F, -0x10'
    capture:
      - regex: '^(?P<throttle>\\S+), (?P<upper>\\S+), (?P<negative>\\S+)$'
        type: int
      - regex: '^(?P<as_text>\\S+),'
    expect:
      - that: facts.throttle == 4 and facts.upper == 31 and facts.negative == -16
  - id: not_hex
    run: |
      echo '0xZZ'
    capture:
      - regex: '^(?P<bad>\\S+)$'
        type: int
"""


def test_type_int_reads_a_hex_bitmask(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("throttle", "passed"), ("not_hex", "error")], \
        [s["message"] for s in record["steps"]]
    facts = record["facts"]["local"]
    assert (facts["throttle"], facts["upper"], facts["negative"], facts["as_text"]) == (4, 31, -16, "0x0000000000000004")
    assert record["steps"][1]["message"].startswith("capture failed: bad (type: int): cannot read '0xZZ' as an int"), record["steps"][1]
    assert result.code == 0, result.stderr
