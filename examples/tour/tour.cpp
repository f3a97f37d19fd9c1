// SPDX-License-Identifier: BSD-3-Clause
// A tour of tack, one section per area: element types, arrays and growth, row views, Axom-style
// views, structure-of-arrays storage, implicit arrays, kernels and algorithms, DLPack, datasets.
// `make demo` builds and runs it.
#include <tack/tack.hpp>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>

namespace {
void section(const char* title) { std::cout << "\n== " << title << " ==\n"; }

// A kernel written once, for every layout and backend: a functor with a template call operator.
struct normalize_kernel {
  template <class V>
  TACK_HOST_DEVICE void operator()(tack::index_t i, V v) const {
    v[i] = tack::normalize(tack::vec3f(v[i]));
  }
};

// An analytic flow on a uniform grid: a vortex about the z axis that decays away from it, and its
// pressure. Point i of a grid of nx * ny * nz points is (i % nx, (i / nx) % ny, i / (nx * ny)).
struct vortex_kernel {
  tack::index_t nx, ny;
  tack::vec3d origin, spacing;
  template <class V, class P>
  TACK_HOST_DEVICE void operator()(tack::index_t i, V velocity, P pressure) const {
    const double x = origin[0] + spacing[0] * double(i % nx);
    const double y = origin[1] + spacing[1] * double((i / nx) % ny);
    const double z = origin[2] + spacing[2] * double(i / (nx * ny));
    const double swirl = std::exp(-2 * (x * x + y * y));
    velocity[i] = tack::vec3f{float(-y * swirl), float(x * swirl), float(0.1 * z)};
    pressure[i] = float(-swirl);
  }
};
}  // namespace

int main(int argc, char** argv) {
  std::cout << "tack " << TACK_VERSION_STRING << " — typed arrays and zero-copy views\n";

  section("Element types");
  tack::vec3f up{0, 0, 1}, east{1, 0, 0};
  tack::mat2d m{{4, 7}, {2, 6}};
  std::cout << "cross(east, up) = " << tack::to_string(tack::cross(east, up)) << "\n";
  std::cout << "inverse([[4, 7], [2, 6]]) = " << tack::to_string(tack::inverse(m)) << "\n";
  std::cout << "dtype of mat3f: " << tack::dtype_of<tack::mat3f>().name() << "\n";

  section("Arrays and growth (as Axom's Array grows)");
  tack::array<int> a;
  a.push_back(2);
  a.push_back(5);
  a.push_back(11);
  std::cout << "Length of a = " << a.size() << "\n";
  a.push_back(4);
  std::cout << "After appending a value, a's length = " << a.size() << "\n";
  std::cout << "Array a = " << a << "\n";
  a.insert(2, 6);
  a.insert(4, 1);
  std::cout << "After inserting two values, Array a = " << a << "\n";
  tack::mc_array<int> b = tack::array_from<int>({{1, 4, 2}, {8, 0, -1}});
  std::cout << "MCArray b with 2 3-tuples = " << b << "\n";
  b.insert(1, {0, -1, 1, 1, -1, 0});
  std::cout << "MCArray b with 4 3-tuples = " << b << "\n";
  std::cout << "capacity " << a.capacity() << ", resize ratio " << a.resize_ratio() << "\n";
  {
    auto big = tack::zeros<double>(std::int64_t{1} << 22);  // 32 MiB, freed at the brace
  }
  // Freed large blocks wait for reuse (a fresh block costs a page fault per page on first touch).
  std::cout << "host blocks kept for reuse: " << tack::host_cached_bytes() / (1 << 20)
            << " MiB (limit " << tack::host_cache_limit() / (1 << 20) << " MiB)\n";

  section("Element types in arrays");
  auto velocity = tack::empty<tack::vec3f>(100);
  velocity.fill({1.0f, 0.0f, 0.0f});
  std::cout << velocity.describe() << ", storage shape "
            << tack::shape_string(velocity.storage_shape()) << "\n";

  section("Row views");
  auto rows = tack::zeros<double>({6, 3});
  auto middle = rows[tack::slice(2, 4)];  // rows 2 and 3, the same memory
  middle.fill(1.0);
  std::cout << "rows = " << rows << "\n";
  std::cout << "middle: " << middle.describe() << "\n";
  std::cout << "rows(3, 0) = " << rows(3, 0) << ", rows(4, 0) = " << rows(4, 0) << "\n";

  section("Views with spacing (Axom's ArrayView)");
  auto flat = tack::array_from({2, 5, 6, 11, 1, 4});
  tack::mc_array_view<int> c(flat.data(), 3, 2);
  c(0, 0) = 1;
  c(1, 1) = 9;
  std::cout << "Array a = " << flat << "; MCArrayView c yields:";
  for (int v : c) std::cout << " " << v;
  std::cout << "\n";

  section("Structure-of-arrays storage");
  auto x = tack::array_from<float>({3, 0, 0});
  auto y = tack::array_from<float>({4, 2, 0});
  auto z = tack::array_from<float>({0, 0, 5});
  auto pos = tack::soa(x, y, z);  // no copy: three existing coordinate arrays
  std::cout << pos.describe() << " = " << pos << "\n";
  tack::launch(pos.size(), normalize_kernel{}, pos);  // the kernel gets a tack::soa_view
  std::cout << "normalized in place: " << pos << " (x is now " << x << ")\n";
  auto interleaved = pos.copy({.layout = tack::layout::aos});
  tack::launch(interleaved.size(), normalize_kernel{}, interleaved);  // same kernel, tack::view
  std::cout << "the same kernel over an interleaved copy: " << interleaved << "\n";

  section("Implicit arrays");
  auto squares =
      tack::arrays::transform(tack::arrays::counting<double>(5), [](double v) { return v * v; });
  std::cout << "transform(counting(5), v*v) =";
  for (tack::index_t i = 0; i < squares.size(); ++i) std::cout << " " << squares[i];
  std::cout << "\n";
  auto out = tack::zeros<double>(5);
  tack::copyto(out, squares);
  std::cout << "copied into an array: " << out << "\n";
  auto order = tack::array_from<int>({4, 3, 2, 1, 0});
  tack::copyto(tack::arrays::permutation(order, out), tack::arrays::counting<double>(5));
  std::cout << "scattered through permutation([4 3 2 1 0]): " << out << "\n";
  // A sum of computed values reads no memory and runs the loop one writes by hand (vectorized).
  auto cubes = tack::arrays::transform(tack::arrays::counting<std::int64_t>(1000),
                                       [](std::int64_t v) { return v * v * v; });
  std::cout << "sum of i^3 for i < 1000, nothing stored: " << tack::sum(cubes) << "\n";

  section("Kernels and algorithms");
  auto values = tack::array_from<float>({2, 5, 11, 4});
  std::cout << "sum " << tack::sum(values) << ", min " << tack::min(values) << ", max "
            << tack::max(values) << ", mean " << tack::mean(values) << "\n";
  std::cout << "sum(a * a) without storing a * a: " << tack::sum(values * values) << "\n";
  tack::sort(values);
  std::cout << "sorted: " << values << "\n";
  auto sum = tack::parallel_reduce(
      1000, 0.0, [](tack::index_t i) { return double(i); }, tack::ops::plus{});
  std::cout << "parallel_reduce of 0..999 = " << sum << " on " << tack::num_threads()
            << " thread(s)\n";

  section("DLPack interop");
  auto grid = tack::zeros<float>({4, 3});
  auto* tensor = tack::to_dlpack(grid.rows(1, 3));  // a view: the root's memory, a byte offset
  std::cout << "exported rows [1, 3) of a (4, 3) array: ndim " << tensor->dl_tensor.ndim
            << ", shape (" << tensor->dl_tensor.shape[0] << ", " << tensor->dl_tensor.shape[1]
            << "), byte_offset " << tensor->dl_tensor.byte_offset << "\n";
  auto back = tack::from_dlpack<float, 2>(tensor);  // takes the tensor; its deleter runs once
  back.fill(7.0f);
  std::cout << "written through the imported view: " << grid << "\n";
  // While an export lives, the root cannot move to a new block (the export would dangle).
  try {
    grid.reserve(100);
  } catch (const tack::value_error& e) {
    std::cout << "growing an exported root: " << e.what() << "\n";
  }
  back = {};  // the import releases the tensor: growth works again
  grid.reserve(100);
  std::cout << "after the import is gone, capacity " << grid.capacity() << " rows\n";

  section("Dataset fields");
  namespace td = tack::dataset;
  td::uniform_grid flow({64, 64, 8}, {-1.5, -1.5, 0}, {3.0 / 63, 3.0 / 63, 1.0 / 7});
  auto space = td::H1(flow);  // one value per point, trilinear in each cell
  auto swirl = tack::empty<tack::vec3f>(space.size());
  auto pressure = tack::empty<float>(space.size());
  tack::launch(space.size(), vortex_kernel{64, 64, flow.origin(), flow.spacing()}, swirl, pressure);
  flow.fields["velocity"] = td::field(space, swirl);
  flow.fields["pressure"] = td::field(space, pressure);
  std::cout << flow.describe() << ", fields:";
  for (const auto& [name, f] : flow.fields)
    std::cout << " " << name << " (" << f.dtype().name() << ")";
  std::cout << "\n";
  const tack::vec3f u =
      flow.fields["velocity"].as<tack::vec3f>().interpolate(tack::vec3d{0.5, 0, 0.5});
  std::cout << "velocity at (0.5, 0, 0.5): " << tack::to_string(u) << " (exact: (0, "
            << 0.5 * std::exp(-0.5) << ", 0.05))\n";
  const std::string path =
      argc > 1 ? std::string(argv[1])
               : (std::filesystem::temp_directory_path() / "tack_tour.vti").string();
  td::write_vtk(flow, path);  // appended raw binary; ParaView and VTK open it
  auto again = td::read_vtk_as<td::uniform_grid>(path);
  std::cout << "wrote " << path << " (" << std::filesystem::file_size(path)
            << " bytes) and read back " << again.describe() << " with " << again.fields.size()
            << " fields\n";
  return 0;
}
