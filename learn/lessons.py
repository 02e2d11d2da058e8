"""The lessons of the Learn section: data files read into values, each step's position built
on the rules engine and each answer judged by playing it there (pure: no Django).

A lesson is a JSON file of ``learn/lessons/`` (docs/learn.md describes the format). A step is a
position (a setup of stones, or moves from the start, or both), a prompt, the expected answers
and what a right answer must do: win, capture, poof, be refused with a given code, hand a
decision's colour to a seat, start Go's marking, mark the dead group. ``judge`` plays the
learner's move on the step's position with ``games.engine`` (the referee of real games) and
checks each of those; a move is right when it does everything the step asks, whatever its name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games.engine import Game, GoGame, IllegalMove, Position, Variant, get_variant, new_game

LESSONS_DIR = Path(__file__).resolve().parent / "lessons"

#: The actions a step asks for: a move (stones, a pass or a decision) or marking a dead group.
PLAY = "play"
MARK = "mark"


@dataclass(frozen=True, slots=True)
class Expect:
    """What a right answer does. Every field left None is not asked."""

    wins: bool | None = None  # the mover wins at once (True) / the game goes on (False)
    by: str | None = None  # how it wins: five, six, captures, score
    captured: int | None = None  # stones the move captures
    poofed: int | None = None  # stones of the mover's the move poofs
    refused: str | None = None  # the engine refuses it with this code
    seat_colour: tuple[tuple[int, int], ...] = ()  # (seat, colour) after a decision
    to_move_seat: int | None = None  # the seat to act after the move
    phase: str | None = None  # Go's phase after the move (marking)
    dead: frozenset[str] | None = None  # the stones a marking takes as dead
    winner_colour: int | None = None  # the colour the count makes winner, after a marking

    @classmethod
    def read(cls, data: dict[str, Any]) -> Expect:
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown expectations: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "seat_colour" in values:
            values["seat_colour"] = tuple(
                sorted((int(seat), int(colour)) for seat, colour in values["seat_colour"].items())
            )
        if "dead" in values:
            values["dead"] = frozenset(p.upper() for p in values["dead"])
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Setup:
    """Stones put on the board as they are, with the colour to move and the captures so far."""

    stones: tuple[tuple[int, str], ...]
    to_move: int = 1
    captures: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    prompt: str
    variant: Variant
    right: str
    wrong: str
    answers: tuple[str, ...]
    wrong_examples: tuple[str, ...]
    expect: Expect
    setup: Setup | None = None
    moves: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    action: str = PLAY
    hints: tuple[tuple[str, str], ...] = ()

    def position(self) -> Position:
        """The step's position, built anew (the caller plays on it)."""
        options = dict(self.options)
        start = new_game(self.variant, **options)
        if self.setup is None:
            position = start
        else:
            stones = dict(self.setup.stones)
            captures = dict(self.setup.captures)
            if start.marks_dead:  # Go: the setup is the first position of the game's history
                position = GoGame.from_position(
                    self.variant.size, stones, to_move=self.setup.to_move, captures=captures
                )
            else:
                position = Game.from_position(
                    self.variant,
                    stones=stones,
                    to_move=self.setup.to_move,
                    captures=captures,
                    **options,
                )
        for move in position.without_automatic(self.moves) if self.setup is None else self.moves:
            position.act(move)
        return position

    def hint(self, move: str) -> str | None:
        return dict(self.hints).get(normalise(move))


@dataclass(frozen=True, slots=True)
class Lesson:
    slug: str
    title: str
    summary: str
    variant: Variant
    steps: tuple[Step, ...]

    def step(self, number: int) -> Step | None:
        return self.steps[number - 1] if 1 <= number <= len(self.steps) else None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one answer: right or wrong, the sentence to show, the engine's own
    refusal when the move was refused, and the board after it (top row first) when it was
    played."""

    right: bool
    feedback: str
    refusal_code: str | None = None
    refusal: str | None = None
    rows: tuple[str, ...] = ()
    failed: tuple[str, ...] = field(default=())


def normalise(move: str) -> str:
    """A move as the lessons write it: points and PASS upper case, decisions lower case, one
    space between a turn's stones."""
    tokens = move.split()
    if len(tokens) == 1 and tokens[0].lower() in _DECISION_WORDS:
        return tokens[0].lower()
    return " ".join(t.upper() for t in tokens)


_DECISION_WORDS = frozenset({"keep", "swap", "place_two", "colour1", "colour2", "accept"})


def _step(number: int, data: dict[str, Any], lesson_variant: Variant) -> Step:
    variant = get_variant(data.get("game", lesson_variant.slug))
    setup = None
    if "setup" in data:
        raw = data["setup"]
        setup = Setup(
            stones=tuple((int(c), points) for c, points in raw.get("stones", {}).items()),
            to_move=int(raw.get("to_move", 1)),
            captures=tuple((int(c), int(n)) for c, n in raw.get("captures", {}).items()),
        )
    return Step(
        number=number,
        prompt=data["prompt"],
        variant=variant,
        right=data["right"],
        wrong=data["wrong"],
        answers=tuple(normalise(a) for a in data["answers"]),
        wrong_examples=tuple(normalise(a) for a in data["wrong_examples"]),
        expect=Expect.read(data["expect"]),
        setup=setup,
        moves=tuple(data.get("moves", ())),
        options=tuple(sorted(data.get("options", {}).items())),
        action=data.get("action", PLAY),
        hints=tuple((normalise(m), s) for m, s in data.get("hints", {}).items()),
    )


def read_lesson(path: Path) -> Lesson:
    """The lesson of one data file (``ValueError``/``KeyError`` when it is malformed)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    variant = get_variant(data["game"])
    steps = tuple(_step(i, s, variant) for i, s in enumerate(data["steps"], start=1))
    if not steps:
        raise ValueError(f"{path.name}: a lesson has at least one step")
    stem = path.stem
    return Lesson(
        slug=stem.split("-", 1)[1] if stem[:2].isdigit() else stem,
        title=data["title"],
        summary=data["summary"],
        variant=variant,
        steps=steps,
    )


@cache
def lessons(folder: Path = LESSONS_DIR) -> dict[str, Lesson]:
    """Every lesson of ``folder``, in the order of their files' names (``01-pente.json``
    first); the slug is the name without its number."""
    found = (read_lesson(path) for path in sorted(folder.glob("*.json")))
    return {lesson.slug: lesson for lesson in found}


def _play(position: Position, step: Step, move: str) -> tuple[int, int, frozenset[int] | None]:
    """Play ``move`` on ``position``: (stones captured, stones poofed, stones marked dead)."""
    tokens = move.split()
    if len(tokens) == 1 and tokens[0] in position.decision_choices():
        position.decide(tokens[0])
        return 0, 0, None
    if step.action == MARK:
        if len(tokens) != 1:
            raise IllegalMove("bad_coordinate", "Click one stone of the group.")
        group = position.group_of(tokens[0])  # type: ignore[attr-defined]
        if not group:
            raise IllegalMove("bad_dead", "There is no stone there to mark.")
        position.mark_dead(group)
        position.decide("accept")
        return 0, 0, group
    if not tokens:
        raise IllegalMove("bad_coordinate", "Give a point to play.")
    results = position.play_turn(tokens)
    return (
        sum(len(r.captured) for r in results),
        sum(len(r.poofed) for r in results),
        None,
    )


def _misses(
    position: Position,
    expect: Expect,
    *,
    mover: int | None,
    captured: int,
    poofed: int,
    dead: frozenset[int] | None,
) -> list[str]:
    """What the played move failed to do of ``expect`` (empty when it did everything)."""
    misses = []
    outcome = position.outcome
    if expect.wins is True and (outcome is None or mover not in outcome.winners):
        misses.append("wins")
    if expect.wins is False and outcome is not None:
        misses.append("wins")
    if expect.by is not None and (outcome is None or outcome.termination != expect.by):
        misses.append("by")
    if expect.captured is not None and captured != expect.captured:
        misses.append("captured")
    if expect.poofed is not None and poofed != expect.poofed:
        misses.append("poofed")
    for seat, colour in expect.seat_colour:
        if position.seat_colour(seat) != colour:
            misses.append("seat_colour")
    if expect.to_move_seat is not None and position.to_move_seat != expect.to_move_seat:
        misses.append("to_move_seat")
    if expect.phase is not None and str(position.phase) != expect.phase:
        misses.append("phase")
    if expect.dead is not None:
        names = frozenset(position.point_name(p) for p in dead or ())
        if names != expect.dead:
            misses.append("dead")
    if expect.winner_colour is not None and position.winner_colour != expect.winner_colour:
        misses.append("winner_colour")
    return misses


def judge(step: Step, move: str) -> Verdict:
    """Play ``move`` on the step's position with the engine and say whether it does what the
    step asks (``Verdict``)."""
    move = normalise(move)
    position = step.position()
    mover = position.to_move_seat
    expect = step.expect
    wrong = step.hint(move) or step.wrong
    try:
        captured, poofed, dead = _play(position, step, move)
    except IllegalMove as refusal:
        if expect.refused is not None and refusal.code == expect.refused:
            return Verdict(True, step.right, refusal.code, refusal.detail)
        return Verdict(False, wrong, refusal.code, refusal.detail, failed=("legal",))
    rows = tuple(position.rows())
    if expect.refused is not None:
        return Verdict(False, wrong, rows=rows, failed=("refused",))
    misses = _misses(position, expect, mover=mover, captured=captured, poofed=poofed, dead=dead)
    if misses:
        return Verdict(False, wrong, rows=rows, failed=tuple(misses))
    return Verdict(True, step.right, rows=rows)


@dataclass(frozen=True, slots=True)
class StepBoard:
    """What the learner sees of a step's position and may do on it."""

    size: int
    rows: tuple[str, ...]
    go: bool  # Go's colours (1 black) and its pass; else the Pente family's (1 white)
    to_move_colour: int | None
    stones: int  # stones the turn takes (Connect6: 2); 0 when a decision or a marking is due
    decisions: tuple[str, ...]
    can_pass: bool
    action: str
    last_point: str | None


def board_of(step: Step) -> StepBoard:
    """The board and the choices of ``step``'s position."""
    position = step.position()
    last = position.last_point
    marking = step.action == MARK
    return StepBoard(
        size=position.size,
        rows=tuple(position.rows()),
        go=position.marks_dead,
        to_move_colour=position.to_move_colour,
        stones=0 if marking or position.decision_due else position.stones_this_turn(),
        decisions=tuple(position.decision_choices()) if not marking else (),
        can_pass=position.can_pass(),
        action=step.action,
        last_point=None if last is None else position.point_name(last),
    )
