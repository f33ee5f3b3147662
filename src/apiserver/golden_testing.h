// File: apiserver/golden_testing.h
//
// Test-only helpers for golden JSON files in testdata/apiserver/. ExpectGolden compares a
// document with its file as JSON values (key order and spacing do not matter). Run a test
// binary with LWS_UPDATE_GOLDEN=1 to rewrite the files from the current output; the diff of
// testdata/ is then the review.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "api/field.h"
#include "testdata/testdata_dir.h"

namespace lws::apiserver::testing {

inline std::string GoldenPath(const std::string& name) {
  return TestdataDir() + "/apiserver/" + name;
}

inline api::Json ReadJsonFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return api::Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
}

inline void ExpectGolden(const std::string& name, const api::Json& actual) {
  const std::string path = GoldenPath(name);
  if (std::getenv("LWS_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual.dump(1) << "\n";
    return;
  }
  api::Json expected = ReadJsonFile(path);
  ASSERT_FALSE(expected.is_discarded()) << "missing or unreadable golden file " << path;
  EXPECT_EQ(actual, expected) << "golden " << name << " differs; diff:\n"
                              << api::Json::diff(expected, actual).dump(1);
}

// A fixture object from testdata/k8s-api.
inline api::Json Fixture(const std::string& name) {
  return ReadJsonFile(TestdataDir() + "/k8s-api/" + name);
}

}  // namespace lws::apiserver::testing
