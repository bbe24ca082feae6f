// In Spark's package for the Spark-private API it uses: PythonEvalType and SimplePythonFunction
// (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets
import java.util.Base64

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.ObjectMapper

import org.apache.spark.SparkConf
import org.apache.spark.api.python.{PythonEvalType, SimplePythonFunction}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute,
  AttributeReference,
  Expression,
  PythonUDF
}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types._

/** What rowbridge's path for plain (pickled) Python UDFs needs from the plan: which UDFs it can
  * take, and the one `mapInArrow` function that runs them in PySpark's worker.
  *
  * The function's command is a pickle that calls `rowbridge.spark.udf.batch_eval` with a JSON
  * payload naming the argument columns' types and, per UDF, the commands Spark would have sent
  * (python/rowbridge/spark/udf/_runner.py reads it). The workers therefore need the `rowbridge`
  * package: the path is taken only where the Python worker or daemon module is rowbridge's, which
  * is what `rowbridge.spark.configure` sets and what a worker without the package fails on at its
  * start.
  */
private[rowbridge] object PlainUdfs {

  val WorkerModule = "rowbridge.spark.worker"
  val DaemonModule = "rowbridge.spark.daemon"

  /** None where the workers run rowbridge's Python modules; otherwise what to set. */
  def runtimeMissing(sparkConf: SparkConf): Option[String] = {
    val useDaemon = sparkConf.getBoolean("spark.python.use.daemon", true)
    val (setting, module) =
      if (useDaemon) ("spark.python.daemon.module", DaemonModule)
      else ("spark.python.worker.module", WorkerModule)
    val actual = sparkConf.get(setting, "")
    if (actual == module) None
    else
      Some(
        s"$setting is ${if (actual.isEmpty) "not set" else actual}, not $module " +
          "(rowbridge.spark.configure sets it)"
      )
  }

  /** Why rowbridge cannot give `udf` the pickled path's answers, or None. */
  def unsupported(udf: PythonUDF): Option[String] = {
    val (_, arguments) = chainOf(udf)
    arguments
      .map(argument => unsupportedInput(valueOf(argument)._2.dataType))
      .collectFirst { case Some(reason) => s"${udf.name}: an argument of $reason" }
      .orElse(unsupportedResult(udf.dataType).map(reason => s"${udf.name}: a result of $reason"))
      .orElse(if (arguments.isEmpty) Some(s"${udf.name}: no argument") else None)
  }

  /** The UDFs' evaluation as rowbridge runs it (made on the driver). */
  case class Plan(
      arguments: Seq[Expression],
      argumentSchema: StructType,
      function: PythonUDF,
      outputType: StructType,
      streamAttributes: Seq[Attribute]
  )

  def plan(udfs: Seq[PythonUDF], conf: SQLConf): Plan = {
    val arguments = scala.collection.mutable.ArrayBuffer[Expression]()
    def column(value: Expression): Int = {
      val found = arguments.indexWhere(_.semanticEquals(value))
      if (found >= 0) found else { arguments += value; arguments.size - 1 }
    }
    val json = new ObjectMapper()
    val payload = json.createObjectNode()
    payload.put("binaryAsBytes", binaryAsBytes(conf))
    // The order of a returned map's entries follows HashMap.putAll, whose sizing changed in Java
    // 19: the driver's version stands for the executors'.
    payload.put("javaFeature", Runtime.version().feature())
    val specs = payload.putArray("udfs")
    udfs.foreach { udf =>
      val (functions, udfArguments) = chainOf(udf)
      val spec = specs.addObject()
      val commands = spec.putArray("commands")
      functions.foreach(f => commands.add(Base64.getEncoder.encodeToString(f.command.toArray)))
      val positional = spec.putArray("args")
      val named = spec.putArray("kwargs")
      udfArguments.map(valueOf).foreach {
        case (Some(name), value) => named.addArray().add(name).add(column(value))
        case (None, value)       => positional.add(column(value))
      }
    }
    val inputs = payload.putArray("inputs")
    arguments.foreach(argument => inputs.add(argument.dataType.json))

    val argumentSchema = StructType(arguments.zipWithIndex.map { case (argument, i) =>
      StructField(s"_$i", argument.dataType)
    }.toSeq)
    val streamAttributes =
      udfs.indices.map(j => AttributeReference(s"_$j", udfs(j).dataType)()) ++
        udfs.indices.map(j => AttributeReference(s"_${j}_pickled", BinaryType)())
    val outputType = StructType(streamAttributes.map(a => StructField(a.name, a.dataType)))

    val all = udfs.flatMap(udf => chainOf(udf)._1)
    val first = all.head
    val function = SimplePythonFunction(
      command(json.writeValueAsBytes(payload), outputType).toSeq,
      first.envVars,
      first.pythonIncludes,
      first.pythonExec,
      first.pythonVer,
      all.flatMap(_.broadcastVars.asScala).distinct.asJava,
      first.accumulator
    )
    val udf = udfs.head.copy(
      func = function,
      dataType = outputType,
      evalType = PythonEvalType.SQL_MAP_ARROW_ITER_UDF
    )
    Plan(arguments.toSeq, argumentSchema, udf, outputType, streamAttributes)
  }

  /** A UDF's chained functions, innermost first, and the innermost one's arguments. */
  private def chainOf(
      udf: PythonUDF
  ): (Seq[org.apache.spark.api.python.PythonFunction], Seq[Expression]) =
    udf.children match {
      case Seq(inner: PythonUDF) =>
        val (functions, arguments) = chainOf(inner)
        (functions :+ udf.func, arguments)
      case children => (Seq(udf.func), children)
    }

  /** A keyword argument's name and value (Spark's `NamedArgumentExpression`, on the lines that have
    * it), or a positional argument.
    */
  private def valueOf(argument: Expression): (Option[String], Expression) = argument match {
    case named: Product if named.productPrefix == "NamedArgumentExpression" =>
      (Some(named.productElement(0).toString), named.productElement(1).asInstanceOf[Expression])
    case other => (None, other)
  }

  /** The pickle (protocol 3) of `(rowbridge.spark.udf.batch_eval(payload), returnType)`. */
  private def command(payload: Array[Byte], returnType: StructType): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    def global(module: String, name: String): Unit = {
      out.write('c')
      out.write(s"$module\n$name\n".getBytes(StandardCharsets.UTF_8))
    }
    def sized(opcode: Char, data: Array[Byte]): Unit = {
      out.write(opcode)
      Seq(0, 8, 16, 24).foreach(shift => out.write((data.length >>> shift) & 0xff))
      out.write(data)
    }
    out.write(0x80)
    out.write(3)
    global("rowbridge.spark.udf", "batch_eval")
    sized('B', payload)
    out.write(0x85) // TUPLE1
    out.write('R')
    global("pyspark.sql.types", "_parse_datatype_json_string")
    sized('X', returnType.json.getBytes(StandardCharsets.UTF_8))
    out.write(0x85)
    out.write('R')
    out.write(0x86) // TUPLE2
    out.write('.')
    out.toByteArray
  }

  /** `spark.sql.execution.pyspark.binaryAsBytes` where the line has it (Spark 4.1 and later). */
  private def binaryAsBytes(conf: SQLConf): Boolean = {
    val key = "spark.sql.execution.pyspark.binaryAsBytes"
    conf.getAllDefinedConfs.find(_._1 == key).exists { case (_, default, _, _) =>
      conf.getConfString(key, default).trim.toBoolean
    }
  }

  /** Argument types whose pickled values python/rowbridge/spark/udf/_inputs.py reproduces. */
  private def unsupportedInput(dataType: DataType): Option[String] = dataType match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType |
        _: StringType | BinaryType | _: DecimalType | DateType | TimestampType | TimestampNTZType |
        _: DayTimeIntervalType | NullType =>
      None
    case other if other.getClass.getSimpleName.startsWith("TimeType") => None
    case ArrayType(element, _)                                        => unsupportedInput(element)
    case MapType(key, value, _)                                       =>
      if (!hashableKey(key)) Some(s"type ${dataType.simpleString} (its keys' Java hash order)")
      else unsupportedInput(value)
    case StructType(fields) =>
      fields.iterator.map(f => unsupportedInput(f.dataType)).collectFirst { case Some(reason) =>
        reason
      }
    case other => Some(s"type ${other.simpleString}")
  }

  private def hashableKey(key: DataType): Boolean = key match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType |
        _: StringType | _: DecimalType | DateType | TimestampType | TimestampNTZType |
        _: DayTimeIntervalType =>
      true
    case other => other.getClass.getSimpleName.startsWith("TimeType")
  }

  /** Return types whose results python/rowbridge/spark/udf/_results.py writes. */
  private def unsupportedResult(dataType: DataType): Option[String] = dataType match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType |
        BinaryType | _: DecimalType | DateType | TimestampType | TimestampNTZType | NullType =>
      None
    case s: StringType if s == StringType                     => None
    case d: DayTimeIntervalType if d == DayTimeIntervalType() => None
    case ArrayType(element, _)                                => unsupportedResult(element)
    case MapType(key, value, _) => unsupportedResult(key).orElse(unsupportedResult(value))
    case StructType(fields)     =>
      fields.iterator.map(f => unsupportedResult(f.dataType)).collectFirst { case Some(reason) =>
        reason
      }
    case other => Some(s"type ${other.simpleString}")
  }
}
