// What a WorkerPool runs: one unit of work of one stream at a time.
#pragma once

#include <memory>

#include "rowbridge/stream.hpp"

namespace rowbridge::stream::detail {

/// A unit of work a worker runs. Run must not throw and must not wait for a
/// consumer; a request that finds nothing to do returns at once.
class PoolTask {
 public:
  virtual ~PoolTask() = default;
  virtual void Run() noexcept = 0;
};

/// Queues one request to run `task` once, behind the requests already
/// queued, and wakes the most recently idle worker. Thread-safe. With
/// `caller_finishing`, a worker of `pool` that is about to return to its loop
/// wakes nobody and takes a request itself. Throws std::bad_alloc when the
/// queue cannot grow.
void PostTask(WorkerPool& pool, std::shared_ptr<PoolTask> task, bool caller_finishing = false);

}  // namespace rowbridge::stream::detail
