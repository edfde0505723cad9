"""`python -m scoring settle FILE|-`: the JSON contract, exit codes, and never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import cli
from tests.scoring.helpers import REPO, player, table
from tests.scoring.test_examples import SEED001_A, SEED001_B

GOOD = table("taiwan", SEED001_A, SEED001_B)
FOULED = table("luosong", SEED001_A, player("B", "Qs Qh 5s", "Jc 6d 2h 7c Qd", "8h 7d 6s 5h 4h"))


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str,
        *args: str) -> tuple[int, object]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(["settle", *args, "-"])
    out = capsys.readouterr()
    assert out.err == ""
    return code, json.loads(out.out)


def test_settle_one_table(monkeypatch, capsys) -> None:
    code, out = run(monkeypatch, capsys, json.dumps(GOOD))
    assert code == 0
    assert out["totals"] == {"A": 1, "B": -1} and out["fouls"] == []
    (pair,) = out["pairs"]
    assert pair["players"] == ["A", "B"] and pair["net"] == {"A": 1, "B": -1}
    assert [(i["kind"], i["row"], i["winner"], i["points"]) for i in pair["items"]] == [
        ("row", "head", "A", 1), ("row", "middle", "B", 1), ("row", "tail", "A", 1)]


def test_settle_rejected_table_exits_non_zero(monkeypatch, capsys) -> None:
    code, out = run(monkeypatch, capsys, json.dumps(FOULED))
    assert code == 1
    assert out["error"] == "foul" and out["fouls"] == {"B": ["head > middle"]}
    assert set(out["suggestions"]["B"]) == {"head", "middle", "tail"}


@pytest.mark.parametrize("text", ["{", "", "[1, 2", "{'rules': 'taiwan'}", "nul"])
def test_malformed_json(monkeypatch, capsys, text: str) -> None:
    code, out = run(monkeypatch, capsys, text)
    assert code == 2
    assert out["error"] == "invalid" and "malformed JSON" in out["message"]


def test_invalid_table_exits_non_zero(monkeypatch, capsys) -> None:
    bad = table("taiwan", SEED001_A, {**SEED001_B, "middle": "Qs Qh Qd 7c Xx"})
    code, out = run(monkeypatch, capsys, json.dumps(bad))
    assert code == 2
    assert out == {"error": "invalid", "message": out["message"]}
    assert "'Xx'" in out["message"] and "player B" in out["message"] and "middle" in out["message"]


def test_a_list_reports_each_table_in_its_place_and_exits_zero(monkeypatch, capsys) -> None:
    doc = [GOOD, FOULED, {"rules": "nope", "players": []}, "not a table"]
    code, out = run(monkeypatch, capsys, json.dumps(doc))
    assert code == 0
    assert isinstance(out, list) and len(out) == 4
    assert out[0]["totals"] == {"A": 1, "B": -1}
    assert out[1]["error"] == "foul"
    assert out[2]["error"] == "invalid" and "nope" in out[2]["message"]
    assert out[3]["error"] == "invalid"


def test_settle_reads_a_file_and_rows_as_lists(tmp_path: Path, capsys) -> None:
    lists = {**GOOD, "players": [{**p, "head": p["head"].split()} for p in GOOD["players"]]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(lists), encoding="utf-8")
    assert cli.main(["settle", "--compact", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out)["totals"] == {"A": 1, "B": -1}


def test_missing_file_is_invalid_not_a_traceback(tmp_path: Path, capsys) -> None:
    assert cli.main(["settle", str(tmp_path / "none.json")]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"] == "invalid" and "cannot read" in out["message"]


def test_bundled_example_settles() -> None:
    example = REPO / "examples" / "table_taiwan.json"
    doc = json.loads(example.read_text(encoding="utf-8"))
    answer, code = cli.settle_document(doc)
    assert code == 0 and sum(answer["totals"].values()) == 0


def test_python_dash_m_scoring_end_to_end() -> None:
    proc = subprocess.run([sys.executable, "-m", "scoring", "settle", "-"], input=json.dumps(GOOD),
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"] == {"A": 1, "B": -1}
    proc = subprocess.run([sys.executable, "-m", "scoring", "settle", "-"], input="{oops",
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["error"] == "invalid"


def test_subcommands_are_registered_by_hooks() -> None:
    parser = cli.build_parser()
    names = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "settle" in names
