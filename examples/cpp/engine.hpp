// A small RAII wrapper over the imcts C ABI: the engine's memory is a std::unique_ptr block,
// and a failed call throws imcts_error with the status. Its functions live in engine.cpp, a
// second translation unit including imcts.h (the header must work when included twice in one
// program).
#pragma once

#include "imcts.h"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace imcts_example {

// A non-OK status as an exception.
class imcts_error : public std::runtime_error {
 public:
  explicit imcts_error(imcts_status status);
  imcts_status status() const { return status_; }

 private:
  imcts_status status_;
};

// Throws imcts_error unless `status` is IMCTS_STATUS_OK.
void check(imcts_status status);

// An engine owning its memory.
class Engine {
 public:
  Engine(imcts_game game, std::size_t nodes);
  imcts_engine *get() const { return engine_; }
  std::string position() const;
  std::string legal_moves(std::size_t *count) const;
  void play(const std::string &move);
  imcts_result search(const imcts_config &config, const imcts_budget &budget);

 private:
  std::unique_ptr<unsigned char[]> block_;
  imcts_engine *engine_ = nullptr;
};

// Parses a player spec for `game`.
imcts_config parse_spec(imcts_game game, const std::string &spec);

}  // namespace imcts_example
