// File: testdata/testdata_dir.h
//
// Where the tests and benchmarks find their input files: <source>/testdata. The absolute source
// path is compiled into testdata_dir.cc alone, so that every other test file compiles to the same
// object in any checkout and ccache (base_dir) can share it between clones.
#pragma once

#include <string>

namespace lws {

// <source>/testdata, without a trailing slash. <source>/examples and <source>/deploy are reached
// as TestdataDir() + "/../examples".
std::string TestdataDir();

}  // namespace lws
