// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The MPI calls behind tack::mpi's headers: environment, communicator, requests, datatypes,
// collectives and the collective agreement check.

#include "state.hpp"

#include <tack/mpi/communicator.hpp>
#include <tack/mpi/detail/transport.hpp>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace tack::mpi {
namespace detail {

std::string error_string(int code) {
  char buf[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(buf, static_cast<std::size_t>(len));
}

void check(int rc, const char* what, const char* call) {
  if (rc == MPI_SUCCESS) return;
  int cls = rc;
  MPI_Error_class(rc, &cls);
  throw mpi_error(std::string(what) + ": " + call + " failed: " + error_string(rc), cls);
}

void require_initialized(const char* what) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin) {
    throw value_error(std::string(what) + ": MPI is " + (fin ? "finalized" : "not initialized") +
                      "; create a tack::mpi::environment first (or call MPI_Init)");
  }
}

MPI_Comm comm_of(const communicator& c, const char* what) {
  if (!c.valid()) {
    throw value_error(std::string(what) +
                      ": the communicator handle is empty; use "
                      "tack::mpi::communicator::world() or tack::mpi::from_native(comm)");
  }
  return c.state()->comm;
}

int to_int(std::size_t n, const char* what, const char* name) {
  if (n > static_cast<std::size_t>(INT_MAX)) {
    throw value_error(std::string(what) + ": " + name + " of " + std::to_string(n) +
                      " bytes exceeds what one MPI call can count (" + std::to_string(INT_MAX) +
                      "); split the array into pieces below 2 GiB");
  }
  return static_cast<int>(n);
}

comm_state::~comm_state() {
  int fin = 0;
  MPI_Finalized(&fin);
  if (owned && !fin && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

MPI_Datatype mpi_type(scalar_kind k) {
  switch (k) {
    case scalar_kind::f32:
      return MPI_FLOAT;
    case scalar_kind::f64:
      return MPI_DOUBLE;
    case scalar_kind::i8:
      return MPI_INT8_T;
    case scalar_kind::i16:
      return MPI_INT16_T;
    case scalar_kind::i32:
      return MPI_INT32_T;
    case scalar_kind::i64:
      return MPI_INT64_T;
    case scalar_kind::u8:
      return MPI_UINT8_T;
    case scalar_kind::u16:
      return MPI_UINT16_T;
    case scalar_kind::u32:
      return MPI_UINT32_T;
    case scalar_kind::u64:
      return MPI_UINT64_T;
    case scalar_kind::boolean:
      return MPI_CXX_BOOL;
  }
  return MPI_BYTE;
}

MPI_Op mpi_op(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return MPI_SUM;
    case reduce_op::min:
      return MPI_MIN;
    case reduce_op::max:
      return MPI_MAX;
  }
  return MPI_SUM;
}

void allreduce(const communicator& c, const void* in, void* out, int count, scalar_kind k,
               reduce_op op, const char* what) {
  check(MPI_Allreduce(in, out, count, mpi_type(k), mpi_op(op), comm_of(c, what)), what,
        "MPI_Allreduce");
}

void allgather(const communicator& c, const void* in, std::size_t bytes, void* out,
               const char* what) {
  const int n = to_int(bytes, what, "a message");
  check(MPI_Allgather(in, n, MPI_BYTE, out, n, MPI_BYTE, comm_of(c, what)), what, "MPI_Allgather");
}

void bcast(const communicator& c, void* data, std::size_t bytes, int root, const char* what) {
  check(MPI_Bcast(data, to_int(bytes, what, "a message"), MPI_BYTE, root, comm_of(c, what)), what,
        "MPI_Bcast");
}

namespace {
std::vector<int> ints(const std::vector<std::size_t>& v, const char* what, const char* name) {
  std::vector<int> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_int(v[i], what, name);
  return out;
}
}  // namespace

void gatherv(const communicator& c, const void* in, std::size_t bytes, void* out,
             const std::vector<std::size_t>& counts, const std::vector<std::size_t>& displs,
             int root, const char* what) {
  MPI_Comm comm = comm_of(c, what);
  const bool is_root = c.rank() == root;
  std::vector<int> rc, rd;
  if (is_root) {
    rc = ints(counts, what, "a piece");
    rd = ints(displs, what, "the gathered array");
  }
  check(
      MPI_Gatherv(in, to_int(bytes, what, "a piece"), MPI_BYTE, out, is_root ? rc.data() : nullptr,
                  is_root ? rd.data() : nullptr, MPI_BYTE, root, comm),
      what, "MPI_Gatherv");
}

void scatterv(const communicator& c, const void* in, const std::vector<std::size_t>& counts,
              const std::vector<std::size_t>& displs, void* out, std::size_t bytes, int root,
              const char* what) {
  MPI_Comm comm = comm_of(c, what);
  const bool is_root = c.rank() == root;
  std::vector<int> sc, sd;
  if (is_root) {
    sc = ints(counts, what, "a piece");
    sd = ints(displs, what, "the scattered array");
  }
  check(MPI_Scatterv(in, is_root ? sc.data() : nullptr, is_root ? sd.data() : nullptr, MPI_BYTE,
                     out, to_int(bytes, what, "a piece"), MPI_BYTE, root, comm),
        what, "MPI_Scatterv");
}

void alltoallv(const communicator& c, const void* send, const std::vector<std::size_t>& scounts,
               const std::vector<std::size_t>& sdispls, void* recv,
               const std::vector<std::size_t>& rcounts, const std::vector<std::size_t>& rdispls,
               const char* what) {
  auto sc = ints(scounts, what, "a message");
  auto sd = ints(sdispls, what, "a piece");
  auto rc = ints(rcounts, what, "a message");
  auto rd = ints(rdispls, what, "a piece");
  check(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE,
                      comm_of(c, what)),
        what, "MPI_Alltoallv");
}

void sendrecv(const communicator& c, const void* send, std::size_t sbytes, int dest, void* recv,
              std::size_t rbytes, int source, int tag, const char* what) {
  check(MPI_Sendrecv(send, to_int(sbytes, what, "a message"), MPI_BYTE, dest, tag, recv,
                     to_int(rbytes, what, "a message"), MPI_BYTE, source, tag, comm_of(c, what),
                     MPI_STATUS_IGNORE),
        what, "MPI_Sendrecv");
}

double wtime() { return MPI_Wtime(); }

void abort(const communicator& c, int code) {
  MPI_Abort(c.valid() ? c.state()->comm : MPI_COMM_WORLD, code);
  std::abort();
}

// ---- datatypes ------------------------------------------------------------------------------

struct datatype::state {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  ~state() {
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin && type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
  }
};

datatype datatype::subarray(const std::array<index_t, 3>& sizes,
                            const std::array<index_t, 3>& subsizes,
                            const std::array<index_t, 3>& starts, std::size_t element_bytes) {
  const char* what = "tack::mpi::datatype::subarray";
  int sz[3], sub[3], st[3];
  for (int d = 0; d < 3; ++d) {
    sz[d] = to_int(static_cast<std::size_t>(sizes[static_cast<std::size_t>(d)]), what, "an extent");
    sub[d] =
        to_int(static_cast<std::size_t>(subsizes[static_cast<std::size_t>(d)]), what, "an extent");
    st[d] =
        to_int(static_cast<std::size_t>(starts[static_cast<std::size_t>(d)]), what, "an offset");
  }
  MPI_Datatype element = MPI_DATATYPE_NULL;
  check(MPI_Type_contiguous(to_int(element_bytes, what, "an element"), MPI_BYTE, &element), what,
        "MPI_Type_contiguous");
  datatype out;
  out.state_ = std::make_shared<state>();
  const int rc = MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, element, &out.state_->type);
  MPI_Type_free(&element);
  check(rc, what, "MPI_Type_create_subarray");
  check(MPI_Type_commit(&out.state_->type), what, "MPI_Type_commit");
  return out;
}

// ---- requests -------------------------------------------------------------------------------

struct request_list::impl {
  std::vector<MPI_Request> requests;
};

request_list::request_list() : impl_(std::make_unique<impl>()) {}
request_list::~request_list() {
  // Requests still posted (an exception between posting and waiting) must complete before their
  // memory can go: wait for them and ignore their errors.
  if (impl_ && !impl_->requests.empty()) {
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) {
      MPI_Waitall(static_cast<int>(impl_->requests.size()), impl_->requests.data(),
                  MPI_STATUSES_IGNORE);
    }
  }
}
request_list::request_list(request_list&&) noexcept = default;
request_list& request_list::operator=(request_list&&) noexcept = default;

void request_list::irecv(const communicator& c, void* p, std::size_t bytes, int source, int tag,
                         const char* what) {
  MPI_Request r;
  check(MPI_Irecv(p, to_int(bytes, what, "a message"), MPI_BYTE, source, tag, comm_of(c, what), &r),
        what, "MPI_Irecv");
  impl_->requests.push_back(r);
}
void request_list::isend(const communicator& c, const void* p, std::size_t bytes, int dest, int tag,
                         const char* what) {
  MPI_Request r;
  check(MPI_Isend(p, to_int(bytes, what, "a message"), MPI_BYTE, dest, tag, comm_of(c, what), &r),
        what, "MPI_Isend");
  impl_->requests.push_back(r);
}
void request_list::irecv(const communicator& c, void* p, const datatype& t, int source, int tag,
                         const char* what) {
  MPI_Request r;
  check(MPI_Irecv(p, 1, t.get()->type, source, tag, comm_of(c, what), &r), what, "MPI_Irecv");
  impl_->requests.push_back(r);
}
void request_list::isend(const communicator& c, const void* p, const datatype& t, int dest, int tag,
                         const char* what) {
  MPI_Request r;
  check(MPI_Isend(p, 1, t.get()->type, dest, tag, comm_of(c, what), &r), what, "MPI_Isend");
  impl_->requests.push_back(r);
}
void request_list::wait_all(const char* what) {
  auto& rq = impl_->requests;
  if (rq.empty()) return;
  std::vector<MPI_Status> st(rq.size());
  const int rc = MPI_Waitall(static_cast<int>(rq.size()), rq.data(), st.data());
  rq.clear();
  if (rc == MPI_ERR_IN_STATUS) {
    for (auto& s : st) check(s.MPI_ERROR, what, "MPI_Waitall");
  }
  check(rc, what, "MPI_Waitall");
}
std::size_t request_list::size() const noexcept { return impl_->requests.size(); }

// ---- agreement ------------------------------------------------------------------------------

std::uint64_t hash_bytes(const void* p, std::size_t n, std::uint64_t h) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

void agree(const communicator& c, const char* what, const std::string& description) {
  const std::uint64_t h = hash_bytes(description.data(), description.size());
  const std::uint64_t in[2] = {h, ~h};
  std::uint64_t out[2] = {0, 0};
  allreduce(c, in, out, 2, scalar_kind::u64, reduce_op::max, what);
  if (out[0] == ~out[1]) return;  // max(h) == min(h): every rank passed the same
  // They differ: every rank saw it, so every rank takes part in collecting the descriptions.
  std::uint64_t len = description.size(), maxlen = 0;
  allreduce(c, &len, &maxlen, 1, scalar_kind::u64, reduce_op::max, what);
  std::vector<char> mine(maxlen + 1, '\0'), all((maxlen + 1) * static_cast<std::size_t>(c.size()));
  std::memcpy(mine.data(), description.data(), description.size());
  allgather(c, mine.data(), mine.size(), all.data(), what);
  std::map<std::string, std::vector<int>> groups;
  for (int r = 0; r < c.size(); ++r)
    groups[std::string(&all[static_cast<std::size_t>(r) * (maxlen + 1)])].push_back(r);
  std::string msg = std::string(what) + ": the ranks of " + c.describe() +
                    " disagree (every rank must pass the same): ";
  bool first = true;
  for (auto& [desc, ranks] : groups) {
    if (!first) msg += "; ";
    first = false;
    msg += ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (i) msg += ",";
      msg += std::to_string(ranks[i]);
    }
    msg += " passed " + desc;
  }
  throw value_error(msg);
}

communicator cart_create(const communicator& c, std::array<int, 3>& dims,
                         const std::array<bool, 3>& periodic, std::array<int, 3>& coords,
                         std::array<std::array<int, 2>, 3>& neighbors, const char* what) {
  MPI_Comm comm = comm_of(c, what);
  check(MPI_Dims_create(c.size(), 3, dims.data()), what, "MPI_Dims_create");
  const int per[3] = {periodic[0] ? 1 : 0, periodic[1] ? 1 : 0, periodic[2] ? 1 : 0};
  auto s = std::make_shared<comm_state>();
  check(MPI_Cart_create(comm, 3, dims.data(), per, 0, &s->comm), what, "MPI_Cart_create");
  s->owned = true;
  MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  int me = 0;
  check(MPI_Comm_rank(s->comm, &me), what, "MPI_Comm_rank");
  check(MPI_Cart_coords(s->comm, me, 3, coords.data()), what, "MPI_Cart_coords");
  for (int d = 0; d < 3; ++d) {
    int lo = MPI_PROC_NULL, hi = MPI_PROC_NULL;
    check(MPI_Cart_shift(s->comm, d, 1, &lo, &hi), what, "MPI_Cart_shift");
    neighbors[static_cast<std::size_t>(d)] = {lo == MPI_PROC_NULL ? -1 : lo,
                                              hi == MPI_PROC_NULL ? -1 : hi};
  }
  return communicator(s);
}

bool cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

}  // namespace detail

// ---- environment ----------------------------------------------------------------------------

environment::environment() {
  int init = 0;
  MPI_Initialized(&init);
  if (init) return;
  int provided = 0;
  detail::check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided),
                "tack::mpi::environment", "MPI_Init_thread");
  owns_ = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

environment::environment(int& argc, char**& argv) {
  int init = 0;
  MPI_Initialized(&init);
  if (init) return;
  int provided = 0;
  detail::check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided),
                "tack::mpi::environment", "MPI_Init_thread");
  owns_ = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

environment::~environment() {
  int fin = 0;
  MPI_Finalized(&fin);
  if (owns_ && !fin) MPI_Finalize();
}

bool environment::initialized() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

bool environment::cuda_aware() { return detail::cuda_aware(); }

std::string environment::library_version() {
  char buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(buf, &len);
  std::string s(buf, static_cast<std::size_t>(len));
  return s.substr(0, s.find_first_of("\n,"));
}

// ---- communicator ---------------------------------------------------------------------------

communicator communicator::world() {
  detail::require_initialized("tack::mpi::communicator::world");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static std::weak_ptr<detail::comm_state> cached;
  auto s = cached.lock();
  if (!s) {
    s = std::make_shared<detail::comm_state>();
    s->comm = MPI_COMM_WORLD;
    s->owned = false;
    cached = s;
  }
  return communicator(s);
}

int communicator::rank() const {
  int r = 0;
  detail::check(MPI_Comm_rank(detail::comm_of(*this, "tack::mpi::communicator::rank"), &r),
                "tack::mpi::communicator::rank", "MPI_Comm_rank");
  return r;
}

int communicator::size() const {
  int n = 0;
  detail::check(MPI_Comm_size(detail::comm_of(*this, "tack::mpi::communicator::size"), &n),
                "tack::mpi::communicator::size", "MPI_Comm_size");
  return n;
}

void communicator::barrier() const {
  detail::check(MPI_Barrier(detail::comm_of(*this, "tack::mpi::communicator::barrier")),
                "tack::mpi::communicator::barrier", "MPI_Barrier");
}

communicator communicator::dup() const {
  const char* what = "tack::mpi::communicator::dup";
  auto s = std::make_shared<detail::comm_state>();
  detail::check(MPI_Comm_dup(detail::comm_of(*this, what), &s->comm), what, "MPI_Comm_dup");
  s->owned = true;
  MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  return communicator(s);
}

communicator communicator::split(int color, int key) const {
  const char* what = "tack::mpi::communicator::split";
  auto s = std::make_shared<detail::comm_state>();
  detail::check(MPI_Comm_split(detail::comm_of(*this, what), color, key, &s->comm), what,
                "MPI_Comm_split");
  s->owned = true;
  if (s->comm != MPI_COMM_NULL) MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  return communicator(s);
}

std::string communicator::describe() const {
  if (!valid()) return "communicator (empty)";
  return "communicator of " + std::to_string(size()) + " rank" + (size() == 1 ? "" : "s") +
         " (this is rank " + std::to_string(rank()) + ")";
}

}  // namespace tack::mpi

// ---- native communicators -------------------------------------------------------------------
#include <tack/mpi/native.hpp>

namespace tack::mpi {

communicator from_native(MPI_Comm comm, adopt how) {
  const char* what = "tack::mpi::from_native";
  detail::require_initialized(what);
  if (comm == MPI_COMM_NULL) {
    throw value_error(std::string(what) +
                      ": MPI_COMM_NULL is not a communicator (a rank outside "
                      "an MPI_Comm_split color gets it)");
  }
  auto s = std::make_shared<detail::comm_state>();
  if (how == adopt::duplicate) {
    detail::check(MPI_Comm_dup(comm, &s->comm), what, "MPI_Comm_dup");
    s->owned = true;
    MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  } else {
    s->comm = comm;
    s->owned = false;
  }
  return communicator(s);
}

MPI_Comm native(const communicator& c) { return detail::comm_of(c, "tack::mpi::native"); }

}  // namespace tack::mpi
