/* Converts a two-column, three-row Arrow record batch, built by hand from the
 * Arrow C Data Interface structs, into Spark UnsafeRows through the C API and
 * prints each row in hex, then decodes the rows back into Arrow arrays
 * (row -> columnar) and checks they hold the batch's values. The batch is
 * (a int64, b utf8):
 *   a = [1, -2, null]
 *   b = ["hello", null, "rowbridge!"]
 * Build against an installed rowbridge:
 *   gcc -std=c11 main.c -I<prefix>/include -L<prefix>/lib -lrowbridge */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rowbridge/rowbridge.h>

/* The structs below live on main's stack and own nothing, so release only
 * marks them released, as the C Data Interface requires. */
static void release_schema(struct ArrowSchema* schema) { schema->release = NULL; }
static void release_array(struct ArrowArray* array) { array->release = NULL; }

static struct ArrowSchema make_field(const char* format, const char* name) {
  struct ArrowSchema field = {0};
  field.format = format;
  field.name = name;
  field.flags = ARROW_FLAG_NULLABLE;
  field.release = &release_schema;
  return field;
}

static struct ArrowArray make_column(int64_t length, int64_t null_count, const void** buffers,
                                     int64_t n_buffers) {
  struct ArrowArray column = {0};
  column.length = length;
  column.null_count = null_count;
  column.n_buffers = n_buffers;
  column.buffers = buffers;
  column.release = &release_array;
  return column;
}

static void print_rows(const RowbridgeRowBatch* rows) {
  for (int64_t i = 0; i < rows->num_rows; ++i) {
    printf("row %lld:", (long long)(rows->first_row + i));
    for (int64_t byte = rows->row_offsets[i]; byte < rows->row_offsets[i + 1]; ++byte) {
      printf("%s%02x", (byte - rows->row_offsets[i]) % 8 == 0 ? " " : "", rows->data[byte]);
    }
    printf("\n");
  }
}

/* Decodes `rows` back into Arrow arrays of `schema` and compares them with
 * the batch's values; returns 0 when they match. */
static int decode_and_check(const struct ArrowSchema* schema, const RowbridgeRowBatch* rows) {
  RowbridgeError error;
  RowbridgeDecoder* decoder = NULL;
  if (rowbridge_decoder_new(schema, &decoder, &error) != ROWBRIDGE_OK) {
    fprintf(stderr, "cannot create the decoder: %s\n", error.message);
    return 1;
  }
  struct ArrowArray decoded;
  int status = rowbridge_decoder_decode(decoder, rows->data, rows->row_offsets, rows->num_rows,
                                        &decoded, &error);
  rowbridge_decoder_free(decoder); /* the arrays outlive it */
  if (status != ROWBRIDGE_OK) {
    fprintf(stderr, "decoding failed (%d): %s\n", status, error.message);
    return 1;
  }
  const struct ArrowArray* a = decoded.children[0];
  const struct ArrowArray* b = decoded.children[1];
  const uint8_t* a_validity = a->buffers[0];
  const int64_t* a_values = a->buffers[1];
  const uint8_t* b_validity = b->buffers[0];
  const int32_t* b_offsets = b->buffers[1];
  const char* b_data = b->buffers[2];
  int ok = decoded.length == 3 && a->null_count == 1 && a_validity[0] == 0x03 && a_values[0] == 1 &&
           a_values[1] == -2 && b->null_count == 1 && b_validity[0] == 0x05 && b_offsets[1] == 5 &&
           b_offsets[2] == 5 && b_offsets[3] == 15 && memcmp(b_data, "hellorowbridge!", 15) == 0;
  decoded.release(&decoded);
  if (!ok) fprintf(stderr, "the decoded arrays differ from the batch\n");
  return ok ? 0 : 1;
}

int main(void) {
  /* Schema: struct<a: int64, b: utf8>. */
  struct ArrowSchema a_field = make_field("l", "a");
  struct ArrowSchema b_field = make_field("u", "b");
  struct ArrowSchema* fields[] = {&a_field, &b_field};
  struct ArrowSchema schema = make_field("+s", "");
  schema.flags = 0;
  schema.n_children = 2;
  schema.children = fields;

  /* Column a: validity bits 0b011 (row 2 is null), values. */
  const uint8_t a_validity[] = {0x03};
  const int64_t a_values[] = {1, -2, 0};
  const void* a_buffers[] = {a_validity, a_values};
  struct ArrowArray a_column = make_column(3, 1, a_buffers, 2);

  /* Column b: validity bits 0b101 (row 1 is null), int32 offsets, bytes. */
  const uint8_t b_validity[] = {0x05};
  const int32_t b_offsets[] = {0, 5, 5, 15};
  const char b_data[] = "hellorowbridge!";
  const void* b_buffers[] = {b_validity, b_offsets, b_data};
  struct ArrowArray b_column = make_column(3, 1, b_buffers, 3);

  struct ArrowArray* columns[] = {&a_column, &b_column};
  const void* batch_buffers[] = {NULL};
  struct ArrowArray batch = make_column(3, 0, batch_buffers, 1);
  batch.n_children = 2;
  batch.children = columns;

  RowbridgeConverterOptions options;
  rowbridge_converter_options_init(&options);
  options.validation = ROWBRIDGE_VALIDATION_FULL;

  RowbridgeError error;
  RowbridgeConverter* converter = NULL;
  int status = rowbridge_converter_new(&schema, &options, &converter, &error);
  if (status != ROWBRIDGE_OK) {
    fprintf(stderr, "cannot create the converter (%d): %s\n", status, error.message);
    return 1;
  }
  fprintf(stderr, "rowbridge %s\n", rowbridge_version());
  printf("schema: %s\n", rowbridge_converter_spark_schema(converter));

  /* convert borrows the batch; the view stays valid until the next call. */
  RowbridgeRowBatch rows;
  status = rowbridge_converter_convert(converter, &batch, NULL, &rows, &error);
  int checked = 1;
  while (status == ROWBRIDGE_OK && rows.num_rows > 0) {
    print_rows(&rows);
    if (rows.num_rows == 3)
      checked = decode_and_check(&schema, &rows); /* the whole batch in one chunk */
    status = rowbridge_converter_next_chunk(converter, &rows, &error);
  }
  if (status != ROWBRIDGE_OK) {
    fprintf(stderr, "conversion failed (%d): %s\n", status, error.message);
  }
  rowbridge_converter_free(converter);
  return status == ROWBRIDGE_OK && checked == 0 ? 0 : 1;
}
