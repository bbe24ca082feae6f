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

#define ROWBRIDGE_ECANCELED 125 /* the stream was cancelled or interrupted */

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

/* Sets the number of threads of the process-wide worker pool and starts it.
 * Fails (ROWBRIDGE_EINVAL) when the pool already runs with another size: it
 * is sized once, by this call or by the first stream (one thread per core). */
ROWBRIDGE_EXPORT int rowbridge_worker_pool_init(int32_t threads, RowbridgeError* error);

/* Opens the Arrow IPC file or stream at `path` and exports a prefetch stream
 * of its record batches (file format: decoded in parallel) into `out`, which
 * must be uninitialized or released; the caller releases it with
 * out->release(out). Batches of get_next are owned by the caller. */
ROWBRIDGE_EXPORT int rowbridge_scan_ipc(const char* path, const RowbridgeStreamOptions* options,
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
    const RowbridgeConverterOptions* converter_options, RowbridgeRowStream** out,
    RowbridgeError* error);

/* Stores the first chunk of rows of the next batch in `*out`, or sets
 * `*end_of_stream` to 1. The rows are valid until the next call to next or
 * free on the stream. */
ROWBRIDGE_EXPORT int rowbridge_row_stream_next(RowbridgeRowStream* stream, RowbridgeRowBatch* out,
                                               int* end_of_stream, RowbridgeError* error);

/* Converts the next chunk of the current batch (num_rows == 0: none left). */
ROWBRIDGE_EXPORT int rowbridge_row_stream_next_chunk(RowbridgeRowStream* stream,
                                                     RowbridgeRowBatch* out, RowbridgeError* error);

/* Cancels without waiting; thread-safe, but not concurrent with free. */
ROWBRIDGE_EXPORT void rowbridge_row_stream_cancel(RowbridgeRowStream* stream);

/* Closes the stream (waits for running batches to reach their boundary) and
 * frees it. NULL is accepted. */
ROWBRIDGE_EXPORT void rowbridge_row_stream_free(RowbridgeRowStream* stream);

#ifdef __cplusplus
}
#endif

#endif /* ROWBRIDGE_STREAM_H */
