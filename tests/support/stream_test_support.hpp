// Test support for the stream tests: an instrumented producer whose batches
// count themselves alive, and helpers to read them back. Test-only.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rowbridge/stream.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::stream::testing {

/// Counts shared by a producer and every batch it made.
struct BatchCounters {
  std::atomic<int64_t> alive{0};
  std::atomic<int64_t> max_alive{0};
  std::atomic<int64_t> started{0};   // Produce calls entered
  std::atomic<int64_t> produced{0};  // batches made
  std::atomic<int64_t> concurrent{0};
  std::atomic<int64_t> max_concurrent{0};
  std::atomic<bool> cancel_called{false};
  std::mutex threads_mutex;
  std::map<std::thread::id, int64_t> threads;  // Produce calls per thread

  static void Raise(std::atomic<int64_t>* max, int64_t value) {
    int64_t seen = max->load();
    while (value > seen && !max->compare_exchange_weak(seen, value)) {
    }
  }
};

/// A batch: struct<v: int64> of `rows` rows, every value == index. Its
/// release decrements counters->alive.
struct CountedBatch {
  std::vector<int64_t> values;
  const void* struct_buffers[1] = {nullptr};
  const void* child_buffers[2] = {nullptr, nullptr};
  ArrowArray child{};
  ArrowArray* children[1] = {&child};
  std::shared_ptr<BatchCounters> counters;
};

inline void ReleaseCountedChild(ArrowArray* array) { array->release = nullptr; }

inline void ReleaseCountedBatch(ArrowArray* array) {
  auto* batch = static_cast<CountedBatch*>(array->private_data);
  if (batch->child.release != nullptr) batch->child.release(&batch->child);
  batch->counters->alive.fetch_sub(1);
  delete batch;
  array->release = nullptr;
}

inline void MakeCountedBatch(int64_t index, int64_t rows, std::shared_ptr<BatchCounters> counters,
                             ArrowArray* out) {
  auto* batch = new CountedBatch;
  batch->values.assign(static_cast<size_t>(rows), index);
  batch->counters = std::move(counters);
  batch->child_buffers[1] = batch->values.data();
  batch->child = ArrowArray{
      rows, 0, 0, 2, 0, batch->child_buffers, nullptr, nullptr, ReleaseCountedChild, nullptr};
  *out = ArrowArray{
      rows, 0, 0, 1, 1, batch->struct_buffers, batch->children, nullptr, ReleaseCountedBatch,
      batch};
  BatchCounters::Raise(&batch->counters->max_alive, batch->counters->alive.fetch_add(1) + 1);
  batch->counters->produced.fetch_add(1);
}

/// The index a counted batch carries (its first value).
inline int64_t BatchIndex(const ArrowArray& array) {
  if (array.n_children != 1 || array.length == 0) return -1;
  const auto* values = static_cast<const int64_t*>(array.children[0]->buffers[1]);
  return values[array.children[0]->offset];
}

inline void ExportCountedSchema(ArrowSchema* out) {
  rowbridge::testing::TestArray column =
      rowbridge::testing::Primitive<int64_t>("l", "v", std::vector<std::optional<int64_t>>{});
  rowbridge::testing::TestArray root;
  root.format = "+s";
  root.children.push_back(column);
  rowbridge::testing::ExportSchema(root, out);
}

/// What a CountingProducer does.
struct ProducerPlan {
  int64_t batches = 100;
  int64_t rows = 4;
  bool parallel = true;
  /// Report num_batches() (else -1, and Produce signals the end).
  bool known_count = true;
  /// Fail batch `fail_at` with Invalid("planned failure at batch k").
  int64_t fail_at = -1;
  /// Throw from batch `throw_at`: 0 std::runtime_error, 1 an int, 2 bad_alloc.
  int64_t throw_at = -1;
  int throw_kind = 0;
  /// Busy time per batch; `slow_first` makes early indexes slower (so later
  /// ones finish first in parallel).
  std::chrono::microseconds work{0};
  bool slow_first = false;
  /// Produce blocks until Cancel() is called.
  bool block_until_cancel = false;
  /// When set, Produce waits until it is true (e.g. until every stream of a
  /// test is made, so that none starts ahead of the others).
  std::shared_ptr<std::atomic<bool>> gate;
};

class CountingProducer : public BatchProducer {
 public:
  CountingProducer(ProducerPlan plan, std::shared_ptr<BatchCounters> counters)
      : plan_(plan), counters_(std::move(counters)) {}

  Status ExportSchema(ArrowSchema* out) override {
    ExportCountedSchema(out);
    return Status::Ok();
  }
  int64_t num_batches() const override { return plan_.known_count ? plan_.batches : -1; }
  bool parallel() const override { return plan_.parallel; }

  Status Produce(int64_t index, ArrowArray* out, bool* end_of_stream) override {
    counters_->started.fetch_add(1);
    {
      std::lock_guard<std::mutex> lock(counters_->threads_mutex);
      ++counters_->threads[std::this_thread::get_id()];
    }
    BatchCounters::Raise(&counters_->max_concurrent, counters_->concurrent.fetch_add(1) + 1);
    struct Leave {
      BatchCounters* c;
      ~Leave() { c->concurrent.fetch_sub(1); }
    } leave{counters_.get()};
    if (!plan_.parallel) {
      EXPECT_EQ(index, next_sequential_) << "sequential producer called out of order";
      next_sequential_ = index + 1;
    }
    if (plan_.block_until_cancel) {
      std::unique_lock<std::mutex> lock(mutex_);
      cancelled_.wait(lock, [&] { return cancel_; });
      return Status::Invalid("cancelled producer");
    }
    while (plan_.gate != nullptr && !plan_.gate->load()) std::this_thread::yield();
    auto work = plan_.work;
    if (plan_.slow_first && index % 4 == 0) work *= 8;
    if (work.count() > 0) Spin(work);
    if (index >= plan_.batches) {
      *end_of_stream = true;
      return Status::Ok();
    }
    if (index == plan_.fail_at) {
      return Status::Invalid("planned failure at batch " + std::to_string(index));
    }
    if (index == plan_.throw_at) {
      if (plan_.throw_kind == 0) throw std::runtime_error("planned exception");
      if (plan_.throw_kind == 1) throw 42;
      throw std::bad_alloc();
    }
    MakeCountedBatch(index, plan_.rows, counters_, out);
    return Status::Ok();
  }

  void Cancel() override {
    counters_->cancel_called = true;
    std::lock_guard<std::mutex> lock(mutex_);
    cancel_ = true;
    cancelled_.notify_all();
  }

  static void Spin(std::chrono::microseconds duration) {
    auto until = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
  }

 private:
  ProducerPlan plan_;
  std::shared_ptr<BatchCounters> counters_;
  int64_t next_sequential_ = 0;
  std::mutex mutex_;
  std::condition_variable cancelled_;
  bool cancel_ = false;
};

inline std::unique_ptr<BatchProducer> Counting(const ProducerPlan& plan,
                                               std::shared_ptr<BatchCounters> counters) {
  return std::make_unique<CountingProducer>(plan, std::move(counters));
}

/// A pool of `threads` workers, failing the test when it cannot start.
inline std::shared_ptr<WorkerPool> Pool(int32_t threads) {
  std::shared_ptr<WorkerPool> pool;
  Status status = WorkerPool::Make(threads, &pool);
  EXPECT_TRUE(status.ok()) << status.message();
  return pool;
}

/// Polls `condition` until it holds or `timeout` passes; returns it.
inline bool Eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(10000)) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

/// The threads of this process (entries of /proc/self/task).
inline int64_t ThreadCount() {
  int64_t count = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] != '.') ++count;
    }
    closedir(dir);
  }
  return count;
}

/// A field of /proc/self/status in kB (e.g. "RssAnon"), or -1.
inline int64_t StatusKilobytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return -1;
}

}  // namespace rowbridge::stream::testing
