// The nested part of the reference writer: structs as UnsafeRows, lists of
// every layout as UnsafeArrayData, maps as UnsafeMapData (CONTRACTS.md §3),
// one value at a time.
#include <stdexcept>
#include <vector>

#include "support/reference_values.hpp"

namespace rowbridge::testing::reference_detail {
namespace {

template <typename T>
T Read(const TestArray& node, size_t buffer, int64_t index) {
  T v;
  std::memcpy(&v, node.buffers.at(buffer)->data() + index * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return v;
}

/// Spark's element size in an UnsafeArrayData for values of `format`.
int ElementSize(const std::string& f) {
  if (f == "b" || f == "c") return 1;
  if (f == "s" || f == "C") return 2;
  if (f == "i" || f == "S" || f == "f" || f == "tdD" || f == "tdm" || f == "tiM") return 4;
  return 8;
}

class ArrayWriter : public ValueSink {
 public:
  ArrayWriter(int64_t n, int element_size)
      : element_size_(element_size),
        header_(8 + (n + 63) / 64 * 8),
        bytes_(static_cast<size_t>(header_ + (n * element_size + 7) / 8 * 8), 0) {
    for (int b = 0; b < 8; ++b) bytes_[static_cast<size_t>(b)] = static_cast<uint8_t>(n >> (8 * b));
  }
  void SetNull(int64_t i) override {
    bytes_[static_cast<size_t>(8 + i / 8)] |= static_cast<uint8_t>(1u << (i % 8));
  }
  void SetSlot(int64_t i, uint64_t value, int width = 8) override {
    if (width != element_size_)
      throw std::runtime_error("element of " + std::to_string(width) + " bytes in an array of " +
                               std::to_string(element_size_));
    for (int b = 0; b < width; ++b) {
      bytes_[static_cast<size_t>(header_ + i * element_size_ + b)] =
          static_cast<uint8_t>(value >> (8 * b));
    }
  }
  int64_t Append(const uint8_t* data, int64_t size, int64_t reserve = 0) override {
    return AppendPadded(&bytes_, data, size, reserve);
  }
  bool in_array() const override { return true; }
  Bytes Finish() { return std::move(bytes_); }

 private:
  int element_size_;
  int64_t header_;
  Bytes bytes_;
};

/// The array of elements `logical[0..n)` of `elements`.
Bytes ArrayOf(const TestArray& elements, const std::vector<int64_t>& logical, bool* overflow) {
  const std::string& format = ValueFormat(elements);
  ArrayWriter array(static_cast<int64_t>(logical.size()), ElementSize(format));
  for (size_t e = 0; e < logical.size(); ++e) {
    if (!WriteValue(array, static_cast<int64_t>(e), format, Locate(elements, logical[e])))
      *overflow = true;
  }
  return array.Finish();
}

std::vector<int64_t> Range(int64_t start, int64_t length, int64_t base = 0) {
  if (start < 0 || length < 0) throw std::runtime_error("negative list range");
  std::vector<int64_t> out;
  for (int64_t e = 0; e < length; ++e) out.push_back(base + start + e);
  return out;
}

}  // namespace

Bytes EncodeNested(const TestArray& node, int64_t index, bool* overflow) {
  const std::string& f = node.format;
  if (f == "+s") {
    RowWriter row(static_cast<int64_t>(node.children.size()));
    for (size_t i = 0; i < node.children.size(); ++i) {
      const TestArray& child = node.children[i];
      if (!WriteValue(row, static_cast<int64_t>(i), ValueFormat(child), Locate(child, index)))
        *overflow = true;
    }
    return row.Finish();
  }
  if (f == "+m") {
    const TestArray& entries = node.children.at(0);
    int32_t start = Read<int32_t>(node, 1, index);
    int32_t end = Read<int32_t>(node, 1, index + 1);
    std::vector<int64_t> logical = Range(start, end - start, entries.offset);
    Bytes keys = ArrayOf(entries.children.at(0), logical, overflow);
    Bytes values = ArrayOf(entries.children.at(1), logical, overflow);
    Bytes out(8, 0);
    uint64_t key_bytes = keys.size();
    std::memcpy(out.data(), &key_bytes, 8);
    out.insert(out.end(), keys.begin(), keys.end());
    out.insert(out.end(), values.begin(), values.end());
    return out;
  }
  std::vector<int64_t> logical;
  if (f == "+l") {
    logical = Range(Read<int32_t>(node, 1, index),
                    Read<int32_t>(node, 1, index + 1) - Read<int32_t>(node, 1, index));
  } else if (f == "+L") {
    logical = Range(Read<int64_t>(node, 1, index),
                    Read<int64_t>(node, 1, index + 1) - Read<int64_t>(node, 1, index));
  } else if (f == "+vl") {
    logical = Range(Read<int32_t>(node, 1, index), Read<int32_t>(node, 2, index));
  } else if (f == "+vL") {
    logical = Range(Read<int64_t>(node, 1, index), Read<int64_t>(node, 2, index));
  } else if (f.rfind("+w:", 0) == 0) {
    int64_t size = std::stoll(f.substr(3));
    logical = Range(index * size, size);
  } else {
    throw std::runtime_error("the reference does not know nested format " + f);
  }
  return ArrayOf(node.children.at(0), logical, overflow);
}

}  // namespace rowbridge::testing::reference_detail
