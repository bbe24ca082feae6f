package io.rowbridge.spark.transition

import io.rowbridge.spark.conf.RowbridgeConf.Placement

import org.apache.arrow.memory.BoundsChecking
import org.apache.arrow.vector.NullCheckingForGet

import org.apache.spark.sql.catalyst.optimizer.{BuildLeft, BuildRight}
import org.apache.spark.sql.execution.{
  CodegenSupport,
  FilterExec,
  GlobalLimitExec,
  LocalLimitExec,
  ProjectExec,
  SortExec,
  SparkPlan,
  UnionExec
}
import org.apache.spark.sql.execution.aggregate.BaseAggregateExec
import org.apache.spark.sql.execution.joins.HashJoin
import org.apache.spark.sql.types.{ArrayType, BinaryType, DataType, MapType, StringType, StructType}

/** Where rowbridge's transition replaces Spark's: what the rows feed decides it, with the kinds of
  * columns. The measurements behind each rule are in java/README.md, "Placement", and come from
  * `io.rowbridge.bench.PlacementBench`.
  *
  * A transition's rows are either taken whole (every column of every row leaves as an UnsafeRow: an
  * exchange, a sort, a broadcast, a collect, a hash join's build side, any operator outside
  * whole-stage code generation), or read column by column by generated code that uses some of them
  * (an aggregation, a computed projection), or, on a hash join's streamed side, read for the keys
  * of every row and for the other columns of matching rows. A filter or a projection that passes
  * columns through gives its rows the demand of its own consumer, filtered.
  */
object TransitionPlacement {

  /** What the consumer of a transition's rows does with them. */
  sealed trait Demand

  /** Every column of every row leaves as a row. */
  case object WholeRows extends Demand

  /** Every column of the rows that pass a filter leaves as a row. */
  case object FilteredRows extends Demand

  /** Generated code reads the columns it uses. */
  case object Columns extends Demand

  /** A hash join's streamed side: generated code reads the join keys of every row and the other
    * columns of matching rows only.
    */
  case object JoinedColumns extends Demand

  /** The plan with each transition `replace` takes for the demand on its rows replaced (it returns
    * None to keep one); `demand` is what the consumer of `plan`'s rows does with them. Transitions
    * deeper in a transition's columnar child are placed too.
    */
  def place(
      plan: SparkPlan,
      demand: Demand,
      replace: (SparkPlan, Demand) => Option[SparkPlan]
  ): SparkPlan = {
    val placed = plan.withNewChildren(
      plan.children.map(child => place(child, demandOf(plan, child, demand), replace))
    )
    replace(placed, demand).getOrElse(placed)
  }

  /** Whether rowbridge's transition takes rows of these column types for this demand, where the
    * transition it replaces reads each value through getters that check bounds and nulls
    * (`checkedReads`: Spark's own over Arrow Java with its default checks) or not (an engine's
    * transition over its own vectors, or Arrow Java with its checks off).
    */
  def chooses(
      placement: Placement,
      demand: Demand,
      types: Seq[DataType],
      checkedReads: Boolean = arrowChecksOn
  ): Boolean =
    placement match {
      case Placement.ROWBRIDGE => true
      case Placement.SPARK     => false
      case Placement.AUTO      =>
        demand match {
          case WholeRows     => true
          case FilteredRows  => !types.exists(isNested)
          case Columns       => checkedReads
          case JoinedColumns => checkedReads && !types.exists(isVariableWidth)
        }
    }

  /** Whether Arrow Java checks bounds or nulls on each get (its default). Spark's transition reads
    * every value through those getters; with both checks off (as Comet runs it,
    * `-Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false`, read once
    * when Arrow Java's classes load) its column reads are as fast as rowbridge's rows.
    */
  lazy val arrowChecksOn: Boolean =
    BoundsChecking.BOUNDS_CHECKING_ENABLED || NullCheckingForGet.NULL_CHECKING_ENABLED

  /** What `parent` does with the rows of its child `child`, given the demand on its own rows. */
  def demandOf(parent: SparkPlan, child: SparkPlan, parentDemand: Demand): Demand = parent match {
    case _: FilterExec => filtered(parentDemand)
    case project: ProjectExec
        if project.projectList.forall(e => child.outputSet.contains(e.toAttribute)) &&
          child.output.forall(project.outputSet.contains) =>
      parentDemand
    case _: ProjectExec                                        => Columns
    case _: UnionExec | _: LocalLimitExec | _: GlobalLimitExec => parentDemand
    case _: BaseAggregateExec                                  => Columns
    case _: SortExec                                           => WholeRows
    case join: HashJoin                                        =>
      val build = join.buildSide match {
        case BuildLeft  => join.left
        case BuildRight => join.right
      }
      if (child eq build) WholeRows else JoinedColumns
    case codegen: CodegenSupport if codegen.supportCodegen => Columns
    case _                                                 => WholeRows
  }

  private def filtered(demand: Demand): Demand = demand match {
    case WholeRows => FilteredRows
    case other     => other
  }

  private def isVariableWidth(dataType: DataType): Boolean = dataType match {
    case _: StringType | _: BinaryType => true
    case _                             => false
  }

  private def isNested(dataType: DataType): Boolean = dataType match {
    case _: StructType | _: ArrayType | _: MapType => true
    case _                                         => false
  }

}
