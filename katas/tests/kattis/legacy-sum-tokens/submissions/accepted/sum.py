import sys
values = sys.stdin.read().split()
print(sum(int(v) for v in values[1:]))
