"""server_log probe: a .gz log whose deflate data is damaged is one reason (review of round 24).

Round 24 read logrotate's `server.log.1.gz` through gzip and made a truncated .gz or a CRC
mismatch (EOFError / gzip.BadGzipFile, an OSError) one reason. A damaged deflate stream (a
bad sector, a copy cut and re-joined, a log gzipped twice by two rotations racing) raises
zlib.error, which is neither: the whole probe failed with a traceback
(`zlib.error: Error -3 while decompressing data: invalid block type`) and the throughput step
with it."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes import server_log
from spec_debug.probes.registry import ProbeContext

# A gzip member header (RFC 1952: magic, deflate, no flags, mtime 0, OS unknown) followed by a
# deflate block whose type bits are 11, reserved in RFC 1951 3.2.3: zlib refuses it as
# "invalid block type" whatever zlib build reads it.
DAMAGED_GZ = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + b"\x07" + b"\x00" * 16


def test_a_damaged_gzip_log_is_one_reason_the_step_names(tmp_path):
    path = tmp_path / "sglang.log.1.gz"
    path.write_bytes(DAMAGED_GZ)
    host = server_log.run({"server_log": str(path)})
    assert host["found"] is False and host["lines"] == []
    assert host["unreadable"] == f"{path} cannot be read: Error -3 while decompressing data: invalid block type"
    facts = throughput_step.parse({**host, "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    [finding] = throughput_step.check(ctx)
    assert finding.code == "SD004" and "invalid block type" in " ".join([finding.title, *finding.evidence])
