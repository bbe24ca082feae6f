#include "row/simd/kernel_isa.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace rowbridge::row {
namespace {

constexpr int kNoOverride = -1;
std::atomic<int> g_override{kNoOverride};

bool CpuRunsAvx512() {
#if defined(ROWBRIDGE_HAVE_AVX512_KERNELS)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

bool CpuRunsAvx2() {
#if defined(ROWBRIDGE_HAVE_AVX2_KERNELS)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

KernelIsa DetectBest() {
  const char* forced = std::getenv("ROWBRIDGE_KERNELS");
  if (forced != nullptr) {
    for (KernelIsa isa : kKernelIsas) {
      if (std::strcmp(forced, KernelIsaName(isa)) == 0 && KernelIsaAvailable(isa)) return isa;
    }
  }
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

KernelIsa ActiveKernelIsa() {
  int forced = g_override.load(std::memory_order_relaxed);
  if (forced != kNoOverride) return static_cast<KernelIsa>(forced);
  static const KernelIsa best = DetectBest();
  return best;
}

void OverrideKernelIsaForTesting(KernelIsa isa) {
  g_override.store(static_cast<int>(isa), std::memory_order_relaxed);
}

void ClearKernelIsaOverrideForTesting() {
  g_override.store(kNoOverride, std::memory_order_relaxed);
}

}  // namespace rowbridge::row
