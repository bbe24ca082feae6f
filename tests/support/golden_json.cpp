#include "support/golden_json.hpp"

#include <algorithm>
#include <fstream>
#include <memory>

namespace rowbridge::testing {

using nlohmann::json;
namespace fs = std::filesystem;

Bytes FromHex(const std::string& hex) {
  Bytes bytes(hex.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return bytes;
}

TestArray GoldenToTestArray(const json& schema, const json& array) {
  TestArray node;
  node.format = schema.at("format").get<std::string>();
  node.name = schema.at("name").get<std::string>();
  node.nullable = schema.at("nullable").get<bool>();
  if (schema.contains("metadata")) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [key, value] : schema.at("metadata").items())
      pairs.emplace_back(key, value.get<std::string>());
    node.metadata = EncodeMetadata(pairs);
  }
  node.length = array.at("length").get<int64_t>();
  node.null_count = array.at("null_count").get<int64_t>();
  node.offset = array.at("offset").get<int64_t>();
  for (const json& buffer : array.at("buffers")) {
    if (buffer.is_null()) node.buffers.emplace_back(std::nullopt);
    else node.buffers.emplace_back(FromHex(buffer.get<std::string>()));
  }
  const json& schema_children = schema.at("children");
  const json& array_children = array.at("children");
  for (size_t i = 0; i < schema_children.size(); ++i) {
    node.children.push_back(GoldenToTestArray(schema_children[i], array_children[i]));
  }
  if (schema.contains("dictionary") && !schema.at("dictionary").is_null()) {
    node.dictionary = std::make_shared<TestArray>(
        GoldenToTestArray(schema.at("dictionary"), array.at("dictionary")));
  }
  return node;
}

fs::path GoldenDir() { return fs::path(ROWBRIDGE_SOURCE_DIR) / "tests" / "golden"; }

std::vector<fs::path> GoldenFiles(const std::string& extension) {
  std::vector<fs::path> files;
  for (const char* group : {"flat", "derived", "nested"}) {
    for (const auto& entry : fs::directory_iterator(GoldenDir() / group)) {
      if (entry.path().extension() == extension) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<GoldenCase> LoadGoldenCases() {
  std::vector<GoldenCase> cases;
  for (const fs::path& path : GoldenFiles(".json")) {
    std::ifstream in(path);
    GoldenCase golden_case{path, nlohmann::json::parse(in), {}};
    golden_case.batch =
        GoldenToTestArray(golden_case.golden.at("schema"), golden_case.golden.at("batch"));
    cases.push_back(std::move(golden_case));
  }
  return cases;
}

}  // namespace rowbridge::testing
