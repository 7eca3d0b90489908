"""Reports of runs whose steps print what real tools print: colours, progress bars, Markdown,
NUL bytes, secrets, long logs that end in a traceback; and a 200-host fleet re-rendered later."""

from __future__ import annotations

import json
import os
import re
import stat
import threading
import xml.etree.ElementTree as ET

from markdown_it import MarkdownIt

from spec_debug.record import Finding, HostRecord, PlaybookRef, RunRecord, StepRecord
from tests.conftest import only_run, run_cli

# What `pip install` and a tqdm download print on a terminal (\r redraws, ANSI colours), a README
# printed by `cat` (a Markdown fence), NUL bytes from a binary file grepped by mistake, and a
# server log of 60 kB that ends in the traceback the on-call engineer needs.
NASTY_PLAYBOOK = r"""
name: real_outputs
steps:
  - id: pip_progress
    run: "printf 'Downloading torch\n\r   0%%|          | 0/10\r 50%%|#####     | 5/10\r100%%|##########| 10/10\n\\033[31mERROR\\033[0m: \\033[1mResolutionImpossible\\033[0m\n'"
  - id: readme
    run: "printf '```bash\npip install sglang\n```\n# Not a heading of the report\n<script>alert(1)</script>\n'"
  - id: binary
    run: "printf 'model.safetensors\\000\\000header\n'"
  - id: long_log
    run: "python3 -c \"print('x' * 60000); print('Traceback (most recent call last):'); print('RuntimeError: CUDA error: device-side assert triggered')\""
  - id: proxy_env
    run: "echo HTTPS_PROXY=http://alice:hunter2pass@proxy.corp:3128; echo git clone https://oauth2:glpat-AbCdEfGhIjKlMnOpQrSt@gitlab.example.com/ml/drafter.git; echo sshpass -p 'S3cr3t!x' ssh root@gpu01; echo '{\"hf_token\": \"plainvalue123\"}'; echo github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
    expect:
      - contains: never-printed
    findings:
      - code: SD900
        severity: warning
        title: Proxy settings
        evidence: ["{{ stdout }}"]
        references: ["javascript:alert(document.domain)", "https://docs.sglang.ai/"]
"""

SECRETS = ["hunter2pass", "glpat-AbCdEfGhIjKlMnOpQrSt", "S3cr3t!x", "plainvalue123", "github_pat_11ABCDEFG"]


def test_report_shows_real_outputs_as_the_terminal_did(tmp_path):
    playbook = tmp_path / "real_outputs.yaml"
    playbook.write_text(NASTY_PLAYBOOK, encoding="utf-8")
    out = tmp_path / "runs"
    junit = tmp_path / "junit.xml"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--junit", str(junit))
    assert result.code == 0, result.stderr
    run_dir, _ = only_run(out)
    md = (run_dir / "report.md").read_text(encoding="utf-8")
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    raw = (run_dir / "run.json").read_text(encoding="utf-8")

    # run.json keeps the bytes; the reports show what the terminal showed.
    assert "\x1b[31m" in json.loads(raw)["steps"][0]["stdout"]
    for report in (md, html):
        assert "\x1b" not in report and "\x00" not in report
        # (the command holds the bars too, but with printf's %%)
        assert "100%|##########| 10/10" in report and " 50%|#####" not in report
        assert "ERROR: " in report
        assert "model.safetensors\u2400\u2400header" in report
        # the end of a long output (the traceback) is in the report, not only its head
        assert "RuntimeError: CUDA error: device-side assert triggered" in report
        assert "characters left out of this report" in report
        for secret in SECRETS:
            assert secret not in report
    for secret in SECRETS:
        assert secret not in raw
    assert ET.parse(junit).getroot().tag == "testsuites"

    # Rendered as CommonMark, the README's own fence does not close the report's code block:
    # its heading and its <script> stay inside the block, and the report goes on after it.
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    headings = [tokens[i + 1].content for i, tok in enumerate(tokens) if tok.type == "heading_open"]
    assert "Not a heading of the report" not in headings and "Appendix: raw outputs" in headings
    assert not any("<script>" in tok.content for tok in tokens if tok.type == "html_block")
    assert any(tok.type == "fence" and "<script>alert(1)</script>" in tok.content for tok in tokens)
    assert tokens[-2].content.startswith("spec-debug ")

    # A reference that is not a web link is shown, never made clickable.
    assert 'href="javascript:' not in html and "<code>javascript:alert(document.domain)</code>" in html
    assert '<a href="https://docs.sglang.ai/">' in html
    assert "<javascript:" not in md


def _fleet_record(n_hosts: int) -> RunRecord:
    hosts, steps, findings = [], [], []
    for i in range(n_hosts):
        # Real fleets share long prefixes; a unicode name from an inventory alias too.
        name = f"h100-prod-eu-west-rack{i // 8:02d}-node{i:03d}" if i else "推理节点-α"
        status = "failed" if i % 7 == 0 else "passed"
        hosts.append(HostRecord(name=name, transport="ssh", status=status))
        steps.append(StepRecord(id="gpu", host=name, status="passed", stdout=f"GPU 0: NVIDIA H100 ({name})\n"))
        if status == "failed":
            findings.append(Finding(code="SD101", severity="error", title="Drafting capped at 1 token", host=name, step="gpu"))
    return RunRecord(run_id="20260301T000000000Z-fleet-abcdef", playbook=PlaybookRef(name="fleet", path="fleet.yaml", sha256="0" * 64),
                     started_at="2026-03-01T00:00:00.000Z", finished_at="2026-03-01T00:01:00.000Z", status="failed",
                     hosts=hosts, steps=steps, findings=findings)


def test_a_200_host_report_names_every_host_and_loads_nothing_from_outside(tmp_path):
    record = _fleet_record(200)
    run_dir = tmp_path / record.run_id
    run_dir.mkdir()
    (run_dir / "run.json").write_text(record.model_dump_json(indent=2), encoding="utf-8")
    html_path = tmp_path / "fleet.html"
    result = run_cli("report", str(run_dir), "--format", "html", "-o", str(html_path))
    assert result.code == 0, result.stderr
    html = html_path.read_text(encoding="utf-8")
    # the per-host verdicts tell every host apart (they used to be cut to 12 characters,
    # 'h100-prod-eu' for all 199 of them, in an SVG 18,000 px wide)
    grid = html.split('class="hostgrid"', 1)[1].split("</div>", 1)[0]
    for host in record.hosts:
        assert f'title="{host.name}: {host.status}">{host.name}</span>' in grid
    # self-contained: no script, stylesheet, image or font fetched from anywhere
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|@import|url\(""", html)
    assert "<script" not in html
    # the header line does not list 200 names
    meta = html.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert "200 hosts" in meta and "node199" not in meta
    md = run_cli("report", str(run_dir), "--format", "md")
    assert md.code == 0, md.stderr
    header_row = md.stdout.splitlines()[6]
    assert "200 hosts" in header_row and "node199" not in header_row


def test_a_fleet_behind_a_dead_bastion_keeps_the_verdict_banner_one_line(tmp_path):
    """Every host unreachable (the jump host died): the sticky verdict banner names a few and
    counts the rest; listing 200 names made it cover the whole window."""
    record = _fleet_record(200)
    for host in record.hosts:
        host.status, host.error = "error", "jump through bastion failed: Connection refused"
    record.status = "error"
    run_dir = tmp_path / record.run_id
    run_dir.mkdir()
    (run_dir / "run.json").write_text(record.model_dump_json(indent=2), encoding="utf-8")
    result = run_cli("report", str(run_dir), "--format", "html")
    assert result.code == 0, result.stderr
    banner = result.stdout.split('<header class="verdict', 1)[1].split("</header>", 1)[0]
    assert "200 host(s) could not be checked" in banner and "and 195 more" in banner
    assert len(banner) < 600
    # the fleet table still names every host with its cause
    fleet = result.stdout.split('id="fleet"', 1)[1]
    assert all(f"<code>{h.name}</code>" in fleet for h in record.hosts)


def test_report_written_to_a_pipe_reaches_its_reader(tmp_path):
    """`spec-debug report RUN -o >(gh issue comment 7 --body-file -)` hands a /dev/fd pipe; the
    atomic rename used to replace the pipe's name with a regular file, so the reader got
    nothing (and -o /dev/stdout replaced the /dev/stdout link itself)."""
    record = _fleet_record(3)
    run_dir = tmp_path / record.run_id
    run_dir.mkdir()
    (run_dir / "run.json").write_text(record.model_dump_json(indent=2), encoding="utf-8")
    fifo = tmp_path / "to_channel"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run_cli("report", str(run_dir), "--format", "md", "-o", str(fifo), timeout=30)
    reader.join(timeout=60)
    assert result.code == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received and received[0].decode("utf-8").startswith("# Incident report: fleet")
    # a folder given for a file: one line, and no claim that a previous version was kept
    result = run_cli("report", str(run_dir), "--format", "md", "-o", str(tmp_path))
    assert result.code != 0 and result.stderr.startswith(f"error: cannot write {tmp_path}: it is a folder")
    assert "Traceback" not in result.stderr
