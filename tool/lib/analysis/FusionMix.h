//===- FusionMix.h - Reductions of different ops or types in one collective ===//
//
// Static fusion packs several reductions into one collective. When their op
// and datatype are the same, the packed buffer is reduced with that op
// (kind Uniform). Otherwise one collective still serves, exactly, when:
//
//  - MIN and MAX of one type (kind OneOp, one MPI_MAX): a MIN member is
//    packed as ~x (integers) or -x (floating point) and unpacked the same
//    way. Both maps reverse the order and are their own inverse, so
//    min(x, y) = ~max(~x, ~y) = -max(-x, -y): exact for every integer and
//    every IEEE value (with a NaN, or +0 against -0, the comparison that
//    picks the result is the same one MPI_MIN makes).
//  - One modular op (SUM, PROD, BAND, BOR, BXOR) on several integer types
//    (kind OneOp, on unsigned long long): every member is converted to the
//    64-bit unsigned type, reduced, and converted back. These ops commute
//    with taking the value modulo 2^n, so each member's result is exactly
//    what its own type's reduction gives, overflow included. Used up to
//    WideLimitBytes (2 KiB) of packed data, where the collective's cost is
//    its latency and not the wider elements.
//  - Anything else on integer types (kind Composite): one collective with a
//    generated user-defined op that applies each segment's op. Integer ops
//    are exact in any order, so the composite op's order of combining ranks
//    cannot change a result. Used only where the machine profile measured
//    one composite collective beating as many builtin collectives as there
//    are segments, at a size not below the packed buffer's.
//
// Floating-point reductions of different ops (other than MIN with MAX) or
// types are not mixed: their results depend on the order of combination.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_FUSIONMIX_H
#define OMPI_TOOL_ANALYSIS_FUSIONMIX_H

#include "mpi/MachineProfile.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

enum class FusionKind { Uniform, OneOp, Composite };

/// How a member's elements are written into the packed buffer and read
/// back: as they are, as ~x, as -x, or converted to unsigned long long.
enum class Encoding { Plain, Complement, Negate, Widen };

/// One reduction as the mix sees it.
struct MixInput {
  std::string Op, Type;         ///< predefined handles, canonical names
  std::string CType;            ///< the datatype's C type
  int64_t Size = 0;             ///< bytes per element
  std::optional<int64_t> Count; ///< when static
};

/// One segment of a composite collective: the elements of one (op, type).
struct FusionLane {
  std::string Op, Type;
  std::string KernelType; ///< the builtin C type the generated op computes in
  int64_t Size = 0, Count = 0;
  int64_t Offset = 0; ///< bytes from the start of the packed buffer
};

struct Mix {
  FusionKind Kind = FusionKind::Uniform;
  std::string Op, Type, CType;   ///< OneOp: the collective's op, datatype, buffer C type
  std::vector<Encoding> Enc;     ///< per member
  std::vector<unsigned> Lane;    ///< Composite: per member, its segment
  std::vector<FusionLane> Lanes; ///< Composite
  int64_t Bytes = 0;             ///< Composite: the packed buffer's size
  std::string Rule;              ///< why one collective gives the same results
  std::string Why;               ///< why these cannot share one collective ("" when they can)
};

constexpr int64_t WideLimitBytes = 2048;

/// How the reductions In can share one collective, or Why they cannot.
Mix mixReductions(const std::vector<MixInput> &In, const MachineProfile *Profile);

/// The builtin C type of an integer type of the mixes with its size and
/// signedness ("long long" for int64_t): generated code needs no typedef.
std::string builtinInteger(const std::string &CType, int64_t Size);

/// The signedness of an integer C type of the model, if it is one the
/// mixes take (not char, _Bool or wchar_t, whose reductions MPI restricts).
std::optional<bool> integerSigned(const std::string &CType);

} // namespace ompi

#endif
