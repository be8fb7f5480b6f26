import sys
tokens = sys.stdin.read().split()
n = int(tokens[0])
print(int(sum(float(t) for t in tokens[1:n + 1])) // n)
