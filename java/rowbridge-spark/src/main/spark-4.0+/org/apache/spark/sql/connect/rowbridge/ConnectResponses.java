// In Spark Connect's package for the server API it uses: ExecuteHolder and MetricGenerator
// (private[connect]).
package org.apache.spark.sql.connect.rowbridge;

import org.apache.spark.connect.proto.ExecutePlanResponse;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connect.service.ExecuteHolder;
import org.apache.spark.sql.connect.service.SessionHolder;
import org.apache.spark.sql.connect.utils.MetricGenerator;
import org.sparkproject.connect.grpc.stub.StreamObserver;
import org.sparkproject.connect.protobuf.ByteString;

/**
 * The responses of one Connect execution, as Spark's own plan execution sends a result: the schema,
 * Arrow batches, then the plan's metrics. In Java because Connect's server shades protobuf and
 * gRPC: its bytecode names the shaded classes, which Java reads, while the Scala signatures of its
 * response observer name the unshaded ones.
 */
final class ConnectResponses {
  private final StreamObserver<ExecutePlanResponse> observer;
  private final SessionHolder session;
  private final String sessionId;
  private final String serverSessionId;

  /** The responses of {@code holder}'s execution (its observer, its session). */
  ConnectResponses(ExecuteHolder holder) {
    this.observer = holder.responseObserver();
    this.session = holder.sessionHolder();
    this.sessionId = holder.sessionHolder().sessionId();
    this.serverSessionId = holder.sessionHolder().serverSessionId();
  }

  private ExecutePlanResponse.Builder response() {
    return ExecutePlanResponse.newBuilder()
        .setSessionId(sessionId)
        .setServerSideSessionId(serverSessionId);
  }

  /** Sends the result's schema (Connect's form of its StructType). */
  void schema(org.apache.spark.connect.proto.DataType schema) {
    observer.onNext(response().setSchema(schema).build());
  }

  /**
   * Sends one Arrow batch response: {@code data} an IPC stream of {@code rows} rows, the first of
   * which is row {@code offset} of the result.
   */
  void batch(long rows, long offset, ByteString data) {
    ExecutePlanResponse.ArrowBatch.Builder batch =
        ExecutePlanResponse.ArrowBatch.newBuilder().setRowCount(rows).setData(data);
    batch.setStartOffset(offset);
    observer.onNext(response().setArrowBatch(batch).build());
  }

  /**
   * Ends the result of {@code dataset} with the metrics of its executed plan, which Connect's
   * client puts in toPandas' {@code attrs["metrics"]}.
   */
  @SuppressWarnings("unchecked")
  void finish(Dataset<?> dataset) {
    observer.onNext(MetricGenerator.createMetricsResponse(session, (Dataset<Row>) dataset));
  }
}
