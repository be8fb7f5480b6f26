n, t = map(int, input().split())
a = list(map(int, input().split()))
print(next(f"{i + 1} {j + 1}" for j in range(n) for i in range(j) if a[i] + a[j] == t))
