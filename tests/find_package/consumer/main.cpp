// An outside project: found tack with find_package, links tack::tack, uses arrays and kernels.
#include <tack/tack.hpp>

#include <cstdio>

int main() {
  tack::array<double> a;
  for (int i = 0; i < 10; ++i) a.push_back(i);
  auto v = a.rows(2, 5);
  v.fill(1.0);
  double s = tack::parallel_reduce(
      a.size(), 0.0, [p = a.as_const().view()](tack::index_t i) { return p[i]; },
      tack::ops::plus{});
  std::printf("tack %s: sum %g\n", TACK_VERSION_STRING, s);
  return s == 0 + 1 + 1 + 1 + 1 + 5 + 6 + 7 + 8 + 9 ? 0 : 1;  // rows 2..4 set to 1
}
