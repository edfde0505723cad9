"""Hostile and broken input to `python -m scoring`: exit 0, 1 or 2, one JSON answer, never a traceback.

Each test is one way a tester broke the CLI: a lone surrogate in a name, a number of thousands of
digits, a closed pipe, `options` of the wrong type, a row of millions of tokens, and `arrange` /
`check` taking cards the deck does not hold.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from scoring import cli
from scoring.cli import settle_document
from scoring.output import MAX_MESSAGE
from tests.scoring.helpers import REPO, table
from tests.scoring.test_examples import SEED001_A, SEED001_B

GOOD = table("taiwan", SEED001_A, SEED001_B)
HAND = "As Kd Qh Js Td 9c 8h 7s 6d 5c 4h 3s 2d"


class Raw(io.StringIO):
    """Standard input carrying exact text, surrogate escapes and all."""


def settle(monkeypatch, capsys, text: str, *args: str) -> tuple[int, object]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = cli.main(["settle", *args, "-"])
    out = capsys.readouterr()
    assert out.err == ""
    return code, json.loads(out.out)


def command(capsys, *argv: str) -> tuple[int, object]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, json.loads(out.out)


# ---------------------------------------------------------------- names that cannot be written


def test_lone_surrogate_name_is_invalid_not_a_crash(monkeypatch, capsys) -> None:
    text = json.dumps(GOOD).replace('"name": "A"', '"name": "\\ud800"')
    code, out = settle(monkeypatch, capsys, text)
    assert code == 2 and out["error"] == "invalid"
    assert "player 1" in out["message"] and "surrogate" in out["message"]


def test_lone_surrogate_in_a_list_answers_every_table(monkeypatch, capsys) -> None:
    bad = json.dumps(GOOD).replace('"name": "A"', '"name": "\\ud800"')
    code, out = settle(monkeypatch, capsys, f"[{bad}, {json.dumps(GOOD)}]")
    assert code == 0
    assert out[0]["error"] == "invalid" and out[1]["totals"] == {"A": 1, "B": -1}


def test_surrogate_banker_and_overlong_name(monkeypatch, capsys) -> None:
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "banker": "\ud800"}))
    assert code == 2 and "'banker'" in out["message"]
    long = table("taiwan", {**SEED001_A, "name": "x" * 5000}, SEED001_B)
    code, out = settle(monkeypatch, capsys, json.dumps(long))
    assert code == 2 and "5,000 characters" in out["message"] and len(out["message"]) < 200


def test_output_stream_that_cannot_encode_gets_json_escapes(monkeypatch) -> None:
    buf = io.BytesIO()
    ascii_out = io.TextIOWrapper(buf, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(
        table("taiwan", {**SEED001_A, "name": "东"}, SEED001_B))))
    assert cli.main(["settle", "-"]) == 0
    ascii_out.flush()
    assert json.loads(buf.getvalue().decode("ascii"))["totals"] == {"东": 1, "B": -1}


# ---------------------------------------------------------------- numbers too big


def test_number_of_5000_digits_is_invalid(monkeypatch, capsys) -> None:
    code, out = settle(monkeypatch, capsys, '{"rules": "taiwan", "options": {"scoop_factor": '
                       + "9" * 5000 + "}}")
    assert code == 2 and "number too long" in out["message"]


@pytest.mark.parametrize("option", ["scoop_factor", "foul_penalty", "home_run_factor", "banker_cap"])
def test_huge_option_numbers_are_refused(monkeypatch, capsys, option: str) -> None:
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "options": {option: 10 ** 4000}}))
    assert code == 2 and f"option '{option}' must be at most" in out["message"]
    assert len(out["message"]) < 200


def test_huge_row_points_and_royalty_points(monkeypatch, capsys) -> None:
    for options in ({"row_points": [1, 10 ** 300, 1]},
                    {"royalties": [{"row": "any", "category": "quads", "points": 10 ** 100}]},
                    {"specials": {"dragon": 10 ** 50}}):
        code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "options": options}))
        assert code == 2 and "at most" in out["message"], options


# ---------------------------------------------------------------- options of the wrong shape


@pytest.mark.parametrize("options", [False, 0, "", [], "scoop", 3, [1]])
def test_options_that_are_not_an_object(monkeypatch, capsys, options) -> None:
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "options": options}))
    assert code == 2 and "'options' must be an object" in out["message"]


def test_null_options_are_no_options(monkeypatch, capsys) -> None:
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "options": None}))
    assert code == 0 and out["totals"] == {"A": 1, "B": -1}


@pytest.mark.parametrize(("options", "words"), [
    ({"royalties": [{"row": "head", "category": True, "points": 3}]}, "category must be a name"),
    ({"royalties": [{"row": "head", "category": [3], "points": 3}]}, "category must be a name"),
    ({"row_values": [{"row": "tail", "category": False, "points": 3}]}, "category must be a name"),
    ({"name": ["x"]}, "option 'name' must be text"),
    ({"banker": {"a": 1}}, "option 'banker' must be a player's name"),
    ({"deck": True}, "option 'deck' must be 52, 54 or 65"),
    ({"deck": 52.0}, "option 'deck' must be 52, 54 or 65"),
])
def test_option_of_the_wrong_shape_in_a_known_key(monkeypatch, capsys, options, words) -> None:
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, "options": options}))
    assert code == 2 and words in out["message"], out


# ---------------------------------------------------------------- oversized input


def test_row_of_millions_of_tokens_is_refused_early(monkeypatch, capsys) -> None:
    big = table("taiwan", SEED001_A, {**SEED001_B, "middle": "As " * 2_000_000})
    code, out = settle(monkeypatch, capsys, json.dumps(big))
    assert code == 2 and "player B" in out["message"] and "middle row" in out["message"]
    assert "far more than a row" in out["message"] and len(out["message"]) < 300


def test_row_given_as_a_huge_list_is_refused_early(monkeypatch, capsys) -> None:
    big = table("taiwan", SEED001_A, {**SEED001_B, "tail": ["As"] * 1_000_000})
    code, out = settle(monkeypatch, capsys, json.dumps(big))
    assert code == 2 and "more than 65 cards" in out["message"] and len(out["message"]) < 300


def test_long_token_is_quoted_by_its_start(monkeypatch, capsys) -> None:
    bad = table("taiwan", SEED001_A, {**SEED001_B, "head": ["Q" * 5000, "6d", "2h"]})
    code, out = settle(monkeypatch, capsys, json.dumps(bad))
    assert code == 2 and "unknown card 'QQQ" in out["message"] and len(out["message"]) < 400


def test_many_unknown_keys_are_counted_not_listed(monkeypatch, capsys) -> None:
    keys = {f"k{i}": 1 for i in range(100_000)}
    code, out = settle(monkeypatch, capsys, json.dumps({**GOOD, **keys}))
    assert code == 2 and "99,995 more" in out["message"] and len(out["message"]) < 300


def test_every_invalid_message_is_bounded() -> None:
    answer, code = settle_document({"rules": "x" * 50_000, "players": []})
    assert code == 2 and len(answer["message"]) <= MAX_MESSAGE


def test_input_over_the_limit_is_refused_before_parsing(monkeypatch, capsys) -> None:
    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 1000)
    code, out = settle(monkeypatch, capsys, json.dumps([GOOD] * 10))
    assert code == 2 and "too large" in out["message"]


def test_deeply_nested_json_is_invalid(monkeypatch, capsys) -> None:
    code, out = settle(monkeypatch, capsys, "[" * 100_000 + "]" * 100_000)
    assert code == 2 and out["error"] == "invalid"


# ---------------------------------------------------------------- a reader that stops reading


class ClosedPipe(io.StringIO):
    def write(self, s: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_closed_pipe_in_process_keeps_the_exit_status(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(GOOD)))
    assert cli.main(["settle", "-"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("{"))
    assert cli.main(["settle", "-"]) == 2


def test_closed_pipe_through_head_is_quiet(tmp_path) -> None:
    doc = tmp_path / "big.json"
    doc.write_text(json.dumps([GOOD] * 400), encoding="utf-8")
    cmd = f"{sys.executable} -m scoring settle {doc} | head -c 10"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout == "[\n  {\n    " and done.stderr == ""
    assert done.returncode == 0


# ---------------------------------------------------------------- arrange and check: the deck


@pytest.mark.parametrize(("cards", "rules", "words"), [
    ("As As Kd Qh Js Td 9c 8h 7s 6d 5c 4h 3s", "taiwan", "card As is seen 2 times but the 52-card deck"),
    (" ".join(["As"] * 13), "taiwan", "card As is seen 2 times"),
    (" ".join(["BJ"] * 13), "shisanshui", "card 1 holds a joker BJ, but this table plays without jokers"),
    ("BJ Kd Qh Js Td 9c 8h 7s 6d 5c 4h 3s 2d", "taiwan", "plays without jokers"),
])
def test_arrange_refuses_what_settle_refuses(capsys, cards: str, rules: str, words: str) -> None:
    code, out = command(capsys, "arrange", cards, "--rules", rules, "--json")
    assert code == 2 and out["error"] == "invalid" and words in out["message"]


def test_check_refuses_a_card_seen_twice(capsys) -> None:
    code, out = command(capsys, "check", "As As 6c", "Ks Kh 4d 4c 2s", "9s 9h 9d 3c 3h", "--json")
    assert code == 2 and out["error"] == "invalid"
    assert out["message"] == ("card As is seen 2 times but the 52-card deck holds it once: "
                              "the head row (card 1) and the head row (card 2)")


def test_check_refuses_a_joker_at_a_table_without(capsys) -> None:
    code, out = command(capsys, "check", "BJ 8d 6c | Ks Kh 4d 4c 2s | 9s 9h 9d 3c 3h", "--json")
    assert code == 2 and "the head row (card 1) holds a joker BJ" in out["message"]


def test_check_message_words_match_settle(capsys) -> None:
    """The same refusal in the same words: only the place differs (a table names the player)."""
    answer, _ = settle_document(table("taiwan", {**SEED001_A, "head": "As As 6c"}, SEED001_B))
    _, out = command(capsys, "check", "As As 6c", "Ks Kh 4d 4c 2s", "9s 9h 9d 3c 3h", "--json")
    assert answer["message"].split(":")[0] == out["message"].split(":")[0]


@pytest.mark.parametrize("flags", [["--top", "-1"], ["--top", "0"], ["--top", "1000000"],
                                   ["--opponents", "-2"], ["--opponents", "0"], ["--opponents", "9"]])
def test_arrange_refuses_counts_out_of_range(capsys, flags: list[str]) -> None:
    code, out = command(capsys, "arrange", HAND, *flags, "--json")
    assert code == 2 and out["error"] == "invalid" and flags[0] in out["message"]


def test_arrange_error_in_text_mode_goes_to_stderr(capsys) -> None:
    assert cli.main(["arrange", "As As", "--top", "2"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("error: ")


def test_standard_input_that_is_not_utf8(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe{"), encoding="latin-1"))
    assert cli.main(["settle", "-"]) == 2
    assert json.loads(capsys.readouterr().out)["message"] == "standard input is not UTF-8 text"


def test_text_output_on_an_ascii_terminal(monkeypatch) -> None:
    buf = io.BytesIO()
    out = io.TextIOWrapper(buf, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(["check", "Qs Qh 5s", "Jc 6d 2h 7c Qd", "8h 7d 6s 5h 4h"]) == 1
    out.flush()
    assert buf.getvalue().decode("ascii").startswith("\\u76f8\\u516c (foul): head > middle")
