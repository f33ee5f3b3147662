// File: client/rest/rest_testing.h
//
// Test helpers for the rest layer: a scratch directory that removes itself, and writers for the
// files tests need there (kubeconfigs, token files, executable plugin scripts).
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "testdata/testdata_dir.h"

namespace lws::rest::testing {

inline std::string TestdataPath(const std::string& name) {
  return TestdataDir() + "/kubeconfig/" + name;
}

class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "lws-rest-XXXXXX").string();
    path_ = ::mkdtemp(templ.data()) != nullptr ? templ : "";
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

  // Writes `content` to <dir>/<name> (creating parent directories); returns the full path.
  std::string Write(const std::string& name, const std::string& content) const {
    std::filesystem::path full = std::filesystem::path(path_) / name;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << content;
    return full.string();
  }

  // A shell script with the executable bit set.
  std::string Script(const std::string& name, const std::string& body) const {
    std::string full = Write(name, "#!/bin/sh\n" + body);
    ::chmod(full.c_str(), 0755);
    return full;
  }

 private:
  std::string path_;
};

}  // namespace lws::rest::testing
