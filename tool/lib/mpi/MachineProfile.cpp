//===- MachineProfile.cpp - Read a machine profile ------------------------===//
#include "mpi/MachineProfile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <set>

using namespace ompi;

namespace {

llvm::Error bad(llvm::StringRef Path, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Path.str().c_str(), What.str().c_str());
}

/// The "fusion.composite" array: every point with all four fields.
llvm::Error readComposite(llvm::StringRef Path, const llvm::json::Array &A, MachineProfile &P) {
  for (size_t I = 0; I < A.size(); ++I) {
    const llvm::json::Object *O = A[I].getAsObject();
    auto Where = [&] { return llvm::formatv("fusion.composite[{0}]", I).str(); };
    if (!O)
      return bad(Path, Where() + " is not an object");
    std::optional<int64_t> Lanes = O->getInteger("lanes"), Bytes = O->getInteger("bytes");
    std::optional<double> Sep = O->getNumber("separate_us"), Comp = O->getNumber("composite_us");
    if (!Lanes || !Bytes || !Sep || !Comp)
      return bad(Path, Where() + " needs lanes, bytes, separate_us and composite_us");
    if (*Lanes < 2 || *Bytes <= 0 || *Sep <= 0 || *Comp <= 0)
      return bad(Path, Where() + ": lanes must be at least 2, bytes and times positive");
    P.Composite.push_back({unsigned(*Lanes), *Bytes, *Sep, *Comp});
  }
  return llvm::Error::success();
}

/// The "templates" object: family -> array of points with all four fields.
llvm::Error readTemplates(llvm::StringRef Path, const llvm::json::Object &T, MachineProfile &P) {
  for (const auto &[Family, Points] : T) {
    const llvm::json::Array *A = Points.getAsArray();
    if (!A)
      return bad(Path, "templates." + Family.str() + " is not an array");
    for (size_t I = 0; I < A->size(); ++I) {
      const llvm::json::Object *O = (*A)[I].getAsObject();
      auto Where = [&, Name = Family.str()] { return llvm::formatv("templates.{0}[{1}]", Name, I).str(); };
      std::optional<int64_t> Bytes = O ? O->getInteger("bytes") : std::nullopt;
      std::optional<int64_t> Block = O ? O->getInteger("block") : std::nullopt;
      std::optional<double> Gen = O ? O->getNumber("generic_us") : std::nullopt;
      std::optional<double> Tpl = O ? O->getNumber("template_us") : std::nullopt;
      if (!Bytes || !Gen || !Tpl)
        return bad(Path, Where() + " needs bytes, generic_us and template_us");
      if (*Bytes < 0 || *Gen <= 0 || *Tpl <= 0 || (Block && *Block <= 0))
        return bad(Path, Where() + ": bytes must not be negative, block and times must be positive");
      P.Templates.push_back({Family.str(), *Bytes, Block ? *Block : 8, *Gen, *Tpl});
    }
  }
  return llvm::Error::success();
}

/// The "collectives" object: "alltoallv", "allgatherv" and "allgather" points,
/// "allreduce" and "reduce" points (other keys, such as the runtime's model
/// strings, are notes).
llvm::Error readCollectives(llvm::StringRef Path, const llvm::json::Object &C, MachineProfile &P) {
  for (llvm::StringRef Coll : {"alltoallv", "allgatherv", "allgather"}) {
    std::vector<PlannedPoint> *Points = &P.Alltoallv;
    if (Coll != "alltoallv")
      Points = Coll == "allgatherv" ? &P.Allgatherv : &P.Allgather;
    if (const llvm::json::Array *A = C.getArray(Coll))
      for (size_t I = 0; I < A->size(); ++I) {
        const llvm::json::Object *O = (*A)[I].getAsObject();
        std::optional<int64_t> Bytes = O ? O->getInteger("bytes") : std::nullopt;
        std::optional<double> Nat = O ? O->getNumber("native_us") : std::nullopt;
        std::optional<double> Plan = O ? O->getNumber("planned_us") : std::nullopt;
        if (!Bytes || !Nat || !Plan || *Bytes < 0 || *Nat <= 0 || *Plan <= 0)
          return bad(Path, llvm::formatv("collectives.{0}[{1}] needs bytes (not negative), native_us and "
                                         "planned_us (positive)",
                                         Coll, I)
                               .str());
        std::optional<llvm::StringRef> Alg = O->getString("algorithm");
        Points->push_back({*Bytes, *Nat, *Plan, Alg ? Alg->str() : ""});
      }
  }
  for (llvm::StringRef Coll : {"allreduce", "reduce"})
    if (const llvm::json::Array *A = C.getArray(Coll))
      for (size_t I = 0; I < A->size(); ++I) {
        const llvm::json::Object *O = (*A)[I].getAsObject();
        std::optional<int64_t> Bytes = O ? O->getInteger("bytes") : std::nullopt;
        std::optional<double> Nat = O ? O->getNumber("native_us") : std::nullopt;
        std::optional<double> Dense = O ? O->getNumber("dense_us") : std::nullopt;
        std::optional<double> Sparse = O ? O->getNumber("sparse_us") : std::nullopt;
        if (!Bytes || !Nat || !Dense || !Sparse || *Bytes <= 0 || *Nat <= 0 || *Dense <= 0 || *Sparse <= 0)
          return bad(Path, llvm::formatv("collectives.{0}[{1}] needs bytes, native_us, dense_us and sparse_us "
                                         "(positive)",
                                         Coll, I)
                               .str());
        P.Reductions.push_back({Coll.str(), *Bytes, *Nat, *Dense, *Sparse});
      }
  return llvm::Error::success();
}

} // namespace

const std::vector<PlannedPoint> &MachineProfile::plannedPoints(llvm::StringRef Collective) const {
  if (Collective == "allgatherv")
    return Allgatherv;
  return Collective == "allgather" ? Allgather : Alltoallv;
}

std::optional<PlannedPoint> MachineProfile::plannedFor(llvm::StringRef Collective, std::optional<int64_t> Bytes) const {
  std::optional<PlannedPoint> R, Largest;
  for (const PlannedPoint &T : plannedPoints(Collective)) {
    if (Bytes ? T.Bytes >= *Bytes && (!R || T.Bytes < R->Bytes)
              : !R || T.PlannedUs / T.NativeUs < R->PlannedUs / R->NativeUs)
      R = T;
    if (!Largest || T.Bytes > Largest->Bytes)
      Largest = T;
  }
  return R ? R : Largest; // beyond every measured size: the largest
}

std::optional<VectorPoint> MachineProfile::vectorFor(llvm::StringRef Collective, std::optional<int64_t> Bytes) const {
  std::optional<VectorPoint> R, Largest;
  auto Best = [](const VectorPoint &V) { return std::min(V.DenseUs, V.SparseUs) / V.NativeUs; };
  for (const VectorPoint &V : Reductions) {
    if (V.Collective != Collective)
      continue;
    if (Bytes ? V.Bytes >= *Bytes && (!R || V.Bytes < R->Bytes) : !R || Best(V) < Best(*R))
      R = V;
    if (!Largest || V.Bytes > Largest->Bytes)
      Largest = V;
  }
  return R ? R : Largest; // beyond every measured size: the largest
}

int64_t MachineProfile::longestBlock(llvm::StringRef Family) const {
  int64_t L = 0;
  for (const TemplatePoint &T : Templates)
    if (T.Family == Family)
      L = std::max(L, T.Block);
  return L;
}

std::optional<TemplatePoint> MachineProfile::templateFor(llvm::StringRef Family, std::optional<int64_t> Bytes,
                                                         int64_t RunLo, int64_t RunHi) const {
  // The block sizes that bracket [RunLo, RunHi].
  std::set<int64_t> Blocks;
  int64_t Below = 0, Above = 0;
  for (const TemplatePoint &T : Templates) {
    if (T.Family != Family)
      continue;
    if (T.Block <= RunLo)
      Below = std::max(Below, T.Block);
    if (T.Block >= RunHi && (!Above || T.Block < Above))
      Above = T.Block;
    if (T.Block > RunLo && T.Block < RunHi)
      Blocks.insert(T.Block);
  }
  if (!Above)
    return std::nullopt; // runs longer than any measured
  Blocks.insert(Above);
  if (Below)
    Blocks.insert(Below);
  auto Ratio = [](const TemplatePoint &T) { return T.TemplateUs / T.GenericUs; };
  std::optional<TemplatePoint> Worst;
  for (int64_t B : Blocks) {
    std::optional<TemplatePoint> R;
    for (const TemplatePoint &T : Templates) {
      if (T.Family != Family || T.Block != B)
        continue;
      if (Bytes ? T.Bytes >= *Bytes && (!R || T.Bytes < R->Bytes) : !R || Ratio(T) > Ratio(*R))
        R = T;
    }
    if (!R)
      return std::nullopt; // a bracketing block size measured no such size
    if (!Worst || Ratio(*R) > Ratio(*Worst))
      Worst = R;
  }
  return Worst;
}

std::optional<TemplatePoint> MachineProfile::messageFor(llvm::StringRef Family, std::optional<int64_t> Bytes) const {
  auto Ratio = [](const TemplatePoint &T) { return T.TemplateUs / T.GenericUs; };
  std::optional<TemplatePoint> Below, Above, Worst;
  for (const TemplatePoint &T : Templates) {
    if (T.Family != Family)
      continue;
    if (!Worst || Ratio(T) > Ratio(*Worst))
      Worst = T;
    if (Bytes && T.Bytes <= *Bytes && (!Below || T.Bytes > Below->Bytes))
      Below = T;
    if (Bytes && T.Bytes >= *Bytes && (!Above || T.Bytes < Above->Bytes))
      Above = T;
  }
  if (!Bytes)
    return Worst;
  if (!Above)
    return std::nullopt; // beyond every size measured
  return Below && Ratio(*Below) > Ratio(*Above) ? Below : Above;
}

std::optional<CompositePoint> MachineProfile::compositeFor(unsigned Lanes, int64_t Bytes) const {
  unsigned Best = 0;
  for (const CompositePoint &C : Composite)
    if (C.Lanes <= Lanes && C.Lanes > Best)
      Best = C.Lanes;
  std::optional<CompositePoint> R;
  for (const CompositePoint &C : Composite)
    if (C.Lanes == Best && C.Bytes >= Bytes && (!R || C.Bytes < R->Bytes))
      R = C;
  return R;
}

llvm::Expected<MachineProfile> ompi::loadProfile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return bad(Path, "cannot read the machine profile: " + Buf.getError().message());
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  if (!V)
    return bad(Path, "not valid JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Object *Root = V->getAsObject();
  if (!Root || Root->getString("schema") != std::optional<llvm::StringRef>("ompi-profile/1"))
    return bad(Path, "not an ompi-opt machine profile (\"schema\": \"ompi-profile/1\" expected)");
  MachineProfile P;
  P.Path = Path.str();
  if (auto M = Root->getString("mpi"))
    P.MPI = M->str();
  if (auto R = Root->getInteger("ranks"))
    P.Ranks = unsigned(*R);
  if (const llvm::json::Object *F = Root->getObject("fusion"))
    if (const llvm::json::Array *C = F->getArray("composite"))
      if (llvm::Error E = readComposite(Path, *C, P))
        return E;
  if (const llvm::json::Object *T = Root->getObject("templates"))
    if (llvm::Error E = readTemplates(Path, *T, P))
      return E;
  if (const llvm::json::Object *C = Root->getObject("collectives"))
    if (llvm::Error E = readCollectives(Path, *C, P))
      return E;
  return P;
}

std::string ompi::profileFileName(bool OpenMPI, bool SMPI) {
  // SimGrid's SMPI: a profile measured in the simulator, where one is installed
  return SMPI ? "smpi.json" : OpenMPI ? "openmpi.json" : "mpich.json";
}

ProfileVerdict ompi::profileVerdict(const MachineProfile *Profile, llvm::StringRef Family, std::optional<int64_t> Bytes,
                                    const VerdictWords &W) {
  if (!Profile)
    return {false, llvm::formatv("no machine profile is loaded ({0} is used only where a measurement shows it faster)",
                                 W.Used)};
  std::string Size = Bytes ? llvm::formatv("{0} bytes", *Bytes).str() : "a size known only at run time";
  std::optional<TemplatePoint> P = Profile->messageFor(Family, Bytes);
  if (!P)
    return {false, llvm::formatv("the machine profile {0} has no measurement of templates.{1} for {2}", Profile->Path,
                                 Family, Size)};
  auto Us = [&](double X) { return llvm::formatv("{0}", llvm::format(W.Digits == 3 ? "%.3f" : "%.2f", X)).str(); };
  std::string Figure =
      llvm::formatv("the machine profile {0} (templates.{1}) measured {2} us for {3} against {4} us "
                    "for {5} at {6} bytes (the message: {7})",
                    Profile->Path, Family, Us(P->TemplateUs), W.Mine, Us(P->GenericUs), W.Theirs, P->Bytes, Size);
  if (!P->wins())
    return {false, Figure + "; " + W.Must.str() + " must be 5% faster"};
  return {true, Figure};
}
