import sys
lines = sys.stdin.read().split("\n")
n, t = map(int, lines[0].split())
values = list(map(int, lines[1].split()))
assert 2 <= n <= 200000 and abs(t) <= 10**9 and len(values) == n
seen = set()
found = False
for v in values:
    if t - v in seen:
        found = True
        break
    seen.add(v)
assert found
sys.exit(42)
