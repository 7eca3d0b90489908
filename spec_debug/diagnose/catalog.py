"""Look up the finding catalog, build Findings from it, and render it as Markdown."""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from spec_debug.diagnose.codes import ENTRIES, FindingDoc
from spec_debug.errors import UsageError
from spec_debug.record import Finding, Severity

CATALOG: dict[str, FindingDoc] = {doc.code: doc for doc in ENTRIES}


class UnknownFindingCode(UsageError):
    """A finding code that is not in the catalog."""


def get_doc(code: str) -> FindingDoc:
    key = code.strip().upper()
    if key not in CATALOG:
        raise UnknownFindingCode(f"unknown finding code {code!r}", hint=_unknown_code_hint(code.strip(), key))
    return CATALOG[key]


def _unknown_code_hint(typed: str, key: str) -> str:
    """SD901 is in host_smoke's reports, `findings perf_regression` meant the walkthrough, SD1O1
    has a letter O: the hint was "known codes include SD001, SD002, SD003" for all three."""
    import difflib

    from spec_debug.playbook.loader import _shipped_part, shipped_playbook_names

    if typed.lower() in shipped_playbook_names():
        return f"{typed} is a playbook: `spec-debug explain {typed.lower()}` walks through it"
    owned = _shipped_part(typed)
    if owned is not None:
        return owned
    concept = _concept_named(typed)
    if concept is not None:
        return concept
    from spec_debug.playbook.loader import _partial_code_hint

    # `findings SD99`, `SD8`, `hello` named SD709, SD708 and SD001-SD003, which had nothing to do
    # with what was typed (difflib's best of a bad lot at its 0.6 cutoff): a code one slip away
    # (SD1O1) is named, else what a code looks like and how the families divide.
    close = difflib.get_close_matches(key, list(CATALOG), n=3, cutoff=0.8)
    near = near_codes(key) or [c for c in close if c[:3] == key[:3]] or close  # SD611: SD601, not SD101
    if near:
        return f"known codes include {', '.join(near)}; `spec-debug findings` lists them all"
    prefix = partial_code(key)
    owned = _partial_code_hint(typed) if prefix is not None else None  # SD9: host_smoke's SD901
    if owned is not None:
        return owned
    starts = f"no finding code starts with {prefix}: codes" if prefix is not None else "finding codes"
    return f"{starts} are SD and three digits: {code_families()}; `spec-debug findings` lists them all"


def _concept_named(typed: str) -> str | None:
    """`findings d2t`, `findings 'accept length'`: a concept `explain` explains (glossary), which
    got "finding codes are SD and three digits: ..." and no word of where its meaning is, as a
    playbook's name gets its walkthrough. A code-like word (SD1O1) is left to the code hints."""
    from spec_debug import glossary

    if typed.upper().startswith("SD") or glossary.find_concept(typed) is None:
        return None
    from spec_debug.record import shell_word

    return f"{typed} is a concept, not a finding code: `spec-debug explain {shell_word(typed)}` explains it"


def code_families() -> str:
    """"SD0xx runner, SD1xx launch flags, ..." from the catalog's areas."""
    areas: dict[str, str] = {}
    for code in sorted(CATALOG):
        areas.setdefault(f"{code[:3]}xx", CATALOG[code].area)
    return ", ".join(f"{family} {area}" for family, area in areas.items())


# The start of a code, typed as it is remembered: "SD1" for the launch-flag codes, "sd 10".
_PARTIAL_CODE = re.compile(r"^SD[\s_-]*(\d{1,2})$", re.IGNORECASE)


def partial_code(typed: str) -> str | None:
    """The code prefix TYPED is ("SD1" for `sd 1`), or None when it is not one."""
    match = _PARTIAL_CODE.match(typed.strip())
    return f"SD{match.group(1)}" if match else None


def near_codes(key: str) -> list[str]:
    """The catalog codes that start like KEY: all of a family for a prefix (SD1: SD101..SD104,
    which difflib's character count ranked below SD701, SD601, SD501), else those that share
    its first digit pair (SD10x for SD109)."""
    prefix = partial_code(key)
    if prefix is not None:
        return [c for c in CATALOG if c.startswith(prefix)]
    return [c for c in CATALOG if len(key) > 3 and c[:4] == key[:4]]


def make_finding(
    code: str,
    *,
    host: str | None,
    step: str | None,
    evidence: list[str],
    facts: dict[str, Any],
    severity: Severity | None = None,
    title: str | None = None,
    remediation: str | None = None,
) -> Finding:
    """A Finding with the catalog's defaults (severity, title, fix, sources) for `code`."""
    doc = get_doc(code)
    return Finding(
        code=doc.code,
        severity=severity or doc.severity,
        title=title or doc.title,
        host=host,
        step=step,
        evidence=list(evidence),
        remediation=remediation if remediation is not None else doc.fix,
        references=list(doc.sources),
        facts=dict(facts),
    )


def render_entry_markdown(doc: FindingDoc) -> str:
    sources = "\n".join(f"- <{url}>" for url in doc.sources)
    return (
        f"## {doc.code}: {doc.title}\n\n"
        f"Default severity: **{doc.severity}** · area: {doc.area}\n\n"
        f"### What it detects\n{doc.detects}\n\n"
        f"### Why it hurts\n{doc.why}\n\n"
        f"### How to fix\n{doc.fix}\n\n"
        f"### Example\n```\n{doc.example}\n```\n\n"
        f"### Checked by\n{_checked_by_markdown(doc.code)}\n\n"
        + (f"### Sources\n{sources}\n" if doc.sources else "")
    )


# Which shipped step reports each code, as computed by `live_checked_by` and written to package
# data by `python3 -m spec_debug.diagnose.catalog`: computing it loads every shipped playbook
# and the probe registry (torch's import included), which doubled the time of `explain SD201`;
# a test keeps the file equal to the live computation, as it keeps docs/findings.md.
CHECKED_BY_FILE = Path(__file__).resolve().parent.parent / "data" / "checked_by.json"


def live_checked_by() -> dict[str, list[dict[str, str]]]:
    """For every catalog code, the shipped steps that can report it, each as {playbook, step,
    topic}: a step whose `expect:`/`findings:` name the code, or whose probe's check raises it
    (ProbeSpec.codes); perf_regression (the main job) first, then the others by name. `topic`
    is what `spec-debug explain` takes to walk through the step: the step id where that id
    leads to this playbook's step (perf_regression's where it has one, else the first shipped
    playbook's: cli_extra._shipped_step_owner), else `PLAYBOOK STEP`."""
    from spec_debug.playbook.loader import _shipped_steps
    from spec_debug.probes.registry import all_probes

    probes = all_probes()
    steps = list(_shipped_steps())
    owners: dict[str, list[str]] = {}
    for playbook, step, _ in steps:
        owners.setdefault(str(step.get("id")), []).append(playbook)

    def topic(playbook: str, step_id: str) -> str:
        mine = owners.get(step_id, [])
        first = "perf_regression" if "perf_regression" in mine else (mine[0] if mine else playbook)
        return step_id if first == playbook else f"{playbook} {step_id}"

    table: dict[str, list[dict[str, str]]] = {}
    for doc in ENTRIES:
        found = []
        for playbook, step, codes in steps:
            probe = probes.get(str(step.get("probe") or ""))
            if doc.code in codes or (probe is not None and doc.code in probe.codes):
                step_id = str(step.get("id"))
                found.append({"playbook": playbook, "step": step_id, "topic": topic(playbook, step_id)})
        table[doc.code] = sorted(found, key=lambda owned: owned["playbook"] != "perf_regression")
    return table


@lru_cache(maxsize=1)
def _checked_by_table() -> dict[str, list[dict[str, str]]]:
    try:
        return json.loads(CHECKED_BY_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        # a source tree whose table was never written: slower, still right
        return live_checked_by()


def checked_by(code: str) -> list[dict[str, str]]:
    """{playbook, step, topic} of each shipped step that can report CODE (live_checked_by)."""
    return [dict(owned) for owned in _checked_by_table().get(code, [])]


def _checked_by_markdown(code: str) -> str:
    """Which step finds the code, with the command that walks through it: an entry said what
    the code means and how to fix it, and a newcomer who read `explain SD201` in a report had
    no word of which check reports it, nor how to run that check again."""
    from spec_debug.runner.runner_findings import RUNNER_CODES

    if code in RUNNER_CODES:
        return "Any step of any playbook: the runner reports it from how the step went."
    owned = checked_by(code)
    if not owned:
        return "No shipped playbook step: a playbook of your own that names it in a `finding:`."
    return "\n".join(f"- {step['playbook']}, step `{step['step']}` (`spec-debug explain {step['topic']}`)"
                     for step in owned)


def render_catalog_markdown() -> str:
    """The whole catalog; docs/findings.md is this text (a test keeps it current)."""
    index = "\n".join(
        f"| [{d.code}](#{d.code.lower()}-{_anchor(d.title)}) | {d.severity} | {d.area} | {d.title} |"
        for d in ENTRIES
    )
    body = "\n".join(render_entry_markdown(d) for d in ENTRIES)
    return (
        "# Finding codes\n\n"
        "<!-- generated by spec_debug.diagnose.catalog.render_catalog_markdown(); do not edit -->\n\n"
        "Every finding spec-debug reports carries one of these stable codes, like a linter's. "
        "`spec-debug findings CODE` prints one entry; `--json` gives them to machines. A check "
        "may lower the default severity when its evidence is indirect (e.g. to info for a "
        "related symptom of a root cause already reported as an error).\n\n"
        "| code | severity | area | title |\n|---|---|---|---|\n"
        f"{index}\n\n{body}"
    )


def _anchor(title: str) -> str:
    # GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. An underscore
    # is kept (github-slugger, script/generate-regex.mjs, strips no connector punctuation): SD702's
    # index link read `#sd702-draft-maxpositionembeddings-...` and led nowhere.
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def doc_as_dict(doc: FindingDoc) -> dict[str, Any]:
    return {
        "code": doc.code,
        "severity": doc.severity,
        "title": doc.title,
        "area": doc.area,
        "detects": doc.detects,
        "why": doc.why,
        "fix": doc.fix,
        "example": doc.example,
        "sources": list(doc.sources),
        # the shipped steps that report it (render_entry_markdown's "Checked by"), added later
        "checked_by": [{"playbook": step["playbook"], "step": step["step"]} for step in checked_by(doc.code)],
    }


def write_checked_by(path: Path = CHECKED_BY_FILE) -> None:
    """Write live_checked_by's table (package data) in a stable form."""
    path.write_text(json.dumps(live_checked_by(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    # python3 -m spec_debug.diagnose.catalog [PATH]: rewrite the checked-by table after a change
    # to a shipped playbook or a probe's codes (the test of the table says when it is due)
    write_checked_by(Path(sys.argv[1]) if len(sys.argv) > 1 else CHECKED_BY_FILE)
