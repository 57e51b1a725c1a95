"""Regula games in OpenSpiel: OpenSpiel's own bots play them, and Regula's tic-tac-toe
agrees with OpenSpiel's built-in one."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import regula  # noqa: E402
import regula.openspiel  # noqa: E402
from conftest import game_path  # noqa: E402

TICTACTOE = game_path("docs/examples/tictactoe.game")
CONNECT4 = game_path("docs/examples/connect4.game")


@pytest.fixture(scope="module")
def games():
    regula.openspiel.register(TICTACTOE, "regula_tictactoe")
    regula.openspiel.register(CONNECT4, "regula_connect4")
    return {
        "tictactoe": pyspiel.load_game("regula_tictactoe"),
        "connect4": pyspiel.load_game("regula_connect4"),
    }


def test_the_game_type_and_info(games):
    g = games["connect4"]
    assert g.num_players() == 2
    assert g.num_distinct_actions() == regula.load(CONNECT4).num_distinct_actions()
    assert g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    small = pyspiel.load_game("regula_connect4(columns=5)")
    state = small.new_initial_state()
    assert len(state.legal_actions()) == 5
    assert state.observation_tensor() == state.regula.observation_list()
    state.apply_action(state.legal_actions()[2])
    assert state.regula.history() == ["D@c1"]
    assert state.current_player() == 1
    with pytest.raises(ValueError, match="columns"):
        pyspiel.load_game("regula_connect4(columns=99)")


def test_max_plies_cuts_a_game_as_a_draw(games):
    g = pyspiel.load_game("regula_connect4(max_plies=4)")
    state = g.new_initial_state()
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def mcts_score(game, games, simulations, seed):
    """Games won by OpenSpiel's MCTS bot against its uniform random bot, sides alternating."""
    wins = 0
    for i in range(games):
        rng = np.random.RandomState(seed + i)
        mcts_player = i % 2
        bots = {
            mcts_player: mcts.MCTSBot(
                game, 2, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
            ),
            1 - mcts_player: uniform_random.UniformRandomBot(1 - mcts_player, rng),
        }
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[mcts_player] > 0
    return wins


@pytest.mark.parametrize("name,simulations", [("tictactoe", 200), ("connect4", 200)])
def test_openspiel_mcts_beats_random(games, name, simulations):
    wins = mcts_score(games[name], 20, simulations, seed=1)
    assert wins >= 16, f"MCTS won {wins} of 20 games of {name}"


def openspiel_cell(action):
    """OpenSpiel's tic-tac-toe action (row * 3 + col, row 0 at the top) as a Regula cell."""
    row, col = divmod(action, 3)
    return "abc"[col] + str(3 - row)


def test_tictactoe_agrees_with_openspiel_over_1000_random_games():
    reference = pyspiel.load_game("tic_tac_toe")
    ours = regula.load(TICTACTOE)
    # Both start with the first player: OpenSpiel's x (player 0), Regula's white.
    assert ours.players[0] == "white"
    rng = np.random.RandomState(2024)
    outcomes = {1.0: 0, -1.0: 0, 0.0: 0}
    for _ in range(1000):
        theirs = reference.new_initial_state()
        state = ours.new_state()
        while not theirs.is_terminal():
            assert not state.is_terminal()
            assert state.current_player() == theirs.current_player()
            legal = sorted("X@" + openspiel_cell(a) for a in theirs.legal_actions())
            assert state.legal_moves() == legal
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            state.apply("X@" + openspiel_cell(action))
        assert state.is_terminal()
        assert state.returns() == list(theirs.returns())
        outcomes[theirs.returns()[0]] += 1
    # Random games of tic-tac-toe end in all three ways.
    assert all(n > 50 for n in outcomes.values()), outcomes
