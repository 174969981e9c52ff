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
/// bytes, through the generic call and through the template (medians,
/// microseconds per message).
struct TemplatePoint {
  std::string Family; ///< "vector": compiled derived datatypes
  int64_t Bytes = 0;
  double GenericUs = 0, TemplateUs = 0;
  /// A template must beat the generic call by Margin (5%): a smaller
  /// difference is within the run-to-run noise of the measurement.
  static constexpr double Margin = 0.95;
  bool wins() const { return TemplateUs < Margin * GenericUs; }
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
  /// The measurement of Family that decides a message of Bytes bytes: the
  /// smallest size measured not below it. With no size (unknown until run
  /// time), the measured point where the template does worst. None when
  /// nothing measured covers it.
  std::optional<TemplatePoint> templateFor(llvm::StringRef Family, std::optional<int64_t> Bytes) const;
};

/// Read a profile; the error names the file and what is wrong.
llvm::Expected<MachineProfile> loadProfile(llvm::StringRef Path);

/// The profile file name of an MPI: "mpich.json" or "openmpi.json".
std::string profileFileName(bool OpenMPI);

} // namespace ompi

#endif
