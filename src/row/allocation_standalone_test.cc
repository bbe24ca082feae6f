// After a warm-up batch, converting batches of no more rows (and bytes)
// allocates nothing. This binary replaces the global operator new/delete
// (every form) and, outside sanitizer builds, malloc/calloc/realloc/free and
// the aligned allocators (forwarding to glibc's __libc_* functions), with
// versions that count calls while a measurement is running. Only the convert
// calls are measured; every input is exported before counting starts.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "rowbridge/converter.hpp"
#include "rowbridge/rowbridge.h"
#include "support/row_test_util.hpp"
#include "support/test_arrow.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define ROWBRIDGE_TEST_HOOK_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define ROWBRIDGE_TEST_HOOK_MALLOC 0
#endif
#endif
#ifndef ROWBRIDGE_TEST_HOOK_MALLOC
#define ROWBRIDGE_TEST_HOOK_MALLOC 1
#endif

#if ROWBRIDGE_TEST_HOOK_MALLOC
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_valloc(std::size_t);
void* __libc_pvalloc(std::size_t);
}
#endif

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_new_calls{0};
std::atomic<long> g_malloc_calls{0};

inline void CountNew() {
  if (g_counting.load(std::memory_order_relaxed))
    g_new_calls.fetch_add(1, std::memory_order_relaxed);
}
inline void CountMalloc() {
  if (g_counting.load(std::memory_order_relaxed))
    g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
}

// operator new counts itself and takes memory from glibc directly (or from
// the sanitizer's malloc), so that one allocation is counted once.
void* RawAllocate(std::size_t size, std::size_t alignment) {
  if (size == 0) size = 1;
#if ROWBRIDGE_TEST_HOOK_MALLOC
  return alignment <= alignof(std::max_align_t) ? __libc_malloc(size)
                                                : __libc_memalign(alignment, size);
#else
  if (alignment <= alignof(std::max_align_t)) return std::malloc(size);
  void* p = nullptr;
  return posix_memalign(&p, alignment, size) == 0 ? p : nullptr;
#endif
}
void RawFree(void* p) {
#if ROWBRIDGE_TEST_HOOK_MALLOC
  __libc_free(p);
#else
  std::free(p);
#endif
}
void* AllocateOrThrow(std::size_t size, std::size_t alignment = 0) {
  CountNew();
  void* p = RawAllocate(size, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* AllocateNoThrow(std::size_t size, std::size_t alignment = 0) noexcept {
  CountNew();
  return RawAllocate(size, alignment);
}
}  // namespace

#if ROWBRIDGE_TEST_HOOK_MALLOC
extern "C" {

void* malloc(std::size_t size) {
  CountMalloc();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  CountMalloc();
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  CountMalloc();
  return __libc_realloc(p, size);
}
void free(void* p) { __libc_free(p); }
void* memalign(std::size_t alignment, std::size_t size) {
  CountMalloc();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  CountMalloc();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  CountMalloc();
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t size) {
  CountMalloc();
  return __libc_valloc(size);
}
void* pvalloc(std::size_t size) {
  CountMalloc();
  return __libc_pvalloc(size);
}
}  // extern "C"
#endif

void* operator new(std::size_t size) { return AllocateOrThrow(size); }
void* operator new[](std::size_t size) { return AllocateOrThrow(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}
void* operator new(std::size_t size, std::align_val_t a) {
  return AllocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return AllocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { RawFree(p); }
void operator delete[](void* p) noexcept { RawFree(p); }
void operator delete(void* p, std::size_t) noexcept { RawFree(p); }
void operator delete[](void* p, std::size_t) noexcept { RawFree(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { RawFree(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { RawFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { RawFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { RawFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { RawFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { RawFree(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { RawFree(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { RawFree(p); }

namespace rowbridge {
namespace {

using testing::Batch;
using testing::Primitive;
using testing::TestArray;

struct Allocations {
  long news = 0;
  long mallocs = 0;
  long total() const { return news + mallocs; }
};

template <typename F>
Allocations Count(F&& f) {
  g_new_calls = 0;
  g_malloc_calls = 0;
  g_counting = true;
  f();
  g_counting = false;
  return {g_new_calls.load(), g_malloc_calls.load()};
}

std::ostream& operator<<(std::ostream& os, const Allocations& a) {
  return os << a.news << " operator new and " << a.mallocs << " malloc-family calls";
}

/// Converts every chunk of `array`; returns the rows' total bytes (or -1).
int64_t ConvertAll(Converter& converter, const ArrowArray& array,
                   const ArrowSchema* schema = nullptr) {
  RowBatchView view;
  if (!converter.Convert(array, schema, &view).ok()) return -1;
  int64_t bytes = view.data_size;
  while (converter.HasMoreChunks()) {
    if (!converter.NextChunk(&view).ok()) return -1;
    bytes += view.data_size;
  }
  return bytes;
}

/// The benchmark's "record" schema: (a int64, b int32, c float64, d utf8),
/// d = prefix + i, rows [first, first + n).
TestArray Record(int64_t first, int64_t n, const std::string& prefix = "value_") {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<int32_t>> b;
  std::vector<std::optional<double>> c;
  std::vector<std::optional<std::string>> d;
  for (int64_t i = first; i < first + n; ++i) {
    a.push_back(i);
    b.push_back(static_cast<int32_t>(i * 7));
    c.push_back(static_cast<double>(i) * 0.5);
    d.push_back(prefix + std::to_string(i));
  }
  return Batch({Primitive<int64_t>("l", "a", a), Primitive<int32_t>("i", "b", b),
                Primitive<double>("g", "c", c), testing::Strings("u", "d", d)});
}

/// int64, dictionary<int32, utf8>, decimal(38,10) with nulls, run-end int32,
/// and a calendar interval.
TestArray Encoded(int64_t n, int64_t seed) {
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<int32_t>> indices;
  std::vector<std::optional<testing::Int128>> decimals;
  std::vector<std::optional<int32_t>> ends;
  std::vector<std::optional<int32_t>> run_values;
  std::vector<std::optional<testing::MonthDayNanoValue>> intervals;
  for (int64_t i = 0; i < n; ++i) {
    ids.push_back(i + seed);
    indices.push_back((i + seed) % 17 == 0
                          ? std::nullopt
                          : std::optional<int32_t>(static_cast<int32_t>((i * 31 + seed) % 100)));
    decimals.push_back(i % 5 == 0
                           ? std::nullopt
                           : std::optional<testing::Int128>(static_cast<testing::Int128>(i + seed) *
                                                            1000000007 * 1000000007));
    intervals.push_back(testing::MonthDayNanoValue{static_cast<int32_t>(i), 1, i * 1000});
  }
  for (int64_t run = 1; run * 4 <= n; ++run) {
    ends.push_back(static_cast<int32_t>(run * 4));
    run_values.push_back(static_cast<int32_t>(run + seed));
  }
  std::vector<std::optional<std::string>> dictionary;
  for (int k = 0; k < 100; ++k) dictionary.push_back("dictionary value " + std::to_string(k));
  return Batch({Primitive<int64_t>("l", "id", ids),
                testing::Dictionary(Primitive<int32_t>("i", "category", indices),
                                    testing::Strings("u", "", dictionary)),
                testing::Decimal("amount", 128, 38, 10, decimals),
                testing::RunEnd("run", n, Primitive<int32_t>("i", "", ends),
                                Primitive<int32_t>("i", "", run_values)),
                testing::MonthDayNano("iv", intervals)});
}

/// struct<a int64, b utf8>, list<int32>, map<utf8, list<int64>> and
/// list<struct<x float64, y dictionary<int8, utf8>>>, with nulls at every
/// level. The shape (nulls and lengths) depends on `n` only, the values on
/// `seed` too.
TestArray Nested(int64_t n, int64_t seed) {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<std::string>> b;
  std::vector<bool> struct_valid;
  std::vector<std::optional<int64_t>> lengths;
  std::vector<std::optional<int32_t>> ints;
  std::vector<int64_t> map_offsets{0};
  std::vector<bool> map_valid;
  std::vector<std::optional<std::string>> keys;
  std::vector<std::optional<int64_t>> inner_lengths;
  std::vector<std::optional<int64_t>> longs;
  std::vector<std::optional<int64_t>> point_lengths;
  std::vector<std::optional<double>> xs;
  std::vector<std::optional<int8_t>> ys;
  std::vector<bool> point_valid;
  for (int64_t i = 0; i < n; ++i) {
    struct_valid.push_back(i % 11 != 3);
    a.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i + seed));
    b.push_back("text " + std::to_string(i * (seed + 1)));
    lengths.push_back(i % 13 == 5 ? std::nullopt : std::optional<int64_t>(i % 9));
    for (int64_t e = 0; e < i % 9; ++e)
      ints.push_back(e == 2 ? std::nullopt
                            : std::optional<int32_t>(static_cast<int32_t>(e + seed)));
    map_valid.push_back(i % 10 != 1);
    map_offsets.push_back(map_offsets.back() + i % 4);
    for (int64_t e = 0; e < i % 4; ++e) {
      keys.push_back("k" + std::to_string(e + seed));
      inner_lengths.push_back(e == 1 ? std::nullopt : std::optional<int64_t>(e));
      for (int64_t v = 0; v < e; ++v) longs.push_back(v + seed);
    }
    point_lengths.push_back(i % 6 == 0 ? std::nullopt : std::optional<int64_t>(i % 5));
    for (int64_t e = 0; e < i % 5; ++e) {
      point_valid.push_back(e != 3);
      xs.push_back(static_cast<double>(e + seed));
      ys.push_back(e == 1 ? std::nullopt : std::optional<int8_t>(static_cast<int8_t>(e % 3)));
    }
  }
  TestArray s = testing::Struct(
      "s", n, {Primitive<int64_t>("l", "a", a), testing::Strings("u", "b", b)}, struct_valid);
  TestArray inner = testing::ListOfLengths("", Primitive<int64_t>("l", "", longs), inner_lengths);
  TestArray m = testing::Map("m", testing::Strings("u", "", keys), inner, map_offsets, map_valid);
  TestArray y = testing::Dictionary(Primitive<int8_t>("c", "y", ys),
                                    testing::Strings("u", "", {"one", "two", "three"}));
  TestArray points = testing::Struct("", static_cast<int64_t>(xs.size()),
                                     {Primitive<double>("g", "x", xs), y}, point_valid);
  return Batch({s, testing::ListOfLengths("l", Primitive<int32_t>("i", "", ints), lengths), m,
                testing::ListOfLengths("p", points, point_lengths)});
}

TEST(Allocations, TheCounterSeesAllocations) {
  Allocations a = Count([] {
    std::vector<int>* v = new std::vector<int>(100);
    delete v;
  });
  EXPECT_GE(a.total(), 2) << a;
#if ROWBRIDGE_TEST_HOOK_MALLOC
  Allocations m = Count([] {
    void* volatile p = std::malloc(10);
    std::free(p);
  });
  EXPECT_EQ(m.mallocs, 1) << m;
#endif
}

TEST(Allocations, RecordSchemaAfterWarmUp) {
  auto warm = testing::ExportBatch(Record(0, 8192));
  auto same = testing::ExportBatch(Record(0, 8192));
  auto fewer = testing::ExportBatch(Record(0, 4096));
  auto other = testing::ExportBatch(Record(0, 8192, "eulav_"));  // same lengths, other bytes
  auto sliced = testing::ExportBatch(testing::Slice(Record(0, 8192), 100, 8000));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(warm->schema.schema, {}, &converter).ok());
  ASSERT_GT(ConvertAll(*converter, warm->array.array), 0);
  for (auto* batch : {same.get(), fewer.get(), other.get(), sliced.get(), warm.get(), same.get()}) {
    int64_t bytes = 0;
    Allocations a = Count([&] { bytes = ConvertAll(*converter, batch->array.array); });
    EXPECT_GT(bytes, 0);
    EXPECT_EQ(a.total(), 0) << a;
  }
}

TEST(Allocations, RecordSchemaFullValidationAndBatchSchema) {
  auto warm = testing::ExportBatch(Record(0, 8192));
  auto next = testing::ExportBatch(Record(8192, 8192, "v_"));  // shorter strings
  ConverterOptions options;
  options.validation = Validation::kFull;
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(warm->schema.schema, options, &converter).ok());
  ASSERT_GT(ConvertAll(*converter, warm->array.array, &warm->schema.schema), 0);
  for (int i = 0; i < 3; ++i) {
    Allocations a = Count(
        [&] { EXPECT_GT(ConvertAll(*converter, next->array.array, &next->schema.schema), 0); });
    EXPECT_EQ(a.total(), 0) << a;
  }
}

TEST(Allocations, DictionaryLargeDecimalRunEndAndIntervalAfterWarmUp) {
  auto warm = testing::ExportBatch(Encoded(8192, 0));
  auto next = testing::ExportBatch(Encoded(8192, 5));
  auto fewer = testing::ExportBatch(Encoded(1000, 9));
  for (Validation validation : {Validation::kCheap, Validation::kFull}) {
    ConverterOptions options;
    options.validation = validation;
    std::unique_ptr<Converter> converter;
    ASSERT_TRUE(Converter::Make(warm->schema.schema, options, &converter).ok());
    ASSERT_GT(ConvertAll(*converter, warm->array.array), 0);
    for (auto* batch : {next.get(), fewer.get(), warm.get()}) {
      Allocations a = Count([&] { EXPECT_GT(ConvertAll(*converter, batch->array.array), 0); });
      EXPECT_EQ(a.total(), 0) << a << " (validation " << static_cast<int>(validation) << ")";
    }
  }
}

TEST(Allocations, ChunkedConversionAfterWarmUp) {
  auto batch = testing::ExportBatch(Record(0, 8192));
  ConverterOptions options;
  options.max_chunk_bytes = 64 << 10;
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(batch->schema.schema, options, &converter).ok());
  ASSERT_GT(ConvertAll(*converter, batch->array.array), 0);
  Allocations a = Count([&] { EXPECT_GT(ConvertAll(*converter, batch->array.array), 0); });
  EXPECT_EQ(a.total(), 0) << a;
}

TEST(Allocations, RegisteredBatchAfterWarmUp) {
  auto batch = testing::ExportBatch(Record(0, 8192));
  std::unique_ptr<Converter> converter;
  ASSERT_TRUE(Converter::Make(batch->schema.schema, {}, &converter).ok());
  ArrowArray* registered = converter->registered_batch();
  const ArrowArray& source = batch->array.array;
  registered->length = source.length;
  for (int64_t i = 0; i < source.n_children; ++i) {
    ArrowArray* column = registered->children[i];
    column->length = source.children[i]->length;
    column->null_count = source.children[i]->null_count;
    for (int64_t b = 0; b < column->n_buffers; ++b)
      column->buffers[b] = source.children[i]->buffers[b];
  }
  ASSERT_GT(ConvertAll(*converter, *registered), 0);
  Allocations a = Count([&] { EXPECT_GT(ConvertAll(*converter, *registered), 0); });
  EXPECT_EQ(a.total(), 0) << a;
}

TEST(Allocations, CApiAfterWarmUp) {
  auto batch = testing::ExportBatch(Record(0, 8192));
  RowbridgeConverter* converter = nullptr;
  ASSERT_EQ(rowbridge_converter_new(&batch->schema.schema, nullptr, &converter, nullptr),
            ROWBRIDGE_OK);
  RowbridgeRowBatch out;
  RowbridgeError error;
  ASSERT_EQ(rowbridge_converter_convert(converter, &batch->array.array, nullptr, &out, &error),
            ROWBRIDGE_OK);
  int code = -1;
  Allocations a = Count([&] {
    code = rowbridge_converter_convert(converter, &batch->array.array, nullptr, &out, &error);
    if (code == ROWBRIDGE_OK) code = rowbridge_converter_next_chunk(converter, &out, &error);
  });
  EXPECT_EQ(code, ROWBRIDGE_OK);
  EXPECT_EQ(a.total(), 0) << a;
  rowbridge_converter_free(converter);
}

}  // namespace
TEST(Allocations, NestedColumnsAfterWarmUp) {
  auto warm = testing::ExportBatch(Nested(8192, 0));
  auto next = testing::ExportBatch(Nested(8192, 7));  // same shape, other values
  auto fewer = testing::ExportBatch(Nested(1000, 3));
  auto sliced = testing::ExportBatch(testing::Slice(Nested(8192, 1), 100, 8000));
  for (Validation validation : {Validation::kCheap, Validation::kFull}) {
    ConverterOptions options;
    options.validation = validation;
    std::unique_ptr<Converter> converter;
    ASSERT_TRUE(Converter::Make(warm->schema.schema, options, &converter).ok());
    ASSERT_GT(ConvertAll(*converter, warm->array.array), 0);
    for (auto* batch : {next.get(), fewer.get(), sliced.get(), warm.get()}) {
      Allocations a = Count([&] { EXPECT_GT(ConvertAll(*converter, batch->array.array), 0); });
      EXPECT_EQ(a.total(), 0) << a << " (validation " << static_cast<int>(validation) << ")";
    }
  }
}

}  // namespace rowbridge
