"""Matches and playouts sharded over a Ray cluster.

    python -m regula.distributed match GAME AGENT AGENT --games N [--workers W] [--seed S]
    python -m regula.distributed playouts GAME --count N [--workers W] [--seed S]

A match is played as ``regula match`` plays it: game ``i`` is seeded from (seed, ``i``)
and the first agent plays player ``i % players``, so a seed gives the same games (for
agents whose budget is not a time) whatever the number of workers and shards, and the
same games as the command line. The summary (score, 95% interval, Elo, mean plies), the
JSON line and the records are those of ``regula match``.

Playouts are split into shards of ``--shard`` playouts; shard ``k`` is seeded from (seed,
``k``), so the figures depend on the seed and the shard size, never on the workers.

Without ``--address`` (or ``RAY_ADDRESS``), a local Ray cluster of ``--workers`` CPUs is
started; with one, the work goes to that cluster (every node needs this package
installed), ``--workers`` then only sets how many shards a match is cut into.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

import ray

import regula
from regula import matches

__all__ = ["run_match", "run_playouts", "main"]


def _load(source: str, variant: Optional[str], params):
    # Shards get the game's text, not its path: a worker on another node may not have
    # the file.
    return regula.load_source(source, variant=variant, params=params)


@ray.remote(num_cpus=1)
def _match_shard(source, variant, params, agents, indices, seed, max_plies):
    game = _load(source, variant, params)
    return game.play_match_games(agents[0], agents[1], indices, seed=seed, max_plies=max_plies)


@ray.remote(num_cpus=1)
def _playout_shard(source, variant, params, count, seed, max_plies):
    game = _load(source, variant, params)
    return game.playouts(count, seed=seed, max_plies=max_plies, threads=1)


def _shards(n: int, parts: int) -> List[List[int]]:
    parts = max(1, min(parts, n))
    size = math.ceil(n / parts)
    return [list(range(i, min(i + size, n))) for i in range(0, n, size)]


def _ensure_ray(workers: int, address: Optional[str]) -> None:
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)


def _read(path) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def run_match(
    path,
    agents: Sequence[str],
    games: int,
    workers: int = 2,
    seed: int = 1,
    max_plies: int = 10_000,
    variant: Optional[str] = None,
    params=None,
    shards_per_worker: int = 4,
    address: Optional[str] = None,
) -> Tuple[List[matches.MatchGame], matches.Summary]:
    """Plays a match over Ray; returns the games in order and the summary."""
    if games <= 0:
        raise ValueError("a match of 0 games: give 1 or more")
    game = regula.load(path, variant=variant, params=params)  # bad input fails here
    for a in agents:
        regula.Agent(game, a)  # an unknown agent fails here, not in a worker
    source = _read(path)
    params = regula._params(params)
    _ensure_ray(workers, address)
    t0 = time.perf_counter()
    # Several shards a worker, so that a slow shard does not leave the others idle.
    refs = [
        _match_shard.remote(source, variant, params, list(agents), shard, seed, max_plies)
        for shard in _shards(games, workers * shards_per_worker)
    ]
    played = [matches.MatchGame.from_tuple(t) for part in ray.get(refs) for t in part]
    played.sort(key=lambda g: g.index)
    seconds = time.perf_counter() - t0
    summary = matches.summarise(game.name, [regula.Agent(game, a).spec for a in agents], played, seconds)
    return played, summary


def run_playouts(
    path,
    count: int,
    workers: int = 2,
    seed: int = 1,
    max_plies: int = 10_000,
    shard: int = 10_000,
    variant: Optional[str] = None,
    params=None,
    address: Optional[str] = None,
) -> Dict:
    """Random playouts over Ray, in shards of ``shard``; returns the figures added up."""
    game = regula.load(path, variant=variant, params=params)
    source = _read(path)
    params = regula._params(params)
    _ensure_ray(workers, address)
    t0 = time.perf_counter()
    refs = []
    for k, start in enumerate(range(0, count, shard)):
        n = min(shard, count - start)
        refs.append(_playout_shard.remote(source, variant, params, n, _shard_seed(seed, k), max_plies))
    total: Dict = {"count": 0, "wins": [0] * game.num_players, "losses": [0] * game.num_players,
                   "draws": 0, "unfinished": 0, "runaway": 0, "plies": 0}
    for part in ray.get(refs):
        for key in ("count", "draws", "unfinished", "runaway", "plies"):
            total[key] += part[key]
        for key in ("wins", "losses"):
            total[key] = [a + b for a, b in zip(total[key], part[key])]
    total["seconds"] = time.perf_counter() - t0
    total["mean_plies"] = total["plies"] / max(total["count"], 1)
    total["players"] = game.players
    return total


def _shard_seed(seed: int, k: int) -> int:
    # splitmix64 of (seed, k): independent streams for the shards.
    x = (seed ^ ((k + 1) * 0x9E3779B97F4A7C15)) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _set(text: str) -> Tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError("expected NAME=VALUE with a whole number, e.g. `--set size=9`")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{value}` is not a whole number") from None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m regula.distributed", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)

    def common(q):
        q.add_argument("game", help="the game file")
        q.add_argument("--workers", type=int, default=2, help="CPUs of the local Ray cluster (default 2)")
        q.add_argument("--seed", type=int, default=1, help="seed of the random choices (default 1)")
        q.add_argument("--max-plies", type=int, default=10_000, help="a longer game stops (default 10000)")
        q.add_argument("--variant", help="a variant the file declares")
        q.add_argument("--set", dest="params", action="append", type=_set, default=[],
                       metavar="NAME=VALUE", help="set a parameter (repeatable)")
        q.add_argument("--address", help="a Ray cluster to use (default: RAY_ADDRESS, else a local one)")
        q.add_argument("--format", choices=["human", "json"], default="human")

    m = sub.add_parser("match", help="two agents play a series of games, sides alternating")
    common(m)
    m.add_argument("first", help="the first agent: random, flat:PLAYOUTS, mcts:ITERATIONS, mcts:TIME, alphabeta:DEPTH")
    m.add_argument("second", help="the second agent, written like the first")
    m.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    m.add_argument("--records", help="write the games to this file, one a line, as `regula match --records`")

    o = sub.add_parser("playouts", help="random games, their results and length")
    common(o)
    o.add_argument("--count", type=int, default=10_000, help="how many playouts (default 10000)")
    o.add_argument("--shard", type=int, default=10_000, help="playouts a task (default 10000)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.verb == "match":
            played, summary = run_match(
                args.game, [args.first, args.second], args.games, workers=args.workers,
                seed=args.seed, max_plies=args.max_plies, variant=args.variant,
                params=args.params, address=args.address,
            )
            if args.records:
                with open(args.records, "w", encoding="utf-8") as f:
                    f.writelines(matches.record_line(g) + "\n" for g in played)
            if args.format == "json":
                print(matches.json_line(summary))
            else:
                print(matches.text(summary), end="")
        else:
            r = run_playouts(
                args.game, args.count, workers=args.workers, seed=args.seed,
                max_plies=args.max_plies, shard=args.shard, variant=args.variant,
                params=args.params, address=args.address,
            )
            if args.format == "json":
                import json
                print(json.dumps(r))
            else:
                n = max(r["count"], 1)
                print(f"playouts: {r['count']}")
                for name, w in zip(r["players"], r["wins"]):
                    print(f"{name}: {100 * w / n:.1f}%")
                print(f"draw: {100 * r['draws'] / n:.1f}%")
                if r["unfinished"]:
                    print(f"unfinished: {100 * r['unfinished'] / n:.1f}%")
                print(f"mean plies: {r['mean_plies']:.1f}")
                print(f"playouts/s: {r['count'] / max(r['seconds'], 1e-9):.0f}")
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
