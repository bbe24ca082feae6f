package io.rowbridge.spark.arrow

import java.util.concurrent.atomic.AtomicLong

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, ProjectExec, SparkPlan, UnaryExecNode}
import org.apache.spark.sql.vectorized.{ArrowColumnVector, ColumnarBatch}

/** A test extension standing for a native engine's columnar operators: while the session sets
  * `rowbridge.test.arrowConsumer=true`, every ProjectExec is put under an [[ArrowConsumingExec]], a
  * columnar operator, so Spark plans a row-to-columnar transition between them.
  */
class ArrowConsumerExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectColumnar(session =>
      new ColumnarRule {
        override def preColumnarTransitions: Rule[SparkPlan] = plan =>
          if (
            session.sessionState.conf
              .getConfString("rowbridge.test.arrowConsumer", "false")
              .toBoolean
          ) {
            wrap(plan)
          } else {
            plan
          }
      }
    )
  }

  private def wrap(plan: SparkPlan): SparkPlan = plan match {
    case consumer: ArrowConsumingExec => consumer
    case project: ProjectExec         =>
      ArrowConsumingExec(project.withNewChildren(project.children.map(wrap)))
    case other => other.withNewChildren(other.children.map(wrap))
  }
}

/** Counts the batches it receives by the kind of their vectors and passes them on. Its counters are
  * static: the tests run in local mode, in this JVM.
  */
case class ArrowConsumingExec(child: SparkPlan) extends UnaryExecNode {
  override def output: Seq[Attribute] = child.output

  override def supportsColumnar: Boolean = true

  override protected def doExecute(): RDD[InternalRow] =
    throw new UnsupportedOperationException("columnar only")

  override protected def doExecuteColumnar(): RDD[ColumnarBatch] =
    child.executeColumnar().mapPartitions { batches =>
      batches.map { batch =>
        val arrow =
          (0 until batch.numCols).forall(i => batch.column(i).isInstanceOf[ArrowColumnVector])
        (if (arrow) ArrowConsumingExec.arrowBatches else ArrowConsumingExec.otherBatches)
          .incrementAndGet()
        ArrowConsumingExec.rows.addAndGet(batch.numRows)
        batch
      }
    }

  override protected def withNewChildInternal(newChild: SparkPlan): ArrowConsumingExec =
    copy(child = newChild)
}

object ArrowConsumingExec {
  val arrowBatches = new AtomicLong()
  val otherBatches = new AtomicLong()
  val rows = new AtomicLong()

  def reset(): Unit = {
    arrowBatches.set(0)
    otherBatches.set(0)
    rows.set(0)
  }
}
