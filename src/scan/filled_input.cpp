#include "scan/filled_input.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "scan/ipc_producer.hpp"

namespace rowbridge::scan {
namespace {

int64_t PageSize() {
  static const int64_t page = [] {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? static_cast<int64_t>(size) : int64_t{4096};
  }();
  return page;
}

/// A record batch's array, moved inside, with what to discard when the
/// consumer releases it.
struct DiscardOnRelease {
  ArrowArray inner{};
  std::shared_ptr<FilledImage> image;
  int64_t batch = 0;
  int64_t offset = 0;
  int64_t length = 0;
};

void ReleaseAndDiscard(ArrowArray* array) {
  auto* holder = static_cast<DiscardOnRelease*>(array->private_data);
  if (holder->inner.release != nullptr) holder->inner.release(&holder->inner);
  holder->image->Discard(holder->batch, holder->offset, holder->length);
  delete holder;
  array->release = nullptr;
}

}  // namespace

Status FilledImage::Make(int64_t size, std::shared_ptr<FilledImage>* out) {
  if (size <= 0) return Status::Invalid("filled input: the file size must be positive");
  void* data = mmap(nullptr, static_cast<size_t>(size), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (data == MAP_FAILED) {
    return Status::OutOfMemory("filled input: cannot reserve " + std::to_string(size) +
                               " bytes of address space: " + std::strerror(errno));
  }
  try {
    out->reset(new FilledImage(static_cast<uint8_t*>(data), size));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    munmap(data, static_cast<size_t>(size));
    return Status::OutOfMemory("filled input: out of memory");
  }
}

FilledImage::~FilledImage() { munmap(data_, static_cast<size_t>(size_)); }

void FilledImage::NoteFilled(int64_t batch, int64_t bytes) {
  if (bytes <= 0) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      filled_[batch] += bytes;
    } catch (const std::bad_alloc&) {
      return;  // not counted: it stays resident, unaccounted, until the image goes
    }
  }
  resident_.fetch_add(bytes, std::memory_order_relaxed);
}

void FilledImage::Discard(int64_t batch, int64_t offset, int64_t length) {
  int64_t page = PageSize();
  int64_t begin = (std::max<int64_t>(offset, 0) + page - 1) / page * page;
  int64_t end = std::min(offset + length, size_) / page * page;
  if (end > begin) {
    // Cannot fail for a range inside the mapping; on failure the pages stay.
    madvise(data_ + begin, static_cast<size_t>(end - begin), MADV_DONTNEED);
  }
  int64_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = filled_.find(batch);
    if (it == filled_.end()) return;
    bytes = it->second;
    filled_.erase(it);
  }
  resident_.fetch_sub(bytes, std::memory_order_relaxed);
}

Status OpenFilledReader(const std::shared_ptr<FilledImage>& image, const std::string& name,
                        const ipc::IpcReadOptions& options, std::unique_ptr<ipc::IpcReader>* out) {
  if (image == nullptr) return Status::Invalid(name + ": no image (null)");
  return ipc::IpcReader::OpenBuffer(image, image->data(), image->size(), name, options, out);
}

Status MakeFilledProducer(const std::shared_ptr<FilledImage>& image, const ipc::IpcReader& reader,
                          const IpcScanOptions& options,
                          std::unique_ptr<stream::BatchProducer>* out) {
  try {
    std::unique_ptr<ipc::IpcReader> clone;
    ROWBRIDGE_RETURN_NOT_OK(reader.Clone(&clone));
    if (clone->format() != ipc::IpcFormat::kFile) {
      return MakeIpcProducer(std::move(clone), options, {}, out);
    }
    ipc::IpcFileLayout layout;
    ROWBRIDGE_RETURN_NOT_OK(clone->Layout(&layout));
    auto blocks =
        std::make_shared<std::vector<ipc::IpcFileLayout::Block>>(std::move(layout.record_batches));
    ProducedBatchHook hook = [image, blocks](int64_t batch, ArrowArray* array) -> Status {
      const ipc::IpcFileLayout::Block& block = (*blocks)[static_cast<size_t>(batch)];
      auto* holder = new (std::nothrow) DiscardOnRelease();
      if (holder == nullptr) return Status::OutOfMemory("filled input: out of memory");
      holder->inner = *array;
      holder->image = image;
      holder->batch = batch;
      holder->offset = block.offset;
      holder->length = block.metadata_bytes + block.body_bytes;
      array->private_data = holder;
      array->release = ReleaseAndDiscard;
      return Status::Ok();
    };
    return MakeIpcProducer(std::move(clone), options, std::move(hook), out);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("filled input: out of memory making the producer");
  }
}

}  // namespace rowbridge::scan
