import sys
lines = sys.stdin.read().split("\n")
n, t = map(int, lines[0].split())
values = list(map(int, lines[1].split()))
assert 2 <= n <= 200000 and abs(t) <= 10**9 and len(values) == n
assert any(t - v in set(values[:k]) for k, v in enumerate(values))
sys.exit(42)
