"""The ``mapInArrow`` function that runs a projection's plain UDFs over Arrow batches.

rowbridge's operator (``RowbridgeBatchEvalPythonExec``) sends PySpark's worker one function of
the ``mapInArrow`` eval type whose pickled command calls :func:`batch_eval` with a JSON payload:

- ``inputs``: the Spark types (JSON) of the argument columns, in the batch's column order;
- ``binaryAsBytes``: ``spark.sql.execution.pyspark.binaryAsBytes`` (false before Spark 4.1);
- ``javaFeature``: the JVM's feature version (the order of a returned map's entries depends on it);
- ``udfs``: per UDF, its chained commands (base64 of the commands Spark would send, each
  pickled ``(function, return type)``, possibly a broadcast), its positional argument columns
  (``args``) and its keyword ones (``kwargs``: ``[name, column]`` pairs).

Each input batch gives one output batch of as many rows: per UDF ``j``, a column ``_j`` of its
regular results and a binary column ``_j_pickled`` of the pickled irregular ones
(:mod:`._results`). The functions are chained, called and their results converted as
PySpark's worker does for ``SQL_BATCHED_UDF``: chained functions pass their Python results on
unchanged, the last return type's ``toInternal`` applies to each result, several UDFs are called
row by row in their order, and a ``StopIteration`` raised by a UDF fails as PySpark makes it fail.
"""

import base64
import json

import pyarrow as pa
from pyspark.serializers import CPickleSerializer
from pyspark.sql.types import (
    ArrayType,
    MapType,
    StructType,
    TimestampType,
    _parse_datatype_json_string,
)
from pyspark.util import fail_on_stopiteration
from pyspark.worker import chain

from rowbridge.spark.udf._inputs import column_reader
from rowbridge.spark.udf._results import ResultWriter


def batch_eval(payload):
    """The ``mapInArrow`` function (iterator of record batches to iterator of record batches)
    for the UDFs ``payload`` (bytes of JSON, above) describes."""
    spec = json.loads(payload)
    input_types = [_parse_datatype_json_string(t) for t in spec["inputs"]]
    readers = [column_reader(t, spec["binaryAsBytes"]) for t in input_types]
    udfs = [_Udf(u, spec["javaFeature"]) for u in spec["udfs"]]
    names = ["_%d" % j for j in range(len(udfs))]
    names += ["_%d_pickled" % j for j in range(len(udfs))]
    used = sorted({column for udf in udfs for column in udf.columns})

    def evaluate(batches):
        for batch in batches:
            columns = [None] * len(readers)
            for i in used:
                columns[i] = readers[i](batch.column(i))
            results = _call(udfs, columns, batch.num_rows)
            values, pickled = [], []
            for udf, result in zip(udfs, results):
                array, irregular = udf.write(result)
                values.append(array)
                pickled.append(pa.nulls(len(array), pa.binary()) if irregular is None else irregular)
            yield pa.RecordBatch.from_arrays(values + pickled, names=names)

    return evaluate


class _Udf:
    """One UDF of the projection: its chained function, argument columns and result writer."""

    def __init__(self, spec, java_feature):
        serializer = CPickleSerializer()
        chained = None
        return_type = None
        for command in spec["commands"]:
            function, return_type = _load_command(serializer, base64.b64decode(command))
            chained = function if chained is None else chain(chained, function)
        positional = list(spec["args"])
        named = [name for name, _ in spec["kwargs"]]
        self.columns = positional + [column for _, column in spec["kwargs"]]
        if named:
            chained = _with_keywords(chained, len(positional), named)
        if return_type.needConversion():
            chained = _then(chained, return_type.toInternal)
        self.function = chained
        self.write = ResultWriter(return_type, java_feature)
        # TimestampType.toInternal calls time.mktime, whose answer for a local time the clock
        # change makes ambiguous depends on the calls before it: such UDFs keep the pickled
        # path's order of calls exactly.
        self.order_sensitive = _has_local_timestamp(return_type)


def _load_command(serializer, raw):
    command = serializer.loads(raw)
    try:
        from pyspark.core.broadcast import Broadcast
    except ImportError:  # Spark 3.5 and 4.0
        from pyspark.broadcast import Broadcast
    if isinstance(command, Broadcast):
        command = serializer.loads(command.value)
    return command


def _then(f, convert):
    return lambda *a: convert(f(*a))


# PySpark's worker has this as wrap_kwargs_support from 4.0 on; 3.5's worker has none.
def _with_keywords(f, positional, names):
    def call(*args):
        return f(*args[:positional], **dict(zip(names, args[positional:])))

    return call


def _call(udfs, columns, num_rows):
    """Each UDF's results for the batch's rows, in the pickled path's order of calls."""
    try:
        if len(udfs) == 1:
            udf = udfs[0]
            return [_call_one(udf.function, [columns[c] for c in udf.columns], num_rows)]
        if any(udf.order_sensitive for udf in udfs):
            return _call_in_row_order(udfs, columns, num_rows)
        return _call_udf_by_udf(udfs, columns, num_rows)
    except StopIteration as exc:
        failure = exc

    def raise_it():
        raise failure

    fail_on_stopiteration(raise_it)()  # PySpark's own error for a UDF's StopIteration
    raise failure


def _call_one(f, args, num_rows):
    if not args:
        return [f() for _ in range(num_rows)]
    if len(args) == 1:
        return [f(a) for a in args[0]]
    if len(args) == 2:
        return [f(a, b) for a, b in zip(args[0], args[1])]
    return [f(*a) for a in zip(*args)]


def _call_in_row_order(udfs, columns, num_rows):
    """Several UDFs called exactly as the pickled path calls them: each row's UDFs in order."""
    calls = [(udf.function, list(zip(*[columns[c] for c in udf.columns])), []) for udf in udfs]
    for i in range(num_rows):
        for f, rows, out in calls:
            out.append(f(*rows[i]) if rows else f())
    return [out for _, _, out in calls]


def _has_local_timestamp(data_type):
    if isinstance(data_type, TimestampType):
        return True
    if isinstance(data_type, ArrayType):
        return _has_local_timestamp(data_type.elementType)
    if isinstance(data_type, MapType):
        return _has_local_timestamp(data_type.keyType) or _has_local_timestamp(data_type.valueType)
    if isinstance(data_type, StructType):
        return any(_has_local_timestamp(f.dataType) for f in data_type.fields)
    return False


def _call_udf_by_udf(udfs, columns, num_rows):
    """Several UDFs, as the pickled path calls them: row by row, each row's UDFs in order. They
    run UDF by UDF over the batch (the values are the same), and a failure is raised as the
    row-by-row order meets it first: the earliest row, then the first UDF (for UDFs whose calls depend on their arguments
    only)."""
    calls = [(udf.function, [columns[c] for c in udf.columns]) for udf in udfs]
    results = []
    for index, (f, args) in enumerate(calls):
        failed = None
        try:
            results.append(_call_one(f, args, num_rows))
        except Exception as failure:
            failed = failure
        if failed is not None:
            _raise_first(calls[index + 1 :], _failed_row(f, args, num_rows), failed)
    return results


def _failed_row(f, args, num_rows):
    """The first row on which ``f`` raises (it raised on one)."""
    for i in range(num_rows):
        try:
            f(*[column[i] for column in args])
        except Exception:
            return i
    return num_rows


def _raise_first(later, row, failure):
    """Raises the failure of a later UDF on a row before ``row``, the earliest one, else
    ``failure``."""
    first = None
    for f, args in later:
        for i in range(row if first is None else first[0]):
            try:
                f(*[column[i] for column in args])
            except Exception as earlier:
                first = (i, earlier)
                break
    raise failure if first is None else first[1]
