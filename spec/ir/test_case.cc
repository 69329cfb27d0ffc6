#include "spec/ir/test_case.h"

namespace vyre {

std::string_view name_of(Comparison c) {
  switch (c) {
    case Comparison::Bytes:
      return "bytes";
    case Comparison::GraphBfs:
      return "graph.bfs";
  }
  return "?";
}

}  // namespace vyre
