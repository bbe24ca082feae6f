"""rowbridge's runtime for plain (pickled) Python UDFs over Arrow.

Spark's pickled path (``BatchEvalPythonExec``) hands each UDF the Python values that Pyrolite
unpickles from the JVM's Java objects, and turns each result into what Spark's
``EvaluatePython.makeFromJava`` makes of the Java object Pyrolite unpickles from it. rowbridge's
operator sends the UDFs' arguments as Arrow record batches instead (PySpark's own worker runs
them as a ``mapInArrow`` function made by :func:`batch_eval`), and reads the results back as
Arrow:

- :mod:`._inputs` turns each Arrow column into the values the pickled path would give;
- :mod:`._results` writes each result that has one exact Arrow form into an Arrow column, and
  pickles every other one, as the pickled path would, for the JVM to convert with Spark's own
  ``makeFromJava``;
- :mod:`._java_hash` orders map entries as the ``java.util.HashMap`` of either direction does.
"""

from rowbridge.spark.udf._runner import batch_eval

__all__ = ["batch_eval"]
