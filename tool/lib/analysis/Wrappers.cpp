//===- Wrappers.cpp - Functions that only forward their parameters to MPI ---===//
#include "analysis/Wrappers.h"
#include "analysis/Evaluator.h"
#include "analysis/ProgramFacts.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace ompi;

namespace {

QualType plain(ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isArrayType())
    T = Ctx.getArrayDecayedType(T).getCanonicalType().getUnqualifiedType();
  return T;
}

std::string spelling(ASTContext &Ctx, QualType T) { return plain(Ctx, T).getAsString(Ctx.getPrintingPolicy()); }

/// The declaration of MPI_Init the file sees (mpi.h's), or null.
const NamedDecl *mpiInit(ASTContext &Ctx) {
  auto Found = Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(mpi::MPI_Init)));
  return Found.empty() ? nullptr : Found.front();
}

/// The directory of the file that holds L (its expansion).
std::string dirOf(const SourceManager &SM, SourceLocation L) {
  return llvm::sys::path::parent_path(SM.getFilename(SM.getExpansionLoc(L))).str();
}

/// Whether L is the MPI's: in a system header, or in MPIDir (the directory
/// of the header that declares MPI_Init).
bool inMPIHeaders(const SourceManager &SM, SourceLocation L, llvm::StringRef MPIDir) {
  return L.isValid() && (SM.isInSystemHeader(SM.getExpansionLoc(L)) || dirOf(SM, L) == MPIDir);
}

/// E without parentheses and casts, and the types of the casts written.
const Expr *uncast(const Expr *E, std::vector<QualType> &Casts) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
      E = IC->getSubExpr();
    else if (const auto *CC = dyn_cast<CStyleCastExpr>(E)) {
      Casts.push_back(CC->getType());
      E = CC->getSubExpr();
    } else
      return E;
  }
}

/// Whether the handle H that A spells is the MPI's own where A is written:
/// the innermost macro named H (if any) is defined in a system header or
/// beside the header that declares MPI_Init, and a variable named H is
/// declared there. A program that defines MPI_COMM_WORLD as its own
/// communicator must not have it read as MPI's elsewhere.
bool mpiSpelling(ASTContext &Ctx, const Expr *A, llvm::StringRef H) {
  const SourceManager &SM = Ctx.getSourceManager();
  const NamedDecl *Init = mpiInit(Ctx);
  if (!Init)
    return false;
  std::string Dir = dirOf(SM, Init->getLocation());
  for (SourceLocation L = A->getBeginLoc(); L.isMacroID(); L = SM.getImmediateMacroCallerLoc(L))
    if (Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts()) == H)
      return inMPIHeaders(SM, SM.getImmediateSpellingLoc(L), Dir);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts()))
    return inMPIHeaders(SM, DRE->getDecl()->getLocation(), Dir);
  return true; // spelled through a macro of another name only
}

/// The constant an argument of the wrapper's MPI call is, spelled as it
/// may be written where mpi.h is included.
std::optional<std::string> constantArg(const Evaluator &Ev, const Expr *A, QualType MT) {
  ASTContext &Ctx = Ev.context();
  if (std::optional<std::string> H = Ev.spelledHandle(A)) {
    if (!mpiSpelling(Ctx, A, *H))
      return std::nullopt;
    return *H;
  }
  if (MT->isPointerType() && A->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return std::string("0");
  if (MT->isIntegerType())
    if (std::optional<llvm::APSInt> V = A->getIntegerConstantExpr(Ctx))
      if (V->getSignificantBits() <= 32) {
        llvm::SmallString<16> S;
        V->toString(S, 10);
        return V->isNegative() ? "(" + S.str().str() + ")" : S.str().str();
      }
  return std::nullopt;
}

/// The MPI call F's body is: returned (Returns) or made as its only statement.
const CallExpr *bodyCall(const FunctionDecl *F, bool &Returns) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const Stmt *S = Body->body_front();
  const Expr *E = nullptr;
  Returns = false;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    E = R->getRetValue();
    Returns = true;
  } else
    E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  std::vector<QualType> Casts;
  const auto *CE = dyn_cast<CallExpr>(uncast(E, Casts));
  if (!CE)
    return nullptr;
  // The result reaches the caller converted to the return type only (or
  // through int, the MPI call's own type); a statement may discard it.
  QualType R = F->getReturnType().getCanonicalType();
  for (QualType C : Casts)
    if (!(Returns ? C.getCanonicalType() == R || C->isSpecificBuiltinType(BuiltinType::Int) : C->isVoidType()))
      return nullptr;
  if (Returns ? !R->isIntegerType() || R->isEnumeralType() || R->isBooleanType() : !R->isVoidType())
    return nullptr;
  return CE;
}

} // namespace

std::optional<WrapperFact> ompi::forwardingWrapper(const FunctionDecl *F, const Evaluator &Ev) {
  ASTContext &Ctx = Ev.context();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!F || !F->doesThisDeclarationHaveABody() || (!F->hasPrototype() && F->getNumParams()) || F->isVariadic() ||
      F->isMain() || F->hasAttr<WeakAttr>() || SM.isInSystemHeader(F->getLocation()))
    return std::nullopt;
  WrapperFact W;
  const CallExpr *CE = bodyCall(F, W.Returns);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() || !Callee->getName().starts_with(mpi::Prefix) ||
      !lookupFunction(Callee->getName()) || CE->getNumArgs() != Callee->getNumParams() || CE->getBeginLoc().isMacroID())
    return std::nullopt;
  W.MPIFunction = Callee->getName().str();
  W.File = llvm::sys::path::filename(SM.getFilename(SM.getExpansionLoc(F->getLocation()))).str();
  W.Line = SM.getExpansionLineNumber(CE->getBeginLoc());
  if (W.Returns)
    W.ReturnType = spelling(Ctx, F->getReturnType());
  W.Pass.assign(F->getNumParams(), ParamPass::Exact);
  for (const ParmVarDecl *P : F->parameters()) {
    QualType PT = plain(Ctx, P->getType());
    W.ParamTypes.push_back(spelling(Ctx, PT));
    if (PT->isBuiltinType() && PT->isArithmeticType())
      W.Pass[P->getFunctionScopeIndex()] = ParamPass::Arithmetic;
  }
  int Last = -1;
  for (unsigned J = 0; J < CE->getNumArgs(); ++J) {
    const Expr *A = CE->getArg(J);
    QualType MT = plain(Ctx, Callee->getParamDecl(J)->getType());
    std::vector<QualType> Casts;
    const auto *DRE = dyn_cast<DeclRefExpr>(uncast(A, Casts));
    const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PV) {
      std::optional<std::string> C = constantArg(Ev, A, MT);
      if (!C)
        return std::nullopt;
      W.Args.push_back({-1, *C});
      continue;
    }
    int I = int(PV->getFunctionScopeIndex());
    if (I <= Last) // each parameter once, in order: the caller's arguments keep their places
      return std::nullopt;
    Last = I;
    QualType PT = plain(Ctx, PV->getType());
    bool VoidTarget = MT->isVoidPointerType() && PT->isPointerType();
    for (QualType C : Casts) {
      QualType CT = plain(Ctx, C);
      if (CT != PT && CT != MT && !(VoidTarget && CT->isPointerType()))
        return std::nullopt;
    }
    if (VoidTarget)
      W.Pass[I] = ParamPass::VoidPointer;
    else if (W.Pass[I] == ParamPass::Arithmetic && !MT->isArithmeticType())
      W.Pass[I] = ParamPass::Exact;
    W.Args.push_back({I, ""});
  }
  return W;
}

std::map<std::string, WrapperFact> ompi::externalWrappers(ASTContext &Ctx, const Evaluator &Ev) {
  std::map<std::string, WrapperFact> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  if (Ctx.getLangOpts().CPlusPlus) // other files find them by name: C only
    return Out;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = dyn_cast<FunctionDecl>(D);
        F && F->isExternallyVisible() && F->getIdentifier() && SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
      if (std::optional<WrapperFact> W = forwardingWrapper(F, Ev))
        Out[F->getName().str()] = std::move(*W);
  return Out;
}

namespace {

/// Finds the calls of wrappers a file can write as their MPI calls.
class WrapperCalls : public FunctionVisitor<WrapperCalls> {
public:
  WrapperCalls(ASTContext &Ctx, Preprocessor &PP, const Evaluator &Ev)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), PP(PP), Ev(Ev) {}
  std::vector<InlinedCall> Calls;
  bool NeedsHeader = false; ///< the file does not include mpi.h

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *G = CE->getDirectCallee();
    // Through a prototype only: without one the arguments are promoted, not
    // converted to the parameters' types.
    if (!Cur || !G || !G->getIdentifier() || G == Cur ||
        (!G->getType()->getAs<FunctionProtoType>() && CE->getNumArgs()))
      return true;
    if (G->getName().starts_with(mpi::Prefix) && lookupFunction(G->getName()) && CE->getBeginLoc().isMacroID()) {
      if (std::optional<InlinedCall> C = macroInlinedCall(Ctx, PP, CE))
        Calls.push_back(std::move(*C));
      return true;
    }
    const WrapperFact *W = factOf(G);
    if (W && W->ParamTypes.size() == CE->getNumArgs() && writtenHere(CE) && visible(*W))
      if (std::optional<std::string> T = inlined(CE, *W)) {
        InlinedCall C;
        C.Begin = SM.getFileOffset(CE->getBeginLoc());
        C.End = SM.getFileOffset(CE->getRParenLoc()) + 1;
        C.Text = std::move(*T);
        C.Original = SM.getBufferData(SM.getMainFileID()).slice(C.Begin, C.End).str();
        C.Line = SM.getSpellingLineNumber(CE->getBeginLoc());
        C.Column = SM.getSpellingColumnNumber(CE->getBeginLoc());
        C.Wrapper = G->getName().str();
        C.DefinedAt = W->File + ":" + std::to_string(W->Line);
        C.MPIFunction = W->MPIFunction;
        const FunctionDecl *Def = nullptr;
        if (G->hasBody(Def) && SM.isWrittenInMainFile(SM.getExpansionLoc(Def->getBeginLoc()))) {
          SourceLocation B = SM.getExpansionLoc(Def->getBeginLoc()), E = SM.getExpansionLoc(Def->getEndLoc());
          C.DefinitionBegin = long(SM.getFileOffset(B));
          C.DefinitionEnd = long(SM.getFileOffset(E)) + 1;
          C.FirstLine = SM.getExpansionLineNumber(B);
          C.LastLine = SM.getExpansionLineNumber(E);
          if (Def->getStorageClass() == SC_Static && !Def->isInlineSpecified() && Def->getBeginLoc().isFileID())
            C.StaticDefinitionAt = C.DefinitionBegin;
        }
        Calls.push_back(std::move(C));
      }
    return true;
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  Preprocessor &PP;
  const Evaluator &Ev;
  std::map<const FunctionDecl *, std::optional<WrapperFact>> Local;
  std::optional<std::string> MPIDir;

  /// The wrapper G is: defined in this translation unit, or (whole-program
  /// facts) by the program's other file.
  const WrapperFact *factOf(const FunctionDecl *G) {
    const FunctionDecl *Def = nullptr;
    if (G->hasBody(Def)) {
      auto [It, New] = Local.try_emplace(Def);
      if (New)
        It->second = forwardingWrapper(Def, Ev);
      return It->second ? &*It->second : nullptr;
    }
    // Another file's, by name: C only (C++ names overloads alike).
    const ProgramFacts *P = Ev.options().Program.get();
    if (!P || P->Seed || !P->program() || !G->isExternallyVisible() || Ctx.getLangOpts().CPlusPlus)
      return nullptr;
    auto F = P->Functions.find(G->getName().str());
    auto W = P->Wrappers.find(G->getName().str());
    return F != P->Functions.end() && F->second.Defined && W != P->Wrappers.end() ? &W->second : nullptr;
  }

  bool writtenHere(const CallExpr *CE) const {
    SourceLocation B = CE->getBeginLoc(), E = CE->getRParenLoc();
    return B.isFileID() && E.isFileID() && SM.isWrittenInMainFile(B) && SM.isWrittenInMainFile(E);
  }

  /// Whether Name, where the call is, is the MPI's own: a macro or a
  /// declaration of a system header or of the directory of the header that
  /// declares the MPI functions.
  bool fromMPI(llvm::StringRef Name) {
    if (Name.empty() || isdigit(static_cast<unsigned char>(Name[0])) || Name[0] == '(')
      return true;
    IdentifierInfo &II = Ctx.Idents.get(Name);
    if (NeedsHeader) // mpi.h will declare it: the file must not
      return !PP.getMacroInfo(&II) && Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&II)).empty();
    auto Ours = [&](SourceLocation L) { return inMPIHeaders(SM, L, *MPIDir); };
    if (const MacroInfo *MI = PP.getMacroInfo(&II))
      return Ours(MI->getDefinitionLoc());
    auto Found = Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&II));
    return !Found.empty() && llvm::all_of(Found, [&](const NamedDecl *D) { return Ours(D->getLocation()); });
  }

  bool visible(const WrapperFact &W) {
    if (!MPIDir) {
      const NamedDecl *Init = mpiInit(Ctx);
      if (Init && SM.isWrittenInMainFile(Init->getLocation()))
        return false;
      NeedsHeader = !Init;
      MPIDir = Init ? dirOf(SM, Init->getLocation()) : std::string();
    }
    if (!fromMPI(W.MPIFunction))
      return false;
    return llvm::all_of(W.Args, [&](const WrapperArg &A) { return A.Param >= 0 || fromMPI(A.Constant); });
  }

  /// Whether the value of CE is discarded (a statement of its own).
  bool discarded(const CallExpr *CE) const {
    const Stmt *P = parentStmt(Ctx, CE);
    return P && !isa<Expr>(P) && !isa<ReturnStmt>(P) && !isa<DeclStmt>(P);
  }

  /// Argument I of CE as W's MPI call takes it (Text: as written), or
  /// none when it does not convert to the parameter as written would.
  std::optional<std::string> converted(const CallExpr *CE, unsigned I, const WrapperFact &W, std::string Text) {
    const Expr *Bare = CE->getArg(I)->IgnoreParenImpCasts();
    QualType AT = plain(Ctx, Bare->getType());
    switch (W.Pass[I]) {
    case ParamPass::Arithmetic:
      if (!AT->isArithmeticType())
        return std::nullopt;
      return spelling(Ctx, AT) == W.ParamTypes[I] ? Text : "(" + W.ParamTypes[I] + ")(" + Text + ")";
    case ParamPass::VoidPointer:
      if (AT->isPointerType() || Bare->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
        return Text;
      return std::nullopt;
    case ParamPass::Exact:
      if (spelling(Ctx, AT) == W.ParamTypes[I])
        return Text;
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// CE written as W's MPI call, with as many newlines as CE's text, each
  /// argument kept on its line.
  std::optional<std::string> inlined(const CallExpr *CE, const WrapperFact &W) {
    if (!W.Returns && !discarded(CE))
      return std::nullopt;
    std::vector<bool> Used(CE->getNumArgs(), false);
    for (const WrapperArg &A : W.Args)
      if (A.Param >= 0) {
        if (unsigned(A.Param) >= CE->getNumArgs())
          return std::nullopt;
        Used[A.Param] = true;
      }
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (!Used[I] && CE->getArg(I)->HasSideEffects(Ctx))
        return std::nullopt;
    llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
    auto Newlines = [&](unsigned From, unsigned To) {
      return From < To ? unsigned(Buf.slice(From, To).count('\n')) : 0u;
    };
    unsigned Cursor = SM.getFileOffset(CE->getBeginLoc()), Pending = 0;
    std::string T = W.MPIFunction + "(";
    for (size_t J = 0; J < W.Args.size(); ++J) {
      std::string Piece = W.Args[J].Constant;
      if (W.Args[J].Param >= 0) {
        unsigned I = unsigned(W.Args[J].Param);
        CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(CE->getArg(I)->getSourceRange()),
                                                     SM, Ctx.getLangOpts());
        if (R.isInvalid() || !SM.isWrittenInMainFile(R.getBegin()))
          return std::nullopt;
        unsigned B = SM.getFileOffset(R.getBegin()), E = SM.getFileOffset(R.getEnd());
        std::optional<std::string> Text = converted(CE, I, W, Buf.slice(B, E).str());
        if (!Text)
          return std::nullopt;
        Pending += Newlines(Cursor, B);
        Piece = std::string(Pending, '\n') + *Text;
        Pending = 0;
        Cursor = E;
      }
      T += (J ? ", " : "") + Piece;
    }
    Pending += Newlines(Cursor, SM.getFileOffset(CE->getRParenLoc()));
    T += std::string(Pending, '\n') + ")";
    if (W.Returns && !discarded(CE) && W.ReturnType != "int")
      T = "((" + W.ReturnType + ")" + T + ")";
    return T;
  }
};

/// Where "#include <mpi.h>" can replace a blank line of the main file of
/// Ctx before offset Before without moving a line: the first blank line
/// after the file's last #include before Before (or after the start) that
/// no top-level declaration, comment or continued line holds; none: -1.
std::pair<long, unsigned> headerPlace(ASTContext &Ctx, unsigned Before) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  std::vector<std::pair<unsigned, unsigned>> Taken; // declarations and comments
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceRange R = D->getSourceRange();
    if (R.isValid() && SM.isWrittenInMainFile(SM.getExpansionLoc(R.getBegin())))
      Taken.push_back({SM.getFileOffset(SM.getExpansionLoc(R.getBegin())),
                       SM.getFileOffset(SM.getExpansionRange(R.getEnd()).getEnd()) + 1});
  }
  Lexer L(SM.getLocForStartOfFile(SM.getMainFileID()), Ctx.getLangOpts(), Buf.begin(), Buf.begin(), Buf.end());
  L.SetCommentRetentionState(true);
  unsigned Start = 0;
  Token T;
  while (!L.LexFromRawLexer(T) && T.isNot(tok::eof)) {
    unsigned At = SM.getFileOffset(T.getLocation());
    if (At >= Before)
      break;
    if (T.is(tok::comment))
      Taken.push_back({At, At + T.getLength()});
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      Token N;
      L.LexFromRawLexer(N);
      if (N.is(tok::raw_identifier) && N.getRawIdentifier() == "include") {
        size_t E = Buf.find('\n', At);
        Start = E == llvm::StringRef::npos ? unsigned(Buf.size()) : unsigned(E + 1);
      }
    }
  }
  for (size_t B = Start; B < Before && B < Buf.size();) {
    size_t E = Buf.find('\n', B);
    if (E == llvm::StringRef::npos || E >= Before)
      break;
    bool Blank = Buf.slice(B, E).trim().empty() && !(B >= 2 && Buf[B - 2] == '\\');
    if (Blank && llvm::none_of(Taken, [&](auto S) { return S.first < E && S.second > B; }))
      return {long(B), unsigned(E - B)};
    B = E + 1;
  }
  return {-1, 0};
}

} // namespace

std::vector<InlinedCall> ompi::inlinableWrapperCalls(ASTContext &Ctx, Preprocessor &PP, const Evaluator &Ev) {
  WrapperCalls V(Ctx, PP, Ev);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  llvm::sort(V.Calls, [](const InlinedCall &A, const InlinedCall &B) { return A.Begin < B.Begin; });
  std::vector<InlinedCall> Out;
  for (InlinedCall &C : V.Calls)
    if (Out.empty() || C.Begin >= Out.back().End) // a call inside another's arguments stays as written
      Out.push_back(std::move(C));
  if (Out.empty() || !V.NeedsHeader)
    return Out;
  // Before the file's first function definition (or the first call).
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Before = Out.front().Begin;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->doesThisDeclarationHaveABody())
      if (SourceLocation B = SM.getExpansionLoc(F->getBeginLoc()); SM.isWrittenInMainFile(B))
        Before = std::min(Before, SM.getFileOffset(B));
  auto [At, Length] = headerPlace(Ctx, Before);
  if (At < 0)
    return {};
  InlinedCall H;
  H.Header = true;
  H.Begin = unsigned(At);
  H.End = unsigned(At) + Length;
  H.Original = SM.getBufferData(SM.getMainFileID()).slice(H.Begin, H.End).str();
  H.Text = "#include <mpi.h>";
  Out.insert(Out.begin(), std::move(H));
  return Out;
}

std::string ompi::applyInlining(llvm::StringRef Text, const std::vector<InlinedCall> &Calls) {
  std::string Out;
  unsigned At = 0;
  for (const InlinedCall &C : Calls) {
    Out += Text.slice(At, C.Begin).str();
    Out += C.Text;
    At = C.End;
  }
  Out += Text.substr(At).str();
  return Out;
}
