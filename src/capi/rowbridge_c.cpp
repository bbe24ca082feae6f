// The C API: a thin shell over the C++ converter and row decoder that never
// lets an exception through.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "capi/converter_options_c.hpp"
#include "rowbridge/converter.hpp"
#include "rowbridge/row_decoder.hpp"
#include "rowbridge/rowbridge.h"

struct RowbridgeConverter {
  std::unique_ptr<rowbridge::Converter> converter;
  std::string spark_schema;
};

struct RowbridgeDecoder {
  std::unique_ptr<rowbridge::RowDecoder> decoder;
};

namespace {

int Report(const rowbridge::Status& status, RowbridgeError* error) {
  if (!status.ok() && error != nullptr) {
    std::snprintf(error->message, sizeof(error->message), "%s", status.message().c_str());
  }
  return static_cast<int>(status.code());
}

int ReportException(RowbridgeError* error, const char* what) {
  return Report(rowbridge::Status::Internal(std::string("unexpected exception: ") + what), error);
}

/// Runs `body`, turning any exception into a status.
template <typename Body>
int Guard(RowbridgeError* error, Body&& body) {
  try {
    return Report(body(), error);
  } catch (const std::bad_alloc&) {
    return Report(rowbridge::Status::OutOfMemory("out of memory"), error);
  } catch (const std::exception& e) {
    return ReportException(error, e.what());
  } catch (...) {
    return ReportException(error, "unknown");
  }
}

}  // namespace

extern "C" {

const char* rowbridge_version(void) { return ROWBRIDGE_VERSION_STRING; }

int32_t rowbridge_version_number(void) {
  return ROWBRIDGE_VERSION_MAJOR * 10000 + ROWBRIDGE_VERSION_MINOR * 100 + ROWBRIDGE_VERSION_PATCH;
}

void rowbridge_converter_options_init(RowbridgeConverterOptions* options) {
  if (options == nullptr) return;
  rowbridge::ConverterOptions defaults;
  options->validation = static_cast<int32_t>(defaults.validation);
  options->max_chunk_bytes = defaults.max_chunk_bytes;
  options->variants = defaults.variants ? 1 : 0;
  options->kernels = static_cast<int32_t>(defaults.kernels);
  options->nested_writer = static_cast<int32_t>(defaults.nested_writer);
}

int rowbridge_converter_new(const struct ArrowSchema* schema,
                            const RowbridgeConverterOptions* options, RowbridgeConverter** out,
                            RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (out != nullptr) *out = nullptr;
    if (schema == nullptr || out == nullptr)
      return rowbridge::Status::Invalid("schema and out must not be NULL");
    rowbridge::ConverterOptions cpp_options;
    ROWBRIDGE_RETURN_NOT_OK(rowbridge::capi::ToConverterOptions(options, &cpp_options));
    auto handle = std::make_unique<RowbridgeConverter>();
    ROWBRIDGE_RETURN_NOT_OK(rowbridge::Converter::Make(*schema, cpp_options, &handle->converter));
    handle->spark_schema = handle->converter->plan().spark_schema().ToString();
    *out = handle.release();
    return rowbridge::Status::Ok();
  });
}

void rowbridge_converter_free(RowbridgeConverter* converter) { delete converter; }

int rowbridge_converter_convert(RowbridgeConverter* converter, const struct ArrowArray* batch,
                                const struct ArrowSchema* batch_schema, RowbridgeRowBatch* out,
                                RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (converter == nullptr || batch == nullptr || out == nullptr) {
      return rowbridge::Status::Invalid("converter, batch and out must not be NULL");
    }
    rowbridge::RowBatchView view;
    rowbridge::Status status = converter->converter->Convert(*batch, batch_schema, &view);
    rowbridge::capi::ToRowBatch(view, out);
    return status;
  });
}

int rowbridge_converter_next_chunk(RowbridgeConverter* converter, RowbridgeRowBatch* out,
                                   RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (converter == nullptr || out == nullptr) {
      return rowbridge::Status::Invalid("converter and out must not be NULL");
    }
    rowbridge::RowBatchView view;
    rowbridge::Status status = converter->converter->NextChunk(&view);
    rowbridge::capi::ToRowBatch(view, out);
    return status;
  });
}

struct ArrowArray* rowbridge_converter_registered_batch(RowbridgeConverter* converter) {
  if (converter == nullptr) return nullptr;
  try {
    return converter->converter->registered_batch();
  } catch (...) {
    return nullptr;
  }
}

const char* rowbridge_converter_spark_schema(const RowbridgeConverter* converter) {
  return converter == nullptr ? "" : converter->spark_schema.c_str();
}

int64_t rowbridge_converter_buffer_bytes(const RowbridgeConverter* converter) {
  return converter == nullptr ? 0
                              : converter->converter->buffer_bytes();  // sums capacities: no throw
}

int rowbridge_decoder_new(const struct ArrowSchema* schema, RowbridgeDecoder** out,
                          RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (out != nullptr) *out = nullptr;
    if (schema == nullptr || out == nullptr)
      return rowbridge::Status::Invalid("schema and out must not be NULL");
    auto handle = std::make_unique<RowbridgeDecoder>();
    ROWBRIDGE_RETURN_NOT_OK(rowbridge::RowDecoder::Make(*schema, &handle->decoder));
    *out = handle.release();
    return rowbridge::Status::Ok();
  });
}

void rowbridge_decoder_free(RowbridgeDecoder* decoder) { delete decoder; }

int rowbridge_decoder_decode(RowbridgeDecoder* decoder, const uint8_t* data,
                             const int64_t* row_offsets, int64_t num_rows, struct ArrowArray* out,
                             RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (decoder == nullptr || out == nullptr)
      return rowbridge::Status::Invalid("decoder and out must not be NULL");
    return decoder->decoder->Decode(data, row_offsets, num_rows, out);
  });
}

int rowbridge_decoder_schema(const RowbridgeDecoder* decoder, struct ArrowSchema* out,
                             RowbridgeError* error) {
  return Guard(error, [&]() -> rowbridge::Status {
    if (decoder == nullptr || out == nullptr)
      return rowbridge::Status::Invalid("decoder and out must not be NULL");
    return decoder->decoder->ExportSchema(out);
  });
}

}  // extern "C"
