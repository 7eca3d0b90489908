"""A GitLab CI job log: the runner echoes each script line as ``$ cmd`` (read as a prompt by
:mod:`formats.text_log`), wraps stages in ``section_start:<time>:<name>`` / ``section_end``
marks (a carriage return and an erase after each, so the terminal shows only the title), and
ends a failed job with ``ERROR: Job failed: exit code N``: the status of the script line that
failed, the last one the job ran, unless ``after_script`` ran after it (``Running after_script``,
its own ``$`` lines; GitLab ignores how those end). The shapes gitlab-runner's logs show, as
published job logs and CI notes quote them."""

from __future__ import annotations

import re

_JOB_FAILED = re.compile(r"(?:^|\n)ERROR: Job failed: exit code (\d+)\s*\Z")
AFTER_SCRIPT = "Running after_script"


def job_status(output: str) -> int | None:
    """The status ``ERROR: Job failed: exit code N`` gives, where it ends ``output``."""
    tail = output[-2000:]
    if "Job failed: exit code" not in tail:
        return None
    m = _JOB_FAILED.search(tail)
    return int(m.group(1)) if m else None
