"""The FIDE (Dutch) Swiss system, Handbook C.04.3, 2026 edition (approved 28/10/2025, in force
from 1 February 2026; the "2025 rules").

Scores are kept in half points (``points2``: a win is 2, a draw 1) so that they stay exact.

Modules: :mod:`.cards` (the input and output records, colour preferences, cards from the
history), :mod:`.context` (one round's players by rank, compatibility, completion, colours, the
per-pair criteria), :mod:`.criteria` (the criteria vector as named records), :mod:`.bracket`
(a bracket's C4/C6/C7/C8 facts), :mod:`.bounds` (lower bounds of the vector),
:mod:`.transposition` (the order of exchanges, and whether S1 can still be transposed),
:mod:`.search` (the candidate search) and :mod:`.engine` (the round, bracket by bracket).

Definitions (Art. 1):

- Players are ranked by score, then TPN (1.2). A scoregroup is all players with one score; a
  bracket is a scoregroup's residents plus the players moved down (MDPs) from the bracket
  above (1.3). MDPs are paired with residents only; the residents left over form the
  remainder.
- Floats (1.4): of two players with different scores who meet, the higher ranked gets a
  downfloat and the other an upfloat; a PAB, or more than a loss's points without playing
  (a forfeit win), is a downfloat too.
- Colour preference (1.7): absolute (colour difference beyond +-1, or the same colour in the
  two latest played games), strong (difference +-1), mild (difference 0: alternate), none.
- Topscorers (1.8): more than 50% of the maximum score, when pairing the final round.

Criteria (Art. 2), in priority order:

- C1 no rematch; C2 no second PAB (nor a PAB after a win's points without playing);
  C3 non-topscorers with the same absolute colour preference do not meet.
- C4 completion: after every bracket the players not yet paired can still all be paired
  (one of them getting the PAB when the field is odd).
- C5 the PAB goes to the lowest score possible (computed once for the whole round and kept as
  a completion constraint from then on).
- C6 fewest downfloaters; C7 the scores of the downfloaters, in descending order, as low as
  possible (pair the highest MDPs); C8 the set of downfloaters lets the next bracket reach
  its best C6 and C7 (looking one bracket ahead only); C9 fewest unplayed games for the PAB
  assignee -- applied to a bracket that downfloats exactly one player who must then get the
  PAB (no player below the bracket could take it).
- C10/C11 topscorers or their opponents: colour difference beyond +-2 / the same colour three
  times running; C12 colour preferences not granted; C13 strong preferences not granted.
- C14/C16 resident downfloaters who had a downfloat one / two rounds before; C15/C17 opponents
  of higher-scored players (MDP opponents) who had an upfloat one / two rounds before;
  C18/C20 the scores, in descending order, of the downfloaters who had a downfloat one / two
  rounds before; C19/C21 the score differences, in descending order, of the pairs whose
  lower player had an upfloat one / two rounds before.

Candidates (Art. 3-4) are generated in the rules' order -- valid MDP sets (lexicographic on
BSNs), then the MDPs' partners (transpositions of S2: lexicographic on BSNs), then the
remainder's exchanges (fewest players, smallest BSN-sum difference, largest BSN moved down,
smallest BSN moved up; generated lazily, however many there are) and transpositions -- and the
pairing of a bracket is the first candidate in that order whose criteria vector (C8..C21,
compared lexicographically) is the best achievable. The search is a depth-first branch and
bound in generation order: it looks for the first candidate reaching a lower bound of the
vector (a candidate reaching it equals it, so a node is pruned as soon as any one criterion's
floor passes the bound's), and only if none exists does it search for the true optimum,
keeping the first candidate found with each better vector.

A bracket is first searched quickly against a cheap bound, which settles nearly all of them.
A bracket this quick search does not settle within its few thousand nodes is "hard": the bound
is then taken per possible floater (C8, C9, C14, C16, and the colour preferences it leaves to
pair), and the search checks at every level that the rest can still reach it -- counted by
colour class between S1 and S2, by a matching in which the players who may not float are
paired too (Mendelsohn-Dulmage), and, before the remainder's exchanges, over the remainder as
a whole -- so that it goes straight to the first candidate reaching the bound. The node budget
(``node_budget`` of :func:`pair_round`) is a guard: crossing it raises :class:`PairingTooHard`
(a :class:`PairingError`); no pairing is ever approximate (``SwissRound.approximate`` is kept
for compatibility and always False). ``SwissRound.hard_brackets`` and ``search_nodes`` say how
much work the round took.

Colours (Art. 5): grant both preferences; else the stronger (two absolutes: the wider colour
difference); else alternate from the latest round in which the two had different colours
(played games right-aligned, C.04.2 3.4); else the preference of the higher-ranked player
(score, then TPN); else (5.2.5) the higher-ranked player gets the initial colour if its TPN is
odd, the other colour if it is even. The initial colour is drawn by lot before round 1
(``initial_colour`` of :func:`pair_round`, WHITE by default; TRF ``XXC white1`` / ``black1``).

If even C3 cannot be met (tiny fields) it is relaxed and the result says so; if even rematches
cannot be avoided, :class:`PairingError` is raised. In the last bracket, if no pairing exists
with MDPs paired to residents only, the bracket is paired as one homogeneous group (MDPs may
then meet each other).
"""

from .. import PairingError
from .cards import (
    BLACK,
    WHITE,
    PairingTooHard,
    PlayedPair,
    RoundRecord,
    SwissPlayer,
    SwissRound,
    colour_preference,
    default_rounds,
    max_rounds,
    players_from_history,
)
from .engine import pair_round

__all__ = [
    "BLACK",
    "WHITE",
    "PairingError",
    "PairingTooHard",
    "PlayedPair",
    "RoundRecord",
    "SwissPlayer",
    "SwissRound",
    "colour_preference",
    "default_rounds",
    "max_rounds",
    "pair_round",
    "players_from_history",
]
