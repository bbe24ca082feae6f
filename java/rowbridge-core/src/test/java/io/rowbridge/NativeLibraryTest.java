package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {
  @Test
  void theJarCarriesTheLibraryForThisPlatform() {
    assertEquals("linux", NativeLibrary.os());
    assertTrue(List.of("x86_64", "aarch64").contains(NativeLibrary.arch()), NativeLibrary.arch());
    assertNotNull(
        NativeLibrary.class
            .getClassLoader()
            .getResource(NativeLibrary.resourcePath(NativeLibrary.os(), NativeLibrary.arch())));
    NativeLibrary.load();
    NativeLibrary.load();
  }

  @Test
  void theJarCarriesBothLinuxArchitectures() {
    for (String arch : List.of("x86_64", "aarch64")) {
      assertNotNull(
          NativeLibrary.class
              .getClassLoader()
              .getResource(NativeLibrary.resourcePath("linux", arch)),
          arch);
    }
  }

  @Test
  void osArchNamesMapToTheJarsDirectories() {
    assertEquals("x86_64", NativeLibrary.arch("amd64"));
    assertEquals("x86_64", NativeLibrary.arch("x86_64"));
    assertEquals("x86_64", NativeLibrary.arch("X86-64"));
    assertEquals("aarch64", NativeLibrary.arch("aarch64"));
    assertEquals("aarch64", NativeLibrary.arch("arm64"));
    assertEquals("ppc64le", NativeLibrary.arch("ppc64le"));
    assertEquals(
        "io/rowbridge/native/linux/aarch64/librowbridge_jni.so",
        NativeLibrary.resourcePath("linux", NativeLibrary.arch("arm64")));
  }

  @Test
  void aMissingLibraryIsAnErrorNamingThePlatform() {
    String path = NativeLibrary.resourcePath("plan9", "mips");
    assertEquals("io/rowbridge/native/plan9/mips/librowbridge_jni.so", path);
    UnsatisfiedLinkError e =
        assertThrows(UnsatisfiedLinkError.class, () -> NativeLibrary.loadResource(path));
    assertTrue(e.getMessage().contains("linux/" + NativeLibrary.arch()), e.getMessage());
    assertTrue(e.getMessage().contains(path), e.getMessage());
    assertTrue(e.getMessage().contains(NativeLibrary.PATH_PROPERTY), e.getMessage());
  }
}
