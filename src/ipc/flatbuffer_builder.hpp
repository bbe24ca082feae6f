// A writer of Flatbuffers binary data, for the IPC writer's messages: the
// caller describes a tree of tables, strings and vectors, and Finish lays it
// out front to back (the root uoffset, then each object before the objects it
// refers to, so every uoffset points forward). Each table's vtable sits just
// before it. Scalars, structs and vector elements are aligned to their size.
// The layout is what flatbuffer_reader.hpp reads; it need not be the one the
// official builder makes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace rowbridge::ipc {

class FlatBuilder {
 public:
  /// An object added to the builder, to be referred to once.
  struct Ref {
    int32_t index = -1;
  };

  /// The fields of one table, in schema order (field ids).
  class TableFields {
   public:
    template <typename T>
    void Scalar(int field, T value) {
      Add(field, &value, sizeof(T), sizeof(T));
    }
    /// An inline struct of `size` bytes aligned to `alignment`.
    void Struct(int field, const void* data, int size, int alignment) {
      Add(field, data, size, alignment);
    }
    /// A table, string or vector added to the builder.
    void Object(int field, Ref ref);

   private:
    friend class FlatBuilder;
    struct Field {
      int id = 0;
      std::vector<uint8_t> bytes;  // inline bytes; for an object, 4 bytes to patch
      int alignment = 1;
      int32_t object = -1;
    };
    void Add(int field, const void* data, int size, int alignment);
    std::vector<Field> fields_;
  };

  Ref Table(TableFields fields);
  Ref String(std::string_view text);
  /// A vector of `count` inline elements (scalars or structs) of
  /// `element_size` bytes, aligned to `alignment`.
  Ref Vector(const void* data, int64_t count, int element_size, int alignment);
  /// A vector of tables or strings.
  Ref Vector(const std::vector<Ref>& elements);

  /// The flatbuffer whose root table is `root`, its size a multiple of 8.
  std::vector<uint8_t> Finish(Ref root) const;

 private:
  enum class Kind { kTable, kString, kInline, kRefs };
  struct Node {
    Kind kind = Kind::kTable;
    std::vector<TableFields::Field> fields;  // kTable
    std::vector<uint8_t> bytes;              // kString (without NUL), kInline
    int64_t count = 0;                       // kInline, kRefs
    int alignment = 4;                       // kInline
    std::vector<int32_t> refs;               // kRefs
  };
  Ref Add(Node node);
  std::vector<Node> nodes_;
};

}  // namespace rowbridge::ipc
