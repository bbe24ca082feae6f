// ColumnPlan: how one top-level column is read and written, resolved once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/arrow_field.hpp"
#include "row/column_writer.hpp"
#include "row/kernel_isa.hpp"
#include "rowbridge/converter.hpp"

namespace rowbridge::row {

enum class Encoding : uint8_t { kPlain, kDictionary, kRunEnd };

struct NestedNode;

struct ColumnPlan {
  ArrowField field;  // the column as registered, encoding included
  /// The column holds a variant struct (at any depth): the plan is compiled
  /// from the field with each one rewritten to large_binary, and each batch's
  /// array is shadowed by a VariantShadow (variant_shadow.hpp) before binding.
  bool has_variants = false;
  ArrowType value_type;  // the type of the values (after the encoding)
  ArrowType index_type;  // dictionary indices or run ends; unused when plain
  Encoding encoding = Encoding::kPlain;
  SparkField spark;
  ColumnTarget target;
  WriterSet writers;
  bool variable_size = false;  // contributes per-row variable bytes (strings)
  /// The buffers a plain array of the value type has (a minimum for views)
  /// and how many after the validity bitmap must be non-NULL.
  int64_t plain_buffers = 0;
  int64_t plain_data_buffers = 0;
  bool plain_is_view = false;
  /// Bytes of buffers[1] per value (offsets, views, values; 1 for bitmaps).
  int32_t prefetch_bytes_per_value = 0;
  /// The plan of a struct, list or map column's values; null for flat columns.
  std::shared_ptr<const NestedNode> nested;
};

/// Resolves the slot writers of a flat value type, with the kernels of `isa`.
Status ResolveSlotWriters(const ArrowType& type, KernelIsa isa, WriterSet* out);

/// Compiles column `index` of `num_columns` from `field`, keeping the Spark
/// type `expected` when not null (a re-encoded column must keep its type);
/// `variants`: ConverterOptions::variants; `isa`: its kernels, resolved.
Status CompileColumn(const ArrowField& field, int32_t index, int32_t num_columns,
                     const SparkField* expected, bool variants, KernelIsa isa, ColumnPlan* out);

}  // namespace rowbridge::row
