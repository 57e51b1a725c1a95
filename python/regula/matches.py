"""The statistics and formats of ``regula match``, for matches played from Python.

``summarise`` computes what the command line's summary holds (score with its 95% Wilson
interval, Elo difference with its interval, mean plies), ``text`` and ``json_line`` print
it as ``regula match`` and ``regula match --format json`` do, and ``record_line`` writes a
game as a line of ``--records``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import List, Optional, Sequence, Tuple

__all__ = ["MatchGame", "Summary", "wilson", "elo", "summarise", "text", "json_line", "record_line"]


@dataclass
class MatchGame:
    """One game of a match, as ``Game.play_match_games`` returns it."""

    index: int
    #: The player the first agent played.
    first_plays: int
    moves: List[str]
    #: ``win``, ``lose``, ``draw`` or ``unfinished``.
    kind: str
    #: The player ``kind`` names (a winner or a loser), or -1.
    player: int
    #: The result as written in records: a player's name, ``NAME loses``, ``draw`` or
    #: ``unfinished``.
    result: str

    @classmethod
    def from_tuple(cls, t: Tuple) -> "MatchGame":
        return cls(int(t[0]), int(t[1]), list(t[2]), str(t[3]), int(t[4]), str(t[5]))


@dataclass
class Summary:
    """What a match came to, from the first agent's point of view (the fields of
    ``regula match --format json``)."""

    game: str
    agents: Tuple[str, str]
    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    mean_plies: float
    seconds: float


def wilson(p: float, n: float) -> Tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``p`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    z2 = z * z
    centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n)
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / (1.0 + z2 / n)
    # At a score of 0 or 1 the interval reaches that end exactly, as the command line's.
    lo = 0.0 if p <= 0.0 else max(centre - half, 0.0)
    hi = 1.0 if p >= 1.0 else min(centre + half, 1.0)
    return (lo, hi)


def elo(s: float) -> float:
    """The Elo difference that gives an expected score ``s``."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def summarise(game: str, agents: Sequence[str], games: Sequence[MatchGame], seconds: float) -> Summary:
    wins = draws = losses = unfinished = 0
    for g in games:
        if g.kind == "win":
            if g.player == g.first_plays:
                wins += 1
            else:
                losses += 1
        elif g.kind == "lose":
            # The first agent plays one player, the second all the others.
            if g.player == g.first_plays:
                losses += 1
            else:
                wins += 1
        elif g.kind == "draw":
            draws += 1
        else:
            unfinished += 1
    total = len(games)
    score = (wins + (draws + unfinished) / 2.0) / max(total, 1)
    lo, hi = wilson(score, float(total))
    plies = sum(len(g.moves) for g in games)
    return Summary(
        game=game,
        agents=(agents[0], agents[1]),
        games=total,
        wins=wins,
        draws=draws,
        losses=losses,
        unfinished=unfinished,
        score=score,
        score_low=lo,
        score_high=hi,
        elo=elo(score),
        elo_low=elo(lo),
        elo_high=elo(hi),
        mean_plies=plies / max(total, 1),
        seconds=seconds,
    )


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def text(s: Summary) -> str:
    """The summary as ``regula match`` prints it."""
    out = f"{s.game}: {s.agents[0]} against {s.agents[1]}, {s.games} games\n"
    out += f"{s.wins} wins, {s.draws} draws, {s.losses} losses"
    if s.unfinished > 0:
        out += f" ({s.unfinished} unfinished, counted as draws)"
    out += (
        f"\nscore: {100 * s.score:.1f}% (95% interval {100 * s.score_low:.1f}% to "
        f"{100 * s.score_high:.1f}%)\n"
    )
    out += f"Elo difference: {_signed(s.elo)} (95% interval {_signed(s.elo_low)} to {_signed(s.elo_high)})\n"
    out += f"mean plies: {s.mean_plies:.1f}, {s.seconds:.1f} s\n"
    return out


def json_line(s: Summary) -> str:
    """The summary as ``regula match --format json`` prints it (infinite Elo as null)."""
    d = asdict(s)
    d["agents"] = list(s.agents)
    for k, v in d.items():
        if isinstance(v, float) and not math.isfinite(v):
            d[k] = None
    return json.dumps(d, separators=(",", ":"))


def record_line(g: MatchGame) -> str:
    """A game as a line of ``regula match --records``: its moves, then ``result: ...``."""
    return " ".join(g.moves + [f"result: {g.result}"])


def standard_error(s: Summary) -> Optional[float]:
    """The standard error of the score (draws count half), or None without games."""
    if s.games == 0:
        return None
    p = s.score
    return math.sqrt(max(p * (1.0 - p), 1e-12) / s.games)
