// Accepts any pair i < j with a_i + a_j = t. Called as: validator input answer feedback_dir < output.
#include <fstream>
#include <iostream>
#include <vector>
int main(int argc, char **argv) {
    if (argc < 4) return 1;
    std::ifstream input(argv[1]);
    long long n, t;
    input >> n >> t;
    std::vector<long long> a(n);
    for (auto &x : a) input >> x;
    long long i, j;
    if (!(std::cin >> i >> j)) return 43;
    std::string extra;
    if (std::cin >> extra) return 43;
    bool ok = 1 <= i && i < j && j <= n && a[i - 1] + a[j - 1] == t;
    return ok ? 42 : 43;
}
