# An independent implementation of docs/examples/three-in-a-row.game (three players, 4 x 4,
# three in a row wins; red holds 6 stones, green and blue 5), written without the engine:
# prints perft counts up to the depth given.   python3 three_in_a_row.py 8
import sys
from functools import lru_cache
N=4
lines=[]
for r in range(N):
    for c in range(N):
        for dr,dc in ((0,1),(1,0),(1,1),(1,-1)):
            cells=[(r+i*dr,c+i*dc) for i in range(3)]
            if all(0<=a<N and 0<=b<N for a,b in cells):
                lines.append(tuple(a*N+b for a,b in cells))
def won(board,last):
    p=board[last]
    return any(last in l and all(board[x]==p for x in l) for l in lines)
@lru_cache(maxsize=None)
def perft(board,last,depth):
    if depth==0: return 1
    if last is not None and won(board,last): return 0
    empties=[i for i in range(16) if board[i]==0]
    if not empties: return 0
    ply=16-len(empties)
    p=ply%3+1
    total=0
    for i in empties:
        b=board[:i]+(p,)+board[i+1:]
        total+=perft(b,i,depth-1)
    return total
for d in range(1,int(sys.argv[1])+1):
    print(d,perft((0,)*16,None,d))
