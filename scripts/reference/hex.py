# An independent implementation of docs/examples/hex.game for small boards, written without
# the engine: an N x N rhombus of hexagons (each rank half a cell right of the one below),
# red joins rank 1 to rank N, blue file a to the last file, and after red's first stone blue
# may take it over (the swap) instead of placing. Prints perft counts up to the depth given.
#   python3 hex.py N DEPTH [noswap]
import sys
from functools import lru_cache

N = int(sys.argv[1])
SWAP = 'noswap' not in sys.argv[3:]
RED, BLUE = 1, 2
# (file, rank) steps to the six neighbours.
STEPS = ((1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1))


def joined(board, p):
    """Whether player p's stones join p's two sides."""
    if p == RED:
        start = [(f, 0) for f in range(N)]
        goal = lambda f, r: r == N - 1
    else:
        start = [(0, r) for r in range(N)]
        goal = lambda f, r: f == N - 1
    todo = [c for c in start if board[c[1] * N + c[0]] == p]
    seen = set(todo)
    while todo:
        f, r = todo.pop()
        if goal(f, r):
            return True
        for df, dr in STEPS:
            g, s = f + df, r + dr
            if 0 <= g < N and 0 <= s < N and (g, s) not in seen and board[s * N + g] == p:
                seen.add((g, s))
                todo.append((g, s))
    return False


@lru_cache(maxsize=None)
def perft(board, mover, ply, depth):
    """Move sequences of `depth` plies; `ply` counts the plies played (the swap is one)."""
    if depth == 0:
        return 1
    previous = BLUE if mover == RED else RED
    if ply > 0 and joined(board, previous):
        return 0
    moves = [i for i in range(N * N) if board[i] == 0]
    total = 0
    for i in moves:
        b = board[:i] + (mover,) + board[i + 1:]
        total += perft(b, previous, ply + 1, depth - 1)
    if SWAP and ply == 1:  # blue's first turn: the swap
        i = board.index(RED)
        b = board[:i] + (BLUE,) + board[i + 1:]
        total += perft(b, RED, ply + 1, depth - 1)
    return total


for d in range(1, int(sys.argv[2]) + 1):
    print(d, perft((0,) * (N * N), RED, 0, d))
