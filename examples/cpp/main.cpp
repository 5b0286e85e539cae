// imcts from C++17: the same game as examples/c/play.c (the test compares the transcripts),
// through the RAII wrapper of engine.hpp, plus error paths as exceptions. Built and run by
// ffi/tests/hosts.rs with g++ -std=c++17 -Wall -Wextra -Werror -pedantic -fsanitize=...
#include "imcts.h"
#include "engine.hpp"

#include <cstdio>
#include <string>

using imcts_example::Engine;
using imcts_example::imcts_error;

static int failures = 0;

static void expect_error(imcts_status want, void (*f)()) {
  try {
    f();
    std::fprintf(stderr, "expected %s, got success\n", imcts_status_str(want));
    failures++;
  } catch (const imcts_error &e) {
    if (e.status() != want) {
      std::fprintf(stderr, "expected %s, got %s\n", imcts_status_str(want), e.what());
      failures++;
    }
  }
}

int main() {
  std::printf("imcts %s (abi %u)\n", imcts_version(), static_cast<unsigned>(imcts_abi_version()));
  try {
    const char *specs[2] = {"mcts(ipp,im0.4,reuse)", "mcts(ipp,reuse)"};
    Engine players[2] = {Engine(IMCTS_GAME_BREAKTHROUGH, 20000),
                         Engine(IMCTS_GAME_BREAKTHROUGH, 20000)};
    imcts_config configs[2] = {imcts_example::parse_spec(IMCTS_GAME_BREAKTHROUGH, specs[0]),
                               imcts_example::parse_spec(IMCTS_GAME_BREAKTHROUGH, specs[1])};
    imcts_budget budget{};
    budget.simulations = 300;
    for (int ply = 0; ply < 16; ply++) {
      imcts_outcome outcome = 0;
      std::uint32_t side = 0;
      imcts_example::check(imcts_engine_outcome(players[0].get(), &outcome));
      if (outcome != IMCTS_OUTCOME_ONGOING) break;
      imcts_example::check(imcts_engine_side_to_move(players[0].get(), &side));
      imcts_result r = players[side].search(configs[side], budget);
      std::printf("ply %2d %s %-6s value %+.3f sims %llu nodes %llu\n", ply + 1, specs[side],
                  r.best_move, r.value, static_cast<unsigned long long>(r.simulations),
                  static_cast<unsigned long long>(r.nodes));
      for (Engine &p : players) p.play(r.best_move);
    }
    std::printf("final %s\n", players[0].position().c_str());
    std::size_t count = 0;
    players[0].legal_moves(&count);
    if (count == 0) failures++;
  } catch (const imcts_error &e) {
    std::fprintf(stderr, "unexpected error: %s\n", e.what());
    return 1;
  }

  expect_error(IMCTS_STATUS_UNKNOWN_GAME, [] { Engine e(9, 10); });
  expect_error(IMCTS_STATUS_ILLEGAL_MOVE, [] {
    Engine e(IMCTS_GAME_BREAKTHROUGH, 10);
    e.play("a7-a6");
  });
  expect_error(IMCTS_STATUS_BAD_MOVE, [] {
    Engine e(IMCTS_GAME_BREAKTHROUGH, 10);
    e.play("hello");
  });
  expect_error(IMCTS_STATUS_BAD_SPEC,
               [] { imcts_example::parse_spec(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,"); });
  expect_error(IMCTS_STATUS_NOTHING_TO_UNDO, [] {
    Engine e(IMCTS_GAME_KALAH, 10);
    imcts_example::check(imcts_engine_undo(e.get()));
  });
  if (failures) {
    std::printf("%d checks failed\n", failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
