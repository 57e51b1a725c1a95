"""Matches and playouts sharded over a local Ray cluster of two workers, against the
command line's `regula match`."""

import json
import math
import os
import subprocess

import pytest

ray = pytest.importorskip("ray")

import regula  # noqa: E402
from regula import distributed, matches  # noqa: E402
from conftest import ROOT, game_path  # noqa: E402

TICTACTOE = game_path("docs/examples/tictactoe.game")
CONNECT4 = game_path("docs/examples/connect4.game")


# The settings python/test.sh builds the command line with.
CLI_PROFILE = ["--config", "profile.dev.debug=0", "--config", "profile.dev.debug-assertions=false",
               "--config", "profile.dev.overflow-checks=false"]


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def cli():
    """The `regula` binary: $REGULA_BIN (python/test.sh sets it), else the repository's
    release build, else a quick unoptimised build (the release profile's link-time
    optimisation would take minutes)."""
    given = os.environ.get("REGULA_BIN")
    if given:
        return given
    release = ROOT / "target" / "release" / "regula"
    if release.exists():
        return str(release)
    target = ROOT / "python" / "target"
    subprocess.run(["cargo", "build", "--quiet", "--bin", "regula", "--target-dir", str(target),
                    *CLI_PROFILE], cwd=ROOT, check=True)
    return str(target / "debug" / "regula")


def cli_match(cli, game, agents, games, seed, records=None):
    cmd = [cli, "match", game, *agents, "--games", str(games), "--seed", str(seed), "--format", "json"]
    if records:
        cmd += ["--records", str(records)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_a_ray_match_is_the_command_lines_match(cluster, cli, tmp_path):
    played, summary = distributed.run_match(TICTACTOE, ["random", "random"], 200, workers=2, seed=1)
    expected = cli_match(cli, TICTACTOE, ["random", "random"], 200, 1, tmp_path / "cli.txt")
    for key in ("game", "games", "wins", "draws", "losses", "unfinished", "score", "score_low",
                "score_high", "elo", "elo_low", "elo_high", "mean_plies"):
        assert getattr(summary, key) == pytest.approx(expected[key]), key
    assert list(summary.agents) == expected["agents"]
    ours = "".join(matches.record_line(g) + "\n" for g in played)
    assert ours == (tmp_path / "cli.txt").read_text()
    # The JSON line has the command line's fields, in its order.
    assert list(json.loads(matches.json_line(summary))) == list(expected)


def test_ray_win_rates_are_within_noise_of_another_cli_seed(cluster, cli):
    _, ours = distributed.run_match(TICTACTOE, ["random", "random"], 200, workers=2, seed=11)
    theirs = cli_match(cli, TICTACTOE, ["random", "random"], 200, 12)
    for key in ("wins", "draws", "losses"):
        p, q = getattr(ours, key) / 200, theirs[key] / 200
        se = math.sqrt((p * (1 - p) + q * (1 - q)) / 200)
        assert abs(p - q) <= 3 * se, (key, p, q)
    # Different seeds, different games.
    assert (ours.wins, ours.draws) != (theirs["wins"], theirs["draws"])


def test_a_ray_match_of_mcts_agents_is_the_command_lines(cluster, cli):
    agents = ["mcts:60", "random"]
    played, summary = distributed.run_match(CONNECT4, agents, 12, workers=2, seed=3)
    expected = cli_match(cli, CONNECT4, agents, 12, 3)
    assert (summary.wins, summary.draws, summary.losses) == (
        expected["wins"], expected["draws"], expected["losses"])
    assert summary.mean_plies == expected["mean_plies"]
    assert summary.wins >= 10  # MCTS beats random at Connect Four


def test_sharded_playouts_add_up_the_shards(cluster):
    r = distributed.run_playouts(CONNECT4, 3000, workers=2, seed=4, shard=1000)
    g = regula.load(CONNECT4)
    parts = [g.playouts(1000, seed=distributed._shard_seed(4, k), threads=1) for k in range(3)]
    assert r["count"] == 3000
    assert r["wins"] == [sum(p["wins"][i] for p in parts) for i in range(2)]
    assert r["plies"] == sum(p["plies"] for p in parts)


def test_the_command_line_of_the_module(cluster, tmp_path, capsys):
    records = tmp_path / "games.txt"
    code = distributed.main(["match", TICTACTOE, "random", "random", "--games", "10",
                             "--records", str(records)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("Tic-tac-toe: random against random, 10 games\n")
    assert "score: " in out and "Elo difference: " in out and "mean plies: " in out
    assert len(records.read_text().splitlines()) == 10
    assert distributed.main(["match", TICTACTOE, "random", "nonesuch"]) == 2
    assert "unknown agent `nonesuch`" in capsys.readouterr().err
    assert distributed.main(["playouts", str(tmp_path / "missing.game")]) == 2
    assert distributed.main(["playouts", CONNECT4, "--count", "500", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 500
