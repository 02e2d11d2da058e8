"""The inner loops of the computer's Go: the light board, the playouts and the tree, as flat
arrays of integers and floats (no framework, no import of the project).

This source runs two ways: as it is, on Python lists (the pure path, always there), and
compiled by numba (``go_fast``, when numba imports), on numpy arrays. Both run the same
statements on the same random stream (a 32-bit xorshift kept in ``st``), so that at a fixed
budget of playouts they build the same tree and choose the same move. Only indexing, integer
and float arithmetic and ``math`` are used, nothing that differs between the two.

The board ``b`` (``board_len(w)`` integers, ``w`` the width with its one-point frame, ``n`` =
``w * w`` cells) holds regions of ``n``: colour (0 empty, 1 black, 2 white, 3 frame), chain
root, next stone of the circular chain list, pseudo-liberties (at the root), stones (at the
root), the list of empty points, each point's place in it, a stamp per point (sets without
allocation), a scratch list; then ``_META`` cells: the ko point, the number of empty points,
the current stamp.

The tree (``ti`` integers and ``tf`` floats, ``TI``/``TF`` per node): a node is a move with
its colour, the range of its children (first child, count; -1 when not expanded) and its real
visits; its floats are the games through it (``n``, virtual ones of the prior included), those
won by its colour (``w``), and the RAVE pair (``rn``, ``rw``). ``st`` holds the random state,
the playouts made, black's wins (in half points), the playout moves made, and the tree's used
length.
"""

from __future__ import annotations

import math

M32 = 0xFFFFFFFF
# offsets of ``st``
S_RNG, S_PLAYOUTS, S_BLACK2, S_MOVES, S_USED = 0, 1, 2, 3, 4
ST_LEN = 8
# the tree's fields
TI, TF = 5, 4
I_MOVE, I_COL, I_FIRST, I_COUNT, I_VISITS = 0, 1, 2, 3, 4
F_N, F_W, F_RN, F_RW = 0, 1, 2, 3
_META = 8

RAVE_EQ = 600.0
EXPLORE = 0.2
EXPAND_AFTER = 2


def board_len(w):
    return 9 * w * w + _META


# ---------------------------------------------------------------------------- random


def rand(st):
    x = st[S_RNG]
    x ^= (x << 13) & M32
    x ^= x >> 17
    x ^= (x << 5) & M32
    st[S_RNG] = x
    return x


def chance(st, k):
    """True with chance ``k`` / 1024."""
    return (rand(st) & 1023) < k


# ---------------------------------------------------------------------------- the board


def clear(b, w):
    n = w * w
    for q in range(n):
        y = q // w
        x = q - y * w
        inside = 0 < x < w - 1 and 0 < y < w - 1
        b[q] = 0 if inside else 3
        b[n + q] = q
        b[2 * n + q] = q
        b[3 * n + q] = 0
        b[4 * n + q] = 0
        b[6 * n + q] = -1
        b[7 * n + q] = 0
    k = 0
    for q in range(n):
        if b[q] == 0:
            b[5 * n + k] = q
            b[6 * n + q] = k
            k += 1
    b[8 * n] = -1
    b[8 * n + 1] = k
    b[8 * n + 2] = 0


def new_stamp(b, n):
    b[8 * n + 2] += 1
    return b[8 * n + 2]


def _mark_libs(b, w, g, stamp, k, limit, record):
    """Stamp the liberties of chain ``g`` not stamped yet, counting on from ``k`` (and writing
    them to the scratch list when ``record``); stops once the count passes ``limit``."""
    n = w * w
    s = g
    while True:
        for d in (-w, -1, 1, w):
            q = s + d
            if b[q] == 0 and b[7 * n + q] != stamp:
                b[7 * n + q] = stamp
                if record:
                    b[8 * n + _META + k] = q
                k += 1
        if k > limit:
            return k
        s = b[2 * n + s]
        if s == g:
            return k


def count_libs(b, w, g, limit):
    """The liberties of chain ``g`` (a root), counted up to ``limit`` + 1 (or a few more); the
    scratch list holds them."""
    return _mark_libs(b, w, g, new_stamp(b, w * w), 0, limit, True)


def lone_lib(b, w, g):
    """The last liberty of chain ``g`` when it has one only, else -1."""
    n = w * w
    if count_libs(b, w, g, 1) == 1:
        return b[8 * n + _META]
    return -1


def is_legal(b, w, p, c):
    n = w * w
    if b[p] != 0 or p == b[8 * n]:
        return False
    for d in (-w, -1, 1, w):
        if b[p + d] == 0:
            return True
    for d in (-w, -1, 1, w):
        q = p + d
        v = b[q]
        if v == 3:
            continue
        g = b[n + q]
        touching = 0
        for e in (-w, -1, 1, w):
            r = p + e
            if b[r] == v and b[n + r] == g:
                touching += 1
        if v == c:
            if b[3 * n + g] > touching:
                return True
        elif b[3 * n + g] == touching:
            return True  # it captures
    return False


def is_eye(b, w, p, c):
    """Whether ``p`` is an eye-like point of ``c``: ``c`` (or the frame) all around, and at
    most one (none on the edge) of the diagonal points the opponent's."""
    for d in (-w, -1, 1, w):
        v = b[p + d]
        if v != c and v != 3:
            return False
    bad = 0
    edge = 0
    o = 3 - c
    for d in (-w - 1, -w + 1, w - 1, w + 1):
        v = b[p + d]
        if v == o:
            bad += 1
        elif v == 3:
            edge = 1
    return bad + edge < 2


def _new_chain(b, w, p, i, v):
    """The chain of the ``i``-th neighbour of ``p`` when it is a stone ``v`` and none of the
    neighbours before it belongs to that chain (each chain around a point once), else -1."""
    n = w * w
    dirs = (-w, -1, 1, w)
    q = p + dirs[i]
    if b[q] != v:
        return -1
    g = b[n + q]
    for j in range(i):
        r = p + dirs[j]
        if b[r] == v and b[n + r] == g:
            return -1
    return g


def captures(b, w, p, c):
    """How many stones ``c`` playing the empty point ``p`` takes."""
    n = w * w
    o = 3 - c
    taken = 0
    for i in range(4):
        g = _new_chain(b, w, p, i, o)
        if g < 0:
            continue
        touching = 0
        for e in (-w, -1, 1, w):
            if b[p + e] == o and b[n + p + e] == g:
                touching += 1
        if b[3 * n + g] == touching:
            taken += b[4 * n + g]
    return taken


def after_libs(b, w, p, c):
    """The liberties (up to 3) of ``c``'s chain at ``p`` once played there, captures aside."""
    n = w * w
    stamp = new_stamp(b, n)
    b[7 * n + p] = stamp
    k = 0
    for d in (-w, -1, 1, w):
        q = p + d
        v = b[q]
        if v == 0:
            if b[7 * n + q] != stamp:
                b[7 * n + q] = stamp
                k += 1
        elif v == c:
            k = _mark_libs(b, w, b[n + q], stamp, k, 2, False)
            if k > 2:
                return k
    return k


def after_size(b, w, p, c):
    """The stones of ``c``'s chain at ``p`` once played there."""
    n = w * w
    size = 1
    for i in range(4):
        g = _new_chain(b, w, p, i, c)
        if g >= 0:
            size += b[4 * n + g]
    return size


def self_atari(b, w, p, c, big):
    """Whether ``c`` at ``p`` leaves its chain with one liberty and takes nothing: only for a
    chain of two stones or more unless ``big`` is 0."""
    if after_libs(b, w, p, c) >= 2:
        return False
    if after_size(b, w, p, c) <= big:
        return False
    return captures(b, w, p, c) == 0


def _remove(b, w, g):
    n = w * w
    s = g
    while True:
        b[s] = 0
        k = b[8 * n + 1]
        b[5 * n + k] = s
        b[6 * n + s] = k
        b[8 * n + 1] = k + 1
        s = b[2 * n + s]
        if s == g:
            break
    s = g
    while True:
        for d in (-w, -1, 1, w):
            v = b[s + d]
            if v == 1 or v == 2:
                b[3 * n + b[n + s + d]] += 1
        s2 = b[2 * n + s]
        b[2 * n + s] = s
        b[n + s] = s
        s = s2
        if s == g:
            break


def _merge(b, w, a, c):
    n = w * w
    if b[4 * n + a] < b[4 * n + c]:
        a, c = c, a
    s = c
    while True:
        b[n + s] = a
        s = b[2 * n + s]
        if s == c:
            break
    t = b[2 * n + a]
    b[2 * n + a] = b[2 * n + c]
    b[2 * n + c] = t
    b[3 * n + a] += b[3 * n + c]
    b[4 * n + a] += b[4 * n + c]
    return a


def play(b, w, p, c):
    """Put a stone of ``c`` on the empty point ``p`` (the move must be legal)."""
    n = w * w
    b[p] = c
    b[n + p] = p
    b[2 * n + p] = p
    b[4 * n + p] = 1
    own = 0
    for d in (-w, -1, 1, w):
        q = p + d
        v = b[q]
        if v == 0:
            own += 1
        elif v != 3:
            b[3 * n + b[n + q]] -= 1
    b[3 * n + p] = own
    # the point is no longer empty
    i = b[6 * n + p]
    k = b[8 * n + 1] - 1
    last = b[5 * n + k]
    b[5 * n + i] = last
    b[6 * n + last] = i
    b[6 * n + p] = -1
    b[8 * n + 1] = k
    o = 3 - c
    taken = 0
    taken_at = -1
    for d in (-w, -1, 1, w):
        q = p + d
        if b[q] == o and b[3 * n + b[n + q]] == 0:
            g = b[n + q]
            taken += b[4 * n + g]
            taken_at = g
            _remove(b, w, g)
    g = p
    for d in (-w, -1, 1, w):
        q = p + d
        if b[q] == c and b[n + q] != g:
            g = _merge(b, w, g, b[n + q])
    if taken == 1 and b[4 * n + g] == 1 and b[3 * n + g] == 1:
        b[8 * n] = taken_at
    else:
        b[8 * n] = -1


# ---------------------------------------------------------------------------- the playout policy


def _push_rescues(b, w, g, k):
    """Append to the scratch list, from place ``k``, the liberties of the opponent's chains in
    atari next to chain ``g``; the new length. (Uses the stamp of no set.)"""
    n = w * w
    o = 3 - b[g]
    s = g
    while True:
        for d in (-w, -1, 1, w):
            q = s + d
            if b[q] == o:
                lib = _lone_lib_keep(b, w, b[n + q], k)
                if lib >= 0:
                    b[8 * n + _META + k] = lib
                    k += 1
        s = b[2 * n + s]
        if s == g:
            return k


def _lone_lib_keep(b, w, g, k):
    """The last liberty of chain ``g`` (or -1), leaving the scratch list below ``k`` alone."""
    n = w * w
    lib = -1
    s = g
    while True:
        for d in (-w, -1, 1, w):
            q = s + d
            if b[q] == 0:
                if lib < 0:
                    lib = q
                elif q != lib:
                    return -1
        s = b[2 * n + s]
        if s == g:
            return lib


def _two_libs(b, w, g):
    """The liberties of chain ``g`` as ``first * n + second`` when it has exactly two, else
    -1, leaving the scratch list alone."""
    n = w * w
    l0 = -1
    l1 = -1
    s = g
    while True:
        for d in (-w, -1, 1, w):
            q = s + d
            if b[q] == 0 and q != l0 and q != l1:
                if l0 < 0:
                    l0 = q
                elif l1 < 0:
                    l1 = q
                else:
                    return -1
        s = b[2 * n + s]
        if s == g:
            break
    if l1 < 0:
        return -1
    return l0 * n + l1


def _kills(b, w, at, run, c):
    """Whether ``c`` at ``at``, a liberty of a chain of the opponent's with two (the other
    ``run``), takes it for sure: the stone is no self-atari, and running out at ``run`` would
    leave the chain one liberty at most and take nothing."""
    o = 3 - c
    if b[at] != 0 or after_libs(b, w, at, c) < 2:
        return False
    return after_libs(b, w, run, o) <= 2 and captures(b, w, run, o) == 0


def tactical(b, w, last, c, st):
    """A reply of ``c`` to the stone at ``last``: take a chain left in atari, or save one's
    own (by extending when that gives two liberties, or by taking a neighbour); else, with
    two liberties, take the stone just played when it cannot run (``_kills``) or run out
    with a chain of its own that could be taken so; -1 when there is none."""
    n = w * w
    if last < 0:
        return -1
    v = b[last]
    if v != 1 and v != 2:
        return -1
    o = 3 - c
    k = 0
    base = 8 * n + _META
    if v == o:
        lib = _lone_lib_keep(b, w, b[n + last], 0)
        if lib >= 0:
            b[base + k] = lib
            k += 1
    for i in range(4):
        g = _new_chain(b, w, last, i, c)
        if g < 0:
            continue
        lib = _lone_lib_keep(b, w, g, k)
        if lib < 0:
            continue
        k = _push_rescues(b, w, g, k)
        if after_libs(b, w, lib, c) >= 2 or captures(b, w, lib, c) > 0:
            b[base + k] = lib
            k += 1
    if k == 0:
        # two liberties: take the stone just played when it cannot run, or run out (to three
        # liberties or more) with a chain of its own next to it that could be taken so
        if v == o:
            two = _two_libs(b, w, b[n + last])
            if two >= 0:
                l0 = two // n
                l1 = two - l0 * n
                if _kills(b, w, l0, l1, c):
                    b[base + k] = l0
                    k += 1
                if _kills(b, w, l1, l0, c):
                    b[base + k] = l1
                    k += 1
        for i in range(4):
            g = _new_chain(b, w, last, i, c)
            if g < 0:
                continue
            two = _two_libs(b, w, g)
            if two < 0:
                continue
            l0 = two // n
            l1 = two - l0 * n
            if _kills(b, w, l0, l1, o) or _kills(b, w, l1, l0, o):
                if after_libs(b, w, l0, c) > 2:
                    b[base + k] = l0
                    k += 1
                if after_libs(b, w, l1, c) > 2:
                    b[base + k] = l1
                    k += 1
    # keep the legal ones
    m = 0
    for i in range(k):
        p = b[base + i]
        if is_legal(b, w, p, c):
            b[base + m] = p
            m += 1
    if m == 0:
        return -1
    return b[base + rand(st) % m]


def _around(w, i):
    """The ``i``-th of the 8 steps to the points around a point."""
    if i < 4:
        return (-w, -1, 1, w)[i]
    return (-w - 1, -w + 1, w - 1, w + 1)[i - 4]


def shape(b, w, p, c):
    """How good a shape the empty point ``p`` is for ``c`` next to a fight (0: none): 3 to
    cut two chains of one colour that touch ``p`` at a right angle, their diagonal point held
    by the other colour (a cut, or its mend), 2 to block a stone of the opponent's that
    touches both ``p`` and a stone of its own diagonally (a hane or a block), 1 for any other
    point touching a stone of the opponent's."""
    n = w * w
    o = 3 - c
    best = 0
    for i in range(4):
        d1 = (-w, 1, w, -1)[i]
        d2 = (1, w, -1, -w)[i]
        a = b[p + d1]
        e = b[p + d2]
        if a == e and (a == 1 or a == 2) and b[n + p + d1] != b[n + p + d2]:
            if b[p + d1 + d2] == 3 - a:
                return 3
    for i in range(4):
        d = (-w, -1, 1, w)[i]
        if b[p + d] != o:
            continue
        best = 1
        side = -1 if d == -w or d == w else -w
        if b[p + d + side] == c or b[p + d - side] == c:
            return 2
    return best


def local_move(b, w, last, c, st, least):
    """A random legal move of ``c`` among the 8 points around ``last`` with the best shape
    (``shape``, at least ``least``) that fills no eye of its own and puts no chain of its own
    in atari; -1 if none."""
    n = w * w
    base = 8 * n + _META
    k = 0
    top = least
    for i in range(8):
        p = last + _around(w, i)
        if b[p] != 0:
            continue
        s = shape(b, w, p, c)
        if s < top or not is_legal(b, w, p, c) or is_eye(b, w, p, c):
            continue
        if self_atari(b, w, p, c, 0):
            continue
        if s > top:
            top = s
            k = 0
        b[base + k] = p
        k += 1
    if k == 0:
        return -1
    return b[base + rand(st) % k]


def random_move(b, w, c, st):
    """A random legal move of ``c`` that fills no eye of its own and seldom puts its stones in
    atari; -1 (a pass) when there is none."""
    n = w * w
    count = b[8 * n + 1]
    if count == 0:
        return -1
    start = rand(st) % count
    for k in range(count):
        p = b[5 * n + (start + k) % count]
        if not is_legal(b, w, p, c) or is_eye(b, w, p, c):
            continue
        space = 0
        for d in (-w, -1, 1, w):
            if b[p + d] == 0:
                space += 1
        if space < 2 and chance(st, 940):
            if self_atari(b, w, p, c, 1 if chance(st, 512) else 0):
                continue
        return p
    return -1


def area(b, w, komi2, owned):
    """Twice (black minus white) minus twice the komi, with each empty point going to the colour
    all around it (the end of a playout: eyes and seki points); each point's owner is added to
    ``owned`` (+1 black, -1 white)."""
    n = w * w
    diff = -komi2
    for q in range(n):
        v = b[q]
        if v == 0:
            seen = 0
            for d in (-w, -1, 1, w):
                u = b[q + d]
                if u == 1 or u == 2:
                    seen |= u
            v = seen
        if v == 1:
            diff += 2
            owned[q] += 1
        elif v == 2:
            diff -= 2
            owned[q] -= 1
    return diff


def playout(b, w, c, last, st, rec, nrec, max_moves, komi2, owned):
    """Play ``b`` out with ``c`` to move; appends each move to ``rec`` (``point * 4 + colour``)
    from ``nrec``; returns the new length. Counts the playout, its moves, black's result in
    ``st`` and the owners in ``owned``."""
    n = w * w
    passes = 0
    moves = 0
    for _ in range(max_moves):
        p = -1
        if last >= 0 and chance(st, 922):
            p = tactical(b, w, last, c, st)
            if p < 0:
                p = local_move(b, w, last, c, st, 2)
            if p < 0 and chance(st, 512):
                p = local_move(b, w, last, c, st, 0)
        if p < 0:
            p = random_move(b, w, c, st)
        if p < 0:
            passes += 1
            if passes == 2:
                break
            b[8 * n] = -1
        else:
            passes = 0
            play(b, w, p, c)
            rec[nrec] = p * 4 + c
            nrec += 1
            moves += 1
        last = p
        c = 3 - c
    diff = area(b, w, komi2, owned)
    st[S_PLAYOUTS] += 1
    st[S_MOVES] += moves + 1
    if diff > 0:
        st[S_BLACK2] += 2
    elif diff == 0:
        st[S_BLACK2] += 1
    return nrec


# ---------------------------------------------------------------------------- the tree


def new_node(ti, tf, st, move, c, n0, w0):
    i = st[S_USED]
    st[S_USED] = i + 1
    ti[i * TI + I_MOVE] = move
    ti[i * TI + I_COL] = c
    ti[i * TI + I_FIRST] = -1
    ti[i * TI + I_COUNT] = 0
    ti[i * TI + I_VISITS] = 0
    tf[i * TF + F_N] = n0
    tf[i * TF + F_W] = w0
    tf[i * TF + F_RN] = 0.0
    tf[i * TF + F_RW] = 0.0
    return i


def expand(b, w, ti, tf, st, cap, node, c, last, line, near, allowed, bonus):
    """Give ``node`` its children, the moves of ``c`` with their priors (virtual games): more
    won for taking a chain in atari, saving one's own, an atari, a move near the last one or
    on the third and fourth lines, a cut or its mend (``shape``), a hane near the last move; fewer for self-atari and the first line far from stones.
    ``allowed`` (0/1 per point, or of length 0) filters the moves; nothing when the tree is
    full."""
    n = w * w
    for q in range(n):
        bonus[q] = 0.0
    for q in range(n):
        v = b[q]
        if (v != 1 and v != 2) or b[n + q] != q:
            continue
        k = count_libs(b, w, q, 2)
        if k > 2:
            continue
        size = b[4 * n + q]
        base = 8 * n + _META
        if k == 1:
            lib = b[base]
            if v != c:
                bonus[lib] += 6.0 + 3.0 * size
            else:
                if after_libs(b, w, lib, c) >= 2:
                    bonus[lib] += 5.0 + 3.0 * size
                m = _push_rescues(b, w, q, 0)
                for i in range(m):
                    bonus[b[base + i]] += 5.0 + 3.0 * size
        elif v != c:
            l0 = b[base]
            l1 = b[base + 1]
            bonus[l0] += 1.5
            bonus[l1] += 1.5
    count = 0
    for k in range(b[8 * n + 1]):
        q = b[5 * n + k]
        if len(allowed) > 0 and allowed[q] == 0:
            continue
        if is_legal(b, w, q, c) and not is_eye(b, w, q, c):
            count += 1
    if st[S_USED] + count > cap:
        return
    first = st[S_USED]
    for k in range(b[8 * n + 1]):
        q = b[5 * n + k]
        if len(allowed) > 0 and allowed[q] == 0:
            continue
        if not is_legal(b, w, q, c) or is_eye(b, w, q, c):
            continue
        n0 = 10.0
        w0 = 5.0
        extra = bonus[q]
        n0 += extra
        w0 += extra
        crowd = False
        for j in range(12):
            r = near[q * 12 + j]
            if r >= 0 and (b[r] == 1 or b[r] == 2):
                crowd = True
        ln = line[q]
        if not crowd:
            if ln == 1:
                n0 += 6.0
            elif ln == 2:
                n0 += 2.0
            elif ln == 3 or ln == 4:
                n0 += 2.0
                w0 += 2.0
        close = False
        if last >= 0:
            for j in range(12):
                if near[last * 12 + j] == q:
                    close = True
                    n0 += 2.0
                    w0 += 2.0
        form = shape(b, w, q, c)
        if form == 3 or (form == 2 and close):
            n0 += 2.0 * form
            w0 += 2.0 * form
        space = 0
        for d in (-w, -1, 1, w):
            if b[q + d] == 0:
                space += 1
        if space < 2 and extra == 0.0:
            if after_libs(b, w, q, c) < 2 and captures(b, w, q, c) == 0:
                n0 += 4.0 + 4.0 * after_size(b, w, q, c)
        new_node(ti, tf, st, q, c, n0, w0)
    ti[node * TI + I_FIRST] = first
    ti[node * TI + I_COUNT] = count


def select(ti, tf, node):
    first = ti[node * TI + I_FIRST]
    count = ti[node * TI + I_COUNT]
    log_n = math.log(ti[node * TI + I_VISITS] + 1.0)
    best = first
    best_score = -1.0
    for ch in range(first, first + count):
        nn = tf[ch * TF + F_N]
        rn = tf[ch * TF + F_RN]
        value = tf[ch * TF + F_W] / nn
        if rn > 0.0:
            beta = rn / (rn + nn + rn * nn / RAVE_EQ)
            value = (1.0 - beta) * value + beta * tf[ch * TF + F_RW] / rn
        score = value + EXPLORE * math.sqrt(log_n / (ti[ch * TI + I_VISITS] + 1.0))
        if score > best_score:
            best_score = score
            best = ch
    return best


def simulate(
    base, b, w, ti, tf, st, cap, root, me, last, line, near, bonus, rec, path, first, owned,
    max_moves, komi2,
):  # fmt: skip
    """One game through the tree from ``root`` (``base`` is the root's board, ``b`` a board to
    play on): down the tree by UCT with RAVE, one expansion, a playout, and the results back
    up (real and all-moves-as-first)."""
    n = w * w
    for i in range(len(base)):
        b[i] = base[i]
    node = root
    path[0] = root
    plen = 1
    c = me
    nrec = 0
    while ti[node * TI + I_FIRST] >= 0 and ti[node * TI + I_COUNT] > 0 and plen < len(path):
        node = select(ti, tf, node)
        p = ti[node * TI + I_MOVE]
        play(b, w, p, c)
        rec[nrec] = p * 4 + c
        nrec += 1
        last = p
        path[plen] = node
        plen += 1
        c = 3 - c
        if ti[node * TI + I_FIRST] < 0:
            if ti[node * TI + I_VISITS] >= EXPAND_AFTER:
                expand(b, w, ti, tf, st, cap, node, c, last, line, near, rec[:0], bonus)
            break
    depth = nrec
    black2 = st[S_BLACK2]
    nrec = playout(b, w, c, last, st, rec, nrec, max_moves, komi2, owned)
    black = (st[S_BLACK2] - black2) * 0.5
    # RAVE: who played each point first from each node of the path on
    for q in range(n):
        first[q] = 0
    for k in range(nrec - 1, depth - 1, -1):
        first[rec[k] >> 2] = rec[k] & 3
    for i in range(plen - 1, -1, -1):
        nd = path[i]
        if i < depth:
            first[rec[i] >> 2] = rec[i] & 3
        ti[nd * TI + I_VISITS] += 1
        if i > 0:
            tf[nd * TF + F_N] += 1.0
            tf[nd * TF + F_W] += black if ti[nd * TI + I_COL] == 1 else 1.0 - black
        fc = ti[nd * TI + I_FIRST]
        if fc >= 0:
            for ch in range(fc, fc + ti[nd * TI + I_COUNT]):
                if first[ti[ch * TI + I_MOVE]] == ti[ch * TI + I_COL]:
                    tf[ch * TF + F_RN] += 1.0
                    tf[ch * TF + F_RW] += black if ti[ch * TI + I_COL] == 1 else 1.0 - black


def run(
    base, b, w, ti, tf, st, cap, root, me, last, line, near, bonus, rec, path, first, owned,
    max_moves, komi2, playouts, moves,
):  # fmt: skip
    """``playouts`` games through the tree, or fewer once ``moves`` playout moves are made."""
    stop = st[S_MOVES] + moves
    for _ in range(playouts):
        simulate(
            base, b, w, ti, tf, st, cap, root, me, last, line, near, bonus, rec, path, first,
            owned, max_moves, komi2,
        )  # fmt: skip
        if st[S_MOVES] >= stop:
            return


def sample(base, b, w, st, c, rec, owned, max_moves, komi2, playouts, moves, alternate):
    """Playouts without a tree from ``base`` (for the ownership), the side to start
    alternating when ``alternate``."""
    stop = st[S_MOVES] + moves
    for _ in range(playouts):
        for i in range(len(base)):
            b[i] = base[i]
        playout(b, w, c, -1, st, rec, 0, max_moves, komi2, owned)
        if alternate:
            c = 3 - c
        if st[S_MOVES] >= stop:
            return
