"""Any Regula game as an OpenSpiel game.

>>> import pyspiel, regula.openspiel
>>> regula.openspiel.register("docs/examples/connect4.game", "regula_connect4")
>>> game = pyspiel.load_game("regula_connect4(columns=5)")

The game is sequential, deterministic, with perfect information and zero-sum returns
(``State.returns`` of the binding: +1 a win, -1 a loss, 0 a draw). Its actions are the
binding's action ids (python/README.md), so ``num_distinct_actions`` is
``Game.num_distinct_actions()``. The game's parameters (``param`` in the file) are
OpenSpiel parameters, with ``variant`` (when the file declares variants) and
``max_plies``: a game longer than that many plies stops as a draw, so that every game
OpenSpiel plays ends. The observation is the binding's ``observation_tensor``.
"""

from __future__ import annotations

from typing import Dict, Mapping, Optional

import numpy as np
import pyspiel

import regula

__all__ = ["register", "RegulaGame", "RegulaState"]

#: A game longer than this many plies stops as a draw (OpenSpiel parameter ``max_plies``).
DEFAULT_MAX_PLIES = 10_000


class RegulaState(pyspiel.State):
    """A position of a Regula game, for OpenSpiel. ``self.regula`` is the binding's state."""

    def __init__(self, game: "RegulaGame", state: Optional[regula.State] = None):
        super().__init__(game)
        self.regula = state if state is not None else game.regula.new_state()
        self._max_plies = game.max_plies

    def _cut(self) -> bool:
        return self.regula.ply() >= self._max_plies

    def current_player(self) -> int:
        if self.regula.is_terminal() or self._cut():
            return pyspiel.PlayerId.TERMINAL
        return self.regula.current_player()

    def _legal_actions(self, player):
        if self.is_terminal():
            return []
        return self.regula.legal_actions()

    def _apply_action(self, action):
        self.regula.apply(int(action))

    def _action_to_string(self, player, action):
        return self.regula.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.regula.is_terminal() or self._cut()

    def returns(self):
        return self.regula.returns()

    def rewards(self):
        return self.regula.returns() if self.is_terminal() else [0.0] * self.get_game().num_players()

    def __str__(self):
        return str(self.regula)

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state by deep copy: copy the binding's state (a cheap
        # copy of the position and its history), not the game.
        return RegulaState(self.get_game(), self.regula.clone())


class _Observer:
    """The binding's observation tensor, as OpenSpiel's PyObserver interface wants it."""

    def __init__(self, game: regula.Game, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        shape = game.new_state().observation_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: RegulaState, player):
        self.tensor[:] = state.regula.observation_list()

    def string_from(self, state: RegulaState, player):
        return state.regula.position()


class RegulaGame(pyspiel.Game):
    """A Regula game file as an OpenSpiel game (see :func:`register`)."""

    def __init__(self, game_type, path, variant, params, regula_params, pyspiel_params):
        chosen = dict(params)
        for name in regula_params:
            if name in pyspiel_params:
                chosen[name] = int(pyspiel_params[name])
        variant = pyspiel_params.get("variant", variant) or None
        self.max_plies = int(pyspiel_params.get("max_plies", DEFAULT_MAX_PLIES))
        self.regula = regula.load(path, variant=variant, params=chosen)
        n = self.regula.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.regula.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(game_type, info, dict(pyspiel_params))

    def new_initial_state(self):
        return RegulaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self.regula, params)


def register(
    path,
    short_name: str,
    variant: Optional[str] = None,
    params: Optional[Mapping[str, int]] = None,
    long_name: Optional[str] = None,
) -> pyspiel.GameType:
    """Registers a Regula game file with OpenSpiel as ``short_name``; then
    ``pyspiel.load_game(short_name)`` (or ``short_name(columns=5,max_plies=200)``) makes
    it. ``variant`` and ``params`` choose the default ruleset. Returns the game type."""
    path = str(path)
    params = dict(params or {})
    game = regula.load(path, variant=variant, params=params)  # fails early on bad input
    spec: Dict[str, object] = {name: value for name, value, *_ in game.parameters}
    if game.variants:
        spec["variant"] = variant or ""
    spec["max_plies"] = DEFAULT_MAX_PLIES
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=long_name or f"Regula {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.num_players,
        min_num_players=game.num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )
    regula_params = [name for name, *_ in game.parameters]

    def init(self, pyspiel_params=None):
        RegulaGame.__init__(
            self, game_type, path, variant, params, regula_params, pyspiel_params or {}
        )

    # A class rather than a closure: OpenSpiel's registry keeps its factory until the
    # interpreter is gone, and a class (which refers to itself) is never freed then, while
    # freeing a closure at that point aborts the process.
    factory = type(f"RegulaGame_{short_name}", (RegulaGame,), {"__init__": init})
    pyspiel.register_game(game_type, factory)
    return game_type
