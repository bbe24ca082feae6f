package io.rowbridge.spark.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The cache suites' data and queries. The data is a pure function of the row id (hashes, no random
 * state), so every session makes the same rows: every flat type with nulls and edge values (NaN,
 * -0.0, infinities, empty strings, extreme decimals), zoned and local timestamps, both interval
 * types, and nested structs, arrays and maps.
 */
public final class CacheData {
  private CacheData() {}

  public static final String COLUMNS =
      String.join(
          ",\n",
          "id",
          "IF(id % 17 = 0, NULL, id % 3 = 0) AS c_bool",
          "CAST(IF(id % 13 = 0, NULL, hash(id, 1) % 128) AS TINYINT) AS c_byte",
          "CAST(hash(id, 2) % 30000 AS SMALLINT) AS c_short",
          "IF(id % 11 = 0, NULL, hash(id, 3)) AS c_int",
          "xxhash64(id, 4) AS c_long",
          "CASE id % 50 WHEN 0 THEN float('NaN') WHEN 1 THEN float('-0.0') WHEN 2 THEN NULL"
              + " WHEN 3 THEN float('Infinity') ELSE CAST(hash(id, 5) AS FLOAT) / 1000 END"
              + " AS c_float",
          "CASE id % 40 WHEN 0 THEN double('NaN') WHEN 1 THEN 0.0D WHEN 2 THEN NULL"
              + " WHEN 3 THEN double('-Infinity') ELSE hash(id, 6) / 7.0D END AS c_double",
          "IF(id % 9 = 0, NULL, CAST(hash(id, 7) % 10000000 AS DECIMAL(9, 2))) AS c_dec9",
          "CAST(xxhash64(id, 8) % 100000000000000 AS DECIMAL(18, 4)) AS c_dec18",
          "IF(id % 29 = 0, CAST('-9999999999999999999999999999.9999999999' AS DECIMAL(38, 10)),"
              + " CAST(xxhash64(id, 9) AS DECIMAL(38, 10)) / 3) AS c_dec38",
          "CASE WHEN id % 19 = 0 THEN NULL WHEN id % 23 = 0 THEN ''"
              + " ELSE concat(char(65 + abs(hash(id, 10)) % 26), 'é', id) END AS c_string",
          "IF(id % 31 = 0, NULL, CAST(concat('b', id) AS BINARY)) AS c_binary",
          "IF(id % 37 = 0, NULL, date_add(DATE'1970-01-01', hash(id, 11) % 40000)) AS c_date",
          "IF(id % 41 = 0, NULL, timestamp_seconds(hash(id, 12))) AS c_ts",
          "CAST(timestamp_seconds(hash(id, 13)) AS TIMESTAMP_NTZ) AS c_ts_ntz",
          "make_ym_interval(CAST(id % 20 AS INT), CAST(id % 12 AS INT)) AS c_ym",
          "make_dt_interval(CAST(id % 5 AS INT), CAST(id % 24 AS INT), 7, 1.5) AS c_dt",
          "IF(id % 43 = 0, NULL, named_struct('a', hash(id, 14), 's', concat('s', id),"
              + " 'd', CAST(id AS DECIMAL(20, 3)))) AS c_struct",
          "IF(id % 7 = 0, NULL, array(hash(id, 15), NULL, CAST(id AS INT))) AS c_array",
          "IF(id % 47 = 0, NULL, map(concat('k', id), hash(id, 16) / 3.0D, 'z', NULL)) AS c_map",
          "array(named_struct('x', date_add(DATE'2000-01-01', CAST(id % 100 AS INT)),"
              + " 'y', array(concat('y', id)))) AS c_nested");

  /** {@code rows} rows in {@code partitions} partitions, ordered by id within each. */
  public static Dataset<Row> rows(SparkSession spark, long rows, int partitions) {
    return spark.sql("SELECT " + COLUMNS + " FROM range(0, " + rows + ", 1, " + partitions + ")");
  }

  /** The queries compared over a cached view named {@code c}, by name. */
  static Map<String, String> queries(SparkSession spark) {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("every column", "SELECT * FROM c");
    queries.put("count", "SELECT count(*) FROM c");
    queries.put(
        "aggregate",
        "SELECT count(c_int), sum(c_long % 1000000), min(c_string), max(c_string), sum(c_dec9),"
            + " max(c_dec38), min(c_date), max(c_ts), count(c_map), max(c_float),"
            + " min(c_double), max(c_ym), min(c_dt) FROM c");
    queries.put("group by", "SELECT c_bool, count(*), sum(c_short) FROM c GROUP BY c_bool");
    queries.put("columns in another order", "SELECT c_nested, c_string, id FROM c");
    queries.put("int equal", "SELECT id, c_int FROM c WHERE c_int = " + hashOf(spark, 1234, 3));
    queries.put(
        "long range", "SELECT id FROM c WHERE c_long < 0 AND c_long > -4000000000000000000");
    queries.put("id range", "SELECT id, c_string FROM c WHERE id BETWEEN 900 AND 1100");
    queries.put("id in", "SELECT id FROM c WHERE id IN (3, 1000, 1999, 50000)");
    queries.put("string range", "SELECT id, c_string FROM c WHERE c_string >= 'Y'");
    queries.put("string prefix", "SELECT id FROM c WHERE c_string LIKE 'Q%'");
    queries.put("decimal", "SELECT id FROM c WHERE c_dec9 > 40000.00 OR c_dec18 <= -5");
    queries.put("date", "SELECT id, c_date FROM c WHERE c_date < DATE'1975-01-01'");
    queries.put("timestamp", "SELECT id FROM c WHERE c_ts > TIMESTAMP'2030-01-01 00:00:00'");
    queries.put("float", "SELECT id, c_float FROM c WHERE c_float > 1000 OR isnan(c_float)");
    queries.put("double nan", "SELECT id FROM c WHERE c_double = double('NaN')");
    queries.put("boolean", "SELECT count(*) FROM c WHERE c_bool = true");
    queries.put("nulls", "SELECT count(*) FROM c WHERE c_int IS NULL OR c_string IS NULL");
    queries.put("not null", "SELECT count(*) FROM c WHERE c_binary IS NOT NULL");
    queries.put("nested", "SELECT id, c_struct.s, c_array[2], c_map['z'] FROM c WHERE id < 300");
    return queries;
  }

  /** Spark's {@code hash(id, seed)}, as the data has it, as a literal. */
  private static String hashOf(SparkSession spark, long id, int seed) {
    return String.valueOf(spark.sql("SELECT hash(" + id + "L, " + seed + ")").first().getInt(0));
  }
}
