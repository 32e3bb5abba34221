//===- RandomPrograms.h - Seeded random abstract programs by CFG class ----===//
//
// Straight-line code, diamonds, single loops, nested loops, multiple
// back-edges and irreducible regions, filled with random LDS events (reads,
// writes, atomics, LDS DMA, global loads, existing barriers). Shared by the
// placement-gap test and the strategy benchmark.
//
//===----------------------------------------------------------------------===//

#ifndef AMDGPU_LDS_BARRIERS_TEST_RANDOMPROGRAMS_H
#define AMDGPU_LDS_BARRIERS_TEST_RANDOMPROGRAMS_H

#include "ProgramBuilder.h"
#include <iterator>
#include <random>
#include <string>

namespace llvm {
namespace ldsbarriers {
namespace test {

enum class Shape {
  Straight,
  Diamond,
  Loop,
  Nested,
  MultiBackEdge,
  Irreducible
};
inline const char *shapeName(Shape S) {
  switch (S) {
  case Shape::Straight:
    return "straight-line";
  case Shape::Diamond:
    return "diamonds";
  case Shape::Loop:
    return "single loop";
  case Shape::Nested:
    return "nested loops";
  case Shape::MultiBackEdge:
    return "multiple back-edges";
  case Shape::Irreducible:
    return "irreducible";
  }
  return "?";
}

inline std::string events(std::mt19937 &Rng, unsigned Max) {
  static const char *const Kinds[] = {"R0", "W0", "R1", "W1", "A0+1",
                                      "W0", "R0", "D1", "L",  "|"};
  std::string S;
  for (unsigned I = 0, N = Rng() % (Max + 1); I < N; ++I)
    S += std::string(Kinds[Rng() % std::size(Kinds)]) + " ";
  return S;
}

inline AbstractProgram make(Shape S, std::mt19937 &Rng) {
  ProgramBuilder B;
  switch (S) {
  case Shape::Straight:
    B.block(events(Rng, 8));
    break;
  case Shape::Diamond: {
    unsigned E = B.block(events(Rng, 2)), T = B.block(events(Rng, 2), 0.5),
             F = B.block(events(Rng, 2), 0.5), J = B.block(events(Rng, 2));
    B.edge(E, T);
    B.edge(E, F);
    B.edge(T, J);
    B.edge(F, J);
    break;
  }
  case Shape::Loop: {
    unsigned P = B.block(events(Rng, 2)), L = B.block(events(Rng, 5), 8),
             X = B.block(events(Rng, 2));
    B.selfLoop(P, L, X);
    break;
  }
  case Shape::Nested: {
    unsigned P = B.block(events(Rng, 1)), H = B.block(events(Rng, 2), 4),
             I = B.block(events(Rng, 2), 16), T = B.block(events(Rng, 2), 4),
             X = B.block(events(Rng, 1));
    B.edge(P, H);
    B.selfLoop(H, I, T);
    B.edge(T, H);
    B.edge(T, X);
    break;
  }
  case Shape::MultiBackEdge: {
    unsigned P = B.block(events(Rng, 1)), H = B.block(events(Rng, 2), 8),
             A = B.block(events(Rng, 2), 4), C = B.block(events(Rng, 2), 4),
             X = B.block(events(Rng, 1));
    B.edge(P, H);
    B.edge(H, A);
    B.edge(H, C);
    B.edge(A, H);
    B.edge(C, H);
    B.edge(C, X);
    break;
  }
  case Shape::Irreducible: {
    unsigned E = B.block(events(Rng, 2)), A = B.block(events(Rng, 2), 4),
             C = B.block(events(Rng, 2), 4), X = B.block(events(Rng, 1));
    B.ifThen(E, A, C);
    B.edge(C, A);
    B.edge(C, X);
    break;
  }
  }
  return B.program();
}

constexpr Shape AllShapes[] = {Shape::Straight,      Shape::Diamond,
                               Shape::Loop,          Shape::Nested,
                               Shape::MultiBackEdge, Shape::Irreducible};

} // namespace test
} // namespace ldsbarriers
} // namespace llvm

#endif
