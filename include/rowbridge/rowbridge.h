/* rowbridge C API: Arrow record batches to Spark UnsafeRows.
 *
 * Conventions:
 * - Every fallible function returns a status code (ROWBRIDGE_OK = 0, otherwise
 *   an errno-style value) and, when `error` is not NULL, writes a
 *   NUL-terminated message naming what is wrong and where into it.
 * - Nothing crosses this API as a C++ exception or a signal.
 * - The library never prints and never aborts. */
#ifndef ROWBRIDGE_ROWBRIDGE_H
#define ROWBRIDGE_ROWBRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
#include "rowbridge/status_codes.h"
#include "rowbridge/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: ROWBRIDGE_OK and the errno-style ROWBRIDGE_E* values of
 * rowbridge/status_codes.h. */

/* A caller-owned buffer that receives an error message. */
typedef struct RowbridgeError {
  char message[1024];
} RowbridgeError;

/* Returns the library version as "MAJOR.MINOR.PATCH" (static storage). */
ROWBRIDGE_EXPORT const char* rowbridge_version(void);

/* Returns the library version as MAJOR * 10000 + MINOR * 100 + PATCH. */
ROWBRIDGE_EXPORT int32_t rowbridge_version_number(void);

/* How much of each batch is checked before conversion. */
enum RowbridgeValidation {
  /* Lengths, buffer and child counts, null counts, sizes: O(columns). */
  ROWBRIDGE_VALIDATION_CHEAP = 0,
  /* Also every offset, view, dictionary index and run end: O(values). Use for
   * untrusted data. UTF-8 is never checked (as in Spark). */
  ROWBRIDGE_VALIDATION_FULL = 1
};

/* Which instruction set the kernels are built for (the bytes are the same
 * with each). AUTO: the best the CPU runs. A named set that the CPU or the
 * build lacks is an error (ROWBRIDGE_EINVAL) when the converter is made. */
enum RowbridgeKernels {
  ROWBRIDGE_KERNELS_AUTO = 0,
  ROWBRIDGE_KERNELS_PORTABLE = 1,
  ROWBRIDGE_KERNELS_AVX2 = 2,
  ROWBRIDGE_KERNELS_AVX512 = 3
};

/* How nested and string columns are written (the bytes are the same with
 * each). AUTO: the depth-first writer for the schemas it is faster on, the
 * level-by-level writer for the rest. */
enum RowbridgeNestedWriter {
  ROWBRIDGE_NESTED_WRITER_AUTO = 0,
  ROWBRIDGE_NESTED_WRITER_DEPTH_FIRST = 1,
  ROWBRIDGE_NESTED_WRITER_LEVELS = 2
};

typedef struct RowbridgeConverterOptions {
  /* One of enum RowbridgeValidation. */
  int32_t validation;
  /* The most bytes of rows one output chunk holds; a larger batch is converted
   * in several chunks. A single row larger than this is an error. */
  int64_t max_chunk_bytes;
  /* Non-zero (the default): a struct in Spark's variant form is a VariantType,
   * as Spark 4.0+ reads it; zero keeps it a struct, as Spark 3.5 reads it. */
  int32_t variants;
  /* One of enum RowbridgeKernels. */
  int32_t kernels;
  /* One of enum RowbridgeNestedWriter. */
  int32_t nested_writer;
} RowbridgeConverterOptions;

/* Fills `options` with the defaults (cheap validation, 64 MiB chunks,
 * variants on, automatic kernels and nested writer). */
ROWBRIDGE_EXPORT void rowbridge_converter_options_init(RowbridgeConverterOptions* options);

/* A view of converted rows. Row i occupies bytes
 * [data + row_offsets[i], data + row_offsets[i + 1]) and is the UnsafeRow of
 * batch row first_row + i. Owned by the converter: valid until the next
 * convert, next_chunk or free call on the same converter. */
typedef struct RowbridgeRowBatch {
  const uint8_t* data;
  const int64_t* row_offsets; /* num_rows + 1 entries; row_offsets[0] == 0 */
  int64_t num_rows;
  int64_t first_row;
  int64_t data_size; /* == row_offsets[num_rows] */
} RowbridgeRowBatch;

/* An opaque converter: a compiled plan for one schema plus reused buffers.
 * A converter is used by one thread at a time; distinct converters are
 * independent. */
typedef struct RowbridgeConverter RowbridgeConverter;

/* Creates a converter for batches of `schema`, which must describe a struct
 * (a record batch). Borrows `schema`: it is read during the call only and
 * neither released nor retained. On success stores a new converter in `*out`,
 * which the caller frees with rowbridge_converter_free. Unsupported types are
 * rejected (ROWBRIDGE_ENOTSUP) with the column name and the type. */
ROWBRIDGE_EXPORT int rowbridge_converter_new(const struct ArrowSchema* schema,
                                             const RowbridgeConverterOptions* options,
                                             RowbridgeConverter** out, RowbridgeError* error);

/* Frees `converter` and every buffer it owns. NULL is accepted. */
ROWBRIDGE_EXPORT void rowbridge_converter_free(RowbridgeConverter* converter);

/* Converts the first chunk of `batch` into rows stored in `*out`.
 * Borrows `batch` (and `batch_schema`): neither is released; both must stay
 * alive and unchanged until the last chunk of this batch has been taken.
 * `batch_schema` may be NULL: the batch is then read with the registered
 * schema. Pass the batch's own schema when a column's encoding may differ
 * from it (plain, dictionary, run-end); each such layout is compiled once. */
ROWBRIDGE_EXPORT int rowbridge_converter_convert(RowbridgeConverter* converter,
                                                 const struct ArrowArray* batch,
                                                 const struct ArrowSchema* batch_schema,
                                                 RowbridgeRowBatch* out, RowbridgeError* error);

/* Converts the next chunk of the current batch into `*out`; stores a view
 * with num_rows == 0 when every row of the batch has been returned. */
ROWBRIDGE_EXPORT int rowbridge_converter_next_chunk(RowbridgeConverter* converter,
                                                    RowbridgeRowBatch* out, RowbridgeError* error);

/* Returns a converter-owned ArrowArray, shaped like the schema (a struct with
 * one child per column, each with the buffer and child arrays its type
 * needs), for callers that write buffer addresses once per batch instead of
 * exporting a new ArrowArray: fill in length, null_count, offset and buffers,
 * then pass it to rowbridge_converter_convert. Valid until the converter is
 * freed; never release it. NULL when `converter` is NULL or out of memory. */
ROWBRIDGE_EXPORT struct ArrowArray* rowbridge_converter_registered_batch(
    RowbridgeConverter* converter);

/* Returns the Spark schema of the rows, as Spark's StructType.catalogString
 * (e.g. "struct<a:bigint,d:string>"). Owned by the converter. */
ROWBRIDGE_EXPORT const char* rowbridge_converter_spark_schema(const RowbridgeConverter* converter);

/* Returns the bytes of memory the converter holds for rows and scratch (the
 * capacities of its output buffer, row offsets and per-column buffers; not
 * its share of the compiled schema). Grows to fit the largest batch
 * converted so far and never shrinks: what a host's memory manager should
 * charge for it. 0 for NULL. */
ROWBRIDGE_EXPORT int64_t rowbridge_converter_buffer_bytes(const RowbridgeConverter* converter);

/* ---- Row -> columnar: UnsafeRows decoded into Arrow arrays ---- */

typedef struct RowbridgeDecoder RowbridgeDecoder;

/* Compiles a decoder for UnsafeRows of `schema` (a struct: one child per row
 * field, each in the Arrow type its values decode to, listed in README, "Row
 * -> columnar"). Borrows `schema`. On success *out holds a decoder, which the
 * caller frees with rowbridge_decoder_free; a type rows do not decode to is
 * ROWBRIDGE_ENOTSUP naming the field. */
ROWBRIDGE_EXPORT int rowbridge_decoder_new(const struct ArrowSchema* schema, RowbridgeDecoder** out,
                                           RowbridgeError* error);

ROWBRIDGE_EXPORT void rowbridge_decoder_free(RowbridgeDecoder* decoder);

/* Decodes `num_rows` rows, row i spanning [data + row_offsets[i], data +
 * row_offsets[i + 1]) (as RowbridgeRowBatch lays them out), into `out`: a
 * struct array of num_rows values, one child per field, which the caller
 * owns and releases (out->release(out)), on any thread, before or after the
 * decoder is freed. Borrows the rows for the call. Every row is checked
 * first: a malformed one is ROWBRIDGE_EINVAL (a value its Arrow type cannot
 * hold ROWBRIDGE_EOVERFLOW) naming the field and the row, and `out` is left
 * untouched. */
ROWBRIDGE_EXPORT int rowbridge_decoder_decode(RowbridgeDecoder* decoder, const uint8_t* data,
                                              const int64_t* row_offsets, int64_t num_rows,
                                              struct ArrowArray* out, RowbridgeError* error);

/* Exports the schema of the arrays rowbridge_decoder_decode returns into
 * `out` (caller-owned; release it with out->release(out)). */
ROWBRIDGE_EXPORT int rowbridge_decoder_schema(const RowbridgeDecoder* decoder,
                                              struct ArrowSchema* out, RowbridgeError* error);

#ifdef __cplusplus
}
#endif

#endif /* ROWBRIDGE_ROWBRIDGE_H */
