"""Where a Slurm batch job ran, for the readings in its output file.

``sbatch`` writes the job's output to ``slurm-<jobid>.out`` (``slurm-<jobid>_<task>.out`` for an
array task) in the folder it was submitted from, by default (slurm.schedmd.com/sbatch.html,
--output: "slurm-%j.out", "slurm-%A_%a.out"). The file is read on the login host, but what it holds
ran on the node the batch script ran on: the first node of the job's allocation, which Slurm calls
the job's ``BatchHost``. Throughput, accept lengths and CUDA errors in it are the compute node's, so
they take that node when the session showed it (``squeue``, ``scontrol show job``, ``sacct``), and no
host otherwise: never the login host, which has no GPU in the story. Pure text, no I/O.
"""

from __future__ import annotations

import re

from spec_debug.session.shell import one_node

_JOB_OUTPUT = re.compile(r"(?:^|[\s/'\"=])slurm-(\d+(?:_\d+)?)\.(?:out|err)\b")
_BATCH_HOST = re.compile(r"\bBatchHost=(\S+)")
_NODE_LIST = re.compile(r"\bNodeList=(\S+)")
_JOB_ID = re.compile(r"\bJobId=(\d+)")
_JOB_STEP = re.compile(r"\bsrun\b(?![^|;&\n]*\s(?:-w|--nodelist\b))[^|;&\n]*?\s--jobid[=\s]+(\d+)\b")
"""srun(1) ``--jobid``: the step runs in that job's allocation (on its first node, unless ``-w``
names one: then the command's host is that node already, shell.parse_target)."""
_SUBMITTED = re.compile(r"^Submitted batch job (\d+)", re.MULTILINE)
_SBATCH_NODE = re.compile(r"\bsbatch\b[^|;&]*?\s(?:-w\s*|--nodelist[=\s])(\S+)")
"""sbatch(1) ``-w``/``--nodelist``: the job runs on the node named (one node; a list is several)."""
_ARRAY = re.compile(r"\bArrayJobId=(\d+)\s+ArrayTaskId=(\d+)\b")


def job_output(command: str) -> str | None:
    """The job whose output the command shows: the output file it reads (``tail -n 50
    slurm-12345.out``), or a step it runs in the job's allocation (``srun --jobid=12345 --overlap
    nvidia-smi``, which runs on the job's node, not where it is typed): its id."""
    if "--jobid" in command and (step := _JOB_STEP.search(command)) is not None:
        return step.group(1)
    if "slurm-" not in command:
        return None
    found = {m.group(1) for m in _JOB_OUTPUT.finditer(command)}
    return found.pop() if len(found) == 1 else None  # two jobs' files: no one node


def learn_nodes(command: str, output: str, nodes: dict[str, str | None]) -> None:
    """The node each job ran on, from what ``scontrol show job``, ``squeue`` or ``sacct`` printed,
    or the one node ``sbatch -w NODE`` asked for (its ``Submitted batch job N`` names the job)."""
    if "sbatch" in command and (submitted := _SUBMITTED.search(output)) is not None:
        asked = _SBATCH_NODE.search(command)
        nodes[submitted.group(1)] = one_node(asked.group(1)) if asked else None
    elif "scontrol" in command and "JobId=" in output:
        for record in re.split(r"\n\s*\n", output):
            job = _JOB_ID.search(record)
            if job is None:
                continue
            where = _BATCH_HOST.search(record) or _NODE_LIST.search(record)
            node = one_node(where.group(1)) if where else None
            nodes[job.group(1)] = node
            if (array := _ARRAY.search(record)) is not None:
                nodes[f"{array.group(1)}_{array.group(2)}"] = node
    elif "squeue" in command or "sacct" in command:
        _table_nodes(output, nodes)


def _table_nodes(output: str, nodes: dict[str, str | None]) -> None:
    """``squeue``'s ``JOBID ... NODELIST(REASON)`` and ``sacct``'s ``JobID ... NodeList`` columns,
    found by their headers (any ``-o``/``--format`` order); a pending job's ``(Resources)`` and a
    job on several nodes name no one node. ``sacct``'s ``12345.batch`` step is the job's."""
    columns: tuple[int, int] | None = None
    width = 0
    for line in output.splitlines():
        words = line.split()
        names = [w.upper() for w in words]
        if "JOBID" in names and any(n.startswith("NODELIST") for n in names):
            columns = names.index("JOBID"), next(i for i, n in enumerate(names) if n.startswith("NODELIST"))
            width = len(words)
            continue
        if columns is None or len(words) != width or set(line.strip()) <= {"-", " "}:
            continue
        job, node = words[columns[0]].split(".", 1)[0], words[columns[1]]
        if not re.fullmatch(r"\d+(?:_\d+)?", job):
            continue
        named = None if node.startswith("(") else one_node(node)
        if named is not None or job not in nodes:
            nodes[job] = named


def output_host(job: str, nodes: dict[str, str | None]) -> str | None:
    """The host of what the job's output file holds: its node, or none when the session never said
    (an array's tasks each have their own: ``12345_3`` is not ``12345``'s)."""
    return nodes.get(job)
