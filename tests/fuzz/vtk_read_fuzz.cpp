// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// libFuzzer target over tack::dataset::read_vtk: any bytes, as a .vtu/.vti/.vtr file, either read
// or refused with tack::value_error (anything else, or a crash, is a finding).
#include <tack/dataset/all.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    char name[] = "/tmp/tack_vtk_fuzz_XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd >= 0) ::close(fd);
    return std::string(name);
  }();
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  try {
    (void)tack::dataset::read_vtk(path);
  } catch (const tack::value_error&) {
  } catch (const tack::out_of_memory&) {
  }
  return 0;
}
