"""A Slurm batch job's output file (``slurm-12345.out``) is read on the login host, but what it
holds ran on the job's node. Its throughput, accept length and CUDA OOM were the login host's
(``login01``, no GPU there). They are now the node the session saw the job on (``squeue``,
``scontrol show job``'s BatchHost, ``sacct``), and no host when it never said; the command itself
still ran on the login host."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.slurm_jobs import job_output, learn_nodes
from tests.session.incident_story import _Writer

SID = "ab370000-0000-4000-8000-000000000003"
SQUEUE = ("             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"
          "             12345       gpu sglang-e    alice  R       5:02      1 gpu-node-07\n"
          "             12346       gpu sglang-e    alice PD       0:00      1 (Resources)\n"
          "             12347       gpu sglang-e    alice  R       1:00      2 gpu-node-[08-09]\n"
          "           12350_3       gpu    sweep    alice  R       0:40      1 gpu-node-11")
SCONTROL = ("JobId=12345 JobName=sglang-eagle3\n   UserId=alice(1000) GroupId=alice(1000) MCS_label=N/A\n"
            "   JobState=RUNNING Reason=None Dependency=(null)\n   NodeList=gpu-node-[07-08]\n"
            "   BatchHost=gpu-node-07\n   NumNodes=2 NumCPUs=32 NumTasks=2")
SACCT = ("JobID           NodeList \n------------ --------------- \n12345        gpu-node-07 \n"
         "12345.batch  gpu-node-07 \n12345.0      gpu-node-07 ")
DECODE = ("[2026-03-02 08:10:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: 1.02, "
          "accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0\n"
          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")


def _analyze(tmp_path: Path, asked: tuple[str, str] | None) -> dict:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 job on the cluster is slow")
    if asked is not None:
        w.bash(f"ssh login01 {asked[0]}", asked[1])
    w.bash("ssh login01 tail -n 2 ~/jobs/slurm-12345.out", DECODE)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return analyze_path(path).to_json()


def _hosts(doc: dict) -> tuple:
    return ([(c["inner"], c["host"]) for c in doc["commands"]][-1],
            [(m["name"], m["value"], m["host"]) for m in doc["metrics"]],
            [(e["kind"], e["host"]) for e in doc["errors"]])


def test_the_readings_of_a_job_squeue_placed_are_its_nodes(tmp_path: Path) -> None:
    assert _hosts(_analyze(tmp_path, ("squeue -u alice", SQUEUE))) == (
        ("tail -n 2 ~/jobs/slurm-12345.out", "login01"),
        [("throughput", 54.8, "gpu-node-07"), ("accept_length", 1.02, "gpu-node-07"),
         ("accept_rate", 0.51, "gpu-node-07")],
        [("cuda_oom", "gpu-node-07")])


def test_scontrol_names_the_batch_host_of_a_job_on_two_nodes(tmp_path: Path) -> None:
    command, found, errors = _hosts(_analyze(tmp_path, ("scontrol show job 12345", SCONTROL)))
    assert {m[2] for m in found} == {"gpu-node-07"} and errors == [("cuda_oom", "gpu-node-07")]


def test_readings_of_a_job_never_placed_have_no_host_not_the_login_hosts(tmp_path: Path) -> None:
    command, found, errors = _hosts(_analyze(tmp_path, None))
    assert command == ("tail -n 2 ~/jobs/slurm-12345.out", "login01")
    assert [m[2] for m in found] == [None, None, None] and errors == [("cuda_oom", None)]


def test_what_each_slurm_listing_says_of_each_job() -> None:
    nodes: dict = {}
    learn_nodes("squeue -u alice", SQUEUE, nodes)
    assert nodes == {"12345": "gpu-node-07", "12346": None, "12347": None, "12350_3": "gpu-node-11"}
    nodes = {}
    learn_nodes("sacct -j 12345 --format=JobID,NodeList", SACCT, nodes)
    assert nodes == {"12345": "gpu-node-07"}
    nodes = {}
    learn_nodes("scontrol show job 12345", SCONTROL, nodes)
    assert nodes == {"12345": "gpu-node-07"}


def test_which_commands_read_a_job_output_file() -> None:
    assert job_output("tail -n 50 ~/jobs/slurm-12345.out") == "12345"
    assert job_output("grep 'accept len' slurm-12350_3.out | tail -3") == "12350_3"
    assert job_output("cat slurm-1.out slurm-2.out") is None  # two jobs: no one node
    assert job_output("tail -n 50 myslurm-12345.out.bak") is None
    assert job_output("sbatch -o slurm-%j.out job.sh") is None


def test_sbatch_w_names_the_node_of_the_job_it_submitted(tmp_path: Path) -> None:
    command, found, errors = _hosts(_analyze(tmp_path, ("sbatch -w gpu-node-07 serve.sbatch", "Submitted batch job 12345")))
    assert {m[2] for m in found} == {"gpu-node-07"} and errors == [("cuda_oom", "gpu-node-07")]
    nodes: dict = {}
    learn_nodes("sbatch -p gpu --nodelist gpu01,gpu02 serve.sbatch", "Submitted batch job 12345\n", nodes)
    assert nodes == {"12345": None}  # two nodes: the batch host is not said


def test_a_step_run_in_the_jobs_allocation_shows_its_nodes_gpus(tmp_path: Path) -> None:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 job on the cluster is slow")
    w.bash("ssh login01 squeue -u alice", SQUEUE)
    w.bash("ssh login01 srun --jobid=12345 --overlap nvidia-smi", "Failed to initialize NVML: Driver/library version mismatch",
           exit_code=18)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    doc = analyze_path(path).to_json()
    # typed on the login host (a playbook runs it there), shown by the job's node
    assert [(c["host"], c["inner"]) for c in doc["commands"]][-1] == ("login01", "srun --jobid=12345 --overlap nvidia-smi")
    assert [(e["kind"], e["host"]) for e in doc["errors"]] == [("cuda_error", "gpu-node-07")]
    assert job_output("srun -w gpu07 --jobid=12345 nvidia-smi") is None  # -w: the command's host is gpu07
