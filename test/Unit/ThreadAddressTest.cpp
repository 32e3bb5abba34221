//===- ThreadAddressTest.cpp - Soundness of the thread-index analysis -----===//
//
// Random affine addresses over small workgroups: every "different
// work-items cannot overlap" answer is checked by enumerating every launch
// shape, every pair of different work-items and every value of the unknown
// terms. No unsound answer is allowed; the test also demands that the
// analysis proves a fair share of the pairs (it must not pass by always
// answering "may overlap").
//
//===----------------------------------------------------------------------===//

#include "LDSThreadAddress.h"
#include "gtest/gtest.h"
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>

using namespace llvm::ldsbarriers;

namespace {

using Id = std::array<int64_t, 3>;

bool bytesOverlap(uint32_t A, uint64_t SizeA, uint32_t B, uint64_t SizeB) {
  return uint32_t(B - A) < SizeA || uint32_t(A - B) < SizeB;
}

bool runs(const ThreadAddress &T, const Id &I) {
  for (unsigned D = 0; D < 3; ++D)
    if (I[D] < T.IdLo[D] || I[D] > T.IdHi[D])
      return false;
  return !T.Filter || T.Filter->eval(I) == T.FilterValue;
}

uint32_t address(const ThreadAddress &T, const Id &I, int64_t Var, int64_t U) {
  int64_t A = T.Const + Var;
  for (unsigned D = 0; D < 3; ++D)
    A += T.Coef[D] * I[D];
  for (auto [Sym, C] : T.Uniform)
    A += C * (U + Sym);
  if (T.Fn)
    A += int64_t(T.Fn->eval(I));
  return uint32_t(A);
}

/// The values of a per-work-item unknown: multiples of 2^VarAlign in
/// [VarLo, VarHi].
std::vector<int64_t> varValues(const ThreadAddress &T) {
  int64_t Step = int64_t(1) << T.VarAlign, First = T.VarLo;
  First += (Step - First % Step) % Step;
  std::vector<int64_t> Vs;
  for (int64_t V = First; V <= T.VarHi; V += Step)
    Vs.push_back(V);
  if (Vs.empty())
    Vs.push_back(0);
  return Vs;
}

/// The work-items of every launch \p S allows, one list per launch.
std::vector<std::vector<Id>> launches(const WorkgroupShape &S) {
  std::vector<std::vector<Id>> Result;
  for (int64_t X = 1; X <= S.MaxDim[0]; ++X)
    for (int64_t Y = 1; Y <= S.MaxDim[1]; ++Y)
      for (int64_t Z = 1; Z <= S.MaxDim[2]; ++Z) {
        if (X * Y * Z > S.MaxFlat)
          continue;
        std::vector<Id> &Items = Result.emplace_back();
        for (int64_t I = 0; I < X; ++I)
          for (int64_t J = 0; J < Y; ++J)
            for (int64_t K = 0; K < Z; ++K)
              Items.push_back({I, J, K});
      }
  return Result;
}

/// Whether \p T runs in the launch of \p Items: the sizes are within its
/// bounds on them.
bool runsIn(const ThreadAddress &T, const std::vector<Id> &Items) {
  for (unsigned D = 0; D < 3; ++D)
    if (Items.back()[D] + 1 > T.SizeHi[D])
      return false;
  return true;
}

/// Whether \p Meet holds for two different work-items that run A and B in
/// some launch, with some shared value U.
template <typename Fn>
bool anyPair(const ThreadAddress &A, const ThreadAddress &B,
             const WorkgroupShape &S, Fn Meet) {
  for (const std::vector<Id> &Items : launches(S)) {
    if (!runsIn(A, Items) || !runsIn(B, Items))
      continue;
    for (int64_t U : {0, 5, 1000, -77})
      for (const Id &T1 : Items)
        for (const Id &T2 : Items)
          if (T1 != T2 && runs(A, T1) && runs(B, T2) && Meet(T1, T2, U))
            return true;
  }
  return false;
}

/// Whether two different work-items of some launch overlap.
bool bruteForce(const ThreadAddress &A, const ThreadAddress &B,
                const WorkgroupShape &S) {
  return anyPair(A, B, S, [&](const Id &T1, const Id &T2, int64_t U) {
    for (int64_t VA : varValues(A))
      for (int64_t VB : varValues(B))
        if (bytesOverlap(address(A, T1, VA, U), A.Size, address(B, T2, VB, U),
                         B.Size))
          return true;
    return false;
  });
}

ThreadAddress randomAddress(std::mt19937 &R, const ThreadAddress *Like) {
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(R);
  };
  ThreadAddress T;
  T.Const = Pick(-12, 12) * (Pick(0, 3) ? 1 : 4);
  if (Pick(0, 9) == 0)
    T.Const += int64_t(1) << 32; // Same address modulo 2^32.
  static const int64_t Strides[] = {0, 1, 2, 4, 8, -4, 3};
  for (unsigned D = 0; D < 3; ++D)
    T.Coef[D] = D == 0 || Pick(0, 2) == 0 ? Strides[Pick(0, 6)] : 0;
  if (Like && Pick(0, 2)) // Often the same strides: the common case.
    T.Coef = Like->Coef;
  if (Pick(0, 3) == 0) {
    T.VarLo = Pick(0, 2);
    T.VarHi = T.VarLo + Pick(0, 3);
  }
  if (Like ? !Like->Uniform.empty() : Pick(0, 3) == 0)
    T.Uniform.push_back({4, Like ? Like->Uniform[0].second : Pick(1, 3)});
  for (unsigned D = 0; D < 3; ++D)
    if (Pick(0, 4) == 0) {
      T.IdLo[D] = Pick(0, 2);
      T.IdHi[D] = T.IdLo[D] + Pick(0, 3);
    }
  static const uint64_t Sizes[] = {1, 2, 4, 8};
  T.Size = Sizes[Pick(0, 3)];
  return T;
}

/// Small launch bounds: every shape of them can be enumerated.
WorkgroupShape randomShape(std::mt19937 &R) {
  WorkgroupShape S;
  for (int64_t &M : S.MaxDim)
    M = std::uniform_int_distribution<int64_t>(1, 6)(R);
  S.MaxFlat = std::uniform_int_distribution<int64_t>(1, 24)(R);
  return S;
}

std::string describe(const WorkgroupShape &S) {
  return "at most " + std::to_string(S.MaxFlat) + " work-items (" +
         std::to_string(S.MaxDim[0]) + "x" + std::to_string(S.MaxDim[1]) + "x" +
         std::to_string(S.MaxDim[2]) + ")";
}

/// Draws \p Trials random pairs of addresses, lets \p Decorate add to each
/// (with the same generator), and checks every "cannot overlap" answer by
/// enumeration (\p Cached: also that the cached answer is the same); a
/// tenth of the pairs at least must be proven apart.
template <typename DecorateFn>
void randomPairsAgree(uint32_t Seed, unsigned Trials, bool Cached,
                      DecorateFn Decorate) {
  std::mt19937 R(Seed);
  unsigned Apart = 0, Unsound = 0;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    ThreadAddress B = randomAddress(R, &A);
    Decorate(R, A);
    Decorate(R, B);
    bool May = workItemsMayOverlap(A, B, S);
    if (Cached) {
      ThreadIdCache Cache;
      ASSERT_EQ(May, workItemsMayOverlap(A, B, S, &Cache))
          << A.str() << " vs " << B.str();
    }
    if (May)
      continue;
    ++Apart;
    if (bruteForce(A, B, S)) {
      ++Unsound;
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str() << " with "
                    << describe(S);
    }
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Apart, Trials / 10) << "the analysis proves too little";
}

TEST(ThreadAddressTest, RandomPairsAgreeWithEnumeration) {
  randomPairsAgree(20261122, 4000, /*Cached=*/false,
                   [](std::mt19937 &, ThreadAddress &) {});
}

// An address against itself, with a cache (the self-race check and the
// analysis meet every store's form with itself): the answer is checked by
// enumeration, and must be the same as without the cache, where the two
// sides are enumerated apart and the general pair test runs.
// Bounds on the launch sizes where an access runs (`if (blockDim.x <= 2)`)
// hold for every work-item that meets it: checked against the launches
// that allow both accesses.
TEST(ThreadAddressTest, SizeBoundedPairsAgreeWithEnumeration) {
  randomPairsAgree(20261129, 3000, /*Cached=*/true,
                   [](std::mt19937 &R, ThreadAddress &T) {
                     for (int64_t &Hi : T.SizeHi)
                       if (std::uniform_int_distribution<int>(0, 2)(R) == 0)
                         Hi = std::uniform_int_distribution<int64_t>(0, 4)(R);
                   });
}

TEST(ThreadAddressTest, SelfPairsAgreeWithEnumeration) {
  std::mt19937 R(20261125);
  unsigned Disjoint = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    ThreadIdCache Cache;
    bool Cached = workItemsMayOverlap(A, A, S, &Cache);
    ThreadAddress Copy = A;
    ASSERT_EQ(Cached, workItemsMayOverlap(A, Copy, S)) << A.str();
    if (Cached)
      continue;
    ++Disjoint;
    EXPECT_FALSE(bruteForce(A, A, S))
        << "unsound: " << A.str() << " with " << describe(S);
  }
  EXPECT_GT(Disjoint, Trials / 10) << "the analysis proves too little";
}

/// Appends nodes to a function of the ids; returns each node's index.
struct FunctionNodes {
  std::shared_ptr<TidExpr> Fn = std::make_shared<TidExpr>();
  int add(TidExpr::Kind K, int L, int R, int64_t Imm = 0, uint8_t Width = 32) {
    Fn->Nodes.push_back({K, Width, L, R, Imm});
    return int(Fn->Nodes.size() - 1);
  }
  int constant(int64_t V) { return add(TidExpr::Const, -1, -1, V); }
};

/// A random function of the work-item ids as the builder makes them: a
/// chain of operations with constants on x (sometimes y joins), at 32 bits
/// or narrowed to 8 and widened back.
std::shared_ptr<const TidExpr> randomFunction(std::mt19937 &R) {
  FunctionNodes N;
  int X = N.add(TidExpr::Id, -1, -1, 0);
  static const TidExpr::Kind Ops[] = {
      TidExpr::Add,  TidExpr::Sub,  TidExpr::Mul, TidExpr::And,
      TidExpr::Or,   TidExpr::Xor,  TidExpr::Shl, TidExpr::LShr,
      TidExpr::AShr, TidExpr::UDiv, TidExpr::URem};
  for (unsigned I = 0, E = 1 + R() % 3; I < E; ++I) {
    TidExpr::Kind K = Ops[R() % std::size(Ops)];
    int64_t C = K == TidExpr::Shl || K == TidExpr::LShr || K == TidExpr::AShr
                    ? R() % 6
                : K == TidExpr::UDiv || K == TidExpr::URem ? 1 + R() % 9
                : R() % 4 == 0                             ? -int64_t(R() % 5)
                                                           : int64_t(R() % 40);
    int Other = R() % 5 == 0 ? N.add(TidExpr::Id, -1, -1, 1) : N.constant(C);
    // Constants on either side of a subtraction.
    X = K == TidExpr::Sub && R() % 2 ? N.add(K, Other, X) : N.add(K, X, Other);
  }
  if (R() % 4 == 0) {
    X = N.add(TidExpr::Trunc, X, -1, 0, 8);
    X = N.add(R() % 2 ? TidExpr::ZExt : TidExpr::SExt, X, -1, 8, 32);
  }
  return N.Fn;
}

// The range of every byte an access may touch (which lets the analysis
// skip the pair tests of accesses far apart): every byte of every
// work-item of every launch, for every value of the unknown terms and every
// stage slot, must lie in it, modulo 2^32. The function part is evaluated
// for each work-item; its range comes from interval arithmetic.
TEST(ThreadAddressTest, AddressRangesCoverEveryByte) {
  std::mt19937 R(20261126);
  unsigned Known = 0, KnownWithFunction = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    if (R() % 3 == 0) {
      A.StageLoop = 1;
      A.Stage = {0, int64_t(R() % 64) - 32, 1024};
    }
    if (R() % 2)
      A.Fn = randomFunction(R);
    std::optional<std::pair<int64_t, int64_t>> Range = addressBytes(A, S);
    if (!A.Uniform.empty()) {
      EXPECT_FALSE(Range) << "a symbolic term has no absolute range";
      continue;
    }
    if (!Range)
      continue;
    ++Known;
    KnownWithFunction += bool(A.Fn);
    uint64_t Length = uint64_t(Range->second - Range->first);
    std::vector<int64_t> Slots(A.Stage.begin(), A.Stage.end());
    if (Slots.empty())
      Slots.push_back(0);
    unsigned Outside = 0;
    for (const std::vector<Id> &Items : launches(S))
      for (const Id &T : Items) {
        if (!runs(A, T))
          continue;
        for (int64_t V = A.VarLo; V <= A.VarHi; ++V)
          for (int64_t Slot : Slots)
            for (uint64_t B = 0; B < A.Size; ++B) {
              uint32_t Byte =
                  address(A, T, V, 0) + uint32_t(Slot) + uint32_t(B);
              Outside += uint32_t(Byte - uint32_t(Range->first)) >= Length;
            }
      }
    EXPECT_EQ(Outside, 0u) << A.str() << " with " << describe(S) << ": ["
                           << Range->first << ", " << Range->second << ")";
  }
  EXPECT_GT(Known, Trials / 2) << "too few ranges known";
  EXPECT_GT(KnownWithFunction, Trials / 5) << "too few functions bounded";
}

// boundVarByObject against the accesses themselves: for every work-item of
// every launch and every address inside the object that the terms can
// reach (the unknown part a multiple of 2^VarAlign modulo 2^32), the part
// the access needs is in the bound; Outside only when there is none.
TEST(ThreadAddressTest, ObjectBoundsHoldEveryAccessInside) {
  std::mt19937 R(20261128);
  unsigned Bounded = 0, Outside = 0, Trials = 2000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    A.Uniform.clear();
    A.VarLo = A.VarHi = 0;
    A.VarAlign = R() % 5;
    int64_t Begin = int64_t(R() % 64) - 16, End = Begin + int64_t(R() % 48);
    AddressTerms T = A;
    ObjectBound B = boundVarByObject(T, A.Size, Begin, End, S);
    if (B == ObjectBound::Unknown)
      continue;
    Bounded += B == ObjectBound::Bounded;
    Outside += B == ObjectBound::Outside;
    uint32_t Mask = (uint32_t(1) << A.VarAlign) - 1;
    for (const std::vector<Id> &Items : launches(S))
      for (const Id &Item : Items)
        for (int64_t Addr = Begin; Addr + int64_t(A.Size) <= End; ++Addr) {
          uint32_t Need = uint32_t(Addr) - address(A, Item, 0, 0);
          if (Need & Mask)
            continue; // No value of the unknown part reaches Addr.
          int64_t V = Addr - (int64_t(A.Const) + A.Coef[0] * Item[0] +
                              A.Coef[1] * Item[1] + A.Coef[2] * Item[2]);
          ASSERT_EQ(B, ObjectBound::Bounded)
              << A.str() << " reaches " << Addr << " in [" << Begin << ", "
              << End << ") with " << describe(S);
          EXPECT_TRUE(V >= T.VarLo && V <= T.VarHi && !(V & Mask))
              << A.str() << ": " << V << " outside [" << T.VarLo << ", "
              << T.VarHi << "] for " << Addr;
        }
  }
  EXPECT_GT(Bounded, Trials / 4);
  EXPECT_GT(Outside, Trials / 40);
}

// launchSizesInside against the work-items on each axis: a size it gives
// keeps every one below it inside the object and the one at it outside; a
// dimension it leaves open keeps every id of the shape inside.
TEST(ThreadAddressTest, LaunchSizesInsideAgreeWithEnumeration) {
  std::mt19937 R(20261129);
  unsigned Narrowed = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    A.Uniform.clear();
    A.VarLo = A.VarHi = 0;
    A.Fn = nullptr;
    A.IdLo = {0, 0, 0};
    A.IdHi = {INT32_MAX, INT32_MAX, INT32_MAX};
    int64_t Begin = int64_t(R() % 32) - 8, End = Begin + int64_t(R() % 48);
    std::array<int64_t, 3> Sizes = launchSizesInside(A, Begin, End, S);
    auto Inside = [&](const Id &T) {
      uint32_t Addr = address(A, T, 0, 0);
      return int64_t(int32_t(Addr)) >= Begin &&
             int64_t(int32_t(Addr)) + int64_t(A.Size) <= End;
    };
    if (!Inside({0, 0, 0}))
      continue;
    for (unsigned D = 0; D < 3; ++D) {
      if (Sizes[D] == INT32_MAX && A.Coef[D])
        continue; // Nothing inferred (the form is not simple enough).
      Narrowed += Sizes[D] < S.MaxDim[D];
      int64_t Limit = std::min(Sizes[D], S.MaxDim[D]);
      for (int64_t T = 0; T < Limit; ++T) {
        Id Item = {0, 0, 0};
        Item[D] = T;
        EXPECT_TRUE(Inside(Item)) << A.str() << " in [" << Begin << ", " << End
                                  << "): id " << T << " of size " << Sizes[D];
      }
      if (Sizes[D] < S.MaxDim[D]) {
        Id Item = {0, 0, 0};
        Item[D] = Sizes[D];
        EXPECT_FALSE(Inside(Item))
            << A.str() << ": size " << Sizes[D] << " not the largest";
      }
    }
  }
  EXPECT_GT(Narrowed, Trials / 20);
}

ThreadAddress slot(int64_t Const, int64_t Stride, uint64_t Size) {
  ThreadAddress T;
  T.Const = Const;
  T.Coef[0] = Stride;
  T.Size = Size;
  return T;
}

TEST(ThreadAddressTest, Patterns) {
  WorkgroupShape Flat256;
  Flat256.MaxFlat = 256;
  Flat256.MaxDim = {256, 1, 1};
  // s[tid] read and written by its own work-item.
  EXPECT_FALSE(workItemsMayOverlap(slot(0, 4, 4), slot(0, 4, 4), Flat256));
  // s[tid] and s[tid + 1]: the neighbour's slot.
  EXPECT_TRUE(workItemsMayOverlap(slot(0, 4, 4), slot(4, 4, 4), Flat256));
  // s[tid] = 0; s[tid + 256] = 0 with at most 256 work-items...
  EXPECT_FALSE(workItemsMayOverlap(slot(0, 4, 4), slot(1024, 4, 4), Flat256));
  // ...but not with 257.
  WorkgroupShape Flat257 = Flat256;
  Flat257.MaxFlat = 257;
  Flat257.MaxDim = {257, 1, 1};
  EXPECT_TRUE(workItemsMayOverlap(slot(0, 4, 4), slot(1024, 4, 4), Flat257));
  // A y dimension that may exceed 1 makes s[tid.x] shared.
  WorkgroupShape TwoD = Flat256;
  TwoD.MaxDim = {256, 256, 1};
  EXPECT_TRUE(workItemsMayOverlap(slot(0, 4, 4), slot(0, 4, 4), TwoD));
  // Tree step: reads of s[tid + 64] and writes of s[tid] for tid < 64.
  ThreadAddress Read = slot(256, 4, 4), Write = slot(0, 4, 4);
  Read.IdHi[0] = Write.IdHi[0] = 63;
  EXPECT_FALSE(workItemsMayOverlap(Read, Write, Flat256));
  // ...while tid < 65 lets work-item 64 write what work-item 0 reads.
  Write.IdHi[0] = 64;
  EXPECT_TRUE(workItemsMayOverlap(Read, Write, Flat256));
  // Per-work-item byte counters c[tid * 4 + bin], bin in [0, 3].
  ThreadAddress Counter = slot(0, 4, 1);
  Counter.VarHi = 3;
  EXPECT_FALSE(workItemsMayOverlap(Counter, Counter, Flat256));
  Counter.VarHi = 4; // bin in [0, 4] reaches the next work-item's bytes.
  EXPECT_TRUE(workItemsMayOverlap(Counter, Counter, Flat256));
}

/// A random index function of x as kernels write them: rotations, masks,
/// remainders, scales, shifts, xor swizzles, a narrowing and widening.
std::shared_ptr<const TidExpr> randomIndexFunction(std::mt19937 &R) {
  FunctionNodes N;
  int X = N.add(TidExpr::Id, -1, -1, 0);
  static const TidExpr::Kind Ops[] = {
      TidExpr::Add,  TidExpr::Sub, TidExpr::Mul,  TidExpr::And,
      TidExpr::Xor,  TidExpr::Shl, TidExpr::LShr, TidExpr::UDiv,
      TidExpr::URem, TidExpr::Or,  TidExpr::Trunc};
  for (unsigned I = 0, E = 1 + R() % 3; I < E; ++I) {
    TidExpr::Kind K = Ops[R() % std::size(Ops)];
    if (K == TidExpr::Trunc) {
      X = N.add(TidExpr::Trunc, X, -1, 0, 8);
      X = N.add(R() % 2 ? TidExpr::ZExt : TidExpr::SExt, X, -1, 8, 32);
      continue;
    }
    int64_t C = K == TidExpr::And
                    ? (int64_t(1) << (R() % 4)) - 1 + (R() % 5 == 0)
                : K == TidExpr::Shl || K == TidExpr::LShr  ? R() % 3
                : K == TidExpr::UDiv || K == TidExpr::URem ? 1 + R() % 5
                : K == TidExpr::Sub                        ? R() % 3
                                                           : R() % 9;
    X = K == TidExpr::Sub && R() % 3 == 0 ? N.add(K, N.constant(C), X)
                                          : N.add(K, X, N.constant(C));
  }
  return N.Fn;
}

// The pair test with a cache (dense addresses in one dimension of a
// launch with others) must answer as the general test does, and never
// contradict every launch's work-items.
TEST(ThreadAddressTest, DensePairsAgreeWithEnumeration) {
  std::mt19937 R(20261128);
  unsigned Met = 0, SelfMet = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    S.MaxDim[1] = std::max<int64_t>(S.MaxDim[1], 2);
    ThreadAddress A, B;
    for (ThreadAddress *T : {&A, &B}) {
      T->Const = int64_t(R() % 24) - 4;
      static const uint64_t Sizes[] = {1, 2, 4};
      T->Size = Sizes[R() % 3];
      if (R() % 3)
        T->Fn = randomIndexFunction(R);
      else
        T->Coef[0] = int64_t(R() % 5) - 1;
      if (R() % 4 == 0) {
        T->IdLo[0] = R() % 3;
        T->IdHi[0] = T->IdLo[0] + R() % 4;
      }
    }
    // An address against itself in a one-dimensional launch: decided by
    // counting its distinct addresses.
    bool Self = I % 3 == 0;
    if (Self) {
      S.MaxDim[1] = S.MaxDim[2] = 1;
      B = A;
    }
    ThreadIdCache Cache;
    bool Cached = workItemsMayOverlap(A, B, S, &Cache);
    ASSERT_EQ(Cached, workItemsMayOverlap(A, B, S))
        << A.str() << " vs " << B.str() << " with " << describe(S);
    (Self ? SelfMet : Met) += Cached;
  }
  EXPECT_GT(Met, Trials / 6);
  EXPECT_LT(Met, Trials * 2 / 3);
  EXPECT_GT(SelfMet, Trials / 30);
  EXPECT_LT(SelfMet, Trials / 3);
}

// The sorted order of an enumeration's terms is a stable sort's, on sorted,
// rotated, narrow and wide inputs.
TEST(ThreadAddressTest, SortedOrderIsStableSort) {
  std::mt19937 R(20261129);
  const int64_t Ranges[] = {1,
                            2,
                            127,
                            2048,
                            17340,
                            int64_t(1) << 22,
                            int64_t(1) << 31,
                            int64_t(1) << 40};
  unsigned Shapes[4] = {0, 0, 0, 0};
  for (unsigned I = 0; I < 600; ++I) {
    ThreadIdSpace S;
    unsigned N = 1 + R() % (I % 2 ? 3000 : 100);
    int64_t Range = Ranges[R() % std::size(Ranges)];
    int64_t Base = int64_t(R() % 2001) - 1000 - (R() % 2 ? Range / 2 : 0);
    unsigned Shape = R() % 4;
    ++Shapes[Shape];
    for (unsigned J = 0; J < N; ++J) {
      int64_t V = int64_t(uint64_t(R()) << 32 | R()) % Range;
      if (Shape == 1) // Increasing, with ties.
        V = int64_t(J) * Range / N;
      else if (Shape == 2) // A rotation of an increasing sequence.
        V = int64_t((J + N / 3) % N) * Range / N;
      S.Terms.push_back(Base + std::abs(V));
    }
    std::vector<unsigned> Expected(N);
    std::iota(Expected.begin(), Expected.end(), 0u);
    // A stable sort: ties by index.
    std::sort(Expected.begin(), Expected.end(), [&](unsigned X, unsigned Y) {
      return std::pair(S.Terms[X], X) < std::pair(S.Terms[Y], Y);
    });
    ASSERT_EQ(S.sortedOrder(), Expected)
        << N << " terms in a range of " << Range << ", shape " << Shape;
    // Computed once.
    EXPECT_EQ(&S.sortedOrder(), &S.sortedOrder());
  }
  for (unsigned C : Shapes)
    EXPECT_GT(C, 100u);
}

// Per-work-item unknowns that are multiples of 2^K (a loaded value times
// the row length, say) leave the residue modulo 2^K to the rest of the
// address: small moduli and large ones, against enumeration.
TEST(ThreadAddressTest, ResiduePairsAgreeWithEnumeration) {
  std::mt19937 R(20261130);
  static const unsigned Aligns[] = {1, 2, 3, 5, 7, 13};
  unsigned Met = 0, Trials = 3000;
  // Per way of comparing residues (modulus up to 4096, or more): the
  // disjoint pairs, and those the analysis proves disjoint.
  unsigned Apart[2] = {0, 0}, Proven[2] = {0, 0};
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    ThreadAddress B = randomAddress(R, &A);
    unsigned K = Aligns[R() % std::size(Aligns)];
    for (ThreadAddress *T : {&A, &B}) {
      if (R() % 2)
        T->Fn = randomIndexFunction(R);
      T->Const = (T->Const & 15) + (R() % 3) * (int64_t(1) << K);
      if (T == &A || R() % 4) {
        T->VarAlign = K + (T == &B && R() % 3 == 0);
        T->VarLo = 0;
        T->VarHi = int64_t(1 + R() % 3) << T->VarAlign;
      }
    }
    bool Brute = bruteForce(A, B, S);
    bool May = workItemsMayOverlap(A, B, S);
    if (Brute && !May)
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str() << " with "
                    << describe(S);
    Met += Brute;
    Apart[K > 12] += !Brute;
    Proven[K > 12] += !May;
  }
  // Both answers occur, and each way proves nearly every disjoint pair
  // (the small-modulus way proves about 97% of them; without it, 82%).
  EXPECT_GT(Met, Trials / 10);
  for (unsigned W = 0; W < 2; ++W) {
    EXPECT_GT(Apart[W], Trials / 20);
    EXPECT_GE(Proven[W] * 10, Apart[W] * 9)
        << Proven[W] << " of " << Apart[W] << " disjoint pairs proven";
  }
}

// A per-work-item unknown of no known range that is a multiple of 2^K (a
// loaded value times 128, into an array of unknown size): every multiple
// of 2^K modulo 2^32, against a brute force that asks, for each pair of
// work-items and each byte offset within the two accesses, whether the
// unknowns can make up the difference (it divides by 2^K), without
// enumerating them.
TEST(ThreadAddressTest, UnboundedResiduePairsAgreeWithBruteForce) {
  std::mt19937 R(20261129);
  static const unsigned Aligns[] = {1, 2, 3, 5, 7, 13};
  unsigned Met = 0, Apart = 0, Proven = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomAddress(R, nullptr);
    ThreadAddress B = randomAddress(R, &A);
    // Each side: unbounded (A always), bounded as randomAddress made it.
    bool Full[2] = {true, R() % 2 == 0};
    ThreadAddress *Sides[2] = {&A, &B};
    for (unsigned J = 0; J < 2; ++J) {
      ThreadAddress &T = *Sides[J];
      if (R() % 2)
        T.Fn = randomIndexFunction(R);
      if (Full[J]) {
        T.VarAlign = Aligns[R() % std::size(Aligns)];
        T.VarLo = INT32_MIN;
        T.VarHi = INT32_MAX - ((int64_t(1) << T.VarAlign) - 1);
      }
    }
    uint64_t Modulus = uint64_t(1)
                       << std::min(A.VarAlign, Full[1] ? B.VarAlign : 32u);
    bool Brute = anyPair(A, B, S, [&](const Id &T1, const Id &T2, int64_t U) {
      for (int64_t VB : Full[1] ? std::vector<int64_t>{0} : varValues(B)) {
        // Byte X of A's access is byte Y of B's when the unknowns differ by
        // b + Y - (a + X) modulo 2^32.
        uint32_t Diff = address(B, T2, VB, U) - address(A, T1, 0, U);
        for (uint64_t X = 0; X < A.Size; ++X)
          for (uint64_t Y = 0; Y < B.Size; ++Y)
            if (uint32_t(Diff + Y - X) % Modulus == 0)
              return true;
      }
      return false;
    });
    bool May = workItemsMayOverlap(A, B, S);
    if (Brute && !May)
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str() << " with "
                    << describe(S);
    Met += Brute;
    Apart += !Brute;
    Proven += !May;
  }
  // Both answers occur, and most disjoint pairs are proven (1050 of 1185).
  EXPECT_GT(Met, Trials / 10);
  EXPECT_GT(Apart, Trials / 20);
  EXPECT_GE(Proven * 10, Apart * 8)
      << Proven << " of " << Apart << " disjoint pairs proven";
}

// One cache for the pair tests of a family of addresses whose id terms
// agree (rows of one array: b * 128 + slot(t), say), as the program keeps
// it: the family shares one enumeration, and every answer must be the one
// the uncached test gives, which enumerates each side apart.
TEST(ThreadAddressTest, CachedFamiliesAgreeWithUncached) {
  std::mt19937 R(20261131);
  unsigned Met = 0, Pairs = 0;
  for (unsigned I = 0; I < 400; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress Base = randomAddress(R, nullptr);
    if (R() % 2)
      Base.Fn = randomIndexFunction(R);
    std::vector<ThreadAddress> Family;
    for (unsigned J = 0, E = 2 + R() % 4; J < E; ++J) {
      ThreadAddress T = Base;
      T.Const += int64_t(R() % 7) - 3;
      if (R() % 3 == 0)
        T.Size = 1 + R() % 4;
      Family.push_back(T);
    }
    ThreadIdCache Cache;
    for (const ThreadAddress &A : Family)
      for (const ThreadAddress &B : Family) {
        bool Cached = workItemsMayOverlap(A, B, S, &Cache);
        ASSERT_EQ(Cached, workItemsMayOverlap(A, B, S))
            << A.str() << " vs " << B.str() << " with " << describe(S);
        ++Pairs;
        Met += Cached;
      }
  }
  EXPECT_GT(Met, Pairs / 5);
  EXPECT_LT(Met, Pairs * 4 / 5);
}

// onlyWave against the waves of every launch: with waves of 2, 4 or 8
// work-items (flat id x + X * (y + Y * z) divided by the wave size), every
// work-item that passes the access's id bounds in any launch of the shape
// is in the wave onlyWave names. Small shapes stand for wave64 and 1024
// work-items; the rule only divides and compares.
TEST(ThreadAddressTest, OnlyWaveAgreesWithEnumeration) {
  std::mt19937 R(777);
  unsigned Named = 0, Trials = 3000;
  for (unsigned Iter = 0; Iter < Trials; ++Iter) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress T = randomAddress(R, nullptr);
    // Bounds on x that often keep it within one wave.
    if (R() % 2) {
      T.IdLo[0] = R() % 4;
      T.IdHi[0] = T.IdLo[0] + R() % 4;
    }
    if (R() % 2)
      T.IdLo[1] = T.IdHi[1] = T.IdLo[2] = T.IdHi[2] = 0;
    unsigned WaveSize = 2u << (R() % 3);
    std::optional<int64_t> W = onlyWave(T, S, WaveSize);
    if (!W)
      continue;
    ++Named;
    for (const std::vector<Id> &Items : launches(S)) {
      int64_t X = 0, Y = 0;
      for (const Id &I : Items) {
        X = std::max(X, I[0] + 1);
        Y = std::max(Y, I[1] + 1);
      }
      for (const Id &I : Items)
        if (runs(T, I))
          ASSERT_EQ((I[0] + X * (I[1] + Y * I[2])) / WaveSize, *W)
              << T.str() << " in " << describe(S) << ", wave size " << WaveSize;
    }
  }
  // The rule must name a wave often enough to matter.
  EXPECT_GT(Named, Trials / 10);
}

/// A tree step's guard, t[D] <= u + Off for the value u of symbol 4 in
/// [Lo, Hi], on a random address whose terms often hold u, or the launch
/// size in x (symbol 1: a halo a[t + blockDim.x]).
ThreadAddress randomGuarded(std::mt19937 &R, const ThreadAddress *Like) {
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(R);
  };
  ThreadAddress T = randomAddress(R, Like);
  T.Uniform.clear();
  unsigned Stride = Pick(0, 3) ? 4 : 1;
  if (Like && !Like->Uniform.empty() && Like->Uniform[0].first <= 4)
    Stride = Like->Uniform[0].first;
  if (Pick(0, 2)) // u times the stride, times a small factor: a[t + k*u].
    T.Uniform.push_back(
        {Stride, T.Coef[0] ? T.Coef[0] * Pick(-2, 2) : Pick(-8, 8)});
  if (Pick(0, 3) == 0) // A value both share, or one side only.
    T.Uniform.push_back({5, Pick(1, 2)});
  llvm::erase_if(T.Uniform, [](const auto &U) { return U.second == 0; });
  if (Like || Pick(0, 4)) {
    T.BoundSym = 4;
    T.BoundDim = Pick(0, 4) ? 0 : Pick(0, 2);
    T.BoundOff = Pick(-2, 1);
    T.BoundLo = Like && Like->BoundSym ? Like->BoundLo : Pick(0, 3);
    T.BoundHi = Like && Like->BoundSym ? Like->BoundHi : T.BoundLo + Pick(0, 5);
  }
  return T;
}

/// Whether two different work-items of some launch overlap for some value
/// of symbol 4 that both guards allow (any value of symbol 5; symbols 1 to
/// 3 are the launch's sizes).
bool bruteForceGuarded(const ThreadAddress &A, const ThreadAddress &B,
                       const WorkgroupShape &S) {
  int64_t Lo = -3, Hi = 8;
  for (const ThreadAddress *T : {&A, &B})
    if (T->BoundSym) {
      Lo = std::max(Lo, T->BoundLo);
      Hi = std::min(Hi, T->BoundHi);
    }
  auto Runs = [](const ThreadAddress &T, const Id &I, int64_t U) {
    return runs(T, I) && (!T.BoundSym || I[T.BoundDim] <= U + T.BoundOff);
  };
  for (const std::vector<Id> &Items : launches(S)) {
    Id Size = Items.back();
    for (int64_t &X : Size)
      ++X;
    auto Address = [&](const ThreadAddress &T, const Id &I, int64_t Var,
                       int64_t U, int64_t V) {
      int64_t X = T.Const + Var;
      for (unsigned D = 0; D < 3; ++D)
        X += T.Coef[D] * I[D];
      for (auto [Sym, C] : T.Uniform)
        X += C * (Sym <= 3 ? Size[Sym - 1] : Sym == 4 ? U : V);
      return uint32_t(X);
    };
    for (int64_t U = Lo; U <= Hi; ++U)
      for (int64_t V : {0, 3, 1000})
        for (const Id &T1 : Items)
          for (const Id &T2 : Items) {
            if (T1 == T2 || !Runs(A, T1, U) || !Runs(B, T2, U))
              continue;
            for (int64_t VA : varValues(A))
              for (int64_t VB : varValues(B))
                if (bytesOverlap(Address(A, T1, VA, U, V), A.Size,
                                 Address(B, T2, VB, U, V), B.Size))
                  return true;
          }
  }
  return false;
}

// Guards on a value the workgroup shares (`if (t < s) a[t] += a[t + s]`):
// every pair the guards prove apart is checked by enumerating the
// launches, the values of the guarded symbol both guards allow and every
// pair of different work-items; the analysis must prove the tree steps.
TEST(ThreadAddressTest, GuardedPairsAgreeWithEnumeration) {
  std::mt19937 R(20261128);
  unsigned Apart = 0, Unsound = 0, Trials = 4000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    ThreadAddress A = randomGuarded(R, nullptr);
    ThreadAddress B = randomGuarded(R, &A);
    if (!guardsKeepApart(A, B, S, /*SameIteration=*/true))
      continue;
    ++Apart;
    EXPECT_FALSE(workItemsMayOverlap(A, B, S));
    if (bruteForceGuarded(A, B, S)) {
      ++Unsound;
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str() << " with "
                    << describe(S);
    }
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Apart, Trials / 10) << "the guards prove too little";

  // The tree step itself, 4 * t against 4 * t + 4 * u under t < u.
  ThreadAddress Write, Read;
  Write.Coef = Read.Coef = {4, 0, 0};
  Write.Size = Read.Size = 4;
  Read.Uniform.push_back({4, 4});
  for (ThreadAddress *T : {&Write, &Read}) {
    T->BoundSym = 4;
    T->BoundOff = -1;
    T->BoundLo = 0;
    T->BoundHi = 512;
  }
  WorkgroupShape Launch;
  EXPECT_TRUE(guardsKeepApart(Read, Write, Launch, true));
  EXPECT_TRUE(guardsKeepApart(Write, Read, Launch, true));
  // Reads reaching below u (a[t + u - 1]) meet the writes.
  Read.Const = -4;
  EXPECT_FALSE(guardsKeepApart(Read, Write, Launch, true));
  Read.Const = 0;
  // A guard on a value of one iteration says nothing across iterations.
  Read.IterationTerms = std::make_shared<AddressTerms>(Read);
  Write.IterationTerms = std::make_shared<AddressTerms>(Write);
  EXPECT_TRUE(guardsKeepApart(Read, Write, Launch, true));
  EXPECT_FALSE(guardsKeepApart(Read, Write, Launch, false));

  // A halo above the launch, a[t + blockDim.x] (symbol 1), against a[t]:
  // apart without a guard; one element lower it meets the last work-item.
  ThreadAddress Halo, Own;
  Halo.Coef = Own.Coef = {4, 0, 0};
  Halo.Size = Own.Size = 4;
  Halo.Uniform.push_back({1, 4});
  EXPECT_FALSE(workItemsMayOverlap(Halo, Own, Launch));
  EXPECT_FALSE(workItemsMayOverlap(Own, Halo, Launch));
  Halo.Const = -4;
  EXPECT_TRUE(workItemsMayOverlap(Halo, Own, Launch));
}

// Block-stride loops, s[i] for i = t, t + k * blockDim.x, ...: every pair
// the strides prove apart is checked by enumerating the launches, every
// pair of different work-items and their own iterations (the builder makes
// the sums exact, so they are compared as integers).
TEST(ThreadAddressTest, BlockStridesAgreeWithEnumeration) {
  std::mt19937 R(20261129);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(R);
  };
  auto Random = [&](const ThreadAddress *Like) {
    ThreadAddress T;
    int64_t C = int64_t(1) << Pick(0, 3);
    T.Coef[0] = C;
    T.StrideCoef = C * Pick(1, 2);
    T.Const = Pick(0, 2) * C;
    if (Pick(0, 3) == 0)
      T.Coef[1] = C * 8;
    T.Size = uint64_t(1) << Pick(0, 3);
    if (Like && Pick(0, 3)) { // Mostly the same loop, another access size.
      uint64_t Size = T.Size;
      T = *Like;
      T.Size = Size;
      if (Pick(0, 3) == 0)
        T.Const += Pick(-1, 1);
    }
    return T;
  };
  unsigned Apart = 0, Unsound = 0, Trials = 3000;
  for (unsigned I = 0; I < Trials; ++I) {
    WorkgroupShape S = randomShape(R);
    if (Pick(0, 1))
      S.MaxDim[1] = S.MaxDim[2] = 1;
    ThreadAddress A = Random(nullptr), B = Random(&A);
    if (workItemsMayOverlap(A, B, S))
      continue;
    ++Apart;
    bool Meet = false;
    for (const std::vector<Id> &Items : launches(S)) {
      int64_t X = Items.back()[0] + 1;
      auto Address = [&](const ThreadAddress &T, const Id &W, int64_t N) {
        return T.Const + T.Coef[0] * W[0] + T.Coef[1] * W[1] +
               T.StrideCoef * N * X;
      };
      for (const Id &T1 : Items)
        for (const Id &T2 : Items)
          for (int64_t N1 = 0; N1 < 4 && !Meet && T1 != T2; ++N1)
            for (int64_t N2 = 0; N2 < 4 && !Meet; ++N2) {
              int64_t D = Address(A, T1, N1) - Address(B, T2, N2);
              Meet = D > -int64_t(A.Size) && D < int64_t(B.Size);
            }
    }
    if (Meet) {
      ++Unsound;
      ADD_FAILURE() << "unsound: " << A.str() << " vs " << B.str() << " with "
                    << describe(S);
    }
  }
  EXPECT_EQ(Unsound, 0u);
  EXPECT_GT(Apart, Trials / 10) << "the strides prove too little";
}

// Conditions on a function of the id (`if (lane == 0) part[wave] = v`):
// random filters over random addresses, each answer with and without the
// cache checked by enumerating the work-items the filters keep.
TEST(ThreadAddressTest, FilteredPairsAgreeWithEnumeration) {
  randomPairsAgree(
      20261130, 3000, /*Cached=*/true, [](std::mt19937 &R, ThreadAddress &T) {
        if (R() % 3 == 0)
          return;
        // lane == 0 or t % m == r: a mask or remainder of the
        // id.
        FunctionNodes N;
        int X = N.add(TidExpr::Id, -1, -1, 0);
        int64_t M = 1 + R() % 8;
        N.add(R() % 2 ? TidExpr::URem : TidExpr::And, X,
              N.constant(R() % 2 ? M : (int64_t(1) << (R() % 3)) - 1));
        T.Filter = N.Fn;
        T.FilterValue = R() % 2;
        if (R() % 4 == 0)
          T.Fn = randomFunction(R);
      });
}

// numberDistinct against a map: keys drawn from few values, so that most
// repeat; the numbers must follow first appearance and every item get its
// key's number.
TEST(NumberDistinct, NumbersKeysInOrderOfFirstAppearance) {
  std::mt19937_64 Rng(7);
  for (unsigned Count : {0u, 1u, 5u, 300u, 5000u}) {
    std::vector<std::array<uint64_t, 3>> Keys(Count);
    for (auto &K : Keys)
      K = {Rng() % 3, Rng() % 7 * 0x100000000ull, Rng() % 5};
    std::vector<unsigned> NumberOf;
    std::vector<unsigned> First =
        numberDistinct(Count, [&](unsigned I) { return Keys[I]; }, &NumberOf);
    std::map<std::array<uint64_t, 3>, unsigned> Expected;
    std::vector<unsigned> ExpectedFirst;
    for (unsigned I = 0; I < Count; ++I) {
      auto [It, New] = Expected.try_emplace(Keys[I], ExpectedFirst.size());
      if (New)
        ExpectedFirst.push_back(I);
      ASSERT_EQ(NumberOf[I], It->second) << "item " << I;
    }
    EXPECT_EQ(First, ExpectedFirst);
    EXPECT_EQ(numberDistinct(
                  Count, [&](unsigned I) { return Keys[I]; }, nullptr),
              ExpectedFirst);
  }
}

} // namespace
