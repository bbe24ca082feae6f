// WorkerPool: a fixed set of threads taking requests from one FIFO queue.
//
// Idle workers wait on a stack and a request wakes the one that went idle
// last. So a light load (one stream asking for W batches at a time) keeps
// running on the same few threads, whatever the pool size: their caches stay
// warm, and only their malloc arenas hold the freed batch buffers (with glibc
// every thread that allocates gets an arena that keeps what it freed, so
// spreading one stream over 16 workers would grow resident memory 16-fold).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "stream/pool_task.hpp"

namespace rowbridge::stream {
namespace {

/// The pool whose worker this thread is, if any.
thread_local const WorkerPool::Impl* current_pool = nullptr;

}  // namespace

struct WorkerPool::Impl {
  /// One worker's wake-up signal, set by the thread that pops it off `idle`.
  struct Waiter {
    std::condition_variable wake;
    bool woken = false;
  };

  std::mutex mutex;
  std::deque<std::shared_ptr<detail::PoolTask>> queue;
  std::vector<Waiter*> idle;  // a stack: the last to go idle is woken first
  bool stopping = false;
  std::vector<std::unique_ptr<Waiter>> waiters;  // one per thread, as long as the Impl
  std::vector<std::thread> threads;
  /// Workers running a task now.
  std::atomic<int32_t> busy{0};

  void WorkLoop(Waiter& self) {
    current_pool = this;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      if (stopping) return;
      if (queue.empty()) {
        self.woken = false;
        idle.push_back(&self);  // reserved: threads.size() entries, never grows past
        self.wake.wait(lock, [&] { return self.woken; });
        continue;
      }
      std::shared_ptr<detail::PoolTask> task = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      busy.fetch_add(1, std::memory_order_relaxed);
      task->Run();
      task.reset();  // may destroy a closed stream's last remains, outside the lock
      busy.fetch_sub(1, std::memory_order_relaxed);
      lock.lock();
    }
  }

  /// Pops the most recently idle worker, or null. Requires mutex.
  Waiter* PopIdle() {
    if (idle.empty()) return nullptr;
    Waiter* waiter = idle.back();
    idle.pop_back();
    waiter->woken = true;
    return waiter;
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
      while (Waiter* waiter = PopIdle()) waiter->wake.notify_one();
    }
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

int32_t WorkerPool::busy() const { return impl_->busy.load(std::memory_order_relaxed); }

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
    impl->idle.reserve(static_cast<size_t>(threads));
    for (int32_t i = 0; i < threads; ++i) {
      impl->waiters.push_back(std::make_unique<Impl::Waiter>());
      Impl::Waiter* waiter = impl->waiters.back().get();
      impl->threads.emplace_back([impl, waiter] { impl->WorkLoop(*waiter); });
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

void PostTask(WorkerPool& pool, std::shared_ptr<PoolTask> task, bool caller_finishing) {
  WorkerPool::Impl& impl = pool.impl();
  WorkerPool::Impl::Waiter* waiter = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    if (impl.stopping) return;
    impl.queue.push_back(std::move(task));
    // A finishing worker looks at the queue before it sleeps: it takes this
    // request itself, and no other thread (or arena) gets involved.
    if (!(caller_finishing && current_pool == &impl)) waiter = impl.PopIdle();
  }
  // Waiters live as long as the Impl; a late notify is at worst spurious.
  if (waiter != nullptr) waiter->wake.notify_one();
}

}  // namespace detail
}  // namespace rowbridge::stream
