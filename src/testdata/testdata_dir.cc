// File: testdata/testdata_dir.cc

#include "testdata/testdata_dir.h"

namespace lws {

std::string TestdataDir() { return LWS_TESTDATA_DIR; }

}  // namespace lws
