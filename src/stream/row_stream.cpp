// RowStream: a prefetch stream whose workers also convert batches to rows.
#include <limits>
#include <vector>

#include "stream/constant_columns.hpp"
#include "stream/stream_core.hpp"

namespace rowbridge::stream {
namespace {

/// Converts each finished batch with the item's own converter, made on the
/// item's first use and kept with the item. With constant columns, the
/// converter reads the batch with them appended (`WithConstants`).
class RowStage : public detail::ItemStage {
 public:
  RowStage(std::shared_ptr<const RowPlan> plan, const ConverterOptions& options,
           std::shared_ptr<const detail::OwnedConstants> constants)
      : plan_(std::move(plan)), options_(options), constants_(std::move(constants)) {}

  Status Process(detail::StreamItem* item) override {
    if (item->converter == nullptr) {
      ROWBRIDGE_RETURN_NOT_OK(Converter::Make(plan_, options_, &item->converter));
    }
    const ArrowArray* batch = &item->array;
    if (constants_ != nullptr) {
      if (item->stage_state == nullptr) {
        item->stage_state = std::make_shared<detail::WithConstants>(constants_);
      }
      auto* joined = static_cast<detail::WithConstants*>(item->stage_state.get());
      ROWBRIDGE_RETURN_NOT_OK(
          joined->Bind(item->array).WithContext("batch " + std::to_string(item->index)));
      batch = joined->array();
    }
    Status status = item->converter->Convert(*batch, &item->rows);
    item->NoteConverter();  // grown or not, failed or not: the stream adds the growth to bytes_held
    if (!status.ok()) return status.WithContext("batch " + std::to_string(item->index));
    return status;
  }

 private:
  std::shared_ptr<const RowPlan> plan_;
  ConverterOptions options_;
  std::shared_ptr<const detail::OwnedConstants> constants_;
};

}  // namespace

struct RowStream::State {
  std::shared_ptr<detail::StreamCore> core;
  std::shared_ptr<const RowPlan> plan;

  ~State() {
    if (core != nullptr) core->Close();
  }
};

RowStream::RowStream(std::unique_ptr<State> state) : state_(std::move(state)) {}

RowStream::~RowStream() { Close(); }

Status RowStream::Make(std::unique_ptr<BatchProducer> producer, const StreamOptions& options,
                       const ConverterOptions& converter_options, std::unique_ptr<RowStream>* out,
                       ConstantColumns* constants) {
  try {
    std::shared_ptr<const detail::OwnedConstants> owned;
    if (constants != nullptr) {
      auto taken = std::make_shared<detail::OwnedConstants>(constants);
      ROWBRIDGE_RETURN_NOT_OK(taken->Check().WithContext("row stream: constant columns"));
      owned = std::move(taken);
    }
    if (producer == nullptr) return Status::Invalid("row stream: no producer (null)");
    auto state = std::make_unique<State>();
    auto make_stage = [&](const ArrowSchema& schema, std::unique_ptr<detail::ItemStage>* stage) {
      if (owned == nullptr) {
        ROWBRIDGE_RETURN_NOT_OK(
            RowPlan::Compile(schema, converter_options, &state->plan).WithContext("row stream"));
      } else {
        detail::SchemaWithConstants joined(schema, *owned);
        ROWBRIDGE_RETURN_NOT_OK(RowPlan::Compile(*joined.schema(), converter_options, &state->plan)
                                    .WithContext("row stream"));
      }
      *stage = std::make_unique<RowStage>(state->plan, converter_options, owned);
      return Status::Ok();
    };
    ROWBRIDGE_RETURN_NOT_OK(
        detail::StreamCore::Make(std::move(producer), make_stage, options, &state->core));
    out->reset(new RowStream(std::move(state)));
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("row stream: out of memory");
  }
}

Status RowStream::Next(RowBatch* out, bool* end_of_stream) {
  bool ready = false;
  return Take(out, end_of_stream, &ready, /*wait=*/true);
}

Status RowStream::Poll(RowBatch* out, bool* end_of_stream, bool* ready) {
  return Take(out, end_of_stream, ready, /*wait=*/false);
}

Status RowStream::Take(RowBatch* out, bool* end_of_stream, bool* ready, bool wait) {
  *out = RowBatch{};
  *ready = false;
  detail::StreamItem* item = nullptr;
  const detail::TakeWait how = wait ? detail::TakeWait::kBlock : detail::TakeWait::kOnePeriod;
  ROWBRIDGE_RETURN_NOT_OK(state_->core->Take(&item, end_of_stream, how));
  if (item != nullptr) {
    out->index = item->index;
    out->batch = &item->array;
    out->rows = item->rows;
    out->converter_bytes = item->row_bytes;
  }
  *ready = item != nullptr || *end_of_stream;
  return Status::Ok();
}

Status RowStream::NextChunk(RowBatchView* out) {
  *out = RowBatchView{};
  detail::StreamItem* item = state_->core->held();
  if (item == nullptr || item->converter == nullptr) {
    return Status::Invalid("row stream: NextChunk without a current batch");
  }
  try {
    if (!item->converter->HasMoreChunks()) return Status::Ok();
    ROWBRIDGE_RETURN_NOT_OK(item->converter->NextChunk(out));
    state_->core->AddBytesHeld(item->NoteConverter());
    return Status::Ok();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("row stream: out of memory converting a chunk");
  }
}

const RowPlan& RowStream::plan() const { return *state_->plan; }

Status RowStream::ExportSchema(ArrowSchema* out) const { return state_->core->ExportSchema(out); }

void RowStream::Cancel() { state_->core->Cancel(); }

StreamCanceller RowStream::canceller() const { return StreamCanceller(state_->core); }

StreamGate RowStream::gate() const { return StreamGate(state_->core); }

void RowStream::Close() { state_->core->Close(); }

StreamStats RowStream::stats() const { return state_->core->stats(); }

int64_t RowStream::bytes_held() const { return state_->core->bytes_held(); }

int64_t RowStream::converter_bytes() const {
  const detail::StreamItem* item = state_->core->held();
  return item == nullptr ? 0 : item->row_bytes;
}

}  // namespace rowbridge::stream
