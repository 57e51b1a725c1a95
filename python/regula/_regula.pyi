"""Types of the native module (see python/README.md for the action ids and observations)."""

from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

class Game:
    """A game loaded from a `.game` file for one ruleset (a variant, parameter values)."""

    def __init__(
        self, path: str, variant: Optional[str] = None, params: Optional[Sequence[Tuple[str, int]]] = None
    ) -> None: ...
    @staticmethod
    def from_source(
        source: str, variant: Optional[str] = None, params: Optional[Sequence[Tuple[str, int]]] = None
    ) -> "Game": ...
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def meta(self) -> List[Tuple[str, str]]:
        """Metadata of the game section: (key, value), such as ("description", ...)."""
    @property
    def players(self) -> List[str]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def board_shape(self) -> str:
        """As `regula info` writes it: `9 x 9`, `hex 11 x 11`, `hexagon 5`, `points 7 x 7`."""
    @property
    def board_size(self) -> Tuple[int, int]:
        """(files, ranks) of the grid the cells sit on."""
    @property
    def num_cells(self) -> int: ...
    @property
    def cells(self) -> List[str]:
        """Cell names by index: `a1` first, rank by rank."""
    @property
    def pieces(self) -> List[Tuple[str, str]]:
        """Piece types: (name, letter)."""
    @property
    def flags(self) -> List[str]: ...
    @property
    def variants(self) -> List[Tuple[str, Optional[str]]]:
        """Variants the file declares: (name, description)."""
    @property
    def parameters(self) -> List[Tuple[str, int, int, int, int]]:
        """Parameters: (name, value, default, min, max)."""
    @property
    def has_neutral_pieces(self) -> bool: ...
    def num_distinct_actions(self) -> int: ...
    def action_layout(self) -> Dict[str, int]:
        """cells, pieces, actions, piece_choices, cell_choices, overflow_base, overflow, size."""
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def new_state(self) -> "State": ...
    def state_from_position(self, text: str) -> "State": ...
    def perft(self, depth: int, threads: Optional[int] = None, state: Optional["State"] = None) -> int:
        """Move sequences of `depth` plies; all cores by default; releases the GIL."""
    def playouts(
        self, count: int, seed: int = 1, max_plies: int = 10000, threads: Optional[int] = None
    ) -> Dict[str, object]:
        """Random games: count, wins and losses per player, draws, unfinished, runaway,
        plies, mean_plies, seconds. The same figures whatever `threads`; releases the GIL."""
    def play_match_games(
        self,
        first: str,
        second: str,
        indices: Sequence[int],
        seed: int = 1,
        max_plies: int = 10000,
        threads: int = 1,
        agent_threads: int = 1,
    ) -> List[Tuple[int, int, List[str], str, int, str]]:
        """Games `indices` of a match as `regula match` plays them: (index, first agent's
        player, moves, `win`/`lose`/`draw`/`unfinished`, the player named or -1, result)."""

class State:
    """A position of a game, with the moves that led to it."""

    @property
    def game(self) -> Game: ...
    def legal_moves(self) -> List[str]:
        """Legal moves in notation, sorted; empty when the game is over."""
    def legal_actions(self) -> List[int]:
        """Action ids of the legal moves, ascending."""
    def legal_pairs(self) -> List[Tuple[int, str]]:
        """(action id, notation) of the legal moves, in notation order."""
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def apply(self, move: Union[str, int]) -> None:
        """Plays a legal move given by notation or action id; ValueError otherwise."""
    def undo(self) -> None:
        """Takes back the last move; IndexError when there is none."""
    def clone(self) -> "State": ...
    def history(self) -> List[str]: ...
    def is_terminal(self) -> bool: ...
    def current_player(self) -> int: ...
    def returns(self) -> List[float]:
        """Per player: +1 a win, -1 a loss, 0 a draw or no result yet (zero-sum)."""
    def result(self) -> Optional[str]: ...
    def winner(self) -> Optional[int]: ...
    def scores(self) -> Optional[List[int]]: ...
    def ply(self) -> int: ...
    def position(self) -> str:
        """The notation of `regula show --position`."""
    def piece_at(self, cell: Union[str, int]) -> Optional[Tuple[str, str]]: ...
    def observation_shape(self) -> Tuple[int, int, int]: ...
    def observation_tensor(self) -> npt.NDArray[np.float32]:
        """(planes, ranks, files), top rank first: pieces per (owner, type), flags, hands
        (games with hands), the player to move."""
    def observation_list(self) -> List[float]: ...

class Agent:
    """An agent of the command line: random, flat:N, mcts:N, mcts:TIME, alphabeta:D."""

    def __init__(self, game: Game, spec: str, seed: int = 1, threads: int = 1) -> None: ...
    @property
    def spec(self) -> str: ...
    def choose(self, state: State) -> str: ...
    def observe(self, state: State, move: str) -> None: ...
    def reset(self) -> None: ...
