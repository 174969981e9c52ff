//===- FusionMix.cpp - Reductions of different ops or types in one collective //
#include "analysis/FusionMix.h"
#include "mpi/Names.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace ompi;

std::optional<bool> ompi::integerSigned(const std::string &CType) {
  static const llvm::StringLiteral Signed[] = {"signed char", "short",       "int",           "long",
                                               "long long",   "int8_t",      "int16_t",       "int32_t",
                                               "int64_t",     mpi::MPI_Aint, mpi::MPI_Offset, mpi::MPI_Count};
  static const llvm::StringLiteral Unsigned[] = {"unsigned char", "unsigned short",     "unsigned int",
                                                 "unsigned long", "unsigned long long", "uint8_t",
                                                 "uint16_t",      "uint32_t",           "uint64_t"};
  for (llvm::StringRef S : Signed)
    if (CType == S)
      return true;
  for (llvm::StringRef U : Unsigned)
    if (CType == U)
      return false;
  return std::nullopt;
}

std::string ompi::builtinInteger(const std::string &CType, int64_t Size) {
  static const char *Builtin[] = {"signed char", "unsigned char",     "short", "unsigned short",
                                  "int",         "unsigned int",      "long",  "unsigned long",
                                  "long long",   "unsigned long long"};
  if (llvm::is_contained(Builtin, CType))
    return CType;
  bool S = integerSigned(CType).value_or(true);
  const char *Name = Size == 1 ? "char" : Size == 2 ? "short" : Size == 4 ? "int" : "long long";
  return std::string(S ? (Size == 1 ? "signed " : "") : "unsigned ") + Name;
}

namespace {

bool isFloating(const std::string &CType) { return CType == "float" || CType == "double" || CType == "long double"; }

/// An integer datatype the mixes take: not MPI_BYTE or MPI_PACKED (raw
/// bytes, bitwise ops only, not ordered).
bool isMixInteger(const MixInput &M) {
  return integerSigned(M.CType) && M.Type != mpi::MPI_BYTE && M.Type != mpi::MPI_PACKED && M.Size >= 1 && M.Size <= 8;
}

bool isModular(const std::string &Op) {
  return Op == mpi::MPI_SUM || Op == mpi::MPI_PROD || Op == mpi::MPI_BAND || Op == mpi::MPI_BOR || Op == mpi::MPI_BXOR;
}

std::string kernelType(const MixInput &M) { return builtinInteger(M.CType, M.Size); }

/// MIN and MAX of one type: one MPI_MAX.
std::optional<Mix> minMax(const std::vector<MixInput> &In) {
  const MixInput &F = In.front();
  for (const MixInput &M : In)
    if ((M.Op != mpi::MPI_MIN && M.Op != mpi::MPI_MAX) || M.Type != F.Type)
      return std::nullopt;
  bool Int = isMixInteger(F);
  if (!Int && !isFloating(F.CType))
    return std::nullopt;
  Mix R;
  R.Kind = FusionKind::OneOp;
  R.Op = mpi::MPI_MAX;
  R.Type = F.Type;
  R.CType = Int ? kernelType(F) : F.CType;
  for (const MixInput &M : In)
    R.Enc.push_back(M.Op == mpi::MPI_MAX ? Encoding::Plain : Int ? Encoding::Complement : Encoding::Negate);
  R.Rule = Int ? "MPI_MIN as MPI_MAX of the complement: min(x, y) = ~max(~x, ~y), exact for every integer"
               : "MPI_MIN as MPI_MAX of the negation: min(x, y) = -max(-x, -y), exact for every IEEE value";
  return R;
}

/// One modular op on several integer types: one collective on unsigned
/// long long, small buffers only.
std::optional<Mix> widened(const std::vector<MixInput> &In, std::string &Why) {
  const MixInput &F = In.front();
  int64_t Elems = 0;
  for (const MixInput &M : In) {
    if (M.Op != F.Op || !isModular(M.Op) || !isMixInteger(M))
      return std::nullopt;
    if (!M.Count) {
      Why = "a count is known only at run time, and the wider type could double a large buffer";
      return std::nullopt;
    }
    Elems += *M.Count;
  }
  if (Elems * 8 > WideLimitBytes) {
    Why = llvm::formatv("{0} elements as unsigned long long exceed {1} bytes, beyond which the wider type costs more "
                        "than a collective",
                        Elems, WideLimitBytes)
              .str();
    return std::nullopt;
  }
  Mix R;
  R.Kind = FusionKind::OneOp;
  R.Op = F.Op;
  R.Type = mpi::MPI_UNSIGNED_LONG_LONG;
  R.CType = "unsigned long long";
  R.Enc.assign(In.size(), Encoding::Widen);
  R.Rule = F.Op + " of every integer type in unsigned long long: the op commutes with reduction modulo 2^n, so "
                  "each result is exactly its own type's, overflow included";
  return R;
}

/// Integer reductions of several ops: a composite op, where the profile
/// measured it winning.
Mix composite(const std::vector<MixInput> &In, const MachineProfile *Profile) {
  Mix R;
  for (const MixInput &M : In) {
    if (!isMixInteger(M)) {
      R.Why = M.Type + " is not an integer type, and only integer reductions are exact in any order (a composite "
                       "op's order of combination may differ from the builtin op's)";
      return R;
    }
    if (!M.Count) {
      R.Why = "a count is known only at run time (a composite op's layout is fixed at compile time)";
      return R;
    }
    if (*M.Count == 0) {
      R.Why = "a count is 0 (no segment to reduce)";
      return R;
    }
    static const llvm::StringLiteral Ops[] = {mpi::MPI_SUM, mpi::MPI_PROD, mpi::MPI_MIN,  mpi::MPI_MAX, mpi::MPI_BAND,
                                              mpi::MPI_BOR, mpi::MPI_BXOR, mpi::MPI_LAND, mpi::MPI_LOR, mpi::MPI_LXOR};
    if (llvm::none_of(Ops, [&](llvm::StringRef O) { return M.Op == O; })) {
      R.Why = M.Op + " has no composite form";
      return R;
    }
  }
  for (const MixInput &M : In) {
    auto It = llvm::find_if(R.Lanes, [&](const FusionLane &L) { return L.Op == M.Op && L.Type == M.Type; });
    if (It == R.Lanes.end()) {
      R.Lanes.push_back({M.Op, M.Type, kernelType(M), M.Size, 0, 0});
      It = R.Lanes.end() - 1;
    }
    R.Lane.push_back(unsigned(It - R.Lanes.begin()));
    It->Count += *M.Count;
  }
  for (FusionLane &L : R.Lanes) {
    L.Offset = R.Bytes;
    R.Bytes += (L.Size * L.Count + 7) / 8 * 8;
  }
  std::vector<std::string> Names;
  for (const FusionLane &L : R.Lanes)
    Names.push_back(L.Op + " of " + std::to_string(L.Count) + " x " + L.Type);
  std::string Lanes = llvm::join(Names, ", ");
  std::optional<CompositePoint> P = Profile ? Profile->compositeFor(R.Lanes.size(), R.Bytes) : std::nullopt;
  if (!Profile)
    R.Why = "one collective for " + Lanes + " needs a composite op, and no machine profile is loaded";
  else if (!P)
    R.Why = llvm::formatv("one collective for {0} needs a composite op, and the machine profile {1} has no "
                          "measurement of {2} segments on {3} bytes",
                          Lanes, Profile->Path, R.Lanes.size(), R.Bytes)
                .str();
  else if (!P->wins())
    R.Why = llvm::formatv("one collective for {0} needs a composite op, and the machine profile {1} measured it "
                          "slower ({2:f2} us against {3:f2} us for {4} builtin collectives, up to {5} bytes)",
                          Lanes, Profile->Path, P->CompositeUs, P->SeparateUs, P->Lanes, P->Bytes)
                .str();
  if (!R.Why.empty())
    return R;
  R.Kind = FusionKind::Composite;
  R.Rule = llvm::formatv("the composite op reduces the {0} bytes as one element, so MPI never splits a segment; "
                         "integer ops are exact in any order; the machine profile {1} measured {2:f2} us against "
                         "{3:f2} us for {4} builtin collectives, up to {5} bytes",
                         R.Bytes, Profile->Path, P->CompositeUs, P->SeparateUs, P->Lanes, P->Bytes)
               .str();
  return R;
}

} // namespace

Mix ompi::mixReductions(const std::vector<MixInput> &In, const MachineProfile *Profile) {
  if (In.empty() ||
      llvm::all_of(In, [&](const MixInput &M) { return M.Op == In.front().Op && M.Type == In.front().Type; })) {
    Mix R;
    R.Enc.assign(In.size(), Encoding::Plain);
    return R;
  }
  if (std::optional<Mix> R = minMax(In))
    return *R;
  std::string WideWhy;
  if (std::optional<Mix> R = widened(In, WideWhy))
    return *R;
  Mix R = composite(In, Profile);
  if (!R.Why.empty() && !WideWhy.empty())
    R.Why = "one op on several integer types: " + WideWhy;
  return R;
}
