//===- LDSAbstractProgram.cpp - Machine-independent model of LDS events ---===//
//
// Graph utilities and printing for the abstract program, and the
// divergence rule: which blocks not every wave of a workgroup executes.
//
//===----------------------------------------------------------------------===//

#include "LDSAbstractProgram.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/GraphTraits.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/iterator.h"
#include "llvm/Support/GenericDomTree.h"
#include "llvm/Support/GenericDomTreeConstruction.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <unordered_map>

using namespace llvm;
using namespace llvm::ldsbarriers;

StringRef llvm::ldsbarriers::getAccessKindName(AccessKind K) {
  static constexpr StringLiteral Names[] = {"read", "write", "atomic",
                                            "opaque"};
  return Names[unsigned(K)];
}

std::vector<SmallVector<unsigned, 2>> AbstractProgram::predecessors() const {
  std::vector<SmallVector<unsigned, 2>> Preds(Blocks.size());
  for (unsigned B = 0; B < Blocks.size(); ++B)
    for (unsigned S : Blocks[B].Succs)
      Preds[S].push_back(B);
  return Preds;
}

namespace {
/// A Graph as nodes LLVM's graph algorithms walk (GraphTraits below): the
/// post-order iterators and the generic dominator tree.
struct GraphView;
struct GraphNode {
  GraphView *Parent;
  unsigned Index;
  SmallVector<GraphNode *, 2> Succs, Preds;
  GraphView *getParent() const { return Parent; }
  void printAsOperand(raw_ostream &OS, bool) const { OS << Index; }
};
struct GraphView {
  std::vector<GraphNode> Nodes;
  GraphNode *Root;
  GraphView(const Graph &G, unsigned RootIndex) : Nodes(G.size()) {
    for (unsigned N = 0; N < G.size(); ++N) {
      Nodes[N].Parent = this;
      Nodes[N].Index = N;
      for (unsigned S : G[N]) {
        Nodes[N].Succs.push_back(&Nodes[S]);
        Nodes[S].Preds.push_back(&Nodes[N]);
      }
    }
    Root = &Nodes[RootIndex];
  }
  GraphView(const GraphView &) = delete;
};
} // namespace

namespace llvm {
template <> struct GraphTraits<GraphNode *> {
  using NodeRef = GraphNode *;
  using ChildIteratorType = SmallVectorImpl<GraphNode *>::iterator;
  static NodeRef getEntryNode(NodeRef N) { return N; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Succs.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Succs.end(); }
  // Dense numbers: the dominator tree indexes arrays instead of a map.
  static unsigned getNumber(NodeRef N) { return N->Index; }
};
template <> struct GraphTraits<const GraphNode *> {
  using NodeRef = const GraphNode *;
  static unsigned getNumber(NodeRef N) { return N->Index; }
};
template <> struct GraphTraits<Inverse<GraphNode *>> {
  using NodeRef = GraphNode *;
  using ChildIteratorType = SmallVectorImpl<GraphNode *>::iterator;
  static NodeRef getEntryNode(Inverse<NodeRef> N) { return N.Graph; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Preds.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Preds.end(); }
};
template <> struct GraphTraits<GraphView *> : GraphTraits<GraphNode *> {
  using nodes_iterator = pointer_iterator<std::vector<GraphNode>::iterator>;
  static NodeRef getEntryNode(GraphView *G) { return G->Root; }
  static unsigned getMaxNumber(GraphView *G) { return G->Nodes.size(); }
  static unsigned getNumberEpoch(GraphView *) { return 0; }
  static nodes_iterator nodes_begin(GraphView *G) {
    return nodes_iterator(G->Nodes.begin());
  }
  static nodes_iterator nodes_end(GraphView *G) {
    return nodes_iterator(G->Nodes.end());
  }
};
} // namespace llvm

Graph AbstractProgram::successorGraph() const {
  Graph G(Blocks.size());
  for (unsigned B = 0; B < Blocks.size(); ++B)
    G[B] = Blocks[B].Succs;
  return G;
}

std::vector<uint8_t> AbstractProgram::reachableBlocks() const {
  std::vector<uint8_t> Reachable(Blocks.size(), 0);
  if (Entry >= Blocks.size())
    return Reachable;
  GraphView View(successorGraph(), Entry);
  for (GraphNode *N : depth_first(&View))
    Reachable[N->Index] = 1;
  return Reachable;
}

std::vector<unsigned> AbstractProgram::reversePostOrder() const {
  GraphView View(successorGraph(), Entry);
  std::vector<unsigned> Order;
  for (GraphNode *N : ReversePostOrderTraversal<GraphView *>(&View))
    Order.push_back(N->Index);
  return Order;
}

std::vector<unsigned> AbstractProgram::componentOrder() const {
  std::vector<unsigned> Order(Blocks.size(), ~0u);
  if (Entry >= Blocks.size())
    return Order;
  GraphView View(successorGraph(), Entry);
  // The components come in post-order: a component after those it reaches.
  std::vector<std::vector<GraphNode *>> Components;
  for (auto It = scc_begin(&View); !It.isAtEnd(); ++It)
    Components.push_back(*It);
  for (auto [Number, Component] : enumerate(reverse(Components)))
    for (GraphNode *N : Component)
      Order[N->Index] = Number;
  return Order;
}

std::vector<int> llvm::ldsbarriers::computeImmediateDominators(const Graph &G,
                                                               unsigned Root) {
  return computeImmediateDominators(
      G.size(), Root, [&](unsigned X) -> ArrayRef<unsigned> { return G[X]; });
}

std::vector<int> llvm::ldsbarriers::computeImmediateDominators(
    unsigned N, unsigned Root,
    function_ref<ArrayRef<unsigned>(unsigned)> Succs) {
  // The iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
  // Dominance Algorithm") over plain arrays: placement asks for the
  // dominators from many blocks of one function, on graphs of tens to
  // thousands of nodes, where it takes a fraction of the time of building
  // LLVM's dominator tree (a node allocated per block).
  std::vector<int> IDom(N, -1);
  if (Root >= N)
    return IDom;
  // Post-order from the root, by an explicit stack.
  std::vector<unsigned> PostOrder;
  PostOrder.reserve(N);
  std::vector<int> Number(N, -1);
  std::vector<uint8_t> Seen(N, 0);
  SmallVector<std::pair<unsigned, unsigned>, 32> Stack = {{Root, 0}};
  Seen[Root] = 1;
  while (!Stack.empty()) {
    auto &[X, Next] = Stack.back();
    ArrayRef<unsigned> Out = Succs(X);
    if (Next < Out.size()) {
      unsigned S = Out[Next++];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Number[X] = PostOrder.size();
    PostOrder.push_back(X);
    Stack.pop_back();
  }
  // Predecessors among the reachable nodes.
  std::vector<SmallVector<unsigned, 2>> Preds(N);
  for (unsigned X : PostOrder)
    for (unsigned S : Succs(X))
      Preds[S].push_back(X);
  // Walk both up the tree built so far to their nearest common ancestor:
  // post-order numbers grow towards the root.
  auto Intersect = [&](unsigned A, unsigned B) {
    while (A != B) {
      while (Number[A] < Number[B])
        A = IDom[A];
      while (Number[B] < Number[A])
        B = IDom[B];
    }
    return A;
  };
  IDom[Root] = Root;
  for (bool Changed = true; Changed;) {
    Changed = false;
    // Reverse post-order: a reducible graph settles in two sweeps.
    for (unsigned K = PostOrder.size(); K-- > 0;) {
      unsigned X = PostOrder[K];
      if (X == Root)
        continue;
      int New = -1;
      for (unsigned P : Preds[X])
        if (IDom[P] >= 0)
          New = New < 0 ? int(P) : int(Intersect(P, New));
      if (New != IDom[X]) {
        IDom[X] = New;
        Changed = true;
      }
    }
  }
  return IDom;
}

bool AbstractProgram::mayOverlap(const Location &A, const Location &B,
                                 IterationRelation Rel) const {
  if (distinctVariables(A.Variable, B.Variable))
    return false;
  if (A.Object != Location::AnyObject && B.Object != Location::AnyObject) {
    // An absolutely placed object may overlap any object without an address.
    if (A.Object != B.Object && A.Object != Location::AbsoluteObject &&
        B.Object != Location::AbsoluteObject)
      return false;
    if (A.Object == B.Object && A.Size != 0 && B.Size != 0 &&
        (A.Begin >= B.Begin + int64_t(B.Size) ||
         B.Begin >= A.Begin + int64_t(A.Size)))
      return false;
  }
  // Forms in absolute addresses apart from each other or from an object.
  if ((A.ThreadForm || B.ThreadForm) &&
      rangesApart(addressRange(A), addressRange(B)))
    return false;
  return !threadDisjoint(A, B, Rel);
}

bool AbstractProgram::oneWaveRunsBoth(const Location &A,
                                      const Location &B) const {
  if (!A.ThreadForm || !B.ThreadForm || A.ThreadForm >= ThreadForms.size() ||
      B.ThreadForm >= ThreadForms.size())
    return false;
  // Bounds on the launch sizes where one access runs hold for the other.
  WorkgroupShape Launch = Shape;
  for (unsigned F : {A.ThreadForm, B.ThreadForm})
    for (const ThreadAddress &TA : ThreadForms[F])
      Launch = launchUnder(TA, Launch);
  std::optional<int64_t> Wave;
  for (unsigned F : {A.ThreadForm, B.ThreadForm})
    for (const ThreadAddress &TA : ThreadForms[F]) {
      std::optional<int64_t> W = onlyWave(TA, Launch, WaveSize);
      if (!W || (Wave && *Wave != *W))
        return false;
      Wave = W;
    }
  return Wave.has_value();
}

bool AbstractProgram::wavesMayMeet(const Event &Earlier, const Event &Later,
                                   IterationRelation Rel) const {
  if (!Earlier.Async && !Later.Async && oneWaveRunsBoth(Earlier.Loc, Later.Loc))
    return false;
  return mayOverlap(Earlier.Loc, Later.Loc, Rel);
}

unsigned AbstractProgram::stageLoop(const Location &L) const {
  if (!L.ThreadForm || L.ThreadForm >= ThreadForms.size())
    return 0;
  unsigned Loop = 0;
  for (const ThreadAddress &TA : ThreadForms[L.ThreadForm]) {
    if (!TA.StageLoop)
      continue;
    if (Loop && TA.StageLoop != Loop)
      return 0;
    Loop = TA.StageLoop;
  }
  return Loop;
}

IterationState AbstractProgram::crossEdge(IterationState S, unsigned From,
                                          unsigned To) const {
  auto Inside = [&](unsigned L, unsigned B) {
    return L < StageInside.size() && B < StageInside[L].size() &&
           StageInside[L][B];
  };
  auto IsHeader = [&](unsigned L, unsigned B) {
    return L < StageHeader.size() && StageHeader[L] == int(B);
  };
  if (!S.Loop) {
    // Entering a stage loop from outside: its first iteration.
    for (unsigned L = 1; L < StageHeader.size(); ++L)
      if (IsHeader(L, To) && !Inside(L, From) && !IsHeader(L, From))
        return {L, 1, true};
    return S;
  }
  if (S.K == IterationState::Many || Inside(S.Loop, To))
    return S;
  // The header from inside the loop is the next iteration; anything else
  // (the header from outside, leaving the loop, a loop the model did not
  // find) loses count.
  bool BackEdge =
      IsHeader(S.Loop, To) && (Inside(S.Loop, From) || IsHeader(S.Loop, From));
  S.K = BackEdge && !S.Absolute ? S.K + 1 : IterationState::Many;
  return S;
}

IterationRelation AbstractProgram::relation(IterationState S,
                                            const Location &Later) const {
  unsigned L = stageLoop(Later);
  if (!L || S.Loop != L || S.K == IterationState::Many)
    return {};
  if (S.Absolute)
    return IterationRelation::first(L);
  return IterationRelation::distance(L, S.K);
}

void AbstractProgram::refreshFormTables() const {
  if (TablesForForms == ThreadForms.size() && !FormRanges.empty())
    return;
  TablesForForms = ThreadForms.size();
  IdCache.clear();
  DisjointCache.clear();
  Addresses.clear();
  FormAddresses.assign(ThreadForms.size(), {});
  FormRanges.assign(ThreadForms.size(), std::nullopt);
  struct Hash {
    size_t operator()(const ThreadAddress *A) const { return A->hash(); }
  };
  struct Equal {
    bool operator()(const ThreadAddress *A, const ThreadAddress *B) const {
      return *A == *B;
    }
  };
  std::unordered_map<const ThreadAddress *, unsigned, Hash, Equal> Ids;
  for (unsigned F = 1; F < ThreadForms.size(); ++F) {
    // A form's range is the hull of its addresses' (each costs a few
    // operations), none if one has none.
    std::optional<std::pair<int64_t, int64_t>> Hull;
    bool Ranged = true;
    for (const ThreadAddress &TA : ThreadForms[F]) {
      auto [It, Inserted] = Ids.try_emplace(&TA, Addresses.size());
      if (Inserted)
        Addresses.push_back(&TA);
      FormAddresses[F].push_back(It->second);
      auto R = Ranged ? addressBytes(TA, Shape) : std::nullopt;
      Ranged = R.has_value();
      if (R)
        Hull = Hull ? std::pair(std::min(Hull->first, R->first),
                                std::max(Hull->second, R->second))
                    : *R;
    }
    if (Ranged)
      FormRanges[F] = Hull;
  }
}

std::optional<std::pair<int64_t, int64_t>>
AbstractProgram::addressRange(const Location &L) const {
  std::optional<std::pair<int64_t, int64_t>> Range;
  if (L.Object == Location::AbsoluteObject && L.Size)
    Range = {L.Begin, L.Begin + int64_t(L.Size)};
  if (!L.ThreadForm || L.ThreadForm >= ThreadForms.size())
    return Range;
  refreshFormTables();
  const auto &Form = FormRanges[L.ThreadForm];
  if (!Form || !Range)
    return Form ? Form : Range;
  // Both hold: the bytes lie in each.
  return std::pair(std::max(Range->first, Form->first),
                   std::min(Range->second, Form->second));
}

bool AbstractProgram::everyAddressPair(
    const Location &A, const Location &B,
    function_ref<bool(unsigned, unsigned)> Disjoint) const {
  if (!A.ThreadForm || !B.ThreadForm || A.ThreadForm >= ThreadForms.size() ||
      B.ThreadForm >= ThreadForms.size())
    return false;
  refreshFormTables();
  for (unsigned X : FormAddresses[A.ThreadForm])
    for (unsigned Y : FormAddresses[B.ThreadForm])
      if (!distinctVariables(Addresses[X]->Variable, Addresses[Y]->Variable) &&
          !Disjoint(X, Y))
        return false;
  return true;
}

bool AbstractProgram::threadDisjointIn(const Location &A, const Location &B,
                                       const WorkgroupShape &Launch) const {
  return everyAddressPair(A, B, [&](unsigned X, unsigned Y) {
    return !workItemsMayOverlap(*Addresses[X], *Addresses[Y], Launch, &IdCache);
  });
}

bool AbstractProgram::addressesDisjoint(unsigned X, unsigned Y,
                                        IterationRelation Rel) const {
  // Unknown and one-iteration relations are symmetric: the pair is cached
  // either way round; others in the order given.
  bool Symmetric = Rel.K == IterationRelation::Unknown ||
                   (Rel.K == IterationRelation::Distance && Rel.Dist == 0);
  if (Symmetric && X > Y)
    std::swap(X, Y);
  auto [It, Inserted] = DisjointCache.try_emplace({X, Y, Rel.code()}, false);
  if (Inserted)
    It->second = !workItemsMayOverlap(*Addresses[X], *Addresses[Y], Shape,
                                      &IdCache, Rel);
  return It->second;
}

bool AbstractProgram::threadDisjoint(const Location &A, const Location &B,
                                     IterationRelation Rel) const {
  return everyAddressPair(A, B, [&](unsigned X, unsigned Y) {
    return addressesDisjoint(X, Y, Rel);
  });
}

std::string AbstractProgram::validate() const {
  if (Blocks.empty())
    return "program has no blocks";
  if (Entry >= Blocks.size())
    return "entry block out of range";
  for (unsigned B = 0; B < Blocks.size(); ++B)
    for (unsigned S : Blocks[B].Succs)
      if (S >= Blocks.size())
        return "successor of bb." + std::to_string(B) + " out of range";
  return "";
}

void AbstractProgram::print(raw_ostream &OS) const {
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    const Block &BB = Blocks[B];
    OS << "bb." << B << " freq=" << BB.Freq;
    if (BB.DivergentBranch)
      OS << (BB.ConcurrentArms ? " concurrent-arms" : " divergent-branch");
    if (BB.NoBarrier)
      OS << " no-barrier";
    for (unsigned L = 1; L < StageInside.size(); ++L)
      if (B < StageInside[L].size() && StageInside[L][B])
        OS << " in-stage" << L;
    OS << " succs:";
    for (unsigned S : BB.Succs)
      OS << " bb." << S;
    OS << "\n";
    for (unsigned I = 0; I < BB.Events.size(); ++I) {
      const Event &E = BB.Events[I];
      OS << "  " << I << ": ";
      switch (E.Kind) {
      case Event::Access:
        OS << getAccessKindName(E.AK) << " " << getCounterName(E.Ctr)
           << (E.InOrder ? "" : " out-of-order") << (E.Async ? " async" : "");
        if (E.OrderClass)
          OS << " class " << unsigned(E.OrderClass);
        if (E.CommutativeOp)
          OS << " op" << E.CommutativeOp;
        if (E.Loc.Object == Location::AnyObject)
          OS << " obj=any";
        else
          OS << " obj=" << E.Loc.Object;
        if (E.Loc.Size)
          OS << " [" << E.Loc.Begin << ", " << E.Loc.Begin + E.Loc.Size << ")";
        if (E.Loc.Variable)
          OS << " var=" << E.Loc.Variable;
        if (E.Loc.ThreadForm && E.Loc.ThreadForm < ThreadForms.size())
          for (const ThreadAddress &TA : ThreadForms[E.Loc.ThreadForm])
            OS << " {" << TA.str() << "}";
        break;
      case Event::Barrier:
        OS << "barrier";
        break;
      case Event::Signal:
        OS << "signal";
        break;
      case Event::BarrierWait:
        OS << "barrier-wait";
        break;
      case Event::Tick:
        OS << "tick " << getCounterName(E.Ctr) << " class "
           << unsigned(E.OrderClass);
        break;
      case Event::Wait:
        OS << "wait";
        for (unsigned C = 0; C < NumCounters; ++C)
          if (E.Waits.Value[C] != WaitThresholds::NoWait)
            OS << " " << getCounterName(Counter(C)) << "=" << E.Waits.Value[C];
        break;
      }
      OS << "\n";
    }
  }
}

/// The program's edges reversed, from a virtual exit (index Blocks.size())
/// to every block without successors.
static Graph reversedGraph(const AbstractProgram &P) {
  unsigned N = P.Blocks.size();
  Graph Reversed(N + 1);
  for (unsigned B = 0; B < N; ++B) {
    if (P.Blocks[B].Succs.empty())
      Reversed[N].push_back(B);
    for (unsigned S : P.Blocks[B].Succs)
      Reversed[S].push_back(B);
  }
  return Reversed;
}

std::vector<int>
llvm::ldsbarriers::computeImmediatePostDominators(const AbstractProgram &P) {
  return computeImmediateDominators(reversedGraph(P), P.Blocks.size());
}

namespace {
/// The post-dominator tree of a program: LLVM's dominator tree of the
/// reversed graph rooted at the virtual exit, without the blocks that
/// cannot reach an exit (a post-dominator tree would root each region
/// without an exit at a block of its own). The verifier finds the same tree
/// by another algorithm (computeImmediatePostDominators).
class PostDominatorTree {
public:
  explicit PostDominatorTree(const AbstractProgram &P)
      : Exit(P.Blocks.size()), View(reversedGraph(P), Exit) {
    Tree.recalculate(View);
    Tree.updateDFSNumbers();
  }

  /// Whether \p B reaches an exit.
  bool contains(unsigned B) const { return node(B); }
  /// The immediate post-dominator of \p B (Blocks.size(): the exit alone).
  unsigned ipdom(unsigned B) const {
    return node(B)->getIDom()->getBlock()->Index;
  }
  /// Whether \p A post-dominates \p B, A != B (the tree's DFS numbers).
  bool properlyPostDominates(unsigned A, unsigned B) const {
    return Tree.properlyDominates(node(A), node(B));
  }

private:
  const DomTreeNodeBase<GraphNode> *node(unsigned B) const {
    return Tree.getNode(&View.Nodes[B]);
  }

  unsigned Exit;
  GraphView View;
  DominatorTreeBase<GraphNode, /*IsPostDom=*/false> Tree;
};
} // namespace

/// The early exits of markDivergentBlocks: per block, whether its branch
/// sends some waves to their end with nothing of theirs pending. Forward
/// dataflow over the graph for "an LDS access or a split signal reaches the
/// block's entry" (a wave must not signal and then end), backward for "the
/// block reaches an LDS access or a barrier event".
static std::vector<uint8_t> earlyExits(const AbstractProgram &P) {
  unsigned N = P.Blocks.size();
  std::vector<uint8_t> Exits(N, 0);
  if (!P.ExitEndsWave)
    return Exits;
  auto Has = [&](unsigned B, auto Pred) {
    return llvm::any_of(P.Blocks[B].Events, Pred);
  };
  auto IsPending = [](const Event &E) {
    return E.Kind == Event::Access || E.Kind == Event::Signal;
  };
  auto IsSync = [](const Event &E) {
    return E.Kind == Event::Access || E.Kind == Event::Barrier ||
           E.Kind == Event::Signal || E.Kind == Event::BarrierWait;
  };
  std::vector<SmallVector<unsigned, 2>> Preds = P.predecessors();
  SmallVector<unsigned, 16> Work;
  // Marks what Work reaches along Next from the blocks Seed selects.
  auto Flood = [&](std::vector<uint8_t> &Mark, auto Seed, auto Next) {
    for (unsigned B = 0; B < N; ++B)
      if (Seed(B))
        Work.push_back(B);
    while (!Work.empty())
      for (unsigned S : Next(Work.pop_back_val()))
        if (!Mark[S]) {
          Mark[S] = 1;
          Work.push_back(S);
        }
  };
  // PendingIn[B]: an LDS access or a split signal reaches B's entry.
  std::vector<uint8_t> PendingIn(N, 0), SyncAhead(N, 0);
  Flood(
      PendingIn, [&](unsigned B) { return Has(B, IsPending); },
      [&](unsigned B) { return ArrayRef<unsigned>(P.Blocks[B].Succs); });
  // SyncAhead[B]: from B's entry a path reaches an access or a barrier.
  for (unsigned B = 0; B < N; ++B)
    SyncAhead[B] = Has(B, IsSync);
  Flood(
      SyncAhead, [&](unsigned B) { return SyncAhead[B] != 0; },
      [&](unsigned B) { return ArrayRef<unsigned>(Preds[B]); });
  for (unsigned X = 0; X < N; ++X)
    Exits[X] = P.Blocks[X].DivergentBranch && !PendingIn[X] &&
               !Has(X, IsPending) &&
               llvm::any_of(P.Blocks[X].Succs,
                            [&](unsigned S) { return !SyncAhead[S]; });
  return Exits;
}

void llvm::ldsbarriers::markDivergentBlocks(AbstractProgram &P) {
  unsigned N = P.Blocks.size();
  std::vector<uint8_t> EarlyExit = earlyExits(P);
  bool AnyDivergent = false;
  for (unsigned B = 0; B < N; ++B)
    AnyDivergent |= P.Blocks[B].DivergentBranch && !EarlyExit[B];
  if (!AnyDivergent)
    return;

  PostDominatorTree PDT(P);

  for (unsigned B = 0; B < N; ++B)
    if (!PDT.contains(B))
      P.Blocks[B].NoBarrier = true; // Cannot reach an exit.

  // Ferrante-Ottenstein-Warren control dependence: for an edge X -> Y where
  // Y does not strictly post-dominate X, the blocks on the post-dominator
  // tree path from Y up to (excluding) ipdom(X) are control-dependent on X.
  // Their branches join the work list: dependence on a divergent branch is
  // transitive. (LLVM's IDFCalculator answers the converse question: the
  // branches some blocks depend on.) Unreachable branches count for nothing.
  std::vector<uint8_t> Reachable = P.reachableBlocks();
  std::vector<unsigned> Work;
  std::vector<uint8_t> Queued(N, 0);
  // Sources in the order found: a block queued because it is divergent
  // carries the source that reached it.
  std::vector<int> Source(N, -1);
  for (unsigned X = 0; X < N; ++X)
    if (P.Blocks[X].DivergentBranch && !EarlyExit[X] && Reachable[X]) {
      Work.push_back(X);
      Queued[X] = 1;
      Source[X] = X;
    }
  while (!Work.empty()) {
    unsigned X = Work.back();
    Work.pop_back();
    if (!PDT.contains(X) || P.Blocks[X].Succs.size() < 2 || !Reachable[X])
      continue;
    unsigned Stop = PDT.ipdom(X);
    for (unsigned Y : P.Blocks[X].Succs) {
      if (!PDT.contains(Y) || PDT.properlyPostDominates(Y, X))
        continue;
      for (unsigned Z = Y; Z != Stop && Z != N; Z = PDT.ipdom(Z)) {
        Block &BZ = P.Blocks[Z];
        if (!BZ.NoBarrier) {
          BZ.NoBarrier = true;
          BZ.DivergenceSource = Source[X];
        }
        if (!Queued[Z]) {
          Queued[Z] = 1;
          Source[Z] = Source[X];
          Work.push_back(Z);
        }
      }
    }
  }
}

std::vector<ArmAccesses>
llvm::ldsbarriers::concurrentArmAccesses(const AbstractProgram &P) {
  std::vector<ArmAccesses> Out;
  if (llvm::none_of(P.Blocks,
                    [](const Block &BB) { return BB.ConcurrentArms; }))
    return Out;
  unsigned N = P.Blocks.size();
  PostDominatorTree PDT(P);
  std::vector<uint8_t> Reachable = P.reachableBlocks();
  for (unsigned X = 0; X < N; ++X) {
    if (!P.Blocks[X].ConcurrentArms || !Reachable[X])
      continue;
    // A block that cannot reach an exit has no join: its arms never meet.
    unsigned Join = PDT.contains(X) ? PDT.ipdom(X) : N;
    ArmAccesses A{X, {}};
    for (unsigned S : P.Blocks[X].Succs) {
      std::vector<EventRef> &Arm = A.Arms.emplace_back();
      std::vector<uint8_t> Visited(N, 0);
      SmallVector<unsigned, 8> Work = {S};
      while (!Work.empty()) {
        unsigned B = Work.pop_back_val();
        if (B == Join || Visited[B])
          continue;
        Visited[B] = 1;
        bool Stopped = false;
        for (unsigned I = 0; I < P.Blocks[B].Events.size() && !Stopped; ++I) {
          Event::EventKind K = P.Blocks[B].Events[I].Kind;
          Stopped = K == Event::Barrier || K == Event::Signal ||
                    K == Event::BarrierWait;
          if (K == Event::Access)
            Arm.push_back({B, I});
        }
        if (!Stopped)
          Work.append(P.Blocks[B].Succs.begin(), P.Blocks[B].Succs.end());
      }
    }
    Out.push_back(std::move(A));
  }
  return Out;
}
