/* rowbridge C API: bounded prefetch streams and the parallel IPC scan.
 *
 * Conventions as in rowbridge.h: every fallible function returns 0 or an
 * errno-style code and writes a message into `error` when it is not NULL;
 * nothing crosses this API as an exception; the library never prints and
 * never aborts. A cancelled stream fails with ROWBRIDGE_ECANCELED. */
#ifndef ROWBRIDGE_STREAM_H
#define ROWBRIDGE_STREAM_H

#include <stdint.h>

#include "rowbridge/arrow_c_data.h"
#include "rowbridge/export.h"
#include "rowbridge/rowbridge.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct RowbridgeStreamOptions {
  /* K: the most finished batches waiting for the consumer (>= 0; default 1). */
  int32_t prefetch;
  /* W: the most batches being produced at once (>= 1; default 2). */
  int32_t in_flight;
  /* How often a blocked get_next / next wakes to call `interrupted` (ms, > 0;
   * default 100). */
  int32_t wake_period_ms;
  /* Optional: called on the consumer's thread at each wake-up; a non-zero
   * result cancels the stream. */
  int (*interrupted)(void* context);
  void* interrupted_context;
} RowbridgeStreamOptions;

/* Fills `options` with the defaults. */
ROWBRIDGE_EXPORT void rowbridge_stream_options_init(RowbridgeStreamOptions* options);

/* What a scan of an Arrow IPC input reads. */
typedef struct RowbridgeScanOptions {
  /* The columns to read, as top-level column indices in the order wanted,
   * each at most once (borrowed for the duration of the call that takes the
   * options). num_columns -1 (the default): every column; 0: none (batches
   * of rows without columns). The other columns' buffers are not
   * decompressed or checked. */
  const int32_t* columns;
  int32_t num_columns;
  /* The record batches [first_batch, first_batch + batch_count); batch_count
   * -1 (the default): to the end. A range past the last batch is an error. */
  int64_t first_batch;
  int64_t batch_count;
  /* Non-zero (the default): check every offset, view and dictionary index
   * of each batch before it is handed out; 0: only the structure (for
   * inputs from a trusted writer). */
  int32_t validate_values;
} RowbridgeScanOptions;

/* Fills `options` with the defaults (every column and batch, values
 * checked). */
ROWBRIDGE_EXPORT void rowbridge_scan_options_init(RowbridgeScanOptions* options);

/* One record batch of an IPC input, as its metadata describes it. */
typedef struct RowbridgeIpcBatchInfo {
  int64_t num_rows;
  /* The body as stored (compressed when compressed), and once decompressed. */
  int64_t body_bytes;
  int64_t uncompressed_body_bytes;
} RowbridgeIpcBatchInfo;

/* What rowbridge_ipc_file_info reads: the footer (file format) or every
 * message's metadata (stream format), never the bodies. */
typedef struct RowbridgeIpcFileInfo {
  int32_t format; /* 1: file, 2: stream */
  int64_t input_bytes;
  int64_t num_batches;
  /* num_batches entries, owned: freed by rowbridge_ipc_file_info_free. */
  RowbridgeIpcBatchInfo* batches;
} RowbridgeIpcFileInfo;

/* Reads the schema (into `schema` when not NULL: uninitialized, then owned
 * by the caller) and the record batches' sizes of the IPC input at `path`.
 * On failure nothing needs freeing. */
ROWBRIDGE_EXPORT int rowbridge_ipc_file_info(const char* path, struct ArrowSchema* schema,
                                             RowbridgeIpcFileInfo* out, RowbridgeError* error);

/* Frees what rowbridge_ipc_file_info allocated in `info`; NULL is accepted. */
ROWBRIDGE_EXPORT void rowbridge_ipc_file_info_free(RowbridgeIpcFileInfo* info);

/* Sets the number of threads of the process-wide worker pool and starts it.
 * Fails (ROWBRIDGE_EINVAL) when the pool already runs with another size: it
 * is sized once, by this call or by the first stream (one thread per core). */
ROWBRIDGE_EXPORT int rowbridge_worker_pool_init(int32_t threads, RowbridgeError* error);

/* Opens the Arrow IPC file or stream at `path` and exports a prefetch stream
 * of its record batches (file format: decoded in parallel) into `out`, which
 * must be uninitialized or released; the caller releases it with
 * out->release(out). Batches of get_next are owned by the caller. NULL
 * options mean the defaults. */
ROWBRIDGE_EXPORT int rowbridge_scan_ipc(const char* path, const RowbridgeStreamOptions* options,
                                        const RowbridgeScanOptions* scan_options,
                                        struct ArrowArrayStream* out, RowbridgeError* error);

/* Wraps `source` in a prefetch stream: takes ownership of `source` (also on
 * failure: it is moved out and marked released) and exports the prefetch
 * stream into `out`. */
ROWBRIDGE_EXPORT int rowbridge_prefetch_array_stream(struct ArrowArrayStream* source,
                                                     const RowbridgeStreamOptions* options,
                                                     struct ArrowArrayStream* out,
                                                     RowbridgeError* error);

/* Cancels a stream exported by rowbridge_scan_ipc or
 * rowbridge_prefetch_array_stream: a get_next blocked on another thread
 * returns ROWBRIDGE_ECANCELED promptly. Thread-safe with get_next; must not
 * race with release. Returns ROWBRIDGE_EINVAL for any other stream. */
ROWBRIDGE_EXPORT int rowbridge_array_stream_cancel(struct ArrowArrayStream* stream);

/* A prefetch stream whose workers convert batches to Spark UnsafeRows. Used
 * by one consumer thread; rowbridge_row_stream_cancel from any thread. */
typedef struct RowbridgeRowStream RowbridgeRowStream;

/* Opens `path` (as rowbridge_scan_ipc) as a row stream stored in `*out`,
 * freed with rowbridge_row_stream_free. */
ROWBRIDGE_EXPORT int rowbridge_row_stream_scan_ipc(
    const char* path, const RowbridgeStreamOptions* options,
    const RowbridgeScanOptions* scan_options, const RowbridgeConverterOptions* converter_options,
    RowbridgeRowStream** out, RowbridgeError* error);

/* Stores the first chunk of rows of the next batch in `*out`, or sets
 * `*end_of_stream` to 1. The rows are valid until the next call to next or
 * free on the stream. */
ROWBRIDGE_EXPORT int rowbridge_row_stream_next(RowbridgeRowStream* stream, RowbridgeRowBatch* out,
                                               int* end_of_stream, RowbridgeError* error);

/* Converts the next chunk of the current batch (num_rows == 0: none left),
 * on the caller's thread: workers convert only the first chunk of a batch. */
ROWBRIDGE_EXPORT int rowbridge_row_stream_next_chunk(RowbridgeRowStream* stream,
                                                     RowbridgeRowBatch* out, RowbridgeError* error);

/* Cancels without waiting; thread-safe, but not concurrent with free. */
ROWBRIDGE_EXPORT void rowbridge_row_stream_cancel(RowbridgeRowStream* stream);

/* The bytes of native memory the stream holds now: the decoded batches it
 * has produced and not yet released (buffers allocated for them, such as
 * decompressed bodies; not the mapped file) plus what its converters hold
 * (up to K + W + 1 converters, each counted as the capacities of its row
 * buffers and scratch, rowbridge_converter_buffer_bytes; they are kept for
 * reuse until the stream is freed). It changes as the workers run, also between calls to next. An
 * atomic read: callable from any thread, at any time before
 * rowbridge_row_stream_free; returns 0 for NULL. For hosts that account
 * native memory (e.g. Spark's task memory manager). */
ROWBRIDGE_EXPORT int64_t rowbridge_row_stream_bytes_held(const RowbridgeRowStream* stream);

/* Closes the stream (waits for running batches to reach their boundary) and
 * frees it. NULL is accepted. */
ROWBRIDGE_EXPORT void rowbridge_row_stream_free(RowbridgeRowStream* stream);

#ifdef __cplusplus
}
#endif

#endif /* ROWBRIDGE_STREAM_H */
