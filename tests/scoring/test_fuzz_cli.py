"""Fuzzing `python -m scoring` in-process: whatever the JSON or the card notation, the answer is exit
0, 1 or 2, one valid JSON document on standard output, and no exception.

Hypothesis builds tables that are almost right (a real table with one field replaced by anything
JSON can hold) as well as arbitrary JSON, and card text from the characters people type. Derandomized
with a modest number of examples, so the suite stays fast and gives the same result every run.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import cli
from tests.scoring.helpers import table
from tests.scoring.test_examples import SEED001_A, SEED001_B

FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW_FUZZ = settings(FUZZ, max_examples=40)

GOOD = table("taiwan", SEED001_A, SEED001_B)
CARD_CHARS = "AKQJT98765432shdcSHDC10♠♥♦♣♤♡♢♧BJRJ \t,;|\ufe0f\ud800\x00"

any_char = st.characters(codec=None, exclude_categories=())  # lone surrogates included
scalars = (st.none() | st.booleans() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30)
           | st.integers(min_value=0, max_value=10 ** 4000) | st.floats(allow_nan=False)
           | st.text(any_char, max_size=20))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(any_char, max_size=10), inner, max_size=5),
    max_leaves=20,
)
card_text = st.text(alphabet=CARD_CHARS, max_size=60)
option_names = st.sampled_from(["wheel", "foul", "tie", "scoop_factor", "royalties", "row_points",
                                "row_values", "specials", "jokers", "deck", "wild_rank", "extra_suit",
                                "banker", "banker_cap", "name", "max_players", "strict_order",
                                "specials_with_wilds", "flush_pairs_first", "home_run_factor"])


def run(argv: list[str], stdin: str = "") -> tuple[int, object]:
    """`cli.main(argv)` with `stdin`; the exit status and the parsed standard output.

    Standard output is strict UTF-8 over bytes, as a real one is (a `StringIO` would take a lone
    surrogate that the real stream refuses)."""
    raw, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict")
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    finally:
        sys.stdin = saved
    out.flush()
    text = raw.getvalue().decode("utf-8")
    assert code in (0, 1, 2), (code, text[:300])
    assert err.getvalue() == "", err.getvalue()[:300]
    return code, json.loads(text)


def dumps(doc: object) -> str:
    return json.dumps(doc, ensure_ascii=True)  # lone surrogates travel as \\ud800, as in a file


def answer_shape(code: int, answer: object) -> None:
    assert isinstance(answer, dict)
    if code == 2:
        assert answer["error"] == "invalid" and isinstance(answer["message"], str)
    elif code == 1:
        assert answer["error"] == "foul"
    else:
        assert "totals" in answer


@FUZZ
@given(json_values)
def test_any_json_document(doc: object) -> None:
    code, answer = run(["settle", "-"], dumps(doc))
    if isinstance(doc, list):
        assert code == 0 and isinstance(answer, list) and len(answer) == len(doc)
    else:
        answer_shape(code, answer)


@FUZZ
@given(st.sampled_from(["rules", "options", "banker", "players"]), json_values)
def test_a_table_with_one_field_replaced(key: str, value: object) -> None:
    code, answer = run(["settle", "--compact", "-"], dumps({**GOOD, key: value}))
    answer_shape(code, answer)


@FUZZ
@given(st.integers(0, 1), st.sampled_from(["name", "head", "middle", "tail", "declare", "seat"]),
       json_values | card_text)
def test_a_player_with_one_field_replaced(who: int, key: str, value: object) -> None:
    players = [dict(p) for p in GOOD["players"]]
    players[who][key] = value
    code, answer = run(["settle", "-"], dumps({**GOOD, "players": players}))
    answer_shape(code, answer)


@FUZZ
@given(st.dictionaries(option_names, json_values, max_size=3))
def test_options_of_any_shape(options: dict) -> None:
    code, answer = run(["settle", "-"], dumps({**GOOD, "options": options}))
    answer_shape(code, answer)


@FUZZ
@given(st.lists(card_text, min_size=3, max_size=3))
def test_rows_in_any_notation(rows: list[str]) -> None:
    players = [dict(GOOD["players"][0]), {**GOOD["players"][1], **dict(zip(("head", "middle", "tail"), rows,
                                                                          strict=True))}]
    code, answer = run(["settle", "-"], dumps({**GOOD, "players": players}))
    answer_shape(code, answer)


@FUZZ
@given(st.sampled_from(["scoop_factor", "foul_penalty", "banker_cap", "jokers"]), st.integers(1, 6000))
def test_option_numbers_of_any_length(option: str, digits: int) -> None:
    text = dumps({**GOOD, "options": {option: 0}}).replace(f'"{option}": 0', f'"{option}": {"7" * digits}')
    code, answer = run(["settle", "-"], text)
    answer_shape(code, answer)


@FUZZ
@given(st.text(any_char, max_size=200))
def test_any_text_on_standard_input(text: str) -> None:
    code, answer = run(["settle", "-"], text)
    assert code == 2 or isinstance(answer, list | dict)


@SLOW_FUZZ
@given(card_text, st.sampled_from(["taiwan", "luosong", "weighted", "shisanshui"]))
def test_arrange_any_notation(cards: str, rules: str) -> None:
    code, answer = run(["arrange", cards, "--rules", rules, "--top", "2", "--json"])
    assert code in (0, 2) and isinstance(answer, dict)
    assert ("arrangements" in answer) == (code == 0)


@SLOW_FUZZ
@given(st.lists(card_text, min_size=1, max_size=3), st.sampled_from(["taiwan", "shisanshui"]))
def test_check_any_notation(rows: list[str], rules: str) -> None:
    code, answer = run(["check", *rows, "--rules", rules, "--json"])
    assert isinstance(answer, dict)
    assert ("legal" in answer) == (code in (0, 1))


@SLOW_FUZZ
@given(st.permutations([f"{r}{s}" for r in "AKQJT98765432" for s in "shdc"]))
def test_arrange_and_check_real_hands(deck: list[str]) -> None:
    hand = deck[:13]
    code, answer = run(["arrange", " ".join(hand), "--top", "1", "--json"])
    assert code == 0 and len(answer["arrangements"]) == 1
    code, answer = run(["check", " ".join(hand[:3]), " ".join(hand[3:8]), " ".join(hand[8:]), "--json"])
    assert code in (0, 1) and answer["legal"] == (code == 0)
