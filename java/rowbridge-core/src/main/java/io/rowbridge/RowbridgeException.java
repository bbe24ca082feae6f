package io.rowbridge;

/**
 * A failure reported by the native converter: malformed input, a type Spark rows cannot carry, a
 * value that does not fit its Spark type, a row over the size cap, or an internal error. The
 * message names the column and, where it applies, the row.
 */
public class RowbridgeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** errno-style codes of the native library (rowbridge.h). */
  public static final int EINVAL = 22;

  public static final int ENOTSUP = 95;
  public static final int EOVERFLOW = 75;
  public static final int E2BIG = 7;
  public static final int ENOMEM = 12;
  public static final int EIO = 5;

  /** A scan was cancelled, closed or interrupted (ROWBRIDGE_ECANCELED). */
  public static final int ECANCELED = 125;

  private final int code;

  /** Called by the native library (JNI_OnLoad caches this constructor). */
  public RowbridgeException(String message, int code) {
    super(message);
    this.code = code;
  }

  public RowbridgeException(String message) {
    this(message, EINVAL);
  }

  /** The errno-style status code (EINVAL, ENOTSUP, EOVERFLOW, E2BIG, ENOMEM, EIO or ECANCELED). */
  public int code() {
    return code;
  }
}
