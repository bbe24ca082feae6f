#include "row/variant_shadow.hpp"

#include <cstring>
#include <limits>

#include "arrow/array_checks.hpp"
#include "row/column_binding.hpp"
#include "spark/memory_access.hpp"
#include "spark/type_mapping.hpp"

namespace rowbridge::row {
namespace {

void NoRelease(ArrowArray*) {}

bool HasVariant(const ArrowField& field) {
  if (spark::IsVariantStruct(field)) return true;
  for (const ArrowField& child : field.children) {
    if (HasVariant(child)) return true;
  }
  return field.is_dictionary() && HasVariant(field.dictionary[0]);
}

/// Reads the values of a variant's value or metadata child.
struct ChildReader {
  ArrowTypeId id = ArrowTypeId::kBinary;
  ColumnInput input;
  const uint8_t* validity = nullptr;

  bool Valid(int64_t logical) const {
    return validity == nullptr || GetBit(validity, input.validity_offset + logical);
  }
  int64_t Length(int64_t logical) const {
    const int64_t i = input.offset + logical;
    switch (id) {
      case ArrowTypeId::kBinary:
        return int64_t{Load<int32_t>(input.values + 4 * (i + 1))} -
               Load<int32_t>(input.values + 4 * i);
      case ArrowTypeId::kLargeBinary:
        return Load<int64_t>(input.values + 8 * (i + 1)) - Load<int64_t>(input.values + 8 * i);
      default: return Load<int32_t>(input.values + 16 * i);
    }
  }
  const uint8_t* Data(int64_t logical) const {
    const int64_t i = input.offset + logical;
    switch (id) {
      case ArrowTypeId::kBinary: return input.data + Load<int32_t>(input.values + 4 * i);
      case ArrowTypeId::kLargeBinary: return input.data + Load<int64_t>(input.values + 8 * i);
      default: {
        const uint8_t* view = input.values + 16 * i;
        if (Load<int32_t>(view) <= 12) return view + 4;
        return input.variadic[Load<int32_t>(view + 8)] + Load<int32_t>(view + 12);
      }
    }
  }
};

}  // namespace

struct VariantShadow::Node {
  ArrowArray array{};
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
  std::vector<int64_t> offsets;  // a variant node's large_binary offsets
  std::vector<uint8_t> data;     // and its bytes
};

Status RewriteVariantFields(const ArrowField& field, const std::string& path, ArrowField* out,
                            bool* any) {
  if (spark::IsVariantStruct(field)) {
    ROWBRIDGE_RETURN_NOT_OK(spark::CheckVariantStruct(field, path));
    ArrowField bytes;
    bytes.name = field.name;
    bytes.format = "Z";
    ROWBRIDGE_RETURN_NOT_OK(ParseFormat(bytes.format.c_str(), &bytes.type));
    bytes.nullable = field.nullable;
    bytes.variant_bytes = true;
    *out = std::move(bytes);
    *any = true;
    return Status::Ok();
  }
  ArrowField copy = field;
  for (size_t i = 0; i < field.children.size(); ++i) {
    ROWBRIDGE_RETURN_NOT_OK(RewriteVariantFields(
        field.children[i], path + "." + field.children[i].name, &copy.children[i], any));
  }
  if (field.is_dictionary()) {
    ROWBRIDGE_RETURN_NOT_OK(
        RewriteVariantFields(field.dictionary[0], path, &copy.dictionary[0], any));
  }
  *out = std::move(copy);
  return Status::Ok();
}

VariantShadow::VariantShadow() = default;
VariantShadow::~VariantShadow() = default;

VariantShadow::Node* VariantShadow::NextNode() {
  if (used_ == nodes_.size()) nodes_.push_back(std::make_unique<Node>());
  return nodes_[used_++].get();
}

int64_t VariantShadow::bytes() const {
  int64_t total = 0;
  for (const auto& node : nodes_) {
    total += static_cast<int64_t>(node->offsets.capacity() * 8 + node->data.capacity() +
                                  (node->buffers.capacity() + node->children.capacity()) * 8);
  }
  return total;
}

Status VariantShadow::Build(const ArrowField& field, const std::string& path,
                            const ArrowArray& array) {
  used_ = 0;
  root_ = nullptr;
  return Shadow(field, path, array, &root_);
}

Status VariantShadow::Shadow(const ArrowField& field, const std::string& path,
                             const ArrowArray& array, const ArrowArray** out) {
  if (!HasVariant(field)) {
    *out = &array;
    return Status::Ok();
  }
  Node* node = NextNode();
  if (!spark::IsVariantStruct(field)) {
    const auto expected = static_cast<int64_t>(field.children.size());
    if (array.release == nullptr || array.n_children != expected ||
        (expected > 0 && array.children == nullptr)) {
      return Status::Invalid("column '" + path + "': the array has " +
                             std::to_string(array.n_children) + " children where its type " +
                             FieldTypeName(field) + " has " + std::to_string(expected));
    }
    node->array = array;
    node->children.assign(static_cast<size_t>(expected), nullptr);
    for (int64_t i = 0; i < expected; ++i) {
      const ArrowArray* child = array.children[i];
      if (child == nullptr)
        return Status::Invalid("column '" + path + "': child " + std::to_string(i) + " is NULL");
      const ArrowField& child_field = field.children[static_cast<size_t>(i)];
      const ArrowArray* shadow = nullptr;
      ROWBRIDGE_RETURN_NOT_OK(Shadow(child_field, path + "." + child_field.name, *child, &shadow));
      node->children[static_cast<size_t>(i)] = const_cast<ArrowArray*>(shadow);
    }
    node->array.children = expected > 0 ? node->children.data() : nullptr;
    if (field.is_dictionary()) {
      if (array.dictionary == nullptr)
        return Status::Invalid("column '" + path + "': the dictionary is NULL");
      const ArrowArray* shadow = nullptr;
      ROWBRIDGE_RETURN_NOT_OK(Shadow(field.dictionary[0], path, *array.dictionary, &shadow));
      node->array.dictionary = const_cast<ArrowArray*>(shadow);
    }
    node->array.release = NoRelease;
    node->array.private_data = nullptr;
    *out = &node->array;
    return Status::Ok();
  }

  // A variant struct: its bytes as a large_binary array of the same length,
  // offset and validity.
  ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(array, field.type, 2, 0, path, ""));
  const int64_t physical = array.offset + array.length;
  ChildReader readers[2];
  const char* parts[2] = {"value", "metadata"};
  for (int k = 0; k < 2; ++k) {
    const ArrowArray& child = *array.children[k];
    const ArrowType& type = field.children[static_cast<size_t>(k)].type;
    ROWBRIDGE_RETURN_NOT_OK(CheckArrayNode(child, type, 0, physical, path, parts[k]));
    ROWBRIDGE_RETURN_NOT_OK(
        ValidateValues(child, type, array.offset, array.length, path, parts[k]));
    readers[k].id = type.id;
    BindValues(child, type, &readers[k].input);
    readers[k].validity = readers[k].input.validity;
  }
  const uint8_t* validity =
      MayHaveNulls(array) ? static_cast<const uint8_t*>(array.buffers[0]) : nullptr;
  node->offsets.assign(static_cast<size_t>(physical + 1), 0);
  int64_t total = 0;
  for (int64_t p = array.offset; p < physical; ++p) {
    if (validity == nullptr || GetBit(validity, p)) {
      for (int k = 0; k < 2; ++k) {
        if (!readers[k].Valid(p)) {
          return Status::Invalid("column '" + path + "' value " + std::to_string(p - array.offset) +
                                 ": the variant's " + parts[k] + " is null");
        }
      }
      const int64_t value_length = readers[0].Length(p);
      const int64_t metadata_length = readers[1].Length(p);
      if (value_length > std::numeric_limits<int32_t>::max() ||
          metadata_length > std::numeric_limits<int32_t>::max()) {
        return Status::Invalid("column '" + path + "' value " + std::to_string(p - array.offset) +
                               ": a variant of more than 2 GiB");
      }
      total += 4 + value_length + metadata_length;
    }
    node->offsets[static_cast<size_t>(p + 1)] = total;
  }
  node->data.resize(static_cast<size_t>(total + 8));
  uint8_t* bytes = node->data.data();
  for (int64_t p = array.offset; p < physical; ++p) {
    const int64_t begin = node->offsets[static_cast<size_t>(p)];
    if (node->offsets[static_cast<size_t>(p + 1)] == begin) continue;
    const auto value_length = static_cast<int32_t>(readers[0].Length(p));
    const int64_t metadata_length = readers[1].Length(p);
    std::memcpy(bytes + begin, &value_length, 4);
    if (value_length > 0)
      std::memcpy(bytes + begin + 4, readers[0].Data(p), static_cast<size_t>(value_length));
    if (metadata_length > 0) {
      std::memcpy(bytes + begin + 4 + value_length, readers[1].Data(p),
                  static_cast<size_t>(metadata_length));
    }
  }
  node->buffers = {validity, node->offsets.data(), node->data.data()};
  node->array = ArrowArray{};
  node->array.length = array.length;
  node->array.offset = array.offset;
  node->array.null_count = validity == nullptr ? 0 : array.null_count;
  node->array.n_buffers = 3;
  node->array.buffers = node->buffers.data();
  node->array.release = NoRelease;
  *out = &node->array;
  return Status::Ok();
}

}  // namespace rowbridge::row
