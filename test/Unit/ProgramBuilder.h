//===- ProgramBuilder.h - Terse construction of abstract programs ---------===//
//
// Helpers for the unit tests: build an AbstractProgram block by block with
// one-letter events, e.g. B.block("W0 R1 |") for a write of object 0, a read
// of object 1 and an existing barrier.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_PROGRAMBUILDER_H
#define AMDGPU_LDS_BARRIERS_TEST_PROGRAMBUILDER_H

#include "LDSAbstractProgram.h"
#include <sstream>
#include <string>

namespace llvm {
namespace ldsbarriers {
namespace test {

/// Events, separated by spaces:
///   R<obj> W<obj> A<obj>[+op] O   read / write / atomic (op: commutative id)
///                                 / opaque access, of object <obj>
///   |                             barrier
///   w<n>                          hard LDS counter wait with threshold n
///   D<obj>                        LDS DMA write (vm counter)
///   v<n>                          hard vm counter wait
///   L                             a plain vector load (vm counter tick)
///   S  V                          split-barrier signal / barrier wait
inline std::vector<Event> parseEvents(const std::string &Spec) {
  std::vector<Event> Out;
  std::istringstream In(Spec);
  std::string Tok;
  while (In >> Tok) {
    char C = Tok[0];
    std::string Rest = Tok.substr(1);
    if (C == '|') {
      Out.push_back(Event::barrier());
      continue;
    }
    if (C == 'L') {
      Out.push_back(Event::tick(Counter::VM));
      continue;
    }
    if (C == 'S' || C == 'V') {
      Out.push_back(C == 'S' ? Event::signal() : Event::barrierWait());
      continue;
    }
    if (C == 'w' || C == 'v') {
      WaitThresholds W;
      W[C == 'w' ? Counter::LDS : Counter::VM] = std::stoi(Rest);
      Out.push_back(Event::wait(W));
      continue;
    }
    if (C == 'O') {
      Event E = Event::access(AccessKind::Opaque, Location());
      E.InOrder = false;
      Out.push_back(E);
      continue;
    }
    Location L;
    unsigned Op = 0;
    size_t Plus = Rest.find('+');
    if (Plus != std::string::npos) {
      Op = std::stoi(Rest.substr(Plus + 1));
      Rest = Rest.substr(0, Plus);
    }
    L.Object = std::stoi(Rest) + 1; // Object 0 is the absolute region.
    AccessKind K = C == 'R'   ? AccessKind::Read
                   : C == 'A' ? AccessKind::Atomic
                              : AccessKind::Write;
    Event E = Event::access(K, L);
    E.CommutativeOp = Op;
    if (C == 'D') {
      E.Ctr = Counter::VM;
      E.Async = true;
    }
    Out.push_back(E);
  }
  return Out;
}

class ProgramBuilder {
public:
  /// Adds a block; returns its index.
  unsigned block(const std::string &Spec, double Freq = 1.0) {
    Block B;
    B.Events = parseEvents(Spec);
    B.Freq = Freq;
    P.Blocks.push_back(std::move(B));
    return P.Blocks.size() - 1;
  }
  void edge(unsigned From, unsigned To) { P.Blocks[From].Succs.push_back(To); }
  /// Chains the blocks in order, then adds \p Extra edges between random
  /// blocks. Each edge's source is drawn before its target: as arguments of
  /// one call, GCC and Clang would draw them in opposite orders and build
  /// different programs from one seed.
  template <typename RngT>
  void chainWithRandomEdges(RngT &Rng, unsigned Extra) {
    unsigned N = P.Blocks.size();
    for (unsigned I = 0; I + 1 < N; ++I)
      edge(I, I + 1);
    for (unsigned E = 0; E < Extra; ++E) {
      unsigned From = Rng() % N;
      edge(From, Rng() % N);
    }
  }
  /// A one-block loop: Pre -> Body, Body -> Body, Body -> Exit.
  void selfLoop(unsigned Pre, unsigned Body, unsigned Exit) {
    edge(Pre, Body);
    edge(Body, Body);
    edge(Body, Exit);
  }
  /// An if without else: Entry -> Then -> Join, Entry -> Join.
  void ifThen(unsigned Entry, unsigned Then, unsigned Join) {
    edge(Entry, Then);
    edge(Entry, Join);
    edge(Then, Join);
  }
  void divergent(unsigned B) { P.Blocks[B].DivergentBranch = true; }
  AbstractProgram &program() { return P; }

private:
  AbstractProgram P;
};

} // namespace test
} // namespace ldsbarriers
} // namespace llvm

#endif
