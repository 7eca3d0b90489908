"""JUnit XML: each host x step is a test case; findings are failures, a step that could not check is skipped. CI systems show it natively."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from spec_debug.record import Finding, RunRecord, shown_surrogate
from spec_debug.report.terminal import FIX_LIMIT, clip_middle, screen_text
from spec_debug.store import RecordWriteError, write_atomic

# XML 1.0 has no way to write most C0 controls, lone surrogates or U+FFFE/U+FFFF, not even as
# character references (https://www.w3.org/TR/xml/#charsets). ElementTree writes them anyway,
# and CI parsers then reject the whole file; command output is full of them (ANSI colours,
# progress bars' \r is fine, \x1b is not). Shown as U+XXXX instead so the evidence survives.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


OUTPUT_TAIL = 10_000
"""The most of a step's stdout or stderr a test case's system-out/system-err keeps: its tail,
where the error is. A fleet's streams share views.OUTPUT_BUDGET below that (views.output_limit)."""


def _shown(char: str) -> str:
    # A byte of command output that is no UTF-8 is held as a surrogate (PEP 383): shown as the
    # byte, `\xe9`, as run.json and the reports show it (record.shown_surrogate).
    return shown_surrogate(char) if "\udc80" <= char <= "\udcff" else f"\\u{ord(char):04x}"


def xml_text(value: object) -> str:
    return _NOT_XML.sub(lambda m: _shown(m.group(0)), str(value))


def failure_text(finding: Finding, limit: int = 20000) -> str:
    """A finding's evidence, then its fix where it has one, each cut in the middle as report.md
    and report.html cut them (clip_middle): evidence or a fix that quotes a captured fact
    (`evidence: ["{{ facts.line }}"]`) made a <failure> of hundreds of KB, one per host of a
    fleet. A playbook's own code with no `remediation:` ended on a bare "fix: "."""
    parts = [clip_middle(screen_text("\n".join(finding.evidence)), limit)] if finding.evidence else []
    if finding.remediation:
        parts.append(f"fix: {clip_middle(screen_text(finding.remediation), FIX_LIMIT)}")
    return "\n\n".join(parts)


def _tail(text: str, keep: int) -> str:
    """The last ``keep`` characters (text[-0:] would be all of it)."""
    return text[len(text) - keep:] if keep < len(text) else text


NOT_CHECKED_CODES = frozenset({"SD002", "SD003"})
"""The runner's findings that say a check gave no answer (a step timed out, could not run or its
output could not be read): warnings, never an exit code of 1, so <skipped> cases in JUnit."""

NOT_CHECKED_LIMIT = 1000
"""The most characters of the <skipped message> of a step that could not check."""


def _not_checked_line(finding: Finding) -> str:
    first = finding.evidence[0].splitlines()[0] if finding.evidence and finding.evidence[0] else ""
    return f"{finding.code} {finding.title}: {first}" if first else f"{finding.code} {finding.title}"


NOT_RUN_LIMIT = 300
"""The most characters of a host's error a never-reached step's <skipped message> quotes."""


def _planned_steps(record: RunRecord, planned: Sequence[str] | None) -> list[str]:
    """The playbook's step ids, in order, as given or as the record keeps them
    (PlaybookRef.step_ids); without them (a record written before that field) the ids any host
    recorded, in the order they first appear."""
    if planned is not None:
        return list(planned)
    if record.playbook.step_ids is not None:
        return list(record.playbook.step_ids)
    return list(dict.fromkeys(step.id for step in record.steps))


def _not_run_message(record: RunRecord, host_error: str | None, status: str) -> str:
    if status in ("aborted", "pending", "running"):
        reason = host_error or record.abort_reason or "the run did not finish"
    else:
        reason = host_error or "host error"
    return clip_middle(screen_text(f"not run: {reason}"), NOT_RUN_LIMIT)


def junit_xml(record: RunRecord, planned: Sequence[str] | None = None) -> str:
    """``planned``: the ids of the playbook's steps. A step a host never reached (it could not be
    connected to, its connection dropped, the run was stopped) is a <skipped> case: CI (Jenkins,
    GitLab) counts a suite's tests from its cases, and these hosts showed fewer tests than the
    playbook has, an unreachable host one test (its "connect" error) for a playbook of ten."""
    from spec_debug.report.views import evidence_limit, output_limit

    planned_ids = _planned_steps(record, planned)

    # the failures share a budget, as the reports' evidence does (views.EVIDENCE_BUDGET)
    limit = evidence_limit([f for f in record.findings if f.severity != "info"])
    # and the outputs share the reports' OUTPUT_BUDGET: 10,000 characters of each stream's tail
    # with no total made 200 hosts x 30 steps of long logs a 120 MB junit.xml
    tail = min(OUTPUT_TAIL, output_limit([len(text) for step in record.steps for text in (step.stdout, step.stderr) if text]))
    suites = ET.Element("testsuites", name=f"spec-debug {record.playbook.name}")
    for host in record.hosts:
        steps = [s for s in record.steps if s.host == host.name]
        suite = ET.SubElement(suites, "testsuite", name=f"{record.playbook.name}@{host.name}")
        failures = errors = skipped = 0
        total_time = 0.0
        for step in steps:
            case = ET.SubElement(suite, "testcase", classname=f"{record.playbook.name}.{host.name}", name=step.id, time=f"{step.duration_s:.3f}")
            total_time += step.duration_s
            step_findings = [f for f in record.findings if f.host == host.name and f.step == step.id and f.severity != "info"]
            if step.status == "skipped":
                skipped += 1
                ET.SubElement(case, "skipped", message=screen_text(step.message or "skipped"))
            elif step_findings and all(f.code in NOT_CHECKED_CODES for f in step_findings):
                # Only "could not check" (a `that:` that raised, a probe with no Python, a step
                # that timed out): warnings, so the run exits 0 and says PASSED, and as <failure>
                # cases the same run turned CI red. The check gave no answer: a skipped test.
                skipped += 1
                said = "; ".join(_not_checked_line(f) for f in step_findings)
                not_checked = ET.SubElement(case, "skipped", message=clip_middle(screen_text(said), NOT_CHECKED_LIMIT))
                not_checked.text = "\n\n".join(failure_text(f, limit) for f in step_findings)
            elif step_findings:
                failures += 1
                for finding in step_findings:
                    # Titles and evidence quote what the step printed: shown as its output is
                    # below (colours dropped, not "\u001b[31m" litter; bidi overrides marked).
                    failure = ET.SubElement(case, "failure", message=screen_text(f"{finding.code} {finding.title}"), type=finding.severity)
                    failure.text = failure_text(finding, limit)
            elif step.status in ("error", "timeout"):
                errors += 1
                ET.SubElement(case, "error", message=screen_text(step.message or step.status), type=step.status)
            # What the terminal showed (colours dropped, progress bars collapsed, NULs as
            # control pictures), as the HTML and Markdown reports show it: CI renders these
            # as plain text, where "\u001b[31m" is litter. The tail, where the error is.
            if step.stdout:
                ET.SubElement(case, "system-out").text = _tail(screen_text(step.stdout), tail)
            if step.stderr:
                ET.SubElement(case, "system-err").text = _tail(screen_text(step.stderr), tail)
        cut_step = any(s.status in ("error", "timeout") for s in steps)
        if host.status == "error" and not (steps and steps[-1].status == "error"):
            # Only a host whose error its last step's case does not carry: one whose connection
            # dropped mid-step was also reported as a "connect" case of an unreachable host,
            # two errors for one fault on a host that did connect.
            errors += 1
            case = ET.SubElement(suite, "testcase", classname=f"{record.playbook.name}.{host.name}", name="connect", time="0")
            ET.SubElement(case, "error", message=host.error or "host error", type="unreachable")
        elif host.status in ("aborted", "pending", "running") and not cut_step:
            # Stopped between steps or while connecting (SIGTERM, a quit): the steps it did run
            # passed, and without this case CI would show a cancelled host as green.
            errors += 1
            case = ET.SubElement(suite, "testcase", classname=f"{record.playbook.name}.{host.name}", name="run", time="0")
            ET.SubElement(case, "error", message=host.error or record.abort_reason or "the run did not finish", type="aborted")
        recorded = {s.id for s in steps}
        never_reached = [step_id for step_id in planned_ids if step_id not in recorded]
        if never_reached:
            message = _not_run_message(record, host.error, str(host.status))
            for step_id in never_reached:
                skipped += 1
                case = ET.SubElement(suite, "testcase", classname=f"{record.playbook.name}.{host.name}", name=step_id, time="0")
                ET.SubElement(case, "skipped", message=message)
        suite.set("tests", str(len(suite.findall("testcase"))))
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
        suite.set("skipped", str(skipped))
        suite.set("time", f"{total_time:.3f}")
    for element in suites.iter():
        if element.text:
            element.text = xml_text(element.text)
        for key, value in element.attrib.items():
            element.set(key, xml_text(value))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_junit(record: RunRecord, path: Path, planned: Sequence[str] | None = None) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordWriteError(f"cannot create {path.parent} for --junit: {exc.strerror or exc}") from None
    write_atomic(path, junit_xml(record, planned))
