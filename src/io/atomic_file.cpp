// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include "atomic_file.hpp"

#include <tack/core/error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tack::detail {

atomic_file::atomic_file(std::string path, std::string op)
    : path_(std::move(path)), op_(std::move(op)) {
  const auto slash = path_.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path_.substr(0, slash));
  const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  tmp_ = (slash == std::string::npos ? std::string() : path_.substr(0, slash + 1)) + "." + base +
         ".tmp.XXXXXX";
  fd_ = ::mkstemp(tmp_.data());
  if (fd_ < 0) {
    const int err = errno;
    throw error(op_ + ": cannot write '" + path_ + "' (creating a file in '" + dir +
                "'): " + std::strerror(err));
  }
  ::fchmod(fd_, 0644);
  buf_.reserve(buffer_size);
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void atomic_file::put_slow(const void* data, std::size_t n) {
  flush();
  if (n >= buffer_size) {
    raw_write(data, n);
  } else {
    buf_.append(static_cast<const char*>(data), n);
  }
}

void atomic_file::flush() {
  if (!buf_.empty()) raw_write(buf_.data(), buf_.size());
  buf_.clear();
}

void atomic_file::commit() {
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
  committed_ = true;
}

void atomic_file::raw_write(const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    // One write moves at most 1 GiB: Linux caps a write near 2 GiB, and the loop takes the rest.
    const ssize_t w = ::write(fd_, p, std::min<std::size_t>(n, std::size_t{1} << 30));
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

void atomic_file::fail(int err) const {
  throw error(op_ + ": cannot write '" + path_ + "': " + std::strerror(err));
}

void write_file_atomically(const std::string& path, std::string_view text, std::string op) {
  atomic_file out(path, std::move(op));
  out.put(text);
  out.commit();
}

}  // namespace tack::detail
