package io.rowbridge;

import org.apache.arrow.vector.types.pojo.ArrowType;

/** The Arrow C Data Interface format string of an Arrow Java type. */
final class ArrowFormats {
  private ArrowFormats() {}

  static String of(ArrowType type) {
    if (type instanceof ArrowType.ExtensionType extension) {
      // The storage's format (an extension's type id is its storage's); the field's metadata
      // names the extension.
      return of(extension.storageType());
    }
    switch (type.getTypeID()) {
      case Null:
        return "n";
      case Bool:
        return "b";
      case Int:
        {
          ArrowType.Int t = (ArrowType.Int) type;
          String formats = t.getIsSigned() ? "csil" : "CSIL";
          int index = Integer.numberOfTrailingZeros(t.getBitWidth() / 8);
          return String.valueOf(formats.charAt(index));
        }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case HALF:
            return "e";
          case SINGLE:
            return "f";
          default:
            return "g";
        }
      case Utf8:
        return "u";
      case LargeUtf8:
        return "U";
      case Binary:
        return "z";
      case LargeBinary:
        return "Z";
      case FixedSizeBinary:
        return "w:" + ((ArrowType.FixedSizeBinary) type).getByteWidth();
      case Decimal:
        {
          ArrowType.Decimal t = (ArrowType.Decimal) type;
          String base = "d:" + t.getPrecision() + "," + t.getScale();
          return t.getBitWidth() == 128 ? base : base + "," + t.getBitWidth();
        }
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
            ? "tdD"
            : "tdm";
      case Time:
        return "tt" + unit(((ArrowType.Time) type).getUnit());
      case Timestamp:
        {
          ArrowType.Timestamp t = (ArrowType.Timestamp) type;
          return "ts" + unit(t.getUnit()) + ":" + (t.getTimezone() == null ? "" : t.getTimezone());
        }
      case Duration:
        return "tD" + unit(((ArrowType.Duration) type).getUnit());
      case Interval:
        switch (((ArrowType.Interval) type).getUnit()) {
          case YEAR_MONTH:
            return "tiM";
          case DAY_TIME:
            return "tiD";
          default:
            return "tin";
        }
      case Struct:
        return "+s";
      case List:
        return "+l";
      case LargeList:
        return "+L";
      case FixedSizeList:
        return "+w:" + ((ArrowType.FixedSizeList) type).getListSize();
      case Map:
        return "+m";
      case Union:
        {
          ArrowType.Union t = (ArrowType.Union) type;
          StringBuilder ids =
              new StringBuilder(
                  t.getMode() == org.apache.arrow.vector.types.UnionMode.Dense ? "+ud:" : "+us:");
          int[] typeIds = t.getTypeIds();
          for (int i = 0; typeIds != null && i < typeIds.length; i++) {
            ids.append(i == 0 ? "" : ",").append(typeIds[i]);
          }
          return ids.toString();
        }
      default:
        String newer = NewerLayouts.format(type);
        if (newer != null) {
          return newer;
        }
        throw new RowbridgeException(
            "rowbridge: Arrow type " + type + " has no C Data format", RowbridgeException.ENOTSUP);
    }
  }

  private static char unit(org.apache.arrow.vector.types.TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return 's';
      case MILLISECOND:
        return 'm';
      case MICROSECOND:
        return 'u';
      default:
        return 'n';
    }
  }
}
