"""A run record holding a byte of output that is no UTF-8 (a surrogate, PEP 383) is written
as fast as one that does not, with the same bytes: it was dumped, walked whole, validated whole
and dumped again at every write under the engine's lock (0.57 s against 0.075 s for a record
of 200 hosts x 30 steps)."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from spec_debug.record import READING, Finding, HostRecord, PlaybookRef, RunRecord, StepRecord, carriable


def _record(hosts: int = 3, steps: int = 4) -> RunRecord:
    record = RunRecord(
        run_id="r1",
        playbook=PlaybookRef(name="p", path="/pb/caf\udce9.yaml", sha256="0" * 64),
        started_at="2026-12-07T02:00:00Z",
        vars={"model": "/models/caf\udce9", "list": ("a\udcff", 2, {"k\udce9": ["x", "y\udc80"]}), "n": 1.5},
        command_line=["spec-debug", "run", "--var", "model=/models/caf\udce9"],
    )
    for h in range(hosts):
        name = f"gpu{h:02d}"
        record.hosts.append(HostRecord(name=name, status="passed", vars={"dir": "r\udce9sultats" if h == 1 else "ok"}))
        for s in range(steps):
            out = f"line {s} \u00e9t\u00e9 ok\n" * 3 + ("caf\udce9 \udcff\n" if (h, s) == (hosts - 1, steps - 1) else "")
            record.steps.append(StepRecord(
                id=f"s{s}", host=name, status="passed", exit_code=0, duration_s=0.25, stdout=out,
                stderr="err \udcfe\n" if (h, s) == (0, 1) else "", facts={"loss": float("inf"), "t": ("a", "b")},
                command="ls", started_at="t0", finished_at="t1",
            ))
    record.findings.append(Finding(code="SD-X", severity="error", title="t", evidence=["tail: caf\udce9"], facts={"nan": float("nan")}))
    record.facts["gpu00"] = {"accept": 2.5, "name\udce9": "v\udce9"}
    return record


def _before(record: RunRecord) -> str:
    """The bytes the record was written as until now (record._RecordModel.model_dump_json)."""
    shown = type(record).model_validate(carriable(record.model_dump()), context=READING)
    return BaseModel.model_dump_json(shown, indent=2)


def test_written_bytes_are_unchanged() -> None:
    record = _record()
    expected = _before(record)
    assert record.model_dump_json(indent=2) == expected
    assert record.model_dump_json(indent=2) == expected  # again, the record now known to hold one
    data = json.loads(expected)
    assert data["steps"][-1]["stdout"].endswith("caf\\xe9 \\xff\n")
    assert data["steps"][1]["stderr"] == "err \\xfe\n"
    assert data["vars"]["list"] == ["a\\xff", 2, {"k\\xe9": ["x", "y\\x80"]}]
    assert data["facts"]["gpu00"] == {"accept": 2.5, "name\\xe9": "v\\xe9"}
    assert data["steps"][0]["facts"] == {"loss": "Infinity", "t": ["a", "b"]}


def test_extra_fields_of_a_newer_record_keep_their_bytes() -> None:
    record = _record(1, 1)
    step = StepRecord.model_validate({**record.steps[0].model_dump(), "retry_policy": {"why\udce9": ["x\udce9"]}}, context=READING)
    record.steps[0] = step
    assert record.model_dump_json(indent=2) == _before(record)
    assert json.loads(record.model_dump_json())["steps"][0]["retry_policy"] == {"why\\xe9": ["x\\xe9"]}


def test_the_record_in_memory_keeps_its_bytes() -> None:
    record = _record()
    record.model_dump_json(indent=2)
    assert record.steps[-1].stdout.endswith("caf\udce9 \udcff\n")  # a later step's template sends the byte back
    assert record.vars["list"][2] == {"k\udce9": ["x", "y\udc80"]}
    assert record.playbook.path == "/pb/caf\udce9.yaml"


def test_no_whole_validation_and_one_dump_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record(hosts=20, steps=10)
    expected = _before(record)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole record was validated again to be written")

    monkeypatch.setattr(RunRecord, "model_validate", classmethod(refuse))
    monkeypatch.setattr(StepRecord, "model_validate", classmethod(refuse))
    dumps: list[str] = []
    real = BaseModel.model_dump_json

    def counted(self: BaseModel, **kwargs: object) -> str:
        dumps.append(type(self).__name__)
        return real(self, **kwargs)

    monkeypatch.setattr(BaseModel, "model_dump_json", counted)
    assert record.model_dump_json(indent=2) == expected
    dumps.clear()
    record.steps.append(StepRecord(id="late", host="gpu00", status="passed", stdout="fine\n"))
    written = record.model_dump_json(indent=2)
    assert json.loads(written)["steps"][-1]["stdout"] == "fine\n"
    assert dumps == ["RunRecord"]  # not a failed attempt first, then a second dump


def test_a_record_without_surrogates_is_written_once(monkeypatch: pytest.MonkeyPatch) -> None:
    record = RunRecord(run_id="r", playbook=PlaybookRef(name="p", path="p", sha256="0"), started_at="t")
    record.steps.append(StepRecord(id="a", host="h", status="passed", stdout="\u00e9t\u00e9\n"))
    dumps: list[str] = []
    real = BaseModel.model_dump_json

    def counted(self: BaseModel, **kwargs: object) -> str:
        dumps.append(type(self).__name__)
        return real(self, **kwargs)

    monkeypatch.setattr(BaseModel, "model_dump_json", counted)
    assert json.loads(record.model_dump_json(indent=2))["steps"][0]["stdout"] == "\u00e9t\u00e9\n"
    assert dumps == ["RunRecord"]
