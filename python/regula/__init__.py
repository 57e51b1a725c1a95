"""Regula for Python: load any Regula game file, play it, count it, and run matches.

>>> import regula
>>> game = regula.load("games/tablut.game")
>>> state = game.new_state()
>>> state.apply(state.legal_moves()[0])

See python/README.md for the action ids and the observation tensor.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence, Tuple, Union

from ._regula import Agent, Game, State

__all__ = ["Agent", "Game", "State", "load", "load_source"]

Params = Union[Mapping[str, int], Sequence[Tuple[str, int]], None]


def _params(params: Params):
    if params is None:
        return None
    items = params.items() if isinstance(params, Mapping) else params
    return [(str(k), int(v)) for k, v in items]


def load(path, variant: Optional[str] = None, params: Params = None) -> Game:
    """Loads a game file for a ruleset: a variant the file declares and parameter values
    (``{"columns": 8}``), as ``regula --variant`` and ``--set`` choose them.

    Raises FileNotFoundError for a missing file and ValueError, with the checker's
    diagnostics, for an invalid game or an unknown variant or parameter."""
    return Game(str(path), variant, _params(params))


def load_source(source: str, variant: Optional[str] = None, params: Params = None) -> Game:
    """Like :func:`load`, for a game's source text."""
    return Game.from_source(source, variant, _params(params))
