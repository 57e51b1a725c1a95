"""The binding: loading, playing, action ids, observations, perft, playouts, agents."""

import random
import threading

import numpy as np
import pytest

import regula
from conftest import game_path

TABLUT = game_path("games/tablut.game")
TICTACTOE = game_path("docs/examples/tictactoe.game")
CONNECT4 = game_path("docs/examples/connect4.game")

# Two chains of hops from a1 back to a1 by different paths: the same structural id.
LOOP = """
game "Loop" { }
players { white black }
board 3 x 3
piece Jumper letter J
piece Stone letter S
setup { white Jumper a1  black Stone a2 b3 c2 b1 }
moves Jumper {
  chain { for d in orthogonal { move to from + d * 2 if from + d is enemy then { remove from + d } } }
}
end { when no moves: next loses }
"""


def play_random(game, rng, max_plies=400):
    state = game.new_state()
    while not state.is_terminal() and state.ply() < max_plies:
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_metadata_of_tablut():
    g = regula.load(TABLUT)
    assert g.name == "Tablut"
    assert g.players == ["white", "black"]
    assert g.num_players == 2
    assert g.board_shape == "9 x 9"
    assert g.board_size == (9, 9)
    assert g.num_cells == 81 and g.cells[0] == "a1" and g.cells[80] == "i9"
    assert g.pieces == [("King", "K"), ("Guard", "G"), ("Mercenary", "M")]
    assert g.variants == [] and g.parameters == []
    assert ("source", "BrainKing.com Tablut rules and discussion board") in g.meta


def test_rulesets_variants_and_parameters():
    c = regula.load(CONNECT4, params={"columns": 5})
    assert c.parameters == [("columns", 5, 7, 4, 26)]
    assert c.board_size == (5, 6)
    assert c.perft(4) == 625
    shakti = regula.load(game_path("games/shakti.game"), variant="inventor")
    assert shakti.variant == "inventor"
    assert [v[0] for v in shakti.variants] == ["inventor"]
    assert shakti.perft(3) == 16535


def test_bad_input_raises_clear_exceptions(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such.game"):
        regula.load(tmp_path / "no-such.game")
    with pytest.raises(ValueError, match="is a directory"):
        regula.load(tmp_path)
    with pytest.raises(ValueError, match="E0102"):
        regula.load(game_path("tests/diagnostics/realistic_tablut_typos.game"))
    with pytest.raises(ValueError, match="variant"):
        regula.load(TABLUT, variant="nonesuch")
    with pytest.raises(ValueError, match="columns"):
        regula.load(CONNECT4, params={"columns": 99})
    state = regula.load(TABLUT).new_state()
    with pytest.raises(ValueError, match="not legal for white.*legal moves: c5-c1"):
        state.apply("e5-e1")
    with pytest.raises(ValueError, match="not legal"):
        state.apply(0)
    with pytest.raises(TypeError):
        state.apply(1.5)
    with pytest.raises(IndexError):
        state.undo()
    with pytest.raises(ValueError, match="not a move"):
        state.game.string_to_action("z99-a1")
    with pytest.raises(ValueError, match="not an action id"):
        state.game.action_to_string(10**9)
    with pytest.raises(ValueError, match="unknown agent"):
        regula.Agent(state.game, "nonesuch")
    with pytest.raises(ValueError):
        state.game.state_from_position("not a position")
    # The same file loaded twice is two games: states do not cross.
    other = regula.load(TABLUT)
    with pytest.raises(ValueError, match="a state of Tablut, not of this Tablut"):
        other.perft(1, state=state)
    with pytest.raises(ValueError, match="not of this"):
        regula.Agent(other, "random").choose(state)


def test_moves_results_and_returns_of_tictactoe():
    g = regula.load(TICTACTOE)
    s = g.new_state()
    for m in "X@b2 X@a1 X@c3".split():
        s.apply(m)
    assert s.legal_moves() == ["X@a2", "X@a3", "X@b1", "X@b3", "X@c1", "X@c2"]
    assert s.current_player() == 1
    assert s.returns() == [0.0, 0.0] and not s.is_terminal()
    s = g.new_state()
    for m in "X@a1 X@b1 X@a2 X@b2 X@a3".split():
        s.apply(m)
    assert s.is_terminal() and s.result() == "white" and s.winner() == 0
    assert s.returns() == [1.0, -1.0]
    assert s.legal_moves() == [] and s.legal_actions() == []
    with pytest.raises(ValueError, match="already over"):
        s.apply("X@c3")


def test_undo_clone_and_positions():
    g = regula.load(TABLUT)
    s = g.new_state()
    start = s.position()
    c = s.clone()
    s.apply("c5-c1")
    assert s.history() == ["c5-c1"] and c.history() == []
    assert c.position() == start and s.position() != start
    assert s.piece_at("c1") == ("white", "Guard") and s.piece_at("c5") is None
    again = g.state_from_position(s.position())
    assert again.position() == s.position() and again.legal_moves() == s.legal_moves()
    s.undo()
    assert s.position() == start and s.legal_moves() == c.legal_moves()


def test_action_ids_are_structural_distinct_and_round_trip():
    rng = random.Random(7)
    for path in [TABLUT, TICTACTOE, CONNECT4, game_path("docs/examples/chess.game"),
                 game_path("docs/examples/nine-mens-morris.game"), game_path("games/shaversi.game"),
                 game_path("docs/examples/english-draughts.game"), game_path("docs/examples/hex.game")]:
        g = regula.load(path)
        size = g.num_distinct_actions()
        seen = {}
        for _ in range(3):
            s = g.new_state()
            while not s.is_terminal() and s.ply() < 200:
                ids = s.legal_actions()
                assert ids == sorted(set(ids)) and all(0 <= a < size for a in ids)
                for a, m in s.legal_pairs():
                    assert s.action_to_string(a) == m and s.string_to_action(m) == a
                    # The same move has the same id wherever it is played.
                    assert seen.setdefault(m, a) == a, (path, m)
                    if a < g.action_layout()["overflow_base"]:
                        assert g.string_to_action(m) == a
                        # Without its position, an id shows a chain by its ends, a chosen
                        # cell after `/`.
                        if "x" not in m[2:] and m.count("-") <= 1:
                            assert g.action_to_string(a) == m
                a = rng.choice(ids)
                other = s.clone()
                other.apply(s.action_to_string(a))
                s.apply(a)
                assert s.position() == other.position()


def test_tictactoe_ids_are_placements_after_the_moves_from_cells():
    g = regula.load(TICTACTOE)
    layout = g.action_layout()
    assert layout["cells"] == 9 and layout["pieces"] == 1
    base = 9 * 9
    assert g.string_to_action("X@a1") == base and g.string_to_action("X@c3") == base + 8
    assert g.action_to_string(base + 4) == "X@b2"
    assert g.string_to_action("pass") == base + 9
    assert g.num_distinct_actions() == base + 9 + 1 + layout["overflow"]


def test_chains_of_hops_sharing_an_id_get_overflow_ids():
    g = regula.load_source(LOOP)
    s = g.new_state()
    base = g.action_layout()["overflow_base"]
    assert s.legal_pairs() == [(base, "a1-a3-c3-c1-a1"), (base + 1, "a1-c1-c3-a3-a1")]
    assert g.string_to_action("a1-a3-c3-c1-a1") == 0  # a1 to a1 as a plain move
    s.apply(base + 1)
    assert s.history() == ["a1-c1-c3-a3-a1"] and s.result() == "white"


def test_observation_tensor_layout():
    g = regula.load(TABLUT)
    s = g.new_state()
    obs = s.observation_tensor()
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    # 2 owners x 3 pieces, no flags, no hands, side to move.
    assert obs.shape == (7, 9, 9) == s.observation_shape()
    king, guards, mercenaries = obs[0], obs[1], obs[5]
    assert king.sum() == 1 and king[4, 4] == 1
    assert guards.sum() == 8 and mercenaries.sum() == 16
    assert obs[3:5].sum() == 0 and obs[2].sum() == 0
    assert mercenaries[8, 3] == 1  # d1: bottom row, fourth column
    assert (obs[6] == 0).all()
    s.apply("c5-c1")
    obs = s.observation_tensor()
    assert (obs[6] == 1).all() and obs[1][8, 2] == 1 and obs[1][4, 2] == 0
    assert s.observation_list() == obs.flatten().tolist()


def test_observation_planes_for_hands():
    g = regula.load(TICTACTOE)
    s = g.new_state()
    s.apply("X@a3")
    obs = s.observation_tensor()
    # 2 owners x 1 piece, then hands of white and black, then side to move.
    assert obs.shape == (5, 3, 3)
    assert obs[0][0, 0] == 1 and obs[0].sum() == 1
    assert (obs[2] == 4).all() and (obs[3] == 4).all() and (obs[4] == 1).all()


def test_perft_and_playouts_on_any_number_of_threads():
    g = regula.load(TABLUT)
    assert g.perft(3) == 251856
    assert g.perft(2, threads=1) == g.perft(2, threads=2)
    one = g.playouts(300, seed=5, threads=1)
    two = g.playouts(300, seed=5, threads=2)
    for k in ("count", "wins", "losses", "draws", "unfinished", "plies"):
        assert one[k] == two[k]
    assert one["count"] == 300 and sum(one["wins"]) + one["draws"] + one["unfinished"] == 300
    assert g.playouts(300, seed=6)["plies"] != one["plies"]


def test_perft_releases_the_gil():
    g = regula.load(CONNECT4)
    started = threading.Event()
    result = []

    def count():
        started.set()
        result.append(g.perft(8, threads=1))

    t = threading.Thread(target=count)
    t.start()
    started.wait()
    ticks = 0
    while t.is_alive():
        ticks += 1
    t.join()
    assert result == [5673234]
    assert ticks > 1000, ticks


def test_agents_of_the_command_line():
    g = regula.load(TICTACTOE)
    s = g.new_state()
    for m in "X@a1 X@b1 X@a2 X@b2".split():
        s.apply(m)
    agent = regula.Agent(g, "mcts:2000", seed=3)
    assert agent.spec == "mcts:2000"
    assert agent.choose(s) == "X@a3"
    r = regula.Agent(g, "random", seed=1)
    assert r.choose(s) in s.legal_moves()


def test_match_games_are_those_of_the_command_line_scheme():
    g = regula.load(TICTACTOE)
    games = g.play_match_games("random", "random", list(range(6)), seed=1)
    assert [x[0] for x in games] == list(range(6))
    assert [x[1] for x in games] == [0, 1, 0, 1, 0, 1]
    # Any subset of indices gives the same games: shards reproduce the whole.
    assert g.play_match_games("random", "random", [3, 5], seed=1) == [games[3], games[5]]
    for index, first, moves, kind, who, text in games:
        s = g.new_state()
        for m in moves:
            s.apply(m)
        assert s.result() == text
        assert kind == {"white": "win", "black": "win", "draw": "draw"}[text]
