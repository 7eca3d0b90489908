"""report.md and report.html show a step whose processes could not be killed (left_running),
with the `ps` line its record holds: that line was in run.json alone. Real sshd whose listener
dies mid-step (the kill's second connection is refused)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from markupsafe import escape

from spec_debug.report.render import md_code_span
from tests.ssh.test_fleet_faults import by_id, load_run
from tests.ssh.test_hardening64_kill_second_connection_refused import _run_while_the_listener_dies
from tests.sshd_fixture import ClientSetup, SshServer


def test_the_run_reports_show_what_may_still_run_and_how_to_find_it(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    _marker, _said, record = _run_while_the_listener_dies(client, sshd_factory, tmp_path, timeout="    timeout: 4\n", ctrl_c=False)
    left = by_id(record, "gpu64")["hang"]["left_running"]
    assert left is not None and "ps " in left["check"], left
    run_dir, _ = load_run(tmp_path / "runs")
    markdown = (run_dir / "report.md").read_text()
    assert "## May still be running" in markdown
    row = f"| `gpu64` | hang | {left['waited_s']:.1f} | {md_code_span(left['check'])} |"
    assert row in markdown.splitlines(), markdown
    page = (run_dir / "report.html").read_text()
    assert '<h2 id="left-running">May still be running</h2>' in page
    assert f"<td>hang</td><td>{left['waited_s']:.1f}</td><td><code>{escape(left['check'])}</code></td>" in page, page
