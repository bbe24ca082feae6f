// WorkerPool: a fixed set of threads taking requests from one FIFO queue.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "stream/pool_task.hpp"

namespace rowbridge::stream {

struct WorkerPool::Impl {
  std::mutex mutex;
  std::condition_variable work_ready;
  std::deque<std::shared_ptr<detail::PoolTask>> queue;
  bool stopping = false;
  std::vector<std::thread> threads;

  void WorkLoop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      work_ready.wait(lock, [&] { return stopping || !queue.empty(); });
      if (stopping) return;
      std::shared_ptr<detail::PoolTask> task = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      task->Run();
      task.reset();  // may destroy a closed stream's last remains, outside the lock
      lock.lock();
    }
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    work_ready.notify_all();
    for (std::thread& thread : threads) {
      if (thread.get_id() == std::this_thread::get_id()) {
        thread.detach();  // the last reference was dropped by one of our own workers
      } else if (thread.joinable()) {
        thread.join();
      }
    }
    threads.clear();
    std::deque<std::shared_ptr<detail::PoolTask>> dropped;
    std::lock_guard<std::mutex> lock(mutex);
    dropped.swap(queue);
  }
};

namespace {

struct DefaultPool {
  std::mutex mutex;
  std::shared_ptr<WorkerPool> pool;
};

/// Never destroyed: its threads may still run while static objects die.
DefaultPool& TheDefaultPool() {
  static DefaultPool* instance = new DefaultPool;
  return *instance;
}

}  // namespace

WorkerPool::WorkerPool(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

WorkerPool::~WorkerPool() { impl_->Stop(); }

int32_t WorkerPool::size() const { return static_cast<int32_t>(impl_->threads.size()); }

Status WorkerPool::Make(int32_t threads, std::shared_ptr<WorkerPool>* out) {
  if (threads < 1 || threads > kMaxThreads) {
    return Status::Invalid("worker pool: " + std::to_string(threads) +
                           " threads requested; the size must be 1 to " +
                           std::to_string(kMaxThreads));
  }
  try {
    auto impl = std::make_shared<Impl>();
    std::shared_ptr<WorkerPool> pool(new WorkerPool(impl));
    impl->threads.reserve(static_cast<size_t>(threads));
    for (int32_t i = 0; i < threads; ++i) {
      impl->threads.emplace_back([impl] { impl->WorkLoop(); });
    }
    *out = std::move(pool);  // on an exception above, ~WorkerPool stops what started
    return Status::Ok();
  } catch (const std::system_error& e) {
    return Status::Internal(std::string("worker pool: cannot start a thread: ") + e.what());
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("worker pool: out of memory");
  }
}

Status WorkerPool::InitDefault(int32_t threads) {
  DefaultPool& holder = TheDefaultPool();
  std::lock_guard<std::mutex> lock(holder.mutex);
  if (holder.pool != nullptr) {
    if (holder.pool->size() == threads) return Status::Ok();
    return Status::Invalid("worker pool: the process-wide pool already has " +
                           std::to_string(holder.pool->size()) + " threads; it cannot become " +
                           std::to_string(threads));
  }
  return Make(threads, &holder.pool);
}

Status WorkerPool::Default(std::shared_ptr<WorkerPool>* out) {
  DefaultPool& holder = TheDefaultPool();
  std::lock_guard<std::mutex> lock(holder.mutex);
  if (holder.pool == nullptr) {
    auto threads = static_cast<int32_t>(
        std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, kMaxThreads));
    ROWBRIDGE_RETURN_NOT_OK(Make(threads, &holder.pool));
  }
  *out = holder.pool;
  return Status::Ok();
}

namespace detail {

void PostTask(WorkerPool& pool, std::shared_ptr<PoolTask> task) {
  WorkerPool::Impl& impl = pool.impl();
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopping) return;
    impl.queue.push_back(std::move(task));
  }
  impl.work_ready.notify_one();
}

}  // namespace detail
}  // namespace rowbridge::stream
