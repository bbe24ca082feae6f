// Test-only construction of Arrow C Data Interface arrays and schemas.
//
// A TestArray is an owned Arrow node (owned_arrow::ArrayNode). The tests
// export it with owned_arrow's ExportArray, whose default copies each buffer
// into an allocation of exactly its size, so that AddressSanitizer catches
// any read past a buffer's end; the exported structs' release callbacks free
// everything, exactly as a real producer's would.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rowbridge/arrow_c_data.h"
#include "support/owned_arrow/array_node.hpp"
#include "support/owned_arrow/node_builders.hpp"

namespace rowbridge::testing {

/// The tests' name for an owned Arrow node.
using TestArray = owned_arrow::ArrayNode;
using owned_arrow::Batch;
using owned_arrow::Bytes;
using owned_arrow::ExportArray;
using owned_arrow::ExportSchema;
using owned_arrow::OwnedArray;
using owned_arrow::OwnedSchema;
using owned_arrow::RunEnd;
using owned_arrow::ToBytes;
__extension__ typedef __int128 Int128;

/// Encodes key/value pairs in the C Data Interface metadata format.
std::string EncodeMetadata(const std::vector<std::pair<std::string, std::string>>& pairs);

/// `storage` marked as the Arrow extension type `name` with `metadata` (the
/// field metadata "ARROW:extension:name" and "ARROW:extension:metadata"), when
/// `extended`; otherwise `storage` as it is.
TestArray Extension(TestArray storage, const std::string& name, const std::string& metadata,
                    bool extended = true);

/// A validity bitmap for `valid` (exact size), or nullopt when all are valid.
std::optional<Bytes> ValidityBitmap(const std::vector<bool>& valid);

/// A primitive column of C type T with Arrow `format`; nullopt values are null.
template <typename T>
TestArray Primitive(const std::string& format, const std::string& name,
                    const std::vector<std::optional<T>>& values) {
  TestArray a;
  a.format = format;
  a.name = name;
  a.length = static_cast<int64_t>(values.size());
  std::vector<bool> valid;
  std::vector<T> data;
  for (const auto& v : values) {
    valid.push_back(v.has_value());
    data.push_back(v.value_or(T{}));
    if (!v) ++a.null_count;
  }
  a.buffers = {a.null_count > 0 ? ValidityBitmap(valid) : std::nullopt, ToBytes(data)};
  return a;
}

TestArray Bool(const std::string& name, const std::vector<std::optional<bool>>& values);

/// utf8 ("u"), large_utf8 ("U"), binary ("z") or large_binary ("Z").
TestArray Strings(const std::string& format, const std::string& name,
                  const std::vector<std::optional<std::string>>& values);

/// utf8_view ("vu") or binary_view ("vz"); long values go to data buffers of
/// at most `buffer_bytes` bytes each.
TestArray Views(const std::string& format, const std::string& name,
                const std::vector<std::optional<std::string>>& values, size_t buffer_bytes = 64);

TestArray FixedSizeBinary(const std::string& name, int32_t width,
                          const std::vector<std::optional<std::string>>& values);

/// A decimal of `bit_width` (32, 64, 128 or 256) whose unscaled values are
/// given as little-endian two's complement 128-bit integers (sign-extended to
/// 256 bits, truncated to 32/64).
TestArray Decimal(const std::string& name, int32_t bit_width, int32_t precision, int32_t scale,
                  const std::vector<std::optional<Int128>>& values);

TestArray Nulls(const std::string& name, int64_t length);

/// A dictionary-encoded column: `indices` (an integer column) over `values`.
TestArray Dictionary(TestArray indices, TestArray values);

/// Returns `array` viewed from `offset` for `length` elements (a slice).
TestArray Slice(TestArray array, int64_t offset, int64_t length);

// Nested arrays. `valid` gives the parent's validity (empty: no nulls); a
// child's length is whatever its values are, so children may hold extra or
// garbage values that no valid parent references.

/// A struct ("+s") of `fields`, of `length` values.
TestArray Struct(const std::string& name, int64_t length, std::vector<TestArray> fields,
                 const std::vector<bool>& valid = {});

/// A list ("+l", or "+L" when `large`): value i holds elements
/// [offsets[i], offsets[i + 1]) of `values`.
TestArray List(const std::string& name, TestArray values, const std::vector<int64_t>& offsets,
               const std::vector<bool>& valid = {}, bool large = false);

/// A list ("+l" or "+L") with lists of the given lengths, nullopt = a null
/// (empty) list, over consecutive elements of `values`.
TestArray ListOfLengths(const std::string& name, TestArray values,
                        const std::vector<std::optional<int64_t>>& lengths, bool large = false);

/// A fixed-size list ("+w:SIZE"): value i holds elements [i * size, (i + 1) * size).
TestArray FixedSizeList(const std::string& name, int32_t size, TestArray values,
                        const std::vector<bool>& valid = {});

/// A list view ("+vl", or "+vL" when `large`): value i holds elements
/// [offsets[i], offsets[i] + sizes[i]).
TestArray ListView(const std::string& name, TestArray values, const std::vector<int64_t>& offsets,
                   const std::vector<int64_t>& sizes, const std::vector<bool>& valid = {},
                   bool large = false);

/// A map ("+m") whose value i holds entries [offsets[i], offsets[i + 1]) of
/// `keys` and `values` (both of the same length).
TestArray Map(const std::string& name, TestArray keys, TestArray values,
              const std::vector<int64_t>& offsets, const std::vector<bool>& valid = {});

/// interval[month_day_nano] values: int32 months, int32 days, int64 nanoseconds.
struct MonthDayNanoValue {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanos = 0;
};
TestArray MonthDayNano(const std::string& name,
                       const std::vector<std::optional<MonthDayNanoValue>>& values);

/// Lower-case hexadecimal of `size` bytes.
std::string Hex(const uint8_t* data, size_t size);

}  // namespace rowbridge::testing
