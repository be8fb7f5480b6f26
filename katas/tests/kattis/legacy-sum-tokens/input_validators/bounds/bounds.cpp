// Checks the value count and bounds; exits 42 when the input is well formed.
#include <cstdlib>
#include <iostream>
int main() {
    long long n;
    if (!(std::cin >> n) || n < 1 || n > 100000) return 43;
    for (long long i = 0; i < n; ++i) {
        long long a;
        if (!(std::cin >> a) || a < -1000000000LL || a > 1000000000LL) return 43;
    }
    return 42;
}
