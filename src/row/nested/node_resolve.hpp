// Resolving a node's candidates through its encoding (see node_resolve.cpp).
#pragma once

#include "row/nested/nested_state.hpp"

namespace rowbridge::row {

/// Sets `node`'s input, validity and count for `candidates`: candidate c
/// becomes value c of `node->input`, null where `mask` says its struct is.
/// Checks dictionary indices and run ends (errors name the batch row), and
/// at full validation rejects nulls where the schema forbids them.
Status ResolveCandidates(NodeState* node, const Candidates& candidates, const CandidateMask& mask,
                         const NestedColumnState& column);

}  // namespace rowbridge::row
