// Converts a two-column, three-row Arrow record batch, built by hand from the
// Arrow C Data Interface structs, into Spark UnsafeRows and prints each row in
// hex. The batch is (a int64, b utf8):
//   a = [1, -2, null]
//   b = ["hello", null, "rowbridge!"]
#include <cstdint>
#include <cstdio>
#include <memory>

#include <rowbridge/arrow_c_data.h>
#include <rowbridge/converter.hpp>
#include <rowbridge/version.h>

namespace {

// The structs below live on main's stack and own nothing, so release only
// marks them released, as the C Data Interface requires.
void ReleaseSchema(ArrowSchema* schema) { schema->release = nullptr; }
void ReleaseArray(ArrowArray* array) { array->release = nullptr; }

ArrowSchema MakeField(const char* format, const char* name) {
  ArrowSchema field{};
  field.format = format;
  field.name = name;
  field.flags = ARROW_FLAG_NULLABLE;
  field.release = &ReleaseSchema;
  return field;
}

ArrowArray MakeColumn(int64_t length, int64_t null_count, const void** buffers, int64_t n_buffers) {
  ArrowArray column{};
  column.length = length;
  column.null_count = null_count;
  column.n_buffers = n_buffers;
  column.buffers = buffers;
  column.release = &ReleaseArray;
  return column;
}

void PrintRows(const rowbridge::RowBatchView& view) {
  for (int64_t i = 0; i < view.num_rows; ++i) {
    std::printf("row %lld:", static_cast<long long>(view.first_row + i));
    for (int64_t byte = view.row_offsets[i]; byte < view.row_offsets[i + 1]; ++byte) {
      std::printf("%s%02x", (byte - view.row_offsets[i]) % 8 == 0 ? " " : "", view.data[byte]);
    }
    std::printf("\n");
  }
}

}  // namespace

int main() {
  // Schema: struct<a: int64, b: utf8>.
  ArrowSchema a_field = MakeField("l", "a");
  ArrowSchema b_field = MakeField("u", "b");
  ArrowSchema* fields[] = {&a_field, &b_field};
  ArrowSchema schema = MakeField("+s", "");
  schema.flags = 0;
  schema.n_children = 2;
  schema.children = fields;

  // Column a: validity bits 0b011 (row 2 is null), values.
  const uint8_t a_validity[] = {0x03};
  const int64_t a_values[] = {1, -2, 0};
  const void* a_buffers[] = {a_validity, a_values};
  ArrowArray a_column = MakeColumn(3, 1, a_buffers, 2);

  // Column b: validity bits 0b101 (row 1 is null), int32 offsets, bytes.
  const uint8_t b_validity[] = {0x05};
  const int32_t b_offsets[] = {0, 5, 5, 15};
  const char b_data[] = "hellorowbridge!";
  const void* b_buffers[] = {b_validity, b_offsets, b_data};
  ArrowArray b_column = MakeColumn(3, 1, b_buffers, 3);

  ArrowArray* columns[] = {&a_column, &b_column};
  const void* batch_buffers[] = {nullptr};
  ArrowArray batch = MakeColumn(3, 0, batch_buffers, 1);
  batch.n_children = 2;
  batch.children = columns;

  std::unique_ptr<rowbridge::Converter> converter;
  rowbridge::Status status = rowbridge::Converter::Make(schema, {}, &converter);
  if (!status.ok()) {
    std::fprintf(stderr, "cannot create the converter: %s\n", status.message().c_str());
    return 1;
  }
  std::fprintf(stderr, "rowbridge %s\n", ROWBRIDGE_VERSION_STRING);
  std::printf("schema: %s\n", converter->plan().spark_schema().ToString().c_str());

  // Convert borrows the batch; the view stays valid until the next call.
  rowbridge::RowBatchView view;
  status = converter->Convert(batch, &view);
  while (status.ok() && view.num_rows > 0) {
    PrintRows(view);
    status = converter->NextChunk(&view);
  }
  if (!status.ok()) {
    std::fprintf(stderr, "conversion failed: %s\n", status.message().c_str());
    return 1;
  }
  return 0;
}
