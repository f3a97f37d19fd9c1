// An outside project's HIP source: found tack with find_package, enabled HIP with
// tack_enable_hip_language(), links tack::tack, and runs a kernel on tack's HIP backend. Where no
// AMD GPU is present it checks that the device is refused by name instead, and passes.
#include <tack/tack.hpp>

#include <cstdio>
#include <string>

namespace {
struct store_index {
  template <class V>
  TACK_HOST_DEVICE void operator()(tack::index_t i, V v) const {
    v[i] = static_cast<double>(i);
  }
};
}  // namespace

int main() {
  static_assert(tack::backend_available_v<tack::hip_backend>, "compiled by hipcc in a HIP build");
  if (!tack::is_available(tack::hip(0))) {
    try {
      auto a = tack::zeros<double>(4, {.device = tack::hip(0)});
    } catch (const tack::device_error& e) {
      const std::string what = e.what();
      std::printf("tack %s, HIP consumer: no AMD GPU here (%s)\n", TACK_VERSION_STRING, e.what());
      return what.find("hip:0") != std::string::npos ? 0 : 1;
    }
    return 1;
  }
  auto a = tack::zeros<double>(1000, {.device = tack::hip(0)});
  tack::launch(a.device(), a.size(), store_index{}, a);
  const double s = tack::sum(a);
  std::printf("tack %s, HIP consumer: sum %g on %s\n", TACK_VERSION_STRING, s,
              a.device().str().c_str());
  return s == 999.0 * 1000.0 / 2 ? 0 : 1;
}
