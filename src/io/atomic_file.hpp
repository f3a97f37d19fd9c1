// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
// Files written whole or not at all: the bytes go to a temporary file in the destination's folder,
// which is renamed onto the destination only when everything was written. Used by every writer of
// files (tack::dataset::write_vtk and write_pvd, tack::amr::write_vtk).

#include <cstddef>
#include <string>
#include <string_view>

namespace tack::detail {

/// A file written through a buffer into `.<name>.tmp.XXXXXX` beside `path` and renamed onto `path`
/// by `commit()`; destroyed uncommitted (an exception on the way), it removes the temporary, so a
/// failure leaves neither the file nor the temporary. There is no `fsync`: the rename is atomic
/// against readers and failures, not against power loss (docs/decisions.md, "Files"). An OS error
/// is a `tack::error` naming `op`, the path and `strerror`.
/// `atomic_file out(path, "tack::dataset::write_pvd"); out.put(text); out.commit();`
class atomic_file {
public:
  /// Creates the temporary file (mode 0644); `op` names the operation in error messages.
  atomic_file(std::string path, std::string op);
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  ~atomic_file();

  void put(std::string_view s) { put(s.data(), s.size()); }
  /// Appends `n` bytes; blocks of a buffer's size or more bypass the buffer.
  void put(const void* data, std::size_t n) {
    if (buf_.size() + n <= buffer_size) {
      buf_.append(static_cast<const char*>(data), n);
    } else {
      put_slow(data, n);
    }
  }
  /// Writes what the buffer holds.
  void flush();
  /// Flushes, closes and renames the temporary file onto the path.
  void commit();

private:
  static constexpr std::size_t buffer_size = std::size_t{1} << 20;
  void put_slow(const void* data, std::size_t n);
  void raw_write(const void* data, std::size_t n);
  [[noreturn]] void fail(int err) const;

  std::string path_;
  std::string op_;
  std::string tmp_;
  int fd_ = -1;
  bool committed_ = false;
  std::string buf_;
};

/// Writes `text` as the whole content of `path` through an `atomic_file`.
/// `write_file_atomically("out/a.vthb", xml, "tack::amr::write_vtk");`
void write_file_atomically(const std::string& path, std::string_view text, std::string op);

}  // namespace tack::detail
