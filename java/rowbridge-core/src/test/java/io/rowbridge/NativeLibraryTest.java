package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void aMissingLibraryIsAnErrorNamingThePlatform() {
    String path = NativeLibrary.resourcePath("plan9", "mips");
    assertEquals("io/rowbridge/native/plan9/mips/librowbridge_jni.so", path);
    UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
        () -> NativeLibrary.loadResource(path));
    assertTrue(e.getMessage().contains("linux/x86_64"), e.getMessage());
    assertTrue(e.getMessage().contains(path), e.getMessage());
    assertTrue(e.getMessage().contains(NativeLibrary.PATH_PROPERTY), e.getMessage());
  }
}
