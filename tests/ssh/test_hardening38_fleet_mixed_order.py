"""One run over a fleet where every kind of outcome happens at once, in the inventory's order.

`--hosts gpu[8-12]`: gpu8 passes, gpu9 refuses the connection, gpu10 refuses the login, gpu11's
step times out and gpu12's sshd dies mid-step. run.json listed the steps and findings in the
order they finished: `--forks 8` and `--forks 1` wrote two different records of the same run,
and the report's step table jumped from host to host. The report's fleet table and findings
sorted hosts by name: gpu10, gpu12, gpu9, an order no inventory has. Both now follow the hosts'
order (the inventory's, here the range's).

Nothing here depends on timing: gpu8's first step waits for a file gpu12 writes in its second
step, so with --forks 8 gpu8's step always ends after gpu12's first one, and the completion
order is never the inventory's. The hosts are real sshd servers on 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PLAYBOOK = """
name: mixed_fleet
description: one host of each outcome
vars:
  gate: ""
steps:
  - id: hello
    title: Say hello
    why: every reachable host runs it; gpu8 waits here until gpu12 has said hello
    timeout: 120
    run: |
      if [ "{{ host }}" = gpu8 ]; then until [ -e "{{ gate }}" ]; do sleep 0.1; done; fi
      echo "hello from {{ host }}"
  - id: work
    title: The step that goes wrong
    why: gpu11 hangs past its timeout; gpu12 opens the gate, then its sshd dies
    timeout: 3
    run: |
      case "{{ host }}" in
        gpu11) sleep 60 ;;
        gpu12) touch "{{ gate }}"; kill -9 $PPID; sleep 60 ;;
      esac
      echo done
  - id: after
    title: Still there
    why: a host whose step timed out goes on
    run: echo after
"""

HOSTS = ["gpu8", "gpu9", "gpu10", "gpu11", "gpu12"]


def _fleet(client: ClientSetup, sshd_factory: Callable[..., SshServer], closed_port: Callable[[], int],
           tmp_path: Path) -> None:
    stranger = ClientKey.create(tmp_path / "stranger")  # a key no server trusts
    for name in ("gpu8", "gpu10", "gpu11", "gpu12"):
        server = sshd_factory(name)
        client.trust(server)
        client.alias(name, server, **({"IdentityFile": str(stranger.path)} if name == "gpu10" else {}))
    client.alias("gpu9", server, Port=closed_port())  # nothing listens there


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, out: str, *args: str) -> tuple[Any, Path, dict[str, Any]]:
    playbook = tmp_path / "mixed.yaml"
    playbook.write_text(PLAYBOOK)
    done = cli("run", str(playbook), *args, "-F", str(client.config), "--batch", "--out", str(tmp_path / out))
    dirs = sorted(p for p in (tmp_path / out).iterdir() if p.is_dir())
    assert len(dirs) == 1, done.stdout + done.stderr
    return done, dirs[0], json.loads((dirs[0] / "run.json").read_text())


def _order(record: dict[str, Any]) -> dict[str, list[Any]]:
    """What a run's record says apart from timing."""
    return {
        "hosts": [(h["name"], h["status"], h["error"]) for h in record["hosts"]],
        "steps": [(s["host"], s["id"], s["status"]) for s in record["steps"]],
        "findings": [(f["host"], f["code"], f["step"]) for f in record["findings"]],
        "facts": list(record["facts"]),
    }


def _report_rows(run_dir: Path, heading: str) -> list[str]:
    """The table rows under a report.md heading."""
    section = (run_dir / "report.md").read_text().split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| `") or line.startswith("| SD")]


def _untimed(rows: list[str]) -> list[list[str]]:
    """The step table's cells but its duration."""
    return [cells[:4] + cells[5:] for cells in (row.split(" | ") for row in rows)]


def test_a_mixed_fleet_is_recorded_and_reported_in_the_inventory_order(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer],
        closed_port: Callable[[], int], tmp_path: Path) -> None:
    _fleet(client, sshd_factory, closed_port, tmp_path)
    open_gate = tmp_path / "gate-forks1"
    open_gate.touch()  # one host at a time: gpu8 goes first and must not wait for gpu12
    one, one_dir, one_record = _run(cli, client, tmp_path, "forks1", "--hosts", "gpu[8-12]", "--forks", "1",
                                    "--var", f"gate={open_gate}")
    eight, eight_dir, eight_record = _run(cli, client, tmp_path, "forks8", "--hosts", "gpu[8-12]", "--forks", "8",
                                          "--var", f"gate={tmp_path / 'gate-forks8'}", "--junit", str(tmp_path / "junit.xml"))

    # Every host, with what happened to it in one line; exit 3: hosts could not be used.
    assert one.code == eight.code == 3, eight.stdout + eight.stderr
    hosts = {h["name"]: h for h in eight_record["hosts"]}
    assert list(hosts) == HOSTS
    assert {name: h["status"] for name, h in hosts.items()} == {
        "gpu8": "passed", "gpu9": "error", "gpu10": "error", "gpu11": "passed", "gpu12": "error"}
    assert "connection refused" in hosts["gpu9"]["error"]
    assert "authentication failed" in hosts["gpu10"]["error"]
    assert "connection lost" in hosts["gpu12"]["error"]
    assert all(h["error"] is None or "\n" not in h["error"] for h in hosts.values())

    # The same run with one fork or eight: the same record, apart from timing.
    assert _order(eight_record) == _order(one_record)
    assert [s[:2] for s in _order(eight_record)["steps"]] == [
        ("gpu8", "hello"), ("gpu8", "work"), ("gpu8", "after"),
        ("gpu11", "hello"), ("gpu11", "work"), ("gpu11", "after"),
        ("gpu12", "hello"), ("gpu12", "work")]
    assert [f[:2] for f in _order(eight_record)["findings"]] == [
        ("gpu9", "SD005"), ("gpu10", "SD005"), ("gpu11", "SD002"), ("gpu12", "SD005")]

    # The report: steps host by host, and the hosts sharing SD005 in the fleet's order.
    assert _untimed(_report_rows(eight_dir, "Steps")) == _untimed(_report_rows(one_dir, "Steps"))
    assert [re.match(r"\| `(\w+)`", row).group(1) for row in _report_rows(eight_dir, "Steps")] == [
        "gpu8"] * 3 + ["gpu11"] * 3 + ["gpu12"] * 2
    fleet = _report_rows(eight_dir, "Fleet summary")
    assert [row.split(" | ")[0] for row in fleet[:5]] == [f"| `{h}`" for h in HOSTS]
    assert "| SD005 | error | gpu9, gpu10, gpu12 |" in fleet, fleet
    assert "| SD002 | warning | gpu11 |" in fleet, fleet
    report = (eight_dir / "report.md").read_text()
    shown = [m.group(1) for m in re.finditer(r"#### SD005 .*\n\*host\* `(\w+)`", report)]
    assert shown == ["gpu9", "gpu10", "gpu12"], shown

    # JUnit: a host down is a "connect" error; a host lost mid-step is that step's error, once.
    suites = {suite.get("name"): suite for suite in ET.parse(tmp_path / "junit.xml").getroot()}
    cases = {name: [(case.get("name"), [e.get("type") for e in case.findall("error")]) for case in suite.findall("testcase")]
             for name, suite in suites.items()}
    # The steps it never reached are <skipped> cases (hardening70): CI counts the playbook's tests.
    assert cases["mixed_fleet@gpu9"] == [("connect", ["unreachable"]), ("hello", []), ("work", []), ("after", [])]
    assert cases["mixed_fleet@gpu12"] == [("hello", []), ("work", ["error"]), ("after", [])], cases["mixed_fleet@gpu12"]
    assert suites["mixed_fleet@gpu12"].get("errors") == "1"

    # --retry-failed: exactly the hosts that could not be used, and gpu11, whose step timed out
    # (its check never answered), in their order.
    retry, _, retried = _run(cli, client, tmp_path, "retry", "--retry-failed", str(eight_dir))
    assert retry.code == 3, retry.stdout + retry.stderr
    assert [h["name"] for h in retried["hosts"]] == ["gpu9", "gpu10", "gpu11", "gpu12"]


FAILING_CHECK = """
name: failing_check
description: a check that fails on every host that runs it
steps:
  - id: check
    title: A check that fails
    why: the launch flags are wrong on this host
    run: echo "bad flag"; exit 1
"""


def test_the_verdict_of_a_fleet_with_a_host_down_still_says_the_checks_that_failed(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, closed_port: Callable[[], int],
        tmp_path: Path) -> None:
    """One host down and one host failing its check: the banner named only the host that was
    down, as if the host that ran were fine."""
    client.alias("down", sshd, Port=closed_port())
    playbook = tmp_path / "check.yaml"
    playbook.write_text(FAILING_CHECK)
    done = cli("run", str(playbook), "--host", "target,down", "-F", str(client.config), "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 3, done.stdout + done.stderr
    run_dir = next(p for p in (tmp_path / "runs").iterdir() if p.is_dir())
    record = json.loads((run_dir / "run.json").read_text())
    failed = [f for f in record["findings"] if f["host"] == "target" and f["severity"] == "error"]
    assert failed, record["findings"]
    verdict = next(line for line in (run_dir / "report.md").read_text().splitlines() if line.startswith("> **Verdict:**"))
    assert "1 host(s) could not be checked: down." in verdict, verdict
    assert f"The hosts that ran have {len(failed)} error finding(s): {failed[0]['code']} " in verdict, verdict
