//===- LDSThreadAddress.cpp - LDS addresses as functions of the work-item -===//
//
// The disjointness test enumerates the work-item ids an access can have
// (a workgroup has at most 1024 work-items), sorts one side's address terms
// and searches the other side's overlap interval in it: O(n log n) per pair.
// Plain arithmetic: the IR side is LDSThreadAddressBuilder.cpp.
//
//===----------------------------------------------------------------------===//

#include "LDSThreadAddress.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <array>
#include <numeric>

using namespace llvm;
using namespace llvm::ldsbarriers;

//===----------------------------------------------------------------------===//
// TidExpr
//===----------------------------------------------------------------------===//

/// Whether node \p N (with flags, at most 32 bits wide) wraps on operands
/// \p A and \p B, which makes its IR value poison. Wider nodes are taken
/// as not wrapping: their wrapped value is one more case to consider.
static bool wraps(const TidExpr::Node &N, uint64_t A, uint64_t B) {
  if (!N.Flags || N.Width > 32)
    return false;
  int64_t SA = SignExtend64(A, N.Width), SB = SignExtend64(B, N.Width);
  int64_t U, S; // Exact in 64 bits for 32-bit operands.
  switch (N.K) {
  case TidExpr::Add:
    U = int64_t(A + B), S = SA + SB;
    break;
  case TidExpr::Sub:
    U = int64_t(A) - int64_t(B), S = SA - SB;
    break;
  case TidExpr::Mul:
    U = int64_t(A * B), S = SA * SB;
    break;
  case TidExpr::Shl:
    if (B >= N.Width)
      return true;
    U = int64_t(A << B), S = SA * (int64_t(1) << B);
    break;
  default:
    return false;
  }
  int64_t Half = int64_t(1) << (N.Width - 1);
  return ((N.Flags & TidExpr::NUW) && (U < 0 || U >= 2 * Half)) ||
         ((N.Flags & TidExpr::NSW) && (S < -Half || S >= Half));
}

/// The value of node \p N, other than Id and Param, on operand values \p A
/// and \p B, before truncation to its width.
static uint64_t evalNode(const TidExpr::Node &N, uint64_t A, uint64_t B) {
  switch (N.K) {
  case TidExpr::Const:
    return uint64_t(N.Imm);
  case TidExpr::Add:
    return A + B;
  case TidExpr::Sub:
    return A - B;
  case TidExpr::Mul:
    return A * B;
  case TidExpr::And:
    return A & B;
  case TidExpr::Or:
    return A | B;
  case TidExpr::Xor:
    return A ^ B;
  // Shift amounts of at least the width are poison in the IR; the builder
  // only makes these nodes for constant amounts below it.
  case TidExpr::Shl:
    return B < N.Width ? A << B : 0;
  case TidExpr::LShr:
    return B < N.Width ? A >> B : 0;
  case TidExpr::AShr:
    return B < N.Width ? uint64_t(SignExtend64(A, N.Width) >> B) : 0;
  // Division by zero is undefined in the IR; the builder only makes these
  // nodes for nonzero constant divisors.
  case TidExpr::UDiv:
    return B ? A / B : 0;
  case TidExpr::URem:
    return B ? A % B : 0;
  case TidExpr::ZExt:
    return lowBits(A, unsigned(N.Imm));
  case TidExpr::SExt:
    return uint64_t(SignExtend64(A, unsigned(N.Imm)));
  case TidExpr::Trunc:
    return A;
  case TidExpr::Id:
  case TidExpr::Param:
    break;
  }
  llvm_unreachable("Id and Param nodes read no operands");
}

template <typename IdT>
static void
evalNodes(ArrayRef<TidExpr::Node> Nodes, ArrayRef<std::array<IdT, 3>> Ids,
          std::vector<uint64_t> &Out, ArrayRef<uint64_t> Params = {},
          std::vector<bool> *Poison = nullptr) {
  Out.assign(Ids.size(), 0);
  if (Poison)
    Poison->assign(Ids.size(), false);
  if (Nodes.empty())
    return;
  // The values of the nodes, and whether they are poison, for one id.
  SmallVector<uint64_t, 16> V(Nodes.size());
  SmallVector<bool, 16> P(Nodes.size());
  for (size_t J = 0; J < Ids.size(); ++J) {
    for (unsigned I = 0; I < Nodes.size(); ++I) {
      const TidExpr::Node &N = Nodes[I];
      uint64_t A = N.L >= 0 ? V[N.L] : 0, B = N.R >= 0 ? V[N.R] : 0;
      uint64_t R = N.K == TidExpr::Id      ? uint64_t(Ids[J][N.Imm])
                   : N.K == TidExpr::Param ? Params[N.Imm]
                                           : evalNode(N, A, B);
      V[I] = lowBits(R, N.Width);
      P[I] = Poison &&
             ((N.L >= 0 && P[N.L]) || (N.R >= 0 && P[N.R]) || wraps(N, A, B));
    }
    Out[J] = V.back();
    if (Poison)
      (*Poison)[J] = P.back();
  }
}

uint64_t TidExpr::eval(const std::array<int64_t, 3> &T) const {
  std::vector<uint64_t> Out;
  evalNodes(Nodes, ArrayRef<std::array<int64_t, 3>>(T), Out);
  return Out[0];
}

void TidExpr::evalAll(ArrayRef<std::array<uint16_t, 3>> Ids,
                      std::vector<uint64_t> &Out, ArrayRef<uint64_t> Params,
                      std::vector<bool> *Poison) const {
  evalNodes(Nodes, Ids, Out, Params, Poison);
}

std::pair<uint64_t, uint64_t>
TidExpr::range(const std::array<int64_t, 3> &Lo,
               const std::array<int64_t, 3> &Hi) const {
  using Bounds = std::pair<uint64_t, uint64_t>;
  // The bits of X and below set: the largest value of X's bit length.
  auto Smear = [](uint64_t X) {
    return X ? ~uint64_t(0) >> llvm::countl_zero(X) : 0;
  };
  std::vector<Bounds> V(Nodes.size());
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    const Node &N = Nodes[I];
    const uint64_t Max = lowBits(~uint64_t(0), N.Width);
    const Bounds Full{0, Max};
    Bounds A = N.L >= 0 ? V[N.L] : Full, B = N.R >= 0 ? V[N.R] : Full;
    auto [AL, AH] = A;
    auto [BL, BH] = B;
    bool Over = false;
    Bounds R = Full;
    switch (N.K) {
    case Id:
      R = {uint64_t(Lo[N.Imm]), uint64_t(Hi[N.Imm])};
      break;
    case Const:
      R = {lowBits(N.Imm, N.Width), lowBits(N.Imm, N.Width)};
      break;
    case Add:
      R = {AL + BL, SaturatingAdd(AH, BH, &Over)};
      break;
    case Sub:
      if (AL >= BH)
        R = {AL - BH, AH - BL};
      break;
    case Mul:
      R = {AL * BL, SaturatingMultiply(AH, BH, &Over)};
      break;
    case And:
      R = {0, std::min(AH, BH)};
      break;
    case Or:
      R = {std::max(AL, BL), Smear(std::max(AH, BH))};
      break;
    case Xor:
      R = {0, Smear(std::max(AH, BH))};
      break;
    case Shl:
      if (BH < N.Width && AH <= (Max >> BH))
        R = {AL << BL, AH << BH};
      break;
    case AShr:
      if (AH > (Max >> 1)) // May be negative.
        break;
      [[fallthrough]];
    case LShr:
      // An amount of at least the width gives 0 (see evalAll).
      R = {BH < N.Width ? AL >> BH : 0, BL < N.Width ? AH >> BL : 0};
      break;
    case UDiv:
      R = {BL ? AL / BH : 0, BL ? AH / BL : AH};
      break;
    case URem:
      R = BL && AH < BL ? A : Bounds{0, BH ? std::min(AH, BH - 1) : 0};
      break;
    case ZExt:
      if (AH <= lowBits(~uint64_t(0), unsigned(N.Imm)))
        R = A;
      break;
    case SExt:
      if (AH <= (lowBits(~uint64_t(0), unsigned(N.Imm)) >> 1))
        R = A;
      break;
    case Trunc:
      R = A;
      break;
    case Param:
      break;
    }
    // A bound past the width wraps: the node may then take any value.
    V[I] = Over || R.second > Max || R.first > R.second ? Full : R;
  }
  return V.empty() ? Bounds{0, 0} : V.back();
}

unsigned TidExpr::usedDims() const {
  unsigned Mask = 0;
  for (const Node &N : Nodes)
    if (N.K == Id)
      Mask |= 1u << N.Imm;
  return Mask;
}

std::string TidExpr::str() const {
  static const char *Names[] = {"tid", "",     "+",    "-",    "*",   "&",
                                "|",   "^",    "<<",   ">>",   ">>s", "/",
                                "%",   "zext", "sext", "trunc"};
  SmallVector<std::string, 8> S(Nodes.size());
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    const Node &N = Nodes[I];
    switch (N.K) {
    case Id:
      S[I] = std::string("tid.") + "xyz"[N.Imm];
      break;
    case Const:
      S[I] = std::to_string(N.Imm);
      break;
    case Param:
      S[I] = "p" + std::to_string(N.Imm);
      break;
    case ZExt:
    case SExt:
    case Trunc:
      S[I] = std::string(Names[N.K]) + std::to_string(N.Width) + "(" + S[N.L] +
             ")";
      break;
    default:
      S[I] = "(" + S[N.L] + " " + Names[N.K] + " " + S[N.R] + ")";
      break;
    }
  }
  return S.empty() ? "0" : S.back();
}

bool ThreadAddress::operator==(const ThreadAddress &O) const {
  return AddressTerms::operator==(O) && IdLo == O.IdLo && IdHi == O.IdHi &&
         SizeHi == O.SizeHi && Size == O.Size && StageLoop == O.StageLoop &&
         Stage == O.Stage && BoundSym == O.BoundSym && BoundDim == O.BoundDim &&
         BoundOff == O.BoundOff && BoundLo == O.BoundLo &&
         BoundHi == O.BoundHi && FilterValue == O.FilterValue &&
         Variable == O.Variable && VarFromObject == O.VarFromObject &&
         samePointee(Filter, O.Filter) &&
         samePointee(IterationTerms, O.IterationTerms) &&
         samePointee(Iteration, O.Iteration);
}

std::string ThreadAddress::str() const {
  std::string S;
  raw_string_ostream OS(S);
  OS << Const;
  static const char *Dim = "xyz";
  for (unsigned D = 0; D < 3; ++D)
    if (Coef[D])
      OS << " + " << Coef[D] << "*tid." << Dim[D];
  if (Fn)
    OS << " + " << Fn->str();
  if (VarLo || VarHi) {
    OS << " + [" << VarLo << ", " << VarHi << "]";
    if (VarAlign)
      OS << " * 2^" << VarAlign;
  }
  for (auto [Sym, C] : Uniform)
    OS << " + " << C << "*u" << Sym;
  if (StrideCoef)
    OS << " + " << StrideCoef << "*n*u" << StrideDim + 1 << " (n >= 0)";
  if (!Stage.empty()) {
    OS << " + stage" << StageLoop << "[";
    ListSeparator LS(", ");
    for (int64_t V : Stage)
      OS << LS << V;
    OS << "]";
  }
  OS << " (" << Size << " bytes";
  for (unsigned D = 0; D < 3; ++D)
    if (IdLo[D] > 0 || IdHi[D] < INT32_MAX)
      OS << ", " << IdLo[D] << " <= tid." << Dim[D] << " <= " << IdHi[D];
  for (unsigned D = 0; D < 3; ++D)
    if (SizeHi[D] < INT32_MAX)
      OS << ", size." << Dim[D] << " <= " << SizeHi[D];
  if (PairsOnly)
    OS << ", in launches of two work-items or more";
  if (Filter)
    OS << ", " << Filter->str() << " == " << FilterValue;
  if (BoundSym)
    OS << ", tid." << Dim[BoundDim] << " <= u" << BoundSym << " + " << BoundOff
       << " for u" << BoundSym << " in [" << BoundLo << ", " << BoundHi << "]";
  if (IterationTerms) {
    ThreadAddress T;
    static_cast<AddressTerms &>(T) = *IterationTerms;
    T.Size = Size;
    OS << "; in one iteration of loop " << StageLoop << ": " << T.str();
  }
  if (Iteration) {
    OS << "; in one iteration of loop " << StageLoop << ", powers of two p: "
       << "offset " << Iteration->Offset->str() << " in object "
       << Iteration->Object;
    if (Iteration->Zero)
      OS << " where " << Iteration->Zero->str() << " == 0";
  }
  OS << ")";
  return S;
}

void ThreadAddress::canonicalize() {
  if (!hasVar())
    VarAlign = 0;
  if (Stage.empty() && !IterationTerms && !Iteration)
    StageLoop = 0;
  for (unsigned D = 0; D < 3; ++D) {
    IdLo[D] = std::max<int64_t>(IdLo[D], 0);
    IdHi[D] = std::min<int64_t>(IdHi[D], INT32_MAX);
  }
}

unsigned ThreadAddress::distinguishedDims(const WorkgroupShape &Shape) const {
  unsigned Mask = (Fn ? Fn->usedDims() : 0) | (Filter ? Filter->usedDims() : 0);
  if (Iteration)
    Mask |= Iteration->Offset->usedDims() |
            (Iteration->Zero ? Iteration->Zero->usedDims() : 0);
  for (unsigned D = 0; D < 3; ++D)
    if (Coef[D] || IdLo[D] > 0 || IdHi[D] < Shape.MaxDim[D] - 1)
      Mask |= 1u << D;
  return Mask;
}

size_t ThreadAddress::hash() const {
  // Forms of one kernel differ mostly in constants, of the sum or of the
  // function's nodes: those are enough to tell them apart (operator==
  // decides).
  hash_code H =
      hash_combine(Const, Size, VarLo, BoundSym, StrideCoef, FilterValue,
                   Filter ? Filter->Nodes.size() : 0, Variable,
                   hash_combine_range(Coef), hash_combine_range(IdLo),
                   hash_combine_range(IdHi), hash_combine_range(SizeHi));
  if (Fn)
    for (const TidExpr::Node &N : Fn->Nodes)
      H = hash_combine(H, N.Imm, N.K);
  return H;
}

using IdSpace = ThreadIdSpace;

/// Whether \p X lies within SmallMagnitude of 0.
static bool isSmall(int64_t X) {
  return X <= SmallMagnitude && X >= -SmallMagnitude;
}

const std::vector<unsigned> &ThreadIdSpace::sortedOrder() const {
  if (Order.size() == Terms.size())
    return Order;
  Order.resize(Terms.size());
  std::iota(Order.begin(), Order.end(), 0u);
  llvm::sort(Order, [&](unsigned X, unsigned Y) {
    return std::pair(Terms[X], X) < std::pair(Terms[Y], Y);
  });
  return Order;
}

static IdSpace enumerateIds(const ThreadAddress &A,
                            const SmallVector<unsigned, 3> &Dims,
                            const WorkgroupShape &Shape) {
  constexpr size_t Limit = 1 << 16;
  IdSpace S;
  S.Dims = Dims;
  std::array<uint16_t, 3> Id = {0, 0, 0};
  for (unsigned D : Dims)
    if (Shape.MaxDim[D] > UINT16_MAX + 1) {
      S.TooBig = true;
      return S;
    }
  // Depth-first over the dimensions; a work-item with ids t fits in a
  // workgroup only if prod(t[d] + 1) <= MaxFlat.
  auto Rec = [&](auto &&Self, unsigned I, int64_t Product,
                 int64_t Term) -> void {
    if (I == Dims.size()) {
      S.Ids.push_back(Id);
      S.Terms.push_back(Term);
      S.TooBig = S.Ids.size() > Limit;
      return;
    }
    unsigned D = Dims[I];
    int64_t Lo = std::max<int64_t>(A.IdLo[D], 0);
    int64_t Hi =
        std::min({A.IdHi[D], Shape.MaxDim[D] - 1, Shape.MaxFlat / Product - 1});
    for (int64_t T = Lo; T <= Hi && !S.TooBig; ++T) {
      Id[D] = T;
      Self(Self, I + 1, Product * (T + 1), Term + A.Coef[D] * T);
    }
    Id[D] = 0;
  };
  Rec(Rec, 0, 1, 0);
  if (A.Fn && !S.TooBig) {
    // Its value modulo 2^32, as a signed 32-bit number.
    std::vector<uint64_t> Fn;
    A.Fn->evalAll(S.Ids, Fn);
    for (size_t I = 0; I < Fn.size(); ++I)
      S.Terms[I] += wrap32(int64_t(Fn[I]));
  }
  if (A.Filter && !S.TooBig) {
    // Only the ids the filter keeps run the access.
    std::vector<uint64_t> Keep;
    A.Filter->evalAll(S.Ids, Keep);
    size_t Out = 0;
    for (size_t I = 0; I < Keep.size(); ++I)
      if (Keep[I] == A.FilterValue) {
        S.Ids[Out] = S.Ids[I];
        S.Terms[Out++] = S.Terms[I];
      }
    S.Ids.resize(Out);
    S.Terms.resize(Out);
  }
  return S;
}

/// Whether the bytes of A and B, taken modulo 2^K, may meet for two
/// different work-items (for any work-items when \p AnyPair: dimensions
/// the enumeration does not see may tell equal-looking ones apart).
static bool residuesMayOverlap(const ThreadAddress &A, const ThreadAddress &B,
                               const IdSpace &SA, const IdSpace &SB,
                               bool AnyPair, unsigned K, int64_t ShiftA) {
  const uint64_t M = uint64_t(1) << K;
  if (A.Size >= M || B.Size >= M)
    return true;
  // Intervals [Begin, End) in [0, M); one that wraps is split in two.
  struct Piece {
    uint64_t Begin, End;
    unsigned Item;
    bool FromA;
  };
  std::vector<Piece> Pieces;
  auto AddSide = [&](const ThreadAddress &T, const IdSpace &S, bool FromA) {
    for (unsigned I = 0; I < S.Terms.size(); ++I) {
      int64_t Shift = FromA ? ShiftA : 0;
      uint64_t Begin = uint64_t(T.Const + Shift + S.Terms[I]) & (M - 1);
      uint64_t End = Begin + T.Size;
      Pieces.push_back({Begin, std::min(End, M), I, FromA});
      if (End > M)
        Pieces.push_back({0, End - M, I, FromA});
    }
  };
  AddSide(A, SA, true);
  AddSide(B, SB, false);
  llvm::sort(Pieces,
             [](const Piece &X, const Piece &Y) { return X.Begin < Y.Begin; });
  // Sweep: the pieces of each side still open at the current start.
  std::vector<const Piece *> Open[2];
  for (const Piece &P : Pieces) {
    for (auto &Side : Open)
      llvm::erase_if(Side, [&](const Piece *Q) { return Q->End <= P.Begin; });
    for (const Piece *Q : Open[P.FromA ? 1 : 0]) {
      const auto &IdP = P.FromA ? SA.Ids[P.Item] : SB.Ids[P.Item];
      const auto &IdQ = Q->FromA ? SA.Ids[Q->Item] : SB.Ids[Q->Item];
      if (AnyPair || IdP != IdQ)
        return true;
    }
    Open[P.FromA ? 0 : 1].push_back(&P);
  }
  return false;
}

const ThreadIdSpace &ThreadIdCache::get(const ThreadAddress &A,
                                        const SmallVector<unsigned, 3> &Dims,
                                        const WorkgroupShape &Shape) {
  unsigned Mask = 0;
  std::array<int64_t, 3> Bounds = {0, 0, 0};
  for (unsigned D : Dims) {
    Mask |= 1u << D;
    Bounds[D] = Shape.MaxDim[D];
  }
  auto [It, New] = Spaces.try_emplace(
      Key{&A, Mask, Shape.MaxFlat, Bounds[0], Bounds[1], Bounds[2]});
  if (New)
    It->second = enumerateIds(A, Dims, Shape);
  return It->second;
}

/// The pair test of workItemsMayOverlap with \p Shift added to A's
/// address (a difference of stage slots).
static bool shiftedMayOverlap(const ThreadAddress &A, const ThreadAddress &B,
                              const IdSpace &SA, const IdSpace &SB,
                              bool OtherDims, int64_t Shift) {
  // Every quantity of the integer reasoning below must stay far inside
  // 32 bits, so that no wrap-around creates an overlap it misses.
  const std::vector<unsigned> &OrderA = SA.sortedOrder();
  const std::vector<unsigned> &Order = SB.sortedOrder();
  auto MaxAbs = [](const IdSpace &S, const std::vector<unsigned> &O) {
    return std::max(std::abs(S.Terms[O.front()]), std::abs(S.Terms[O.back()]));
  };
  int64_t DeltaC = wrap32(A.Const + Shift - B.Const);
  bool Small = llvm::all_of(
      std::initializer_list<int64_t>{
          DeltaC, MaxAbs(SA, OrderA), MaxAbs(SB, Order), A.VarLo, A.VarHi,
          B.VarLo, B.VarHi, int64_t(A.Size), int64_t(B.Size)},
      isSmall);
  // Bytes overlap iff -SizeA < AddrA - AddrB < SizeB. With a = A's tid term
  // and b = B's, some per-work-item values make that true iff
  // Lo < a - b < Hi:
  int64_t Lo = 0, Hi = 0;
  if (Small) {
    Lo = -int64_t(A.Size) - DeltaC - (A.VarHi - B.VarLo);
    Hi = int64_t(B.Size) - DeltaC - (A.VarLo - B.VarHi);
    // When every a - b lies outside (Lo, Hi), the address ranges of the
    // two (a different slot of a work-item's own array, say) are apart.
    // (Never so for an address against itself: a - b = 0 lies inside.)
    if (SA.Terms[OrderA.back()] - SB.Terms[Order.front()] <= Lo ||
        SA.Terms[OrderA.front()] - SB.Terms[Order.back()] >= Hi)
      return false;
  }

  // Per-work-item values that are multiples of 2^K (u * 2^K, with u any
  // value: a loaded byte times 128, say) leave the address's residue
  // modulo 2^K to the rest; 2^K divides 2^32, so bytes that differ modulo
  // 2^K differ.
  unsigned K = 32;
  for (const ThreadAddress *T : {&A, &B})
    if (T->VarLo || T->VarHi)
      K = std::min(K, T->VarAlign);
  if (K >= 1 && K < 32 &&
      !residuesMayOverlap(A, B, SA, SB, OtherDims, K, Shift))
    return false;
  if (!Small)
    return true;

  // Both sides in increasing order: the window (Va - Hi, Va - Lo) of B's
  // terms slides right as Va grows, so one sweep finds every match.
  auto First = Order.begin(), Last = Order.begin();
  for (unsigned I : OrderA) {
    int64_t Va = SA.Terms[I];
    // b in (Va - Hi, Va - Lo).
    while (First != Order.end() && SB.Terms[*First] <= Va - Hi)
      ++First;
    if (Last < First)
      Last = First;
    while (Last != Order.end() && SB.Terms[*Last] < Va - Lo)
      ++Last;
    if (First >= Last)
      continue;
    if (Last - First > 1 || OtherDims || SB.Ids[*First] != SA.Ids[I])
      return true;
  }
  return false;
}

bool llvm::ldsbarriers::stridesKeepApart(const ThreadAddress &A,
                                         const ThreadAddress &B,
                                         const WorkgroupShape &Shape) {
  // Both c * (t + k * n * u) + the same rest, elements of c bytes: two
  // work-items meet only where t_A + k * n_A * u = t_B + k * n_B * u, which
  // (the builder made the sums exact, and ids are below u) needs t_A = t_B.
  // Work-items differing in another dimension would share that t.
  unsigned D = A.StrideDim;
  int64_t C = A.Coef[D];
  if (!A.StrideCoef || A.Const != B.Const || !A.sameButConstant(B) || A.Fn ||
      A.hasVar() || !A.Stage.empty() || !B.Stage.empty() || C <= 0 ||
      A.StrideCoef % C || A.StrideCoef / C < 1 || A.Size > uint64_t(C) ||
      B.Size > uint64_t(C))
    return false;
  for (unsigned E = 0; E < 3; ++E)
    if (E != D && (A.Coef[E] || Shape.MaxDim[E] > 1))
      return false;
  return true;
}

std::pair<int64_t, int64_t>
llvm::ldsbarriers::idTermsRange(const AddressTerms &T,
                                const WorkgroupShape &Shape) {
  int64_t Lo = T.Const, Hi = T.Const;
  for (unsigned D = 0; D < 3; ++D) {
    int64_t Far = T.Coef[D] * (Shape.MaxDim[D] - 1);
    Lo += std::min<int64_t>(0, Far);
    Hi += std::max<int64_t>(0, Far);
  }
  return {Lo, Hi};
}

ObjectBound llvm::ldsbarriers::boundVarByObject(AddressTerms &T, uint64_t Size,
                                                int64_t Begin, int64_t End,
                                                const WorkgroupShape &Shape) {
  if (!T.Uniform.empty() || T.Fn || T.StrideCoef)
    return ObjectBound::Unknown;
  auto [Lo, Hi] = idTermsRange(T, Shape);
  // Begin <= Const + Coef * t + v <= End - Size, v a multiple of 2^Align.
  int64_t Align = int64_t(1) << T.VarAlign;
  int64_t VLo = divideCeilSigned(Begin - Hi, Align) * Align;
  int64_t VHi = divideFloorSigned(End - int64_t(Size) - Lo, Align) * Align;
  if (VLo > VHi)
    return ObjectBound::Outside;
  if (VLo <= -SmallMagnitude || VHi >= SmallMagnitude)
    return ObjectBound::Unknown;
  T.VarLo = VLo;
  T.VarHi = VHi;
  return ObjectBound::Bounded;
}

std::array<int64_t, 3>
llvm::ldsbarriers::launchSizesInside(const ThreadAddress &A, int64_t Begin,
                                     int64_t End, const WorkgroupShape &Shape) {
  std::array<int64_t, 3> Sizes = {INT32_MAX, INT32_MAX, INT32_MAX};
  if (A.hasVar() || A.Fn || !A.Uniform.empty() || !A.Stage.empty() ||
      A.StrideCoef || A.BoundSym || A.Filter)
    return Sizes;
  for (unsigned D = 0; D < 3; ++D)
    if (A.IdLo[D] > 0 || A.IdHi[D] < Shape.MaxDim[D] - 1 ||
        std::abs(A.Coef[D]) * Shape.MaxDim[D] >= SmallMagnitude)
      return Sizes;
  int64_t Low = A.Const, High = A.Const + int64_t(A.Size);
  if (Low < Begin || High > End)
    return Sizes;
  // No wrap-around: |Coef[d]| * t[d] stays below 2^28 in the launch box.
  for (unsigned D = 0; D < 3; ++D)
    if (int64_t C = A.Coef[D])
      Sizes[D] = (C > 0 ? End - High : Low - Begin) / std::abs(C) + 1;
  return Sizes;
}

bool llvm::ldsbarriers::guardsKeepApart(const ThreadAddress &A,
                                        const ThreadAddress &B,
                                        const WorkgroupShape &Shape,
                                        bool SameIteration) {
  // A guard on a value of one iteration holds, and the terms of that
  // iteration describe the address, against an access of that iteration.
  auto Usable = [&](const ThreadAddress &T) {
    return T.BoundSym && (!T.IterationTerms || SameIteration);
  };
  auto TermsOf = [&](const ThreadAddress &T) -> const AddressTerms & {
    return SameIteration && T.IterationTerms ? *T.IterationTerms : T;
  };
  const AddressTerms &TA = TermsOf(A), &TB = TermsOf(B);
  for (const ThreadAddress *T : {&A, &B})
    if (!T->Stage.empty() && &TermsOf(*T) == T)
      return false; // Slots of unrelated iterations.
  // A's address minus B's: their shared values cancel; what is left must
  // be a multiple K of the one value S that a guard bounds.
  SmallVector<std::pair<unsigned, int64_t>, 2> Delta(TA.Uniform);
  for (const std::pair<unsigned, int64_t> &U : TB.Uniform) {
    auto *It =
        llvm::find_if(Delta, [&](const auto &X) { return X.first == U.first; });
    if (It == Delta.end())
      Delta.push_back({U.first, -U.second});
    else if (!(It->second = wrap32(It->second - U.second)))
      Delta.erase(It);
  }
  if (Delta.size() > 1)
    return false;
  unsigned S = !Delta.empty() ? Delta[0].first
               : Usable(A)    ? A.BoundSym
                              : B.BoundSym;
  int64_t K = Delta.empty() ? 0 : Delta[0].second;
  // Every work-item is bounded by the launch size, t[d] <= u - 1.
  int LaunchDim = launchSizeDim(S);
  const ThreadAddress *Side[2] = {&A, &B};
  bool Guard[2] = {LaunchDim >= 0 || (Usable(A) && A.BoundSym == S),
                   LaunchDim >= 0 || (Usable(B) && B.BoundSym == S)};
  if (!Guard[0] && !Guard[1])
    return false;
  auto BoundOf = [&](const ThreadAddress &T) {
    if (LaunchDim >= 0)
      return std::make_tuple(unsigned(LaunchDim), int64_t(-1), int64_t(1),
                             Shape.MaxDim[LaunchDim]);
    return std::make_tuple(unsigned(T.BoundDim), T.BoundOff, T.BoundLo,
                           T.BoundHi);
  };
  // The ids each side runs with, and the values of S for which it runs.
  std::array<int64_t, 3> Lo[2], Hi[2];
  int64_t SLo = INT64_MIN, SHi = INT64_MAX;
  for (unsigned I = 0; I < 2; ++I) {
    const ThreadAddress &T = *Side[I];
    for (unsigned D = 0; D < 3; ++D) {
      Lo[I][D] = std::max<int64_t>(T.IdLo[D], 0);
      Hi[I][D] = std::min({T.IdHi[D], Shape.MaxDim[D] - 1, Shape.MaxFlat - 1});
      if (Lo[I][D] > Hi[I][D])
        return true; // No work-item runs it.
    }
    if (Guard[I]) {
      auto [Dim, Off, BLo, BHi] = BoundOf(T);
      SLo = std::max({SLo, BLo, Lo[I][Dim] - Off});
      SHi = std::min(SHi, BHi);
    }
  }
  if (SLo > SHi)
    return true;
  int64_t DeltaC = wrap32(TA.Const - TB.Const);
  if (!isSmall(DeltaC) || !isSmall(SLo) || !isSmall(SHi) || !isSmall(K) ||
      !isSmall(K * SLo) || !isSmall(K * SHi))
    return false;
  // Bounds of one side's id terms, Sign * sum_d C[d] * t[d] (Upper: the
  // largest), as alpha * S + beta: without the guard, and with it.
  struct Linear {
    int64_t Alpha, Beta;
  };
  auto IdTerms = [&](unsigned I, const AddressTerms &T, int64_t Sign,
                     bool Upper, SmallVectorImpl<Linear> &Out) {
    Linear Plain = {0, 0}, Guarded = {0, 0};
    bool HasGuarded = false;
    auto [BoundDim, BoundOff, BoundLo, BoundHi] = BoundOf(*Side[I]);
    for (unsigned D = 0; D < 3; ++D) {
      int64_t C = Sign * T.Coef[D];
      if (!C)
        continue;
      if (!isSmall(C) || std::abs(C) > SmallMagnitude / 1024)
        return false;
      bool AtHi = (C > 0) == Upper;
      int64_t At = C * (AtHi ? Hi[I][D] : Lo[I][D]);
      Plain.Beta += At;
      if (AtHi && Guard[I] && D == BoundDim) {
        HasGuarded = true;
        Guarded.Alpha += C;
        Guarded.Beta += C * BoundOff;
      } else {
        Guarded.Beta += At;
      }
    }
    if (T.Fn) {
      auto [FnLo, FnHi] = T.Fn->range(Lo[I], Hi[I]);
      if (FnHi >= (uint64_t(1) << 31) || std::abs(Sign) != 1)
        return false;
      int64_t V = (Sign > 0) == Upper ? int64_t(FnHi) : int64_t(FnLo);
      Plain.Beta += Sign * V;
      Guarded.Beta += Sign * V;
    }
    int64_t Var = (Sign > 0) == Upper ? T.VarHi : T.VarLo;
    Plain.Beta += Sign * Var;
    Guarded.Beta += Sign * Var;
    Out.push_back(Plain);
    if (HasGuarded)
      Out.push_back(Guarded);
    return llvm::all_of(Out, [&](const Linear &X) {
      return isSmall(X.Alpha) && isSmall(X.Beta) && isSmall(X.Alpha * SLo) &&
             isSmall(X.Alpha * SHi);
    });
  };
  // The tightest bound on A's address minus B's over S's values: the
  // largest (Upper) or the smallest.
  auto Extreme = [&](bool Upper) -> std::optional<int64_t> {
    SmallVector<Linear, 2> OfA, OfB;
    if (!IdTerms(0, TA, 1, Upper, OfA) || !IdTerms(1, TB, -1, Upper, OfB))
      return std::nullopt;
    std::optional<int64_t> Best;
    for (const Linear &X : OfA)
      for (const Linear &Y : OfB) {
        int64_t Alpha = X.Alpha + Y.Alpha + K;
        int64_t Beta = X.Beta + Y.Beta + DeltaC;
        int64_t V = Alpha * ((Alpha >= 0) == Upper ? SHi : SLo) + Beta;
        Best = !Best ? V : Upper ? std::min(*Best, V) : std::max(*Best, V);
      }
    return Best;
  };
  std::optional<int64_t> Max = Extreme(true), Min = Extreme(false);
  // Far inside 32 bits, the difference modulo 2^32 is the integer.
  if (!Max || !Min || !isSmall(*Max) || !isSmall(*Min))
    return false;
  return *Max <= -int64_t(A.Size) || *Min >= int64_t(B.Size);
}

WorkgroupShape llvm::ldsbarriers::launchUnder(const ThreadAddress &A,
                                              WorkgroupShape Shape) {
  int64_t Flat = 1;
  for (unsigned D = 0; D < 3; ++D) {
    Shape.MaxDim[D] =
        std::max<int64_t>(std::min(Shape.MaxDim[D], A.SizeHi[D]), 0);
    Flat = std::min<int64_t>(Flat * Shape.MaxDim[D], INT32_MAX);
  }
  Shape.MaxFlat = std::min(Shape.MaxFlat, Flat);
  return Shape;
}

bool IterationForm::operator==(const IterationForm &O) const {
  return samePointee(Offset, O.Offset) && samePointee(Zero, O.Zero) &&
         Loop == O.Loop && Object == O.Object && ParamWidths == O.ParamWidths &&
         NonZero == O.NonZero && Negative == O.Negative &&
         ObjectBytes == O.ObjectBytes;
}

/// Whether A and B, run in one iteration of their loop (IterationForm),
/// touch no common byte for two different work-items, whatever powers of
/// two (or 0) the iteration's values are: each value is tried.
static bool iterationFormsApart(const ThreadAddress &A, const ThreadAddress &B,
                                const WorkgroupShape &Shape) {
  const IterationForm &FA = *A.Iteration, &FB = *B.Iteration;
  if (FA.Loop != FB.Loop || FA.Object != FB.Object ||
      FA.ParamWidths != FB.ParamWidths)
    return false;
  // Every dimension a launch may have: ids then tell work-items apart.
  SmallVector<unsigned, 3> Dims;
  for (unsigned D = 0; D < 3; ++D)
    if (Shape.MaxDim[D] > 1)
      Dims.push_back(D);
  IdSpace SA = enumerateIds(A, Dims, Shape), SB = enumerateIds(B, Dims, Shape);
  // Each Param's values: 0, then 2^k, then -2^k for k below its width.
  unsigned NonZero = FA.NonZero | FB.NonZero;
  unsigned Negative = FA.Negative | FB.Negative;
  auto Count = [&](unsigned P) {
    return uint64_t(FA.ParamWidths[P]) * (Negative >> P & 1 ? 2 : 1) + 1;
  };
  uint64_t Values = 1;
  for (unsigned P = 0; P < FA.ParamWidths.size(); ++P)
    Values *= Count(P);
  if (SA.TooBig || SB.TooBig ||
      Values * (SA.Ids.size() + SB.Ids.size()) > (uint64_t(1) << 22))
    return false;
  SmallVector<uint64_t, 2> Params(FA.ParamWidths.size());
  std::vector<uint64_t> Offsets, Zeros;
  std::vector<bool> Poison, ZeroPoison;
  // The offsets of the work-items that run T without undefined behaviour,
  // with their index in S.
  auto Run = [&](const ThreadAddress &T, const IdSpace &S,
                 std::vector<std::pair<int64_t, unsigned>> &Out) {
    const IterationForm &F = *T.Iteration;
    F.Offset->evalAll(S.Ids, Offsets, Params, &Poison);
    if (F.Zero)
      F.Zero->evalAll(S.Ids, Zeros, Params, &ZeroPoison);
    Out.clear();
    for (unsigned I = 0; I < S.Ids.size(); ++I) {
      // A 64-bit offset is signed; a 32-bit one wrapped.
      int64_t X = int64_t(Offsets[I]);
      if (!Poison[I] && X >= 0 && X + T.Size <= F.ObjectBytes &&
          (!F.Zero || (!ZeroPoison[I] && !Zeros[I])))
        Out.push_back({X, I});
    }
  };
  std::vector<std::pair<int64_t, unsigned>> RA, RB;
  for (uint64_t C = 0; C < Values; ++C) {
    uint64_t K = C;
    bool Impossible = false;
    for (unsigned P = 0; P < Params.size(); ++P) {
      uint64_t E = K % Count(P), W = FA.ParamWidths[P];
      K /= Count(P);
      Params[P] = !E       ? 0
                  : E <= W ? uint64_t(1) << (E - 1)
                           : lowBits(-(uint64_t(1) << (E - W - 1)), W);
      Impossible |= !E && (NonZero >> P & 1);
    }
    if (Impossible)
      continue;
    Run(A, SA, RA);
    Run(B, SB, RB);
    llvm::sort(RB);
    for (auto [X, I] : RA)
      for (auto It = llvm::lower_bound(
               RB, std::make_pair(X - int64_t(B.Size) + 1, 0u));
           It != RB.end() && It->first < X + int64_t(A.Size); ++It)
        if (SA.Ids[I] != SB.Ids[It->second])
          return false;
  }
  return true;
}

bool llvm::ldsbarriers::workItemsMayOverlap(const ThreadAddress &A,
                                            const ThreadAddress &B,
                                            const WorkgroupShape &Shape,
                                            ThreadIdCache *Cache,
                                            IterationRelation Rel) {
  if (!A.Size || !B.Size)
    return true;
  // Bounds on the launch sizes where either access runs hold for both
  // work-items. (The cache is for Shape alone.)
  WorkgroupShape Launch = launchUnder(B, launchUnder(A, Shape));
  if (Launch.MaxDim != Shape.MaxDim || Launch.MaxFlat != Shape.MaxFlat)
    return Launch.MaxFlat > 1 &&
           workItemsMayOverlap(A, B, Launch, /*Cache=*/nullptr, Rel);
  bool SameIteration = Rel.K == IterationRelation::Distance && !Rel.Dist &&
                       Rel.Loop && A.StageLoop == Rel.Loop &&
                       B.StageLoop == Rel.Loop;
  if (SameIteration && A.Iteration && B.Iteration &&
      iterationFormsApart(A, B, Shape))
    return false;
  if (A.StrideCoef || B.StrideCoef)
    return !stridesKeepApart(A, B, Shape);
  if (guardsKeepApart(A, B, Shape, SameIteration))
    return false;
  if (A.Uniform != B.Uniform)
    return true;
  // The dimensions that tell the two work-items apart in the address or in
  // who executes the accesses; in any other dimension two work-items may
  // differ while looking alike here.
  SmallVector<unsigned, 3> Dims;
  bool OtherDims = false;
  unsigned Used = A.distinguishedDims(Shape) | B.distinguishedDims(Shape);
  for (unsigned D = 0; D < 3; ++D) {
    if (Used >> D & 1)
      Dims.push_back(D);
    else if (Shape.MaxDim[D] > 1 && Shape.MaxFlat > 1)
      OtherDims = true;
  }
  // Two accesses of one form (the same address in another instruction)
  // ask the question of an address against itself. Without a cache the
  // two sides are enumerated apart and the general test runs, which the
  // unit tests compare with this path.
  bool Self = &A == &B || (Cache && A == B);
  // An address against itself, with a dimension the address does not see:
  // two work-items that differ only there meet, if any work-item runs it.
  if (Self && OtherDims) {
    int64_t Product = 1;
    for (unsigned D : Dims)
      Product *= std::max<int64_t>(A.IdLo[D], 0) + 1;
    bool Runs = Product <= Shape.MaxFlat;
    for (unsigned D : Dims)
      Runs &= std::max<int64_t>(A.IdLo[D], 0) <=
              std::min(A.IdHi[D], Shape.MaxDim[D] - 1);
    if (Runs)
      return true;
  }
  ThreadIdCache Local;
  ThreadIdCache &Spaces = Cache ? *Cache : Local;
  const IdSpace &SA = Spaces.get(A, Dims, Shape);
  const IdSpace &SB = Self ? SA : Spaces.get(B, Dims, Shape);
  if (SA.TooBig || SB.TooBig)
    return true;
  if (SA.Ids.empty() || SB.Ids.empty())
    return false; // One of them runs on no work-item.

  // The stage slots: what A's address minus B's gains from them, over the
  // iterations the two may run in.
  SmallVector<int64_t, 16> Shifts;
  static const int64_t Zero = 0;
  auto Slots = [&](const ThreadAddress &T) {
    return T.Stage.empty() ? ArrayRef(Zero) : ArrayRef(T.Stage);
  };
  auto In = [&](const ThreadAddress &T) {
    return !T.Stage.empty() && T.StageLoop == Rel.Loop;
  };
  if (Rel.K == IterationRelation::Distance && In(A) && In(B)) {
    // A in iteration n, B in n + Dist.
    size_t L = std::lcm(A.Stage.size(), B.Stage.size());
    for (size_t N = 0; N < L; ++N)
      Shifts.push_back(wrap32(A.Stage[N % A.Stage.size()] -
                              B.Stage[(N + Rel.Dist) % B.Stage.size()]));
  } else if (Rel.K == IterationRelation::FirstIteration && !In(A) && In(B)) {
    for (int64_t X : Slots(A))
      Shifts.push_back(wrap32(X - B.Stage[0]));
  } else {
    for (int64_t X : Slots(A))
      for (int64_t Y : Slots(B))
        Shifts.push_back(wrap32(X - Y));
  }
  llvm::sort(Shifts);
  Shifts.erase(std::unique(Shifts.begin(), Shifts.end()), Shifts.end());
  return llvm::any_of(Shifts, [&](int64_t Shift) {
    return shiftedMayOverlap(A, B, SA, SB, OtherDims, Shift);
  });
}

std::optional<std::pair<int64_t, int64_t>>
llvm::ldsbarriers::addressBytes(const ThreadAddress &A,
                                const WorkgroupShape &Shape) {
  // Far inside 32 bits, no sum below wraps, and ranges apart as integers
  // are apart modulo 2^32.
  if (!A.Uniform.empty() || !A.Size || A.StrideCoef || A.PairsOnly ||
      !llvm::all_of(std::initializer_list<int64_t>{wrap32(A.Const), A.Coef[0],
                                                   A.Coef[1], A.Coef[2],
                                                   A.VarLo, A.VarHi,
                                                   int64_t(A.Size)},
                    isSmall) ||
      !llvm::all_of(A.Stage, isSmall))
    return std::nullopt;
  // Each dimension's ids apart (a box around the ids launches allow: t[d]
  // < MaxFlat too), so that nothing is enumerated.
  std::array<int64_t, 3> Lo, Hi;
  for (unsigned D = 0; D < 3; ++D) {
    Lo[D] = std::max<int64_t>(A.IdLo[D], 0);
    Hi[D] = std::min({A.IdHi[D], Shape.MaxDim[D] - 1, Shape.MaxFlat - 1});
    if (Lo[D] > Hi[D])
      return std::nullopt; // No work-item runs it.
  }
  int64_t First = wrap32(A.Const) + A.VarLo, Last = wrap32(A.Const) + A.VarHi;
  for (unsigned D = 0; D < 3; ++D) {
    First += std::min(A.Coef[D] * Lo[D], A.Coef[D] * Hi[D]);
    Last += std::max(A.Coef[D] * Lo[D], A.Coef[D] * Hi[D]);
  }
  if (A.Fn) {
    // The enumeration adds the function's value as a signed 32-bit number.
    auto [FnLo, FnHi] = A.Fn->range(Lo, Hi);
    if (FnHi >= (uint64_t(1) << 31))
      return std::nullopt;
    First += int64_t(FnLo);
    Last += int64_t(FnHi);
  }
  if (!A.Stage.empty()) {
    First += *llvm::min_element(A.Stage);
    Last += *llvm::max_element(A.Stage);
  }
  Last += int64_t(A.Size);
  if (!isSmall(First) || !isSmall(Last))
    return std::nullopt;
  return std::pair(First, Last);
}

bool llvm::ldsbarriers::isWaveUniform(const ThreadAddress &A,
                                      const WorkgroupShape &Shape,
                                      unsigned WaveSize) {
  // Waves are runs of consecutive flat ids: work-item ids along x alone in
  // a one-dimensional launch.
  if (A.VarLo || A.VarHi || A.StrideCoef || A.PairsOnly ||
      Shape.MaxDim[1] > 1 || Shape.MaxDim[2] > 1 || A.Coef[1] || A.Coef[2] ||
      !WaveSize || (A.Fn && (A.Fn->usedDims() & 6)))
    return false;
  int64_t First = 0;
  for (int64_t X = 0; X < Shape.MaxDim[0]; ++X) {
    int64_t Term = A.Coef[0] * X;
    if (A.Fn)
      Term += wrap32(int64_t(A.Fn->eval({X, 0, 0})));
    Term = wrap32(Term);
    if (X % WaveSize == 0)
      First = Term;
    else if (Term != First)
      return false;
  }
  return true;
}

bool llvm::ldsbarriers::wavesMayOverlap(const ThreadAddress &A,
                                        const WorkgroupShape &Shape,
                                        unsigned WaveSize) {
  if (!isWaveUniform(A, Shape, WaveSize))
    return true;
  // The waves' ranges, by their first work-item (stage slots and uniform
  // terms are the same for all of them).
  std::vector<int64_t> Bases;
  for (int64_t X = 0; X < Shape.MaxDim[0]; X += WaveSize)
    Bases.push_back(
        wrap32(A.Coef[0] * X + (A.Fn ? int64_t(A.Fn->eval({X, 0, 0})) : 0)));
  llvm::sort(Bases);
  for (size_t I = 1; I < Bases.size(); ++I)
    if (Bases[I] - Bases[I - 1] < int64_t(A.Size))
      return true;
  return Bases.size() > 1 &&
         Bases.back() - Bases.front() > (int64_t(1) << 32) - int64_t(A.Size);
}

std::optional<int64_t> llvm::ldsbarriers::onlyWave(const ThreadAddress &A,
                                                   const WorkgroupShape &Shape,
                                                   unsigned WaveSize) {
  if (!WaveSize)
    return std::nullopt;
  for (unsigned D : {1, 2})
    if (A.IdLo[D] > 0 || std::min(A.IdHi[D], Shape.MaxDim[D] - 1) > 0)
      return std::nullopt;
  int64_t Lo = std::max<int64_t>(A.IdLo[0], 0);
  int64_t Hi = std::min({A.IdHi[0], Shape.MaxDim[0] - 1, Shape.MaxFlat - 1});
  if (Lo > Hi || Lo / WaveSize != Hi / WaveSize)
    return std::nullopt;
  return Lo / WaveSize;
}
