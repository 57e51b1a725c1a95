"""Throughput of Ray-sharded matches and playouts on a local cluster of W workers.

    python python/bench/throughput.py WORKERS

Prints games/s of a Connect Four match (mcts:200 against random, 40 games) and
playouts/s of Tablut (100,000 playouts in shards of 5,000), after a warm-up that starts
the workers, so that Ray's start-up is not counted.
"""

import pathlib
import sys
import time

import ray

from regula import distributed

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    workers = int(sys.argv[1])
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    connect4 = ROOT / "docs/examples/connect4.game"
    tablut = ROOT / "games/tablut.game"
    distributed.run_match(connect4, ["random", "random"], 4 * workers, workers=workers)
    t = time.perf_counter()
    _, s = distributed.run_match(connect4, ["mcts:200", "random"], 40, workers=workers)
    match = 40 / (time.perf_counter() - t)
    r = distributed.run_playouts(tablut, 100_000, workers=workers, shard=5_000)
    print(f"workers {workers}: match {match:.1f} games/s (score {100 * s.score:.1f}%), "
          f"playouts {r['count'] / r['seconds']:.0f}/s")
    ray.shutdown()


if __name__ == "__main__":
    main()
