#include "row/kernel_isa.hpp"

#include <string>

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS) || defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
#include <cpuid.h>
#endif

namespace rowbridge::row {

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
extern const IsaEntryPoints kAvx512EntryPoints;  // simd/isa_entry_points.cpp
#endif
#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
extern const IsaEntryPoints kAvx2EntryPoints;  // simd/isa_entry_points.cpp
#endif

namespace {

struct CpuFeatures {
  bool avx2 = false;
  bool avx512 = false;  // F, BW, VL and BMI2
};

#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS) || defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
/// What the CPU and the operating system run, read with CPUID and XGETBV
/// (rather than __builtin_cpu_supports, whose runtime support Zig's
/// compiler-rt lacks): an instruction set counts only when the OS saves its
/// registers.
CpuFeatures ReadCpuFeatures() {
  CpuFeatures features;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return features;
  const bool osxsave = (ecx & (1u << 27)) != 0;
  const bool avx = (ecx & (1u << 28)) != 0;
  if (!osxsave || !avx || __get_cpuid_max(0, nullptr) < 7) return features;
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  (void)xcr0_high;  // the state bits checked are all in the low half
  const bool ymm_saved = (xcr0_low & 0x6u) == 0x6u;    // SSE and AVX state
  const bool zmm_saved = (xcr0_low & 0xe6u) == 0xe6u;  // and opmask, ZMM state
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  const bool bmi2 = (ebx & (1u << 8)) != 0;
  const bool avx512f = (ebx & (1u << 16)) != 0;
  const bool avx512bw = (ebx & (1u << 30)) != 0;
  const bool avx512vl = (ebx & (1u << 31)) != 0;
  features.avx2 = ymm_saved && (ebx & (1u << 5)) != 0;
  features.avx512 = zmm_saved && avx512f && avx512bw && avx512vl && bmi2;
  return features;
}
#endif

bool CpuRunsAvx512() {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  return ReadCpuFeatures().avx512;
#else
  return false;
#endif
}

bool CpuRunsAvx2() {
#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
  return ReadCpuFeatures().avx2;
#else
  return false;
#endif
}

KernelIsa DetectBest() {
  if (KernelIsaAvailable(KernelIsa::kAvx512)) return KernelIsa::kAvx512;
  return KernelIsaAvailable(KernelIsa::kAvx2) ? KernelIsa::kAvx2 : KernelIsa::kPortable;
}

}  // namespace

const char* KernelIsaName(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kAvx2: return "avx2";
    case KernelIsa::kAvx512: return "avx512";
    default: return "portable";
  }
}

bool KernelIsaAvailable(KernelIsa isa) {
  static const bool avx2 = CpuRunsAvx2();
  static const bool avx512 = CpuRunsAvx512();
  switch (isa) {
    case KernelIsa::kAvx2: return avx2;
    case KernelIsa::kAvx512: return avx512;
    default: return true;
  }
}

Kernels KernelsOf(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kAvx2: return Kernels::kAvx2;
    case KernelIsa::kAvx512: return Kernels::kAvx512;
    default: return Kernels::kPortable;
  }
}

Status ResolveKernels(Kernels choice, KernelIsa* out) {
  KernelIsa isa;
  switch (choice) {
    case Kernels::kAuto: {
      static const KernelIsa best = DetectBest();
      *out = best;
      return Status::Ok();
    }
    case Kernels::kPortable: isa = KernelIsa::kPortable; break;
    case Kernels::kAvx2: isa = KernelIsa::kAvx2; break;
    case Kernels::kAvx512: isa = KernelIsa::kAvx512; break;
    default:
      return Status::Invalid("unknown kernels option " + std::to_string(static_cast<int>(choice)));
  }
  if (!KernelIsaAvailable(isa)) {
    return Status::Invalid(std::string("kernels option ") + KernelIsaName(isa) +
                           ": this build or this CPU does not run them");
  }
  *out = isa;
  return Status::Ok();
}

const IsaEntryPoints& EntryPointsFor(KernelIsa isa) {
  static const IsaEntryPoints portable;
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  if (isa == KernelIsa::kAvx512) return kAvx512EntryPoints;
#endif
#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
  if (isa == KernelIsa::kAvx2) return kAvx2EntryPoints;
#endif
  (void)isa;
  return portable;
}

}  // namespace rowbridge::row
