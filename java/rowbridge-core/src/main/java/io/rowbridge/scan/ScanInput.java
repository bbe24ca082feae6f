package io.rowbridge.scan;

/**
 * What a scan reads: a local file, memory-mapped by the native library, or a {@link FilledFile} the
 * caller writes (then {@code path} only names it in errors).
 */
record ScanInput(String path, FilledFile filled) {
  static ScanInput local(String path) {
    return new ScanInput(path, null);
  }

  static ScanInput of(FilledFile file) {
    if (file == null) {
      throw new IllegalArgumentException("rowbridge scan: no file (null)");
    }
    return new ScanInput(file.name(), file);
  }
}
