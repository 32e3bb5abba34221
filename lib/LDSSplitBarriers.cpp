//===- LDSSplitBarriers.cpp - Split-barrier alternation and signal pairing ===//
//
// The alternation check is a forward "must" dataflow over one bit (signal
// pending); a join where paths disagree, a signal while one is pending, a
// wait or monolithic barrier while one is pending (or not, for a wait), and
// an exit with a pending signal are the violations.
//
//===----------------------------------------------------------------------===//

#include "LDSSplitBarriers.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace llvm::ldsbarriers;

SignalState llvm::ldsbarriers::computeSignalState(const AbstractProgram &P,
                                                  const Augmentation &Aug) {
  SignalState S;
  unsigned N = P.Blocks.size();
  S.Pending.resize(N);
  for (unsigned B = 0; B < N; ++B)
    S.Pending[B].assign(P.numPoints(B), false);

  // New synchronization by block, in the order the analysis applies it
  // (syncPrecedes).
  std::vector<std::vector<std::pair<unsigned, SyncOrder>>> Extra(N);
  for (const auto &NB : Aug.Barriers) {
    Extra[NB.At.Block].push_back({NB.At.Index, NB.isSplit()
                                                   ? SyncOrder::BarrierWait
                                                   : SyncOrder::Barrier});
    if (NB.isSplit())
      Extra[NB.SignalAt.Block].push_back(
          {NB.SignalAt.Index, SyncOrder::Signal});
  }
  for (auto &V : Extra)
    llvm::sort(V);

  enum : int8_t { Unknown = -1 };
  std::vector<int8_t> In(N, Unknown);
  In[P.Entry] = 0;
  std::vector<unsigned> RPO = P.reversePostOrder();

  auto Fail = [&S](const std::string &Why, Point At) {
    if (S.Problem.empty()) {
      S.Problem = Why;
      S.ProblemAt = At;
    }
  };
  // One transfer of block B; records point values when Record is set.
  auto Transfer = [&](unsigned B, bool Record) {
    bool V = In[B] == 1;
    // A signal, barrier wait or monolithic barrier at point I.
    auto Step = [&](SyncOrder K, unsigned I) {
      if (K == SyncOrder::BarrierWait) {
        if (!V && Record)
          Fail("barrier wait without a pending signal", {B, I});
        V = false;
      } else if (K == SyncOrder::Signal) {
        if (V && Record)
          Fail("signal while another signal is pending", {B, I});
        V = true;
      } else if (V && Record) {
        Fail("barrier while a signal is pending", {B, I});
      }
    };
    const auto &Events = P.Blocks[B].Events;
    auto X = Extra[B].begin();
    for (unsigned I = 0; I <= Events.size(); ++I) {
      for (; X != Extra[B].end() && X->first == I; ++X)
        Step(X->second, I);
      if (Record)
        S.Pending[B][I] = V;
      if (I == Events.size())
        break;
      if (Events[I].Kind == Event::Signal)
        Step(SyncOrder::Signal, I);
      else if (Events[I].Kind == Event::BarrierWait)
        Step(SyncOrder::BarrierWait, I);
      else if (Events[I].Kind == Event::Barrier)
        Step(SyncOrder::Barrier, I);
    }
    return V;
  };

  // In is set once, by the first predecessor in reverse post-order, which
  // comes before the block: one pass sets it everywhere and meets each join.
  for (unsigned B : RPO) {
    int8_t Out = Transfer(B, /*Record=*/false);
    for (unsigned Succ : P.Blocks[B].Succs) {
      if (In[Succ] == Unknown)
        In[Succ] = Out;
      else if (In[Succ] != Out)
        Fail("paths reach the block with and without a pending signal",
             {Succ, 0});
    }
  }
  if (!S.Problem.empty())
    return S;
  for (unsigned B : RPO) {
    bool Out = Transfer(B, /*Record=*/true);
    if (P.Blocks[B].Succs.empty() && Out)
      Fail("function exit with a pending signal",
           {B, unsigned(P.Blocks[B].Events.size())});
  }
  return S;
}

void llvm::ldsbarriers::pairSignals(
    const AbstractProgram &P, const AnalysisOptions &Opts,
    const std::vector<Window> &Windows,
    const std::vector<std::vector<unsigned>> &Serves,
    const std::vector<Augmentation::CompletedBarrier> &Completed,
    std::vector<Augmentation::NewBarrier> &Barriers) {
  std::vector<SmallVector<unsigned, 2>> Preds = P.predecessors();
  // The block a signal may move up into from the top of \p B: its only
  // predecessor, when that one only leads to B (so both run equally often)
  // and may hold a barrier.
  auto ChainPred = [&](unsigned B) -> int {
    // The entry block is also entered from the function's start.
    if (B == P.Entry || Preds[B].size() != 1)
      return -1;
    unsigned Pred = Preds[B].front();
    if (Pred == B || P.Blocks[Pred].Succs.size() != 1 ||
        P.Blocks[Pred].NoBarrier || !P.Blocks[Pred].HasEndPoint)
      return -1;
    return Pred;
  };
  // The lowest index of block \p B, among the events before \p End, above
  // which the signal of barrier \p I may not go: after barrier events, the
  // producers the barrier serves, and other new barriers' waits.
  auto FloorIn = [&](unsigned I, unsigned B, unsigned End) {
    unsigned Floor = 0;
    const auto &Events = P.Blocks[B].Events;
    for (unsigned J = End; J-- > 0;) {
      Event::EventKind K = Events[J].Kind;
      if (K == Event::Barrier || K == Event::Signal ||
          K == Event::BarrierWait || llvm::any_of(Serves[I], [&](unsigned WI) {
            return Windows[WI].Producer == Point{B, J};
          })) {
        Floor = J + 1;
        break;
      }
    }
    for (unsigned K = 0; K < Barriers.size(); ++K)
      if (K != I && Barriers[K].At.Block == B && Barriers[K].At.Index <= End &&
          !(Barriers[K].At == Barriers[I].At))
        Floor = std::max(Floor, Barriers[K].At.Index);
    return Floor;
  };

  // Earliest legal signal point of each barrier: within the wait's block,
  // then up a chain of blocks that run exactly as often.
  for (unsigned I = 0; I < Barriers.size(); ++I) {
    Point W = Barriers[I].At;
    Point S{W.Block, FloorIn(I, W.Block, W.Index)};
    for (unsigned Steps = 0; S.Index == 0 && Steps < 8; ++Steps) {
      int Pred = ChainPred(S.Block);
      if (Pred < 0)
        break;
      S = {unsigned(Pred), FloorIn(I, Pred, P.Blocks[Pred].Events.size())};
    }
    Barriers[I].SignalAt = S;
  }

  // Whether \p X lies after the signal and before the wait of \p NB.
  auto Between = [&](const Augmentation::NewBarrier &NB, Point X) {
    Point S = NB.SignalAt, W = NB.At;
    if (S.Block == W.Block)
      return X.Block == S.Block && S.Index <= X.Index && X.Index < W.Index;
    if (X.Block == S.Block)
      return S.Index <= X.Index;
    if (X.Block == W.Block)
      return X.Index < W.Index;
    for (int B = ChainPred(W.Block); B >= 0 && unsigned(B) != S.Block;
         B = ChainPred(B))
      if (unsigned(B) == X.Block)
        return true;
    return false;
  };

  // Accesses left between a signal and its wait are not ordered by it: push
  // the signal below any that the analysis finds still unordered.
  for (unsigned Round = 0; Round < 64; ++Round) {
    Augmentation Aug;
    Aug.Barriers = Barriers;
    Aug.CompletedBarriers = Completed;
    std::vector<Window> Left = analyzeHazards(P, Opts, Aug).Windows;
    if (Left.empty())
      return;
    bool Moved = false;
    for (const Window &W : Left)
      for (auto &NB : Barriers)
        if (NB.isSplit() && !W.isAnchored() && Between(NB, W.Producer)) {
          NB.SignalAt = {W.Producer.Block, W.Producer.Index + 1};
          Moved = true;
        }
    if (!Moved)
      break;
  }
  // Whatever is left was not caused by hoisting; keep the signals where
  // they are only if they change nothing.
  Augmentation Split, Adjacent;
  Split.Barriers = Barriers;
  Split.CompletedBarriers = Adjacent.CompletedBarriers = Completed;
  for (auto NB : Barriers) {
    NB.SignalAt = NB.At;
    Adjacent.Barriers.push_back(NB);
  }
  if (analyzeHazards(P, Opts, Split).Windows.size() >
      analyzeHazards(P, Opts, Adjacent).Windows.size())
    Barriers = Adjacent.Barriers;
}
