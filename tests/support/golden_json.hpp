// Reading the Spark golden vectors (tests/golden/*/*.json, written by
// tools/golden-spark): their Arrow input as a TestArray, and hex fields.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_arrow.hpp"

namespace rowbridge::testing {

/// Bytes of a lowercase or uppercase hex string of even length.
Bytes FromHex(const std::string& hex);

/// Merges a schema node and an array node of a golden JSON file (shaped like
/// the C Data ArrowSchema and ArrowArray, dictionaries included) into a
/// TestArray.
TestArray GoldenToTestArray(const nlohmann::json& schema, const nlohmann::json& array);

/// The golden directory of the source tree (tests/golden).
std::filesystem::path GoldenDir();

/// The files of the golden groups (flat, derived, nested) ending in
/// `extension` (".json" or ".arrow"), sorted.
std::vector<std::filesystem::path> GoldenFiles(const std::string& extension);

/// One golden vector: its file, its JSON (case, spark_schema, rows...) and
/// its Arrow input.
struct GoldenCase {
  std::filesystem::path path;
  nlohmann::json golden;
  TestArray batch;
};

/// Every golden vector of GoldenFiles(".json"), read and parsed.
std::vector<GoldenCase> LoadGoldenCases();

}  // namespace rowbridge::testing
