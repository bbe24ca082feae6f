#include "bench/floor_copy.hpp"

#include <cstring>
#include <string>
#include <string_view>

#include "arrow/bits.hpp"

namespace rowbridge::bench {
namespace {

const uint8_t* Buffer(const ArrowArray& array, int64_t i) {
  return static_cast<const uint8_t*>(array.buffers[i]);
}

void Add(const uint8_t* data, int64_t size, FloorBatch* out) {
  if (data == nullptr || size <= 0) return;
  out->ranges.push_back({data, size});
  out->input_bytes += size;
}

/// Returns the value width in bits of a fixed-width format, or 0.
int64_t FixedBits(std::string_view format) {
  if (format.size() == 1) {
    switch (format[0]) {
      case 'b': return 1;
      case 'c':
      case 'C': return 8;
      case 's':
      case 'S':
      case 'e': return 16;
      case 'i':
      case 'I':
      case 'f': return 32;
      case 'l':
      case 'L':
      case 'g': return 64;
      default: return 0;
    }
  }
  if (format.starts_with("d:")) {
    size_t comma = format.find(',', format.find(',') + 1);
    return comma == std::string_view::npos ? 128
                                           : std::stoll(std::string(format.substr(comma + 1)));
  }
  if (format.starts_with("w:")) return 8 * std::stoll(std::string(format.substr(2)));
  if (format == "tdD" || format == "tiM" || format == "tts" || format == "ttm") return 32;
  if (format == "tdm" || format == "ttu" || format == "ttn" || format.starts_with("ts") ||
      format.starts_with("tD") || format == "tiD") {
    return 64;
  }
  if (format == "tin") return 128;
  return 0;
}

/// Adds the ranges of elements [first, first + count) of `array` (physical
/// indices, the array's offset included).
Status AddNode(const ArrowArray& array, const ArrowSchema& schema, int64_t first, int64_t count,
               FloorBatch* out) {
  std::string_view format = schema.format;
  if (schema.dictionary != nullptr) {
    if (array.dictionary == nullptr)
      return Status::Invalid("a dictionary column has no dictionary");
    ArrowSchema indices = schema;
    indices.dictionary = nullptr;
    ROWBRIDGE_RETURN_NOT_OK(AddNode(array, indices, first, count, out));
    const ArrowArray& dictionary = *array.dictionary;
    return AddNode(dictionary, *schema.dictionary, dictionary.offset, dictionary.length, out);
  }
  if (format == "n") return Status::Ok();
  if (format == "+r") {
    for (int64_t i = 0; i < 2; ++i) {
      const ArrowArray& child = *array.children[i];
      ROWBRIDGE_RETURN_NOT_OK(AddNode(child, *schema.children[i], child.offset, child.length, out));
    }
    return Status::Ok();
  }
  if (array.null_count != 0 && Buffer(array, 0) != nullptr) {
    Add(Buffer(array, 0) + first / 8, (first + count + 7) / 8 - first / 8, out);
  }
  if (int64_t bits = FixedBits(format); bits > 0) {
    int64_t begin = bits == 1 ? first / 8 : first * bits / 8;
    int64_t end = bits == 1 ? (first + count + 7) / 8 : (first + count) * bits / 8;
    Add(Buffer(array, 1) + begin, end - begin, out);
    return Status::Ok();
  }
  bool small = format == "u" || format == "z";
  if (small || format == "U" || format == "Z") {
    int64_t width = small ? 4 : 8;
    const uint8_t* offsets = Buffer(array, 1);
    Add(offsets + first * width, (count + 1) * width, out);
    int64_t begin =
        small ? LoadElement<int32_t>(offsets, first) : LoadElement<int64_t>(offsets, first);
    int64_t end = small ? LoadElement<int32_t>(offsets, first + count)
                        : LoadElement<int64_t>(offsets, first + count);
    Add(Buffer(array, 2) + begin, end - begin, out);
    return Status::Ok();
  }
  if (format == "+s") {
    for (int64_t i = 0; i < array.n_children; ++i) {
      const ArrowArray& child = *array.children[i];
      ROWBRIDGE_RETURN_NOT_OK(
          AddNode(child, *schema.children[i], child.offset + first, count, out));
    }
    return Status::Ok();
  }
  if (format.starts_with("+w:")) {
    int64_t size = std::stoll(std::string(format.substr(3)));
    const ArrowArray& child = *array.children[0];
    return AddNode(child, *schema.children[0], child.offset + first * size, count * size, out);
  }
  bool list = format == "+l" || format == "+m";
  if (list || format == "+L") {
    int64_t width = list ? 4 : 8;
    const uint8_t* offsets = Buffer(array, 1);
    if (count > 0) Add(offsets + first * width, (count + 1) * width, out);
    int64_t begin = count == 0 ? 0
                    : list     ? LoadElement<int32_t>(offsets, first)
                               : LoadElement<int64_t>(offsets, first);
    int64_t end = count == 0 ? 0
                  : list     ? LoadElement<int32_t>(offsets, first + count)
                             : LoadElement<int64_t>(offsets, first + count);
    const ArrowArray& child = *array.children[0];
    const ArrowSchema& child_schema = *schema.children[0];
    if (format != "+m") return AddNode(child, child_schema, child.offset + begin, end - begin, out);
    // A map's entries: their keys and values (the entries struct has no validity to read).
    for (int64_t i = 0; i < child.n_children; ++i) {
      const ArrowArray& field = *child.children[i];
      ROWBRIDGE_RETURN_NOT_OK(AddNode(field, *child_schema.children[i],
                                      field.offset + child.offset + begin, end - begin, out));
    }
    return Status::Ok();
  }
  // Views join here when the benchmarks use them.
  return Status::NotSupported("the floor does not cover Arrow format '" + std::string(format) +
                              "'");
}

}  // namespace

Status CollectInputRanges(const ArrowArray& batch, const ArrowSchema& schema, FloorBatch* out) {
  out->ranges.clear();
  out->input_bytes = 0;
  if (batch.n_children != schema.n_children) {
    return Status::Invalid("the batch and its schema differ in column count");
  }
  for (int64_t i = 0; i < batch.n_children; ++i) {
    const ArrowArray& column = *batch.children[i];
    Status status =
        AddNode(column, *schema.children[i], column.offset + batch.offset, batch.length, out);
    if (!status.ok())
      return status.WithContext("column '" + std::string(schema.children[i]->name) + "'");
  }
  return Status::Ok();
}

void RunFloor(const FloorBatch& batch, uint8_t* out) {
  uint8_t* cursor = out;
  for (const ByteRange& range : batch.ranges) {
    std::memcpy(cursor, range.data, static_cast<size_t>(range.size));
    cursor += range.size;
  }
  if (batch.output_bytes > batch.input_bytes) {
    std::memset(cursor, 0, static_cast<size_t>(batch.output_bytes - batch.input_bytes));
  }
}

}  // namespace rowbridge::bench
