# Accepts any proper divisor; argv: input answer feedback_dir [flags], output on stdin.
import sys

n = int(open(sys.argv[1]).read())
try:
    d = int(sys.stdin.read().strip())
except ValueError:
    sys.exit(43)
sys.exit(42 if 1 < d < n and n % d == 0 else 43)
