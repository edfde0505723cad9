"""How many edits a player makes to turn a read table into the true one: what a misread costs at a
real table, where the product exists to spare the arithmetic and the arguing.

An edit is one of: a card moved to another row or seat (from where it was read, or from the cards
read outside every seat), a card renamed where its row holds a wrong one, a card added where its row
lacks it (its index hidden or unread), a card removed from a row it is not in. Cards read outside
every seat that are no card of the table cost nothing: the player leaves them there.
"""

from __future__ import annotations

from collections import Counter

from benchmarks.pipeline import ROWS


def corrections(truth: list[dict[str, Counter]], read: list[dict[str, Counter]],
                matched: list[int | None], outside: Counter | None = None) -> int:
    """The fewest edits that make the `read` seats hold the `truth` seats' rows.

    `truth` and `read`: each seat's rows (row name -> card counts); `matched[t]`: the read seat true
    seat `t` is compared with (None: none was read for it; a read seat no true seat is matched to
    holds only cards to move or remove). `outside`: the cards read in no seat.

    >>> t = [{"head": Counter(["As", "Ks", "Qs"]), "middle": Counter(), "tail": Counter()}]
    >>> r = [{"head": Counter(["As", "Kc"]), "middle": Counter(["Qs"]), "tail": Counter()}]
    >>> corrections(t, r, [0])  # Kc renamed Ks, Qs moved up a row
    2
    >>> corrections(t, [], [None], Counter(["As", "Jd"]))  # As moved in from outside; Ks, Qs added
    3
    """
    outside = Counter(outside or {})
    missing: dict[tuple[int, str], Counter] = {}
    extra: dict[tuple[int, str], Counter] = {}
    for t, j in enumerate(matched):
        for row in ROWS:
            got = read[j][row] if j is not None else Counter()
            missing[(t, row)] = truth[t][row] - got
            extra[(t, row)] = got - truth[t][row]
    seen = {j for j in matched if j is not None}
    for j, seat in enumerate(read):
        if j not in seen:
            for row in ROWS:
                extra[(-1 - j, row)] = Counter(seat[row])
    moves = 0
    wanted = sum(missing.values(), Counter())
    placed_wrong = sum(extra.values(), Counter()) + outside
    for card, n in wanted.items():
        take = min(n, placed_wrong[card])
        if not take:
            continue
        moves += take
        left = take
        for slot in extra:  # the wrongly placed copies move first, then the ones read outside
            k = min(left, extra[slot][card])
            extra[slot][card] -= k
            left -= k
        outside[card] -= min(left, outside[card])
        left = take
        for slot in missing:
            k = min(left, missing[slot][card])
            missing[slot][card] -= k
            left -= k
    edits = moves
    for slot, lack in missing.items():
        m, e = sum(lack.values()), sum(extra[slot].values())
        edits += max(m, e)  # renames where both, then adds or removals
    edits += sum(sum(c.values()) for slot, c in extra.items() if slot[0] < 0)
    return edits
