"""How authors coming from other tools write a playbook, and what to tell them.

Ansible's keys (`tasks:`, `- name:`, `shell:`, `register:`), names with spaces, and commands
pasted from a chat with typographic quotes: the loader (loader.py) finds the problem and its
place; this module says what the author meant and how to write it here.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any


# A playbook is one file, read whole before it runs: `explain`, `validate` and the run record show
# every step it can run.
NO_INCLUDES = "a playbook is one file, with no includes"
_INCLUDE_KEYS = ("import_playbook", "include", "imports", "include_tasks", "import_tasks", "include_role", "import_role")


def include_hint(target: Any) -> str:
    """What to do with Ansible's include_tasks/import_playbook here; target is the file it names,
    or a mapping: include_tasks' {file: FILE}, include_role's {name: ROLE}, whose tasks are in
    roles/ROLE/tasks/main.yml (Ansible's role layout, docs.ansible.com playbooks_reuse_roles):
    'the steps of OTHER.yaml' named no file."""
    if isinstance(target, dict):
        role = target.get("name")
        target = target.get("file") or (f"roles/{role.strip()}/tasks/main.yml" if isinstance(role, str) and role.strip() else None)
    other = target.strip() if isinstance(target, str) and target.strip() and "\n" not in target else "OTHER.yaml"
    return (f"{NO_INCLUDES}: copy the steps of {other} under steps:, "
            f"or run it as a playbook of its own (spec-debug run {other})")


# Keys of an Ansible playbook, which many authors write first (a playbook here is one play's
# tasks; docs.ansible.com, playbooks_intro and the shell/command modules).
_PLAY_HABITS = {
    "tasks": "steps are the tasks here: write steps: (each with an id: and a run:)",
    "hosts": "the hosts are named when the playbook runs: --host gpu01, --hosts gpu[01-04] or --inventory FILE",
    "vars_files": "pass var files when the playbook runs: --var-file FILE",
    "gather_facts": "facts come from the steps' capture: (or a probe: step such as host_info)",
}
_STEP_HABITS = {
    "shell": "write the command under run: (a block with run: | for several lines)",
    "command": "write the command under run: (a block with run: | for several lines)",
    "script": "write the commands under run: | (one per line), or run: bash path/to/script.sh",
    "register": "a later step reads this one's result as steps.<id> (steps.<id>.stdout, .exit_code); values go into facts with capture:",
    "ignore_errors": "a failed step never stops the others (on_failure: stop does); to accept a non-zero exit: expect: - exit_code: [0, 1]",
    "failed_when": "write the condition as an expectation: expect: - that: <expression> (true when the step is fine)",
    "changed_when": "spec-debug only looks: a step changes nothing it would report",
    "become": "write sudo in the command itself (run: sudo ...)",
    "continue-on-error": "a failed step never stops the others (on_failure: stop does); to accept a non-zero exit: expect: - exit_code: [0, 1]",
    # GitHub Actions' step keys (docs.github.com, workflow syntax jobs.<job_id>.steps[*]) and
    # Ansible's loops and task keywords (docs.ansible.com, playbooks_loops, playbook_keywords).
    "if": "write the condition under when: as an expression without ${{ }} (e.g. when: steps.gpu_busy.status == 'passed')",
    "loop": "a step runs once per host; for several items loop in the command: run: | for gpu in 0 1 2 3; do ...; done",
    "uses": "an action does not run here: write the commands it stands for under run:",
    "working-directory": "change to it in the command: run: cd /path && ...",
    "chdir": "change to it in the command: run: cd /path && ...",
    "cwd": "change to it in the command: run: cd /path && ...",
    "args": "write the arguments in the command itself (run: cd /path && ...)",
    "description": "a step's description is its why: (shown by explain and run --step)",
    "vars": "vars are declared once, under the playbook's vars: at the top (a probe step's arguments go under with:)",
    "delegate_to": "a step runs on every host of the run: choose the hosts with --host, --hosts or --limit",
    # GitHub Actions' step env: and Ansible's environment: (docs.github.com, workflow syntax
    # jobs.<job_id>.steps[*].env; the Ansible keyword environment).
    "env": "set the variables in the command: run: CUDA_VISIBLE_DEVICES=0 nvidia-smi (or export them in a run: | block)",
    "environment": "set the variables in the command: run: CUDA_VISIBLE_DEVICES=0 nvidia-smi (or export them in a run: | block)",
}


# A top-level key kept only to hold a YAML anchor: docker compose ignores keys that start with
# x- (compose-spec, "Extension"), GitLab CI ignores jobs that start with a dot ("hidden jobs",
# docs.gitlab.com ci/jobs). Here every key means something; a merge key can hold the anchor.
_ANCHOR_HOLDER = re.compile(r"^(x-|\.)")
_ANCHOR_HINT = ("a playbook has no keys that are ignored (compose's x-, GitLab CI's .hidden): set the anchor where "
                "it is first used, e.g. on the first step '- <<: &step_defaults {timeout: 60, retries: 2}', then "
                "'- <<: *step_defaults' on the others")
ANCHOR_HINT = _ANCHOR_HINT  # for a key of any name that only holds an anchor (loader.py)


def habit_hint(key: str, path: tuple[Any, ...], parent: Any) -> str | None:
    """What to write instead of the unknown key at path; parent is the mapping that holds it."""
    if key in _INCLUDE_KEYS and len(path) in (1, 3):
        # Ansible's reuse keys (docs.ansible.com, playbooks_reuse): import_playbook at the top,
        # include_tasks/import_tasks/include_role/import_role (`include` before 2.4) in a task.
        return include_hint(parent.get(key) if isinstance(parent, dict) else None)
    if len(path) == 1:
        return _ANCHOR_HINT if _ANCHOR_HOLDER.match(key) else _PLAY_HABITS.get(key)
    if len(path) == 3 and path[0] == "steps":
        if key == "name":
            return _step_name_hint(parent)
        if key.startswith("with_"):  # Ansible's with_items, with_dict, with_fileglob...
            return _STEP_HABITS["loop"]
        if key == "shell" and isinstance(parent, dict) and "run" in parent:
            # GitHub Actions' `shell: bash` next to run: picks the interpreter.
            return ("run: commands run in the host's shell (bash where present: docs/playbooks.md): drop shell:, "
                    "or name the interpreter in the command (run: python3 - <<'EOF' ...)")
        if key == "timeout-minutes" and isinstance(parent, dict) and isinstance(parent.get(key), (int, float)):
            return f"timeout is in seconds: timeout: {parent[key] * 60:g}"
        return _STEP_HABITS.get(key)
    return None


def _step_name_hint(step: Any) -> str:
    """Ansible's and GitHub Actions' `name:` on a step. A step that has its id already needs
    only the key renamed: 'give it an id' sent the user to add a second one."""
    title = step.get("name") if isinstance(step, dict) else None
    if isinstance(step, dict) and "id" in step:
        return "a step's name is its title: write title: in place of name:"
    slug = step_id_suggestion(str(title))[:40].strip("_") if title else ""
    return f"a step's name is its title: write title: ... and give it an id: (e.g. id: {slug or 'check_gpu'})"


def plain_letters(text: str) -> str:
    """Accents off (NFKD, then the combining marks dropped): `Prüfung` gives Prufung, not Pr_fung."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def step_id_suggestion(text: str) -> str:
    """A step id ([a-z0-9_]+) from a title or a mistyped id: `Prüfung GPU` gives prufung_gpu."""
    return re.sub(r"[^a-z0-9]+", "_", plain_letters(text).lower()).strip("_")


def model_word(path: tuple[Any, ...]) -> str:
    """What the mapping expected at path is called, for pydantic's "instance of Step"."""
    named = [p for p in path if isinstance(p, str)]
    return {"steps": "a step", "capture": "a capture", "expect": "an expectation", "findings": "a finding template",
            "finding": "a finding template", "fetch": "a fetch spec"}.get(named[-1] if named else "", "a mapping")


def pattern_hint(path: tuple[Any, ...], value: Any) -> str | None:
    """How to write a value that does not match its field's pattern (only the name has one)."""
    if path == ("name",) and isinstance(value, str):
        # `name: GPU smoke test`: the name becomes part of the run folder's name.
        return f"a playbook name is one word of letters, digits, _ . - (it names the run folders): name: {playbook_name_like(value)}"
    return None


def playbook_name_like(text: str) -> str:
    """A playbook name made of ``text`` (the name: field, distill's --name): `GPU smoke test`
    gives GPU_smoke_test, `débit` debit."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", plain_letters(text.strip())).strip("_") or "my_playbook"


# A command pasted from a chat or a document (Slack, Notion, Google Docs turn " and ' into
# curly quotes as you type): the shell takes “ ” ‘ ’ as ordinary characters, so
# `python -c “import torch”` runs python with the argument “import. Only an opening quote
# where a shell quote would start (after a space or =, at a line start) is taken for one:
# an apostrophe inside a word (it’s) is text.
OPENING_CURLY_QUOTE = re.compile(r"(?:(?<=[\s=])|^)[\u201c\u2018](?=[^\u201d\u2019\n]*[\u201d\u2019])", re.MULTILINE)


def outside_shell_quotes(text: str, index: int) -> bool:
    """Whether text[index] is outside '...' and "..." on its line (\\ escapes outside single quotes)."""
    return _shell_scan(text, index, stop_at_comment=False) is None


def in_shell_comment(text: str, index: int) -> bool:
    """Whether text[index] is in a shell comment: after a `#` that starts a word outside quotes
    on its line (POSIX 2.3, rule 9). A comment is the author's words, curly quotes and all."""
    return _shell_scan(text, index, stop_at_comment=True) == "#"


def _shell_scan(text: str, index: int, *, stop_at_comment: bool) -> str | None:
    """The quote open at text[index] on its line (None: none), or "#" when ``stop_at_comment``
    and a comment starts before it."""
    quote: str | None = None
    ansi = False  # inside $'...' (bash, zsh, ksh, POSIX.1-2024 sh), where \' does not close it
    start = text.rfind("\n", 0, index) + 1
    i = start
    while i < index:
        char = text[i]
        if char == "\\" and (quote != "'" or ansi):
            i += 2
            continue
        if quote is None and char in "'\"":
            quote = char
            ansi = char == "'" and i > start and text[i - 1] == "$" and (i - 1 == start or text[i - 2] != "\\")
        elif char == quote:
            quote, ansi = None, False
        elif stop_at_comment and quote is None and char == "#" and (i == start or text[i - 1] in " \t;&|()"):
            return "#"
        i += 1
    return quote


def number_forms(field: str) -> str:
    """The forms a number field takes, for a value YAML read as something else."""
    if field == "timeout":
        return "timeout is a number of seconds above 0 (e.g. timeout: 300, or 1.5); for no time limit, leave timeout: out of the step"
    if field == "retry_delay":
        return "retry_delay is a number of seconds, 0 or more (e.g. retry_delay: 5)"
    return f"{field} is a number: write it in digits (e.g. {field}: {0 if field == 'exit_code' else 10})"
