// The smallest C++ consumer of imcts: one engine, one search, the best move printed.
#include "imcts.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  const std::size_t nodes = 10000;
  std::size_t size = 0, align = 0;
  if (imcts_engine_size(IMCTS_GAME_BREAKTHROUGH, nodes, &size) || imcts_engine_align(&align)) return 1;
  std::vector<unsigned char> memory(size + align);
  void *aligned = memory.data() + (align - reinterpret_cast<std::uintptr_t>(memory.data()) % align) % align;
  imcts_engine *engine = nullptr;
  imcts_config config;
  imcts_budget budget{};
  imcts_result result;
  budget.simulations = 1000;
  const char *spec = "mcts(ipp,im0.4)";
  imcts_status st = imcts_engine_init(aligned, size, IMCTS_GAME_BREAKTHROUGH, nodes, &engine);
  if (!st) st = imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, spec, std::strlen(spec), &config);
  if (!st) st = imcts_engine_search(engine, &config, &budget, &result);
  if (st) {
    std::fprintf(stderr, "imcts: %s\n", imcts_status_str(st));
    return 1;
  }
  std::printf("bestmove %s (value %+.3f, %llu simulations)\n", result.best_move, result.value,
              static_cast<unsigned long long>(result.simulations));
  return 0;
}
