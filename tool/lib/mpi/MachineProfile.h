//===- MachineProfile.h - What was measured on the machine at hand ---------===//
//
// A machine profile is a JSON file written by scripts/tune: for each choice a
// transformation may make on performance grounds, the measured times of the
// alternatives. A transformation that makes such a choice asks the profile
// and takes the faster alternative only where a measurement shows it faster;
// no measurement, no change. The schema is in README.md ("Machine profiles").
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_MPI_MACHINEPROFILE_H
#define OMPI_TOOL_MPI_MACHINEPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// One measurement of static composite fusion: Lanes reductions of
/// different ops as Lanes builtin collectives, against one collective with a
/// composite op on their Bytes bytes (medians, microseconds).
struct CompositePoint {
  unsigned Lanes = 0;
  int64_t Bytes = 0;
  double SeparateUs = 0, CompositeUs = 0;
  bool wins() const { return CompositeUs < SeparateUs; }
};

/// One measurement of a call template: a ping-pong whose message is Bytes
/// bytes in contiguous runs of Block bytes (8: a column of doubles), through
/// the generic call and through the template (medians, microseconds per
/// message).
struct TemplatePoint {
  std::string Family; ///< "vector": compiled derived datatypes; "persistent": persistent requests
  int64_t Bytes = 0;
  int64_t Block = 8; ///< a profile without "block" measured columns
  double GenericUs = 0, TemplateUs = 0;
  /// A template must beat the generic call by Margin (5%): a smaller
  /// difference is within the run-to-run noise of the measurement.
  static constexpr double Margin = 0.95;
  bool wins() const { return TemplateUs < Margin * GenericUs; }
};

/// One measurement of a planned collective: for the Alltoallv every pair of
/// ranks exchanging Bytes, for the Allgatherv (and the Allgather) every rank
/// contributing Bytes;
/// the MPI's own call against the plan (with the algorithm the plan kept),
/// medians, microseconds per call, at the profile's rank count.
struct PlannedPoint {
  int64_t Bytes = 0;
  double NativeUs = 0, PlannedUs = 0;
  std::string Algorithm;
  static constexpr double Margin = 0.95;
  bool wins() const { return PlannedUs < Margin * NativeUs; }
};

/// One measurement of a large-vector reduction (Collective "allreduce" or
/// "reduce"): Bytes of floats summed, the MPI's own call against the
/// runtime's selector on dense data and on data with 90% zeros.
struct VectorPoint {
  std::string Collective;
  int64_t Bytes = 0;
  double NativeUs = 0, DenseUs = 0, SparseUs = 0;
  static constexpr double Margin = 0.95;
  bool winsDense() const { return DenseUs < Margin * NativeUs; }
  bool winsSparse() const { return SparseUs < Margin * NativeUs; }
};

struct MachineProfile {
  std::string Path;   ///< where it was read from
  std::string MPI;    ///< the MPI it was measured with ("MPICH 4.0.2")
  unsigned Ranks = 0; ///< the process count of the measurements
  std::vector<CompositePoint> Composite;

  /// The measurement that decides a composite of Lanes reductions on Bytes
  /// bytes: among the points of the most lanes not above Lanes (more
  /// separate collectives only cost more), the smallest size not below
  /// Bytes. None when nothing measured covers it.
  std::optional<CompositePoint> compositeFor(unsigned Lanes, int64_t Bytes) const;

  std::vector<TemplatePoint> Templates;
  /// The measurement of Family that decides a message of Bytes bytes whose
  /// contiguous runs are from RunLo to RunHi bytes long (one length when
  /// known; a range for a class of run-time shapes). The block sizes that
  /// bracket the runs: the largest measured not above RunLo, those between,
  /// and the smallest measured not below RunHi (which must exist: longer
  /// runs than any measured are not covered, as an engine that copies long
  /// blocks well beats the template's extra copies). At each, the smallest
  /// size measured not below Bytes (with no size, unknown until run time,
  /// every size); of those, the point where the template does worst. None
  /// when a bracketing block size has no point covering the size.
  std::optional<TemplatePoint> templateFor(llvm::StringRef Family, std::optional<int64_t> Bytes, int64_t RunLo,
                                           int64_t RunHi) const;
  std::optional<TemplatePoint> templateFor(llvm::StringRef Family, std::optional<int64_t> Bytes,
                                           int64_t Run = 8) const {
    return templateFor(Family, Bytes, Run, Run);
  }
  /// The measurement of Family, a family of contiguous messages (its points
  /// have no block: "persistent"), that decides a message of Bytes bytes:
  /// of the sizes measured around it (the largest not above Bytes, the
  /// smallest not below), the one where the template does worse, so a size
  /// between a winning and a losing point is not taken for a win; with no
  /// size (unknown until run time), the point where the template does
  /// worst. None beyond every size measured.
  std::optional<TemplatePoint> messageFor(llvm::StringRef Family, std::optional<int64_t> Bytes) const;
  /// The longest block measured for Family (0: none).
  int64_t longestBlock(llvm::StringRef Family) const;

  std::vector<PlannedPoint> Alltoallv, Allgatherv, Allgather;
  /// The points of Collective ("alltoallv", "allgatherv" or "allgather").
  const std::vector<PlannedPoint> &plannedPoints(llvm::StringRef Collective) const;
  /// The measurement that decides a planned collective (Collective
  /// "alltoallv", which MPI_Alltoall shares, "allgatherv", or "allgather":
  /// MPI_Allgather against its plan) moving Bytes
  /// per pair or per rank: the smallest size measured not below it; with no
  /// size (unknown until run time, as an Alltoallv's counts), the measured
  /// point where the plan does best (the plan's own model and check fall
  /// back to the MPI's call where it would not win); beyond every size
  /// measured, the largest. None when nothing was measured.
  std::optional<PlannedPoint> plannedFor(llvm::StringRef Collective, std::optional<int64_t> Bytes) const;

  std::vector<VectorPoint> Reductions;
  /// The smallest size measured not below Bytes for Collective (beyond every
  /// size measured, the largest); with no size, the point where the runtime
  /// does best. None when nothing was measured.
  std::optional<VectorPoint> vectorFor(llvm::StringRef Collective, std::optional<int64_t> Bytes) const;
};

/// The words a verdict of a contiguous-message family uses: "the persistent
/// request" against "the generic call", "a persistent request" is used only
/// where a measurement shows it faster, "a template" must be 5% faster.
struct VerdictWords {
  llvm::StringRef Mine, Theirs, Used, Must;
  unsigned Digits = 2; ///< decimals of the times
};

/// The profile's verdict on a message of Bytes bytes (none: known only at
/// run time) of Family (MachineProfile::messageFor): whether the
/// specialised form wins, and the figure that decides, or why not.
struct ProfileVerdict {
  bool Wins = false;
  std::string Figure;
};
ProfileVerdict profileVerdict(const MachineProfile *Profile, llvm::StringRef Family, std::optional<int64_t> Bytes,
                              const VerdictWords &W);

/// Read a profile; the error names the file and what is wrong.
llvm::Expected<MachineProfile> loadProfile(llvm::StringRef Path);

/// The profile file name of an MPI: "mpich.json", "openmpi.json" or
/// "smpi.json" (SimGrid's SMPI).
std::string profileFileName(bool OpenMPI, bool SMPI = false);

} // namespace ompi

#endif
