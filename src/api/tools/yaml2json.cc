// yaml2json: converts one YAML document to compact JSON with the same loader the API layer uses.
// The build runs it on the upstream LWS CRD so that the binary embeds JSON (parsing 1.3 MB of
// YAML at every start would cost far more than parsing its JSON form).
//
//   lws_yaml2json <in.yaml> <out.document()>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/yaml.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " <in.yaml> <out.document()>\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << argv[1] << ": cannot open\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto json = lws::api::LoadYaml(text.str());
  if (!json.ok()) {
    std::cerr << argv[1] << ": " << json.status().message() << "\n";
    return 1;
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << json->dump();
  if (!out.good()) {
    std::cerr << argv[2] << ": write failed\n";
    return 1;
  }
  return 0;
}
