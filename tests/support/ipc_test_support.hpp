// Test support for the IPC reader's tests: canonical values of exported
// arrays (the form tests/ipc/make_ipc_files.py writes), schema descriptions,
// rows converted by rowbridge::Converter, and in-memory columns built from
// canonical values. Test-only; header-only so that each test includes it.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "arrow/arrow_type.hpp"
#include "arrow/value_checks.hpp"
#include "rowbridge/converter.hpp"
#include "support/golden_json.hpp"
#include "support/test_arrow.hpp"

namespace rowbridge::ipc::testing {

using nlohmann::json;

inline std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline bool IsValidAt(const ArrowArray& array, int64_t i) {
  if (array.null_count == 0 || array.n_buffers == 0 || array.buffers[0] == nullptr) return true;
  const auto* bits = static_cast<const uint8_t*>(array.buffers[0]);
  return ((bits[i >> 3] >> (i & 7)) & 1) != 0;
}

inline std::string HexOf(const void* data, int64_t size) {
  return rowbridge::testing::Hex(static_cast<const uint8_t*>(data), static_cast<size_t>(size));
}

inline const uint8_t* BufferAt(const ArrowArray& array, int64_t index) {
  return static_cast<const uint8_t*>(array.buffers[index]);
}

/// The canonical value of physical element `i` (offset already applied by
/// the caller for the top level: pass array.offset + logical index).
inline json Canonical(const ArrowSchema& schema, const ArrowArray& array, int64_t i) {
  ArrowType type;
  Status parsed = ParseFormat(schema.format, &type);
  if (!parsed.ok()) return "unparsable format " + std::string(schema.format);
  if (schema.dictionary != nullptr) {
    if (!IsValidAt(array, i)) return nullptr;
    bool is_signed = type.id == ArrowTypeId::kInt8 || type.id == ArrowTypeId::kInt16 ||
                     type.id == ArrowTypeId::kInt32 || type.id == ArrowTypeId::kInt64;
    int64_t index = LoadInteger(BufferAt(array, 1), PrimitiveByteWidth(type), is_signed, i);
    return Canonical(*schema.dictionary, *array.dictionary, array.dictionary->offset + index);
  }
  if (type.id == ArrowTypeId::kNull) return nullptr;
  if (type.id == ArrowTypeId::kRunEndEncoded) {
    const ArrowArray& run_ends = *array.children[0];
    ArrowType run_end_type;
    (void)ParseFormat(schema.children[0]->format, &run_end_type);
    int32_t width = PrimitiveByteWidth(run_end_type);
    for (int64_t k = 0; k < run_ends.length; ++k) {
      if (LoadInteger(BufferAt(run_ends, 1), width, true, run_ends.offset + k) > i) {
        return Canonical(*schema.children[1], *array.children[1], array.children[1]->offset + k);
      }
    }
    return "run end not found";
  }
  if (!IsValidAt(array, i)) return nullptr;
  auto elements = [&](int64_t begin, int64_t count) {
    json out = json::array();
    const ArrowArray& child = *array.children[0];
    for (int64_t k = 0; k < count; ++k) {
      out.push_back(Canonical(*schema.children[0], child, child.offset + begin + k));
    }
    return out;
  };
  switch (type.id) {
    case ArrowTypeId::kBool: return ((BufferAt(array, 1)[i >> 3] >> (i & 7)) & 1) != 0;
    case ArrowTypeId::kStruct: {
      json out = json::array();
      for (int64_t k = 0; k < array.n_children; ++k) {
        out.push_back(
            Canonical(*schema.children[k], *array.children[k], array.children[k]->offset + i));
      }
      return out;
    }
    case ArrowTypeId::kList:
    case ArrowTypeId::kMap:
    case ArrowTypeId::kLargeList: {
      int32_t width = type.id == ArrowTypeId::kLargeList ? 8 : 4;
      int64_t begin = LoadInteger(BufferAt(array, 1), width, true, i);
      int64_t end = LoadInteger(BufferAt(array, 1), width, true, i + 1);
      return elements(begin, end - begin);
    }
    case ArrowTypeId::kFixedSizeList: return elements(i * type.fixed_size, type.fixed_size);
    case ArrowTypeId::kListView:
    case ArrowTypeId::kLargeListView: {
      int32_t width = type.id == ArrowTypeId::kLargeListView ? 8 : 4;
      return elements(LoadInteger(BufferAt(array, 1), width, true, i),
                      LoadInteger(BufferAt(array, 2), width, true, i));
    }
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kLargeBinary: {
      bool large = type.id == ArrowTypeId::kLargeUtf8 || type.id == ArrowTypeId::kLargeBinary;
      int32_t width = large ? 8 : 4;
      int64_t begin = LoadInteger(BufferAt(array, 1), width, true, i);
      int64_t end = LoadInteger(BufferAt(array, 1), width, true, i + 1);
      return HexOf(BufferAt(array, 2) + begin, end - begin);
    }
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: {
      const uint8_t* view = BufferAt(array, 1) + i * 16;
      int32_t size, buffer, offset;
      std::memcpy(&size, view, 4);
      if (size <= 12) return HexOf(view + 4, size);
      std::memcpy(&buffer, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      return HexOf(BufferAt(array, 2 + buffer) + offset, size);
    }
    default: {
      int32_t width = PrimitiveByteWidth(type);
      return HexOf(BufferAt(array, 1) + i * width, width);
    }
  }
}

/// The canonical values of every column of a struct batch: one array of rows
/// per column.
inline json CanonicalColumns(const ArrowSchema& schema, const ArrowArray& batch) {
  json columns = json::array();
  for (int64_t c = 0; c < batch.n_children; ++c) {
    json rows = json::array();
    const ArrowArray& column = *batch.children[c];
    for (int64_t i = 0; i < batch.length; ++i) {
      rows.push_back(Canonical(*schema.children[c], column, column.offset + batch.offset + i));
    }
    columns.push_back(std::move(rows));
  }
  return columns;
}

/// Describes an ArrowSchema as make_ipc_files.py does.
inline json DescribeSchema(const ArrowSchema& schema) {
  json out;
  out["format"] = schema.format;
  out["name"] = schema.name == nullptr ? "" : schema.name;
  out["flags"] = schema.flags;
  std::vector<std::pair<std::string, std::string>> pairs;
  (void)DecodeMetadata(schema.metadata, &pairs);
  out["metadata"] = json::array();
  for (const auto& [key, value] : pairs) out["metadata"].push_back({key, value});
  out["children"] = json::array();
  for (int64_t i = 0; i < schema.n_children; ++i) {
    out["children"].push_back(DescribeSchema(*schema.children[i]));
  }
  if (schema.dictionary != nullptr) out["dictionary"] = DescribeSchema(*schema.dictionary);
  return out;
}

/// Every row of every chunk of `batch`, converted with `converter`.
struct ConvertedRows {
  std::vector<std::string> rows;
};

inline Status ConvertAll(Converter* converter, const ArrowArray& batch, ConvertedRows* out) {
  RowBatchView view;
  Status status = converter->Convert(batch, &view);
  while (status.ok() && view.num_rows > 0) {
    for (int64_t r = 0; r < view.num_rows; ++r) {
      out->rows.emplace_back(reinterpret_cast<const char*>(view.data + view.row_offsets[r]),
                             static_cast<size_t>(view.row_offsets[r + 1] - view.row_offsets[r]));
    }
    if (!converter->HasMoreChunks()) break;
    status = converter->NextChunk(&view);
  }
  return status;
}

using rowbridge::testing::FromHex;

/// Builds an in-memory column of the flat type `format` from canonical
/// values (as make_ipc_files.py writes them).
inline rowbridge::testing::TestArray ColumnFromCanonical(const std::string& format,
                                                         const std::string& name,
                                                         const json& values) {
  namespace t = rowbridge::testing;
  ArrowType type;
  EXPECT_TRUE(ParseFormat(format.c_str(), &type).ok()) << format;
  auto length = static_cast<int64_t>(values.size());
  if (type.id == ArrowTypeId::kNull) return t::Nulls(name, length);
  if (type.id == ArrowTypeId::kBool) {
    std::vector<std::optional<bool>> bools;
    for (const json& v : values)
      bools.push_back(v.is_null() ? std::nullopt : std::optional<bool>(v.get<bool>()));
    return t::Bool(name, bools);
  }
  std::vector<std::optional<std::string>> bytes;
  for (const json& v : values) {
    if (v.is_null()) {
      bytes.push_back(std::nullopt);
    } else {
      t::Bytes b = FromHex(v.get<std::string>());
      bytes.push_back(std::string(b.begin(), b.end()));
    }
  }
  switch (type.id) {
    case ArrowTypeId::kUtf8:
    case ArrowTypeId::kLargeUtf8:
    case ArrowTypeId::kBinary:
    case ArrowTypeId::kLargeBinary: return t::Strings(format, name, bytes);
    case ArrowTypeId::kUtf8View:
    case ArrowTypeId::kBinaryView: return t::Views(format, name, bytes);
    case ArrowTypeId::kFixedSizeBinary: return t::FixedSizeBinary(name, type.fixed_size, bytes);
    default: break;
  }
  int32_t width = PrimitiveByteWidth(type);
  t::TestArray a;
  a.format = format;
  a.name = name;
  a.length = length;
  std::vector<bool> valid;
  t::Bytes data;
  for (const auto& v : bytes) {
    valid.push_back(v.has_value());
    if (!v) ++a.null_count;
    std::string value = v.value_or(std::string(static_cast<size_t>(width), '\0'));
    data.insert(data.end(), value.begin(), value.end());
  }
  a.buffers = {t::ValidityBitmap(valid), data};
  return a;
}

}  // namespace rowbridge::ipc::testing
