package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class NativeLibraryTest {
  @Test
  void theJarCarriesTheLibraryForThisPlatform() {
    assertEquals("linux", NativeLibrary.os());
    assertEquals("x86_64", NativeLibrary.arch());
    assertNotNull(NativeLibrary.class.getClassLoader()
        .getResource(NativeLibrary.resourcePath(NativeLibrary.os(), NativeLibrary.arch())));
    NativeLibrary.load();
    NativeLibrary.load();
  }

  @Test
  void aMissingPlatformIsNamedInTheError() {
    String path = NativeLibrary.resourcePath("plan9", "mips");
    assertEquals("io/rowbridge/native/plan9/mips/librowbridge_jni.so", path);
  }
}
